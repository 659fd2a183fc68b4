#!/bin/sh
# t_nat_hoplab: hoplab-router's source NAT (router/nat.c, docs/router.md
# "NAT") on a namespace lab of its own (prefix hlnh, router_lab.sh, no
# agents):
#
#   H1 eth0 -- in1 [R] out -- eth0 X
#   H2 eth0 -- in2
#
#   H1 198.18.20.2/24, H2 198.18.21.2/24 (default via R), R (hoplab-router)
#   in1 198.18.20.1/24, in2 198.18.21.1/24, out 198.18.22.1/24 with
#   `nat: {interface: out}`, X 198.18.22.2/24 with no route to the inside:
#   only translated traffic can be answered.
#
# 1. From both inside hosts, with the same source ports: 3 UDP datagrams
#    (port 5000) to X's echo server, one TCP connection (port 5001) that
#    sends a line and reads it back, and 3 pings.  Every echo, TCP line
#    and ping reply comes back to the host that sent it (the payload
#    names the host).  X's server saw only 198.18.22.1, with a different
#    port for each host; tcpdump at X saw no inside address at all; the
#    router's table holds 6 entries (2 UDP, 2 TCP, 2 ICMP: one per
#    connection), created 6, and its translated_out / translated_in equal
#    the IPv4 packets the capture saw from / to 198.18.22.1.
# 2. R restarted with address 198.18.22.9 (not its own: it answers ARP
#    for it on out), ports 3000..3001 and every timeout 2 s: 3 UDP
#    connections from H1; two are answered from 198.18.22.9 ports 3000
#    and 3001, the third is refused
#    (drop_exhausted 1, X never saw it), the router keeps running; two
#    stray datagrams from X (wrong remote port, unused port) are dropped
#    as drop_no_entry while pings to R's own address are answered; the
#    two entries are still there at once and gone within 2 s + 3 s
#    (expired 2, active 0); then the third connection gets a port.
# Run as root; tests/integration/run.sh does.  About 5 s.
set -u
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/router_lab.sh"

need_root
[ -x "$HL_BIN/hoplab-router" ] ||
    bail hoplab_router_built "$HL_BIN/hoplab-router is missing (make)"
for t in python3 tcpdump ping; do
	command -v $t >/dev/null 2>&1 || bail "tool_$t" "$t is missing"
done

rl_init hlnh || bail rl_init "cannot make a temporary folder"
at_exit rl_down
T=$RL_TMP

rl_ns H1 && rl_ns H2 && rl_ns R && rl_ns X &&
    rl_veth H1 eth0 R in1 && rl_veth H2 eth0 R in2 && rl_veth R out X eth0 &&
    rl_addr H1 eth0 198.18.20.2/24 && rl_route H1 default via 198.18.20.1 &&
    rl_addr H2 eth0 198.18.21.2/24 && rl_route H2 default via 198.18.21.1 &&
    rl_addr X eth0 198.18.22.2/24 || bail lab "could not build the lab"

# The peers: X's UDP (9000) and TCP (9001) echo server, which logs every
# peer address, and the inside hosts' clients, which print how many
# answers came back with their own payload.
cat >"$T/peer.py" <<'EOF'
import socket, sys, threading
mode = sys.argv[1]
if mode == "server":
    log = open(sys.argv[2], "a", buffering=1)
    u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    u.bind(("0.0.0.0", 9000))
    t = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    t.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    t.bind(("0.0.0.0", 9001))
    t.listen(8)
    def tcp():
        while True:
            c, a = t.accept()
            log.write("tcp %s %d\n" % a)
            c.sendall(c.recv(100))
            c.close()
    threading.Thread(target=tcp, daemon=True).start()
    while True:
        d, a = u.recvfrom(2000)
        log.write("udp %s %d\n" % a)
        u.sendto(d, a)
