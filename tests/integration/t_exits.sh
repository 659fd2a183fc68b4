#!/bin/sh
# t_exits: the exit-port cabling for concurrent variants (lab.sh
# wire --exits, docs/architecture.md "Exit ports") carries every
# variant's flow on its own path, at once.
#
# Lab hlt19 (K 211), routers A B C, wired with `wire --exits 3`: the chain
# gen:tx -> A -> B -> C, and each router's exit a port (gen:x1..x3) of
# the bridge rx in gen.  The kernel routers get, by hand, the addresses
# and routes of the table in docs/architecture.md (the controller's
# topo_router_exits() is checked against the same table by
# tests/unit/test_topo.c): variant k's prefix 198.18.(100 + k).0/24
# leaves by router k's exit to gen's 198.18.100.2.  hoplab-gen sends
# one flow per variant, 300 probes at 1 ms each, staggered by offset=,
# to 198.18.101.2, .102.2 and .103.2.
#
# Checked: `wire --exits` prints the cabling and refuses a C-gen link;
# every flow arrives whole with TTL 63, 62, 61 (1, 2, 3 routers); and
# tcpdump on each bridge port (a truth hoplab does not compute) saw
# variant k's destination on port xk only: 300 probes there, 0 on the
# others.  No timing asserted.  Root; about 15 s.
. "$(dirname "$0")/lib.sh"

need_root
lab_init hlt19 211
TMP=$(mktemp -d /tmp/hoplab-t-exits.XXXXXX)
CAPS=
at_exit "for c in \$CAPS; do kill -INT \$c 2>/dev/null; done; rm -rf '$TMP'"
lab_up A B C
G=$LAB_PREFIX-gen

if out=$(lab_sh wire --exits 3 C-gen 2>&1); then
	fail refuses_exit_splice "wire --exits accepted C-gen"
else
	assert_match refuses_exit_splice "the exits are not spliced" "$out"
fi
out=$(lab_sh wire --exits 3 2>&1) || bail wire "lab.sh wire --exits 3: $out"
assert_eq cabling_printed "wired: gen:tx -> A -> B -> C, A:exit -> gen:x1, B:exit -> gen:x2, C:exit -> gen:x3" "$out"

# addr HOST IF CIDR; route HOST PREFIX VIA
addr() { ip -n "$LAB_PREFIX-$1" addr add "$3" dev "$2" || bail addr "$*"; }
route() { ip -n "$LAB_PREFIX-$1" route add "$2" via "$3" || bail route "$*"; }
for h in A B C; do
	ip netns exec "$LAB_PREFIX-$h" sysctl -q -w net.ipv4.ip_forward=1
done
addr A in 198.18.0.2/24; addr A out 198.18.1.1/24; addr A exit 198.18.100.11/24
addr B in 198.18.1.2/24; addr B out 198.18.2.1/24; addr B exit 198.18.100.12/24
addr C in 198.18.2.2/24; addr C exit 198.18.100.13/24
route A 198.18.101.0/24 198.18.100.2
route A 198.18.102.0/24 198.18.1.2
route A 198.18.103.0/24 198.18.1.2
route B 198.18.102.0/24 198.18.100.2
route B 198.18.103.0/24 198.18.2.2
route B 198.18.0.0/24 198.18.1.1
route C 198.18.103.0/24 198.18.100.2
route C 198.18.0.0/24 198.18.2.1

for i in 1 2 3; do
	ip netns exec "$G" tcpdump -Z root -n -i "x$i" -s 96 -w "$TMP/x$i.pcap" \
	    "udp and dst port 7" 2>"$TMP/x$i.log" &
	CAPS="$CAPS $!"
done
wait_for 5 captures_listen sh -c "grep -q listening '$TMP/x1.log' &&
    grep -q listening '$TMP/x2.log' && grep -q listening '$TMP/x3.log'" ||
    bail capture "tcpdump did not start"

if ! ip netns exec "$G" timeout -s INT -k 5 30 "$HL_BIN/hoplab-gen" \
    --tx tx --rx rx --src 198.18.0.1 --dst 198.18.100.2 \
    --gateway 198.18.0.2 --drain 300ms \
    --flow "frame=64,count=300,idt=1ms,name=v1,dst=198.18.101.2" \
    --flow "frame=64,count=300,idt=1ms,name=v2,dst=198.18.102.2,offset=333us" \
    --flow "frame=64,count=300,idt=1ms,name=v3,dst=198.18.103.2,offset=666us" \
    >"$TMP/g.txt" 2>&1; then
	sed 's/^/    /' "$TMP/g.txt"
	bail gen "hoplab-gen exited non-zero"
fi
sleep 1.5
for c in $CAPS; do kill -INT "$c" 2>/dev/null; wait "$c" 2>/dev/null; done
CAPS=
row() { awk -v n="$1" '$2 == n { print $4 "/" $5 "/" $NF; exit }' "$TMP/g.txt"; }
sed -n '1,8p' "$TMP/g.txt" | sed 's/^/    /'
for k in 1 2 3; do
	assert_match "variant${k}_whole_ttl" "^300/300/$((64 - k))\$" "$(row v$k)"
done
# Port i saw destination 198.18.(100 + k).2 that many times.
seen() {
	tcpdump -n -r "$TMP/x$1.pcap" 2>/dev/null | grep -c "> 198\.18\.$((100 + $2))\.2\.7:"
}
for i in 1 2 3; do
	for k in 1 2 3; do
		want=0
		[ "$i" = "$k" ] && want=300
		assert_eq "port_x${i}_variant${k}" "$want" "$(seen $i $k)"
	done
done
finish
