#!/bin/sh
# t_gen_udp: hoplab-gen's modes udp and tcp through one Linux router, with
# kernel addresses on every interface (the kernel routes), on a lab of its
# own (namespace prefix "hlgu-", no management network, so no K):
#
#   hlgu-s 198.18.50.1/24 s0 ---- r0 198.18.50.2/24 :hlgu-r: r1 198.18.51.1/24
#                                       ---- d0 198.18.51.2/24 hlgu-d
#
# 1. udp: two flows (500 x 128 B at 1 ms, EF; 300 x 256 B at 2 ms, BE)
#    from hlgu-s to a receiver in hlgu-d.  The router drops every 100th
#    probe (nft "numgen inc mod 100 == 0", matched on the probe magic so
#    the sender's control datagrams pass): the receiver's lost packets
#    equal the rule's counter exactly (8), its sent counts come from the
#    sender's end message (500 and 300), the EF counter in the router
#    equals flow 1's 500, every delay is > 0, the clock is named
#    same-host and the stamps kernel-sw on both sides.
# 2. --json on both sides agrees (sent 800 = 500 + 300, lost 8).
# 3. A receiver that hears nothing ends after --wait and says the end
#    message never came; bad command lines exit 1 naming the option.
# 4. tcp: a 20 MB transfer completes; the receiver read exactly what the
#    sender wrote, the sender heard that count back, and each side's
#    interval rows add up to its total.
#
# Run as root from the repository root.  The namespaces go away on exit.
set -u
# wait_for and friends only: this scenario has its own pass/fail below
# and its own namespaces, not lib.sh's lab.
. "$(dirname "$0")/lib.sh"
S=hlgu-s
R=hlgu-r
D=hlgu-d
BIN=${HL_BIN:-bin}/hoplab-gen
TMP=$(mktemp -d /tmp/hoplab-t-gudp.XXXXXX)
FAILS=0
RPID=