sport, tag = int(sys.argv[2]), sys.argv[3]
ok = 0
if mode == "udp":
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("0.0.0.0", sport))
    s.settimeout(float(sys.argv[5]) if len(sys.argv) > 5 else 1.0)
    for i in range(int(sys.argv[4])):
        msg = ("%s-%d" % (tag, i)).encode()
        s.sendto(msg, ("198.18.22.2", 9000))
        try:
            ok += s.recv(2000) == msg
        except socket.timeout:
            pass
else:
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind(("0.0.0.0", sport))
    s.settimeout(3.0)
    s.connect(("198.18.22.2", 9001))
    s.sendall(tag.encode())
    ok = s.recv(100) == tag.encode()
    s.close()
print(int(ok))
EOF
rl_bg X "$T/server.out" python3 "$T/peer.py" server "$T/server.log"
wait_listen 5 "$RL_P-X" 9001 && wait_listen 5 "$RL_P-X" 9000 udp ||
    bail server "X's echo server does not listen"
rl_bg X "$T/tcpdump.err" tcpdump -i eth0 -nn -U -w "$T/x.pcap" ip
TCPDUMP=$RL_LAST
wait_log 5 "listening on" "$T/tcpdump.err" || bail tcpdump "not capturing"

# nat_ctr KEY: one of the router's NAT counters (the dump's "nat" line).
nat_ctr()
{
	rl_ctl R counters 2>/dev/null | awk -v k="$1" '
	$1 == "nat" { for (i = 2; i < NF; i++) { f = $i; sub(/,$/, "", f)
		if (f == k) { v = $(i + 1); sub(/,$/, "", v); print v } } }'
}
# cap EXPR: IPv4 packets in X's capture matching the pcap filter EXPR.
cap()
{
	tcpdump -nn -r "$T/x.pcap" "$1" 2>/dev/null | wc -l | tr -d ' '
}
conf()
{
	cat >"$T/R.yaml" <<EOF
# t_nat_hoplab: router R
interfaces:
  - {name: in1, address: 198.18.20.1/24}
  - {name: in2, address: 198.18.21.1/24}
  - {name: out, address: 198.18.22.1/24}
nat: {interface: out$1}
EOF
}

# ---------------------------------------------------------------- 1
conf ""
rl_router R "$T/R.yaml" || bail router_started "hoplab-router R"
CLIENTS=
for h in H1 H2; do
	rl_in $h python3 "$T/peer.py" udp 5000 "$h" 3 >"$T/$h.udp" 2>&1 &
	CLIENTS="$CLIENTS $!"
	rl_in $h python3 "$T/peer.py" tcp 5001 "$h" >"$T/$h.tcp" 2>&1 &
	CLIENTS="$CLIENTS $!"
	rl_in $h ping -n -c 3 -i 0.2 -W 2 198.18.22.2 >"$T/$h.ping" 2>&1 &
	CLIENTS="$CLIENTS $!"
done
for c in $CLIENTS; do	# each ends by itself within its 3 s timeouts
	wait "$c"
done
for h in H1 H2; do
	assert_eq "udp_echoes_back_to_$h" 3 "$(cat "$T/$h.udp")"
	assert_eq "tcp_line_back_to_$h" 1 "$(cat "$T/$h.tcp")"
	assert_match "ping_replies_back_to_$h" "3 received" "$(cat "$T/$h.ping")"
done
assert_eq server_saw_only_the_nat_address "198.18.22.1" \
    "$(awk '{ print $2 }' "$T/server.log" | sort -u | tr '\n' ' ' |
    sed 's/ $//')"
assert_eq server_saw_two_udp_ports 2 \
    "$(awk '$1 == "udp" { print $3 }' "$T/server.log" | sort -u | wc -l |
    tr -d ' ')"
assert_eq server_saw_two_tcp_ports 2 \
    "$(awk '$1 == "tcp" { print $3 }' "$T/server.log" | sort -u | wc -l |
    tr -d ' ')"
