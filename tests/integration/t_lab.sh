#!/bin/sh
#
# t_lab: the namespace lab itself (deploy/lab.sh), as docs/architecture.md
# describes it: lab hlt1 on 198.19.251.0/24.
#
# Checks that `up` makes one namespace per host with its management address
# and a listening agent, that the controller's side (the root namespace)
# reaches every agent, that the inventory names them, that `wire N` for
# N = 1..3 leaves exactly the chain gen:tx -> R1 .. RN -> gen:rx (each veth
# end in the right namespace, joined to the right peer, up, without IPv6),
# that `down` leaves nothing and may run twice, and that `down` cleans up
# after a crash (an agent killed, the state folder gone).
#
# Uses bin/hoplab-agent; before that program exists it falls back to a
# stand-in that only listens, and says so.  No test traffic is sent.

. "$(dirname "$0")/lib.sh"

need_root
lab_init hlt1 251
P=$LAB_PREFIX
HOSTS="gen A B C"

if [ ! -x "$HL_BIN/hoplab-agent" ]; then
	echo "  note: $HL_BIN/hoplab-agent not built; using a stand-in listener"
	HL_BIN=$(mktemp -d /tmp/hoplab-t_lab.XXXXXX)
	at_exit "rm -rf '$HL_BIN'"
	cat >"$HL_BIN/hoplab-agent" <<'EOF'
#!/usr/bin/python3
import socket, sys, time
h, p = sys.argv[sys.argv.index("-l") + 1].rsplit(":", 1)
s = socket.socket()
s.bind((h, int(p)))
s.listen(4)
time.sleep(600)
EOF
	chmod +x "$HL_BIN/hoplab-agent"
fi

# The data interfaces of host H, sorted, on one line ("" when none).
data_ifs()
{
	ip -n "$P-$1" -o link show | awk -F': ' '{ sub(/@.*/, "", $2); print $2 }' |
	    grep -E '^(tx|rx|in|out)$' | sort | tr '\n' ' ' | sed 's/ $//'
}

# "NS:IF" at the other end of veth IF in host H, or "?".
peer_of()
{
	_line=$(ip -n "$P-$1" -o link show dev "$2" 2>/dev/null)
	_idx=$(echo "$_line" | sed -n "s/^[0-9]*: $2@if\([0-9]*\):.*/\1/p")
	_ns=$(echo "$_line" | sed -n 's/.* link-netns \([^ ]*\).*/\1/p')
	_pif=$(ip -n "$_ns" -o link show 2>/dev/null |
	    awk -F': ' -v i="$_idx" '$1 == i { sub(/@.*/, "", $2); print $2 }')
	[ -n "$_ns" ] && [ -n "$_pif" ] && echo "$_ns:$_pif" || echo "?"
}

# Check the wiring of the first N routers of A B C.
check_wire()
{
	_n=$1
	lab_wire "$_n" || return
	set -- A B C
	_expect=gen:tx
	_i=0
	for _r in "$@"; do
		[ $_i -lt "$_n" ] && _expect="$_expect -> $_r"
		_i=$((_i + 1))
	done
	assert_eq "wire${_n}_prints_path" "$_expect -> gen:rx" "$LAB_WIRED"
	assert_eq "wire${_n}_gen_has_tx_rx" "rx tx" "$(data_ifs gen)"
	_i=0
	_prev=$P-gen:tx
	for _r in "$@"; do
		_i=$((_i + 1))
		if [ $_i -gt "$_n" ]; then
			assert_eq "wire${_n}_${_r}_unwired" "" "$(data_ifs "$_r")"
			continue
		fi
		assert_eq "wire${_n}_${_r}_has_in_out" "in out" "$(data_ifs "$_r")"
		assert_eq "wire${_n}_${_r}_in_peer" "$_prev" "$(peer_of "$_r" in)"
		_prev=$P-$_r:out
	done
	assert_eq "wire${_n}_rx_peer" "$_prev" "$(peer_of gen rx)"
	for _h in $HOSTS; do
		for _if in $(data_ifs "$_h"); do
			_flags=$(ip -n "$P-$_h" -o link show dev "$_if" |
			    sed -n 's/^[^<]*<\([^>]*\)>.*/\1/p')
			assert_match "wire${_n}_${_h}_${_if}_up" '(^|,)UP(,|$)' \
			    "$_flags"
			assert_eq "wire${_n}_${_h}_${_if}_no_ipv6" 1 "$(in_host "$_h" \
			    cat "/proc/sys/net/ipv6/conf/$_if/disable_ipv6")"
			assert_eq "wire${_n}_${_h}_${_if}_no_address" "" \
			    "$(ip -n "$P-$_h" -o addr show dev "$_if")"
		done
	done
}

# True when PID has exited (gone, or a zombie not yet reaped).
pid_gone()
{
	[ ! -r "/proc/$1/stat" ] ||
	    [ "$(sed 's/.*) //' "/proc/$1/stat" | cut -d' ' -f1)" = Z ]
}

# Nothing of lab hlt1 may be left on the machine.
check_gone()
{
	assert_eq "${1}_no_namespaces" "" \
	    "$(ip netns list | awk '{ print $1 }' | grep "^$P-")"
	assert_fails "${1}_no_bridge" ip link show dev "$P-mgmt"
	assert_eq "${1}_no_mgmt_veths" "" \
	    "$(ip -o link show | awk -F': ' '{ print $2 }' | grep "^$P-m-")"
	assert_fails "${1}_no_state" test -e "$LAB_STATE"
}

lab_up
for _h in $HOSTS; do
	assert_ok "namespace_$_h" test -e "/run/netns/$P-$_h"
done
_i=0
for _h in $HOSTS; do
	_a=$(lab_addr $_i)
	_i=$((_i + 1))
	assert_eq "mgmt_address_$_h" "$_a/24" "$(ip -n "$P-$_h" -o -4 addr \
	    show dev mgmt0 | awk '{ print $4 }')"
	assert_ok "ping_agent_$_h" ping -n -c 1 -W 1 "$_a"
	assert_match "agent_listens_$_h" "$_a:7700" \
	    "$(in_host "$_h" ss -Hltn)"
	assert_eq "ipv6_off_$_h" 1 \
	    "$(in_host "$_h" cat /proc/sys/net/ipv6/conf/default/disable_ipv6)"
	assert_match "inventory_has_$_h" "address: $_a" \
	    "$(grep -A1 "name: $_h\$" "$LAB_STATE/inventory.yaml")"
done
assert_match inventory_names_lab "^lab: $P\$" "$(cat "$LAB_STATE/inventory.yaml")"
assert_ok bridge_address sh -c "ip -o -4 addr show dev $P-mgmt | grep -q ' 198.19.251.1/24 '"

for n in 1 2 3; do
	check_wire $n
done
assert_fails wire_rejects_4 lab_sh wire 4
assert_ok status_all_running lab_sh status

# down: nothing left, and a second down is fine.
pids=$(cat "$LAB_STATE"/*.pid)
assert_ok down lab_sh down
LAB_IS_UP=0
check_gone down
for p in $pids; do
	assert_ok "agent_${p}_stopped" pid_gone "$p"
done
assert_ok down_again lab_sh down

# Crash: an agent killed, the state folder lost; down still cleans up.
lab_up
kill -9 "$(cat "$LAB_STATE/B.pid")"
pids=$(cat "$LAB_STATE"/*.pid)
rm -rf "$LAB_STATE"
assert_ok down_after_crash lab_sh down
LAB_IS_UP=0
check_gone crash
for p in $pids; do
	assert_ok "crash_agent_${p}_stopped" pid_gone "$p"
done

finish