cleanup() {
	[ -n "$RPID" ] && kill "$RPID" 2>/dev/null
	ip netns del "$S" 2>/dev/null
	ip netns del "$R" 2>/dev/null
	ip netns del "$D" 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'echo "FAIL t_gen_udp: interrupted"; exit 1' INT TERM HUP

pass() { echo "PASS t_gen_udp: $*"; }
fail() { echo "FAIL t_gen_udp: $*"; FAILS=$((FAILS + 1)); }
bail() { fail "$*"; exit 1; }
in_s() { ip netns exec "$S" "$@"; }
in_r() { ip netns exec "$R" "$@"; }
in_d() { ip netns exec "$D" "$@"; }

lab_up() {
	ip netns add "$S" && ip netns add "$R" && ip netns add "$D" &&
	ip link add name s0 netns "$S" type veth peer name r0 netns "$R" &&
	ip link add name r1 netns "$R" type veth peer name d0 netns "$D" &&
	in_s ip link set dev lo up && in_r ip link set dev lo up &&
	in_d ip link set dev lo up &&
	in_s ip addr add 198.18.50.1/24 dev s0 && in_s ip link set s0 up &&
	in_r ip addr add 198.18.50.2/24 dev r0 && in_r ip link set r0 up &&
	in_r ip addr add 198.18.51.1/24 dev r1 && in_r ip link set r1 up &&
	in_d ip addr add 198.18.51.2/24 dev d0 && in_d ip link set d0 up &&
	in_s ip route add default via 198.18.50.2 &&
	in_d ip route add default via 198.18.51.1 &&
	in_r sh -c 'echo 1 > /proc/sys/net/ipv4/ip_forward' && nft_rule
}

# Probes carry "HL" (0x484c) at the start of the UDP payload.
nft_rule() {
	in_r nft delete table ip hlgu 2>/dev/null
	in_r nft -f - <<'NFT'
table ip hlgu {
	chain drop100 {
		type filter hook forward priority 0;
		udp dport 9000 ip dscp ef counter
		udp dport 9000 @th,64,16 0x484c numgen inc mod 100 == 0 counter drop
	}
}
NFT
}

counter() {	# counter N: the N-th counter of the table
	in_r nft list table ip hlgu |
	    sed -n 's/.*counter packets \([0-9]*\) .*/\1/p' | sed -n "$1p"
}

# recv OUT ARGS...: a receiver in hlgu-d, in the background.
recv() {
	out=$1
	shift
	timeout -s INT 60 ip netns exec "$D" "$BIN" --mode udp --role recv \
	    --listen 198.18.51.2:9000 "$@" >"$out" 2>"$out.err" &
	RPID=$!
	wait_listen 5 "$D" 9000 udp ||
	    bail udp_receiver "no receiver on 9000: $(cat "$out.err")"
}

send() {
	out=$1
	shift
	timeout -s INT 60 ip netns exec "$S" "$BIN" --mode udp --role send \
	    --dst 198.18.51.2:9000 "$@" >"$out" 2>"$out.err"
}

FLOWS="--flow frame=128,count=500,idt=1ms,dscp=EF,name=voice
    --flow frame=256,count=300,idt=2ms,name=data"

check_udp_text() {
	recv "$TMP/r.txt" --drain 300ms
	# shellcheck disable=SC2086
	send "$TMP/s.txt" $FLOWS || { cat "$TMP/s.txt.err"; bail "sender failed"; }
	wait "$RPID" || { cat "$TMP/r.txt.err"; RPID=; bail "receiver failed"; }
	RPID=
	lost=$(awk '/^Packets per flow/ { getline; getline; a = $6; getline;
	    print a + $6; exit }' "$TMP/r.txt")
	sent=$(awk '/^Packets per flow/ { getline; getline; a = $4; getline;
	    print a "," $4; exit }' "$TMP/r.txt")
	drops=$(counter 2)
	ef=$(counter 1)
	if [ "$lost" = 8 ] && [ "$drops" = 8 ] && [ "$sent" = 500,300 ]; then
		pass "receiver lost $lost = nft counter $drops; sent $sent from the end message"
	else
		sed 's/^/    /' "$TMP/r.txt" "$TMP/r.txt.err"
		fail "expected lost 8 = counter, sent 500,300; got lost '$lost' counter '$drops' sent '$sent'"
	fi
	[ "$ef" = 500 ] && pass "EF counter in the router $ef = flow voice's 500" ||
	    fail "EF counter '$ef', expected 500 (IP_TOS per packet)"
	mins=$(awk '/^One-way delay/ { getline; getline; a = $3; getline;
	    print a " " $3; exit }' "$TMP/r.txt")
	if echo "$mins" | awk '{ exit !($1 > 0 && $2 > 0 && $1 < 10000) }' &&
	    grep -q "^One-way delay.*tx=kernel-sw,rx=kernel-sw" "$TMP/r.txt" &&
	    grep -q "clock_sync=same-host" "$TMP/r.txt"; then
		pass "delay min (us) $mins > 0, kernel-sw stamps, clock_sync=same-host"
	else
		sed 's/^/    /' "$TMP/r.txt"
		fail "delay/stamps/clock: min '$mins'"
	fi
	if grep -q "^Transmit pacing" "$TMP/s.txt" &&
	    grep -q "timestamps tx=kernel-sw,rx=none" "$TMP/s.txt"; then
		pass "sender reports pacing from kernel tx stamps"
	else
		sed 's/^/    /' "$TMP/s.txt"
		fail "sender output lacks pacing or kernel stamps"
	fi
}

jnum() {	# jnum KEY FILE: every value of "KEY":N, one a line
	tr ',{}[]' '\n\n\n\n\n' <"$2" | sed -n "s/^\"$1\":\\(-*[0-9.]*\\)\$/\\1/p"
}

check_udp_json() {
	nft_rule
	recv "$TMP/rj.json" --drain 300ms --json
	# shellcheck disable=SC2086
	send "$TMP/sj.json" $FLOWS --json || bail "sender --json failed"
	wait "$RPID" || { RPID=; bail "receiver --json failed"; }
	RPID=
	# "sent" appears per flow and per interval: the flow values first.
	rs=$(jnum sent "$TMP/rj.json" | awk '{ s += $1 } END { print s }')
	ss=$(jnum sent "$TMP/sj.json" | awk '{ s += $1 } END { print s }')
	rl=$(jnum lost "$TMP/rj.json" | awk '{ s += $1 } END { print s }')
	# Each of those sums counts flows and intervals: halve.
	if [ "$rs" = 1600 ] && [ "$ss" = 1600 ] && [ "$rl" = 16 ] &&
	    grep -q '"clock_sync":"same-host"' "$TMP/rj.json"; then
		pass "--json: 800 sent on both sides, 8 lost (flows and intervals agree)"
	else
		fail "--json: sums sent $rs/$ss lost $rl (flows + intervals), expected 1600/1600/16"
	fi
}

check_edges() {
	timeout 10 ip netns exec "$D" "$BIN" --mode udp --role recv \
	    --listen 198.18.51.2:9001 --wait 300ms >"$TMP/w.txt" 2>&1
	if [ $? = 0 ] && grep -q "end message never came" "$TMP/w.txt"; then
		pass "a receiver without a sender ends after --wait and says why"
	else
		sed 's/^/    /' "$TMP/w.txt"
		fail "--wait did not end the idle receiver cleanly"
	fi
	"$BIN" --mode udp --role send --flow frame=64,count=1,idt=1ms \
	    >"$TMP/u.txt" 2>&1
	rc=$?
	"$BIN" --mode udp --role send --dst 198.18.51.2:9000 --tx s0 \
	    --flow frame=64,count=1,idt=1ms >>"$TMP/u.txt" 2>&1
	rc2=$?
	if [ $rc = 1 ] && [ $rc2 = 1 ] && grep -q "^hoplab-gen: --dst: expected IP:PORT" \
	    "$TMP/u.txt" && grep -q "^hoplab-gen: --tx: only for --mode l2" \
	    "$TMP/u.txt"; then
		pass "bad udp command lines exit 1 naming the option"
	else
		sed 's/^/    /' "$TMP/u.txt"
		fail "bad udp command lines: exit $rc/$rc2"
	fi
}

check_tcp() {
	timeout -s INT 60 ip netns exec "$D" "$BIN" --mode tcp --role recv \
	    --listen 198.18.51.2:5201 --interval 100ms --json \
	    >"$TMP/tr.json" 2>"$TMP/tr.err" &
	RPID=$!
	wait_listen 5 "$D" 5201 ||
	    bail tcp_receiver "no receiver on 5201: $(cat "$TMP/tr.err")"
	timeout -s INT 60 ip netns exec "$S" "$BIN" --mode tcp --role send \
	    --dst 198.18.51.2:5201 --bytes 20000000 --interval 100ms --json \
	    >"$TMP/ts.json" 2>"$TMP/ts.err" || { cat "$TMP/ts.err"; bail "tcp sender failed"; }
	wait "$RPID" || { cat "$TMP/tr.err"; RPID=; bail "tcp receiver failed"; }
	RPID=
	sb=$(jnum bytes "$TMP/ts.json" | head -n 1)
	rb=$(jnum bytes "$TMP/tr.json" | head -n 1)
	pb=$(jnum peer_bytes "$TMP/ts.json")
	srow=$(jnum bytes "$TMP/ts.json" | awk 'NR > 1 { s += $1 } END { print s }')
	rrow=$(jnum bytes "$TMP/tr.json" | awk 'NR > 1 { s += $1 } END { print s }')
	if [ "$sb" = 20000000 ] && [ "$rb" = 20000000 ] && [ "$pb" = 20000000 ]; then
		pass "tcp: sender wrote $sb, receiver read $rb, sender heard $pb"
	else
		fail "tcp: bytes sent '$sb' read '$rb' heard '$pb', expected 20000000"
	fi
	if [ "$srow" = "$sb" ] && [ "$rrow" = "$rb" ] &&
	    grep -q '"ended_by":"bytes"' "$TMP/ts.json" &&
	    grep -q '"ended_by":"peer"' "$TMP/tr.json"; then
		pass "tcp: interval rows add up to the totals on both sides"
	else
		fail "tcp: rows $srow/$rrow against totals $sb/$rb"
	fi
}

[ "$(id -u)" = 0 ] || bail "needs root (network namespaces)"
[ -x "$BIN" ] || bail "$BIN missing: run make first"
lab_up || bail "cannot build the lab"
check_udp_text
check_udp_json
check_edges
check_tcp
[ "$FAILS" = 0 ] || exit 1