assert_eq active_one_entry_per_connection 6 "$(nat_ctr active)"
assert_eq created_6 6 "$(nat_ctr created)"
# The last TCP segments may still be on their way: wait until the router's
# counts and the capture's agree, then check them.
counts_agree()
{
	[ "$(nat_ctr translated_out)" = "$(cap 'src host 198.18.22.1')" ] &&
	    [ "$(nat_ctr translated_in)" = "$(cap 'dst host 198.18.22.1')" ]
}
wait_for 5 "NAT counters equal the capture" counts_agree
rl_ctl R counters 2>/dev/null | grep '^nat' | sed 's/^/  R: /'
OUT=$(cap 'src host 198.18.22.1')
IN=$(cap 'dst host 198.18.22.1')
assert_eq translated_out_equals_capture "$OUT" "$(nat_ctr translated_out)"
assert_eq translated_in_equals_capture "$IN" "$(nat_ctr translated_in)"
assert_ge capture_has_the_traffic "$OUT" 20
assert_eq no_inside_address_at_X 0 "$(cap 'net 198.18.20.0/23')"
assert_eq no_drop_no_entry 0 "$(nat_ctr drop_no_entry)"
assert_eq no_drop_exhausted 0 "$(nat_ctr drop_exhausted)"

# ---------------------------------------------------------------- 2
rl_stop "$RL_PID_R"
conf ", address: 198.18.22.9, port_min: 3000, port_max: 3001, udp_timeout: 2s, icmp_timeout: 2s, tcp_timeout: 2s, tcp_transitory: 2s"
rl_router R "$T/R.yaml" || bail router_restarted "hoplab-router R"
SEEN=$(wc -l <"$T/server.log")
for p in 6001 6002 6003; do
	rl_in H1 python3 "$T/peer.py" udp $p "p$p" 1 0.3 >"$T/u$p" 2>&1
done
assert_eq exhausted_drop_counted 1 "$(nat_ctr drop_exhausted)"
assert_eq two_entries_while_fresh 2 "$(nat_ctr active)"
assert_eq first_two_answered "1 1 0" \
    "$(cat "$T/u6001" "$T/u6002" "$T/u6003" | tr '\n' ' ' | sed 's/ $//')"
assert_eq x_saw_two_of_the_three $((SEEN + 2)) "$(wc -l <"$T/server.log")"
assert_eq from_198.18.22.9_ports_3000_and_3001 \
    "198.18.22.9:3000 198.18.22.9:3001" \
    "$(tail -n 2 "$T/server.log" | awk '{ print $2 ":" $3 }' | sort |
    tr '\n' ' ' | sed 's/ $//')"
assert_ok router_still_running kill -0 "$RL_PID_R"
# Strays from outside: to an entry's port from the wrong remote port, and
# to a port no entry holds; both dropped and counted.  The router's own
# address still answers pings.
rl_in X python3 -c 'import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("0.0.0.0", 9999))
s.sendto(b"x", ("198.18.22.9", 3000))
s.sendto(b"x", ("198.18.22.9", 3500))'
two_strays() { [ "$(nat_ctr drop_no_entry)" = 2 ]; }
wait_for 3 "two strays counted" two_strays
assert_eq strays_drop_no_entry 2 "$(nat_ctr drop_no_entry)"
assert_match router_still_answers_pings "1 received" \
    "$(rl_in X ping -n -c 1 -W 2 198.18.22.1 2>&1)"
active_zero() { [ "$(nat_ctr active)" = 0 ]; }
wait_for 5 "entries expire after 2 s" active_zero
assert_eq expired_after_timeout 0 "$(nat_ctr active)"
assert_eq expired_counts_them 2 "$(nat_ctr expired)"
rl_in H1 python3 "$T/peer.py" udp 6003 "again" 1 >"$T/u6003b" 2>&1
assert_eq port_free_again_after_expiry 1 "$(cat "$T/u6003b")"
assert_eq created_3 3 "$(nat_ctr created)"

rl_stop "$TCPDUMP"
finish
