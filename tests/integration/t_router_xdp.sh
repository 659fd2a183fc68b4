#!/bin/sh
# t_router_xdp: hoplab-router forwarding through its AF_XDP back end
# (io.backend xdp, router/xsk.c), on a namespace lab of its own (prefix
# hlxd, K 208 reserved; no management network, no agents):
#
#   hlxd-gen eth0 -- in X out -- in Y out -- eth0 hlxd-sink
#
#   gen eth0   198.18.0.1/24     X in  198.18.0.2   X out 198.18.1.1
#   Y in       198.18.1.2        Y out 198.18.100.1 sink eth0 198.18.100.2/24
#
# X is set to xdp in its file (io: {backend: xdp, xdp_fill: full}: every
# receive buffer in the fill ring), Y by --io xdp (the adaptive fill);
# both with io.fastpath off, so that every frame goes through the AF_XDP
# socket (the fast path has t_router_fastpath.sh).  The
# end hosts leave TCP/UDP checksums to veth's offload, which AF_XDP does
# not flag: X must recognise them (fwd_l4_csum_looks_partial) and fill
# them in.  Checks:
#
# 1. both routers run the xdp back end (their log) and the kernel shows
#    an XDP program on their interfaces (ip link: "xdp" native or
#    "xdpgeneric").
# 2. ARP through the XSK: gen's neighbour entry for 198.18.0.2 is X's MAC.
# 3. ping gen -> sink (reply TTL 64 - 2) and ping of Y's address
#    (answered by hoplab-router from its XSK).
# 4. ping -t 1: ICMP time exceeded from X, counted as ttl.
# 5. an iperf3 TCP transfer (-t 2) under tcpdump on gen:eth0 (outbound)
#    and sink:eth0 (inbound); taps on the routers' own interfaces do not
#    see frames XDP hands to the socket, so the end hosts' are used.
#    Every packet seen on both sides arrived with TTL two less, and
#    tcpdump -v finds no bad IP or TCP checksum.
# 6. both routers exit 0 on SIGTERM.
#
# When the kernel refuses an AF_XDP socket (no CONFIG_XDP_SOCKETS, no
# BPF), the scenario says why and passes with nothing checked beyond
# that refusal message.  Run as root; tests/integration/run.sh does.
# About 10 s.
set -u
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/router_lab.sh"

need_root
[ -x "$HL_BIN/hoplab-router" ] ||
    bail router_built "$HL_BIN/hoplab-router is missing (make)"
for t in ethtool iperf3 tcpdump ping; do
	command -v "$t" >/dev/null 2>&1 ||
	    bail "tool_$t" "$t is missing (sudo make deps)"
done

rl_init hlxd || bail rl_init "cannot make a temporary folder"
at_exit rl_down

# ---------------------------------------------------------------- the lab

conf()	# NAME IN_ADDR OUT_ADDR ROUTE VIA [IO]
{
	{
		echo "# t_router_xdp: router $1"
		echo "interfaces:"
		echo "  - {name: in, address: $2}"
		echo "  - {name: out, address: $3}"
		echo "routes: [{prefix: $4, via: $5}]"
		[ -z "${6:-}" ] || echo "io: {$6}"
	} >"$RL_TMP/$1.yaml"
}

for n in gen X Y sink; do
	rl_ns $n || bail lab "could not make namespace $n"
done
rl_veth gen eth0 X in && rl_veth X out Y in && rl_veth Y out sink eth0 &&
    rl_in gen ethtool -K eth0 tx on >/dev/null &&
    rl_in sink ethtool -K eth0 tx on >/dev/null &&
    rl_addr gen eth0 198.18.0.1/24 && rl_addr sink eth0 198.18.100.2/24 &&
    rl_route gen default via 198.18.0.2 &&
    rl_route sink default via 198.18.100.1 ||
    bail lab "could not build the lab"
conf X 198.18.0.2/24 198.18.1.1/24 198.18.100.0/24 198.18.1.2 \
    "backend: xdp, xdp_fill: full, fastpath: off"
conf Y 198.18.1.2/24 198.18.100.1/24 198.18.0.0/24 198.18.1.1 \
    "fastpath: off"

if ! rl_router X "$RL_TMP/X.yaml" -v 2>"$RL_TMP/X.start"; then
	if grep -q "AF_XDP" "$RL_TMP/X.log"; then
		echo "  skip: the kernel refuses AF_XDP here:"
		grep "AF_XDP" "$RL_TMP/X.log" | sed 's/^/    /'
		pass "xdp_refused_cleanly: the router said why and exited"
		finish
	fi
	sed 's/^/    /' "$RL_TMP/X.start"
	bail router_x "hoplab-router X (io.backend xdp) did not start"
fi
rl_router Y "$RL_TMP/Y.yaml" -v --io xdp ||
    bail router_y "hoplab-router Y (--io xdp) did not start"
pass "lab: gen - X - Y - sink (hoplab-router, xdp back end)"

# ---------------------------------------------------------------- 1. back end

for r in X Y; do
	modes=$(sed -n 's/.*interface \([a-z]*\): \(xdp [a-z -]*\) ring.*/\1=\2/p' \
	    "$RL_TMP/$r.log" | tr '\n' ' ')
	f=
	[ $r = Y ] || f=" full-fill"
	case $modes in
	"in=xdp native$f out=xdp native$f "|"in=xdp skb$f out=xdp skb$f ")
		pass "backend_$r: $modes" ;;
	*)	fail "backend_$r" "log does not show the xdp back end on both" \
		    "interfaces: '$modes'" ;;
	esac
	progs=$(for i in in out; do ip -n "hlxd-$r" link show "$i"; done |
	    grep -c 'prog/xdp')
	assert_eq "xdp_program_$r" 2 "$progs"
done
echo "  (mode: $(sed -n 's/.*interface in: \(xdp [a-z]*\) ring.*/\1/p' \
    "$RL_TMP/X.log"))"

# ---------------------------------------------------------------- 2-3. ping

out=$(rl_in gen ping -n -c 5 -i 0.2 -W 2 198.18.100.2 2>&1)
assert_match ping_through_two " 0% packet loss" "$out"
ttls=$(echo "$out" | sed -n 's/.*ttl=\([0-9]*\).*/\1/p' | sort -u |
    tr '\n' ' ')
assert_eq ping_reply_ttl_62 "62 " "$ttls"
xmac=$(rl_mac X in)
nmac=$(rl_in gen ip neigh show 198.18.0.2 dev eth0 | awk '{ print $3 }')
assert_eq arp_answered_by_x "$xmac" "$nmac"
out=$(rl_in gen ping -n -c 2 -i 0.2 -W 2 198.18.100.1 2>&1)
assert_match ping_router_y_itself " 0% packet loss" "$out"

# ---------------------------------------------------------------- 4. TTL 1

ctr() { _c=$(rl_counter "$1" "$2" "$3"); echo "${_c:-0}"; }
b=$(ctr X in ttl)
out=$(rl_in gen ping -n -c 1 -t 1 -W 2 198.18.100.2 2>&1)
assert_match icmp_time_exceeded \
    "From 198.18.0.2 .*[Tt]ime to live exceeded" "$out"
assert_num_eq ttl_counted $(($(ctr X in ttl) - b)) 1

# ---------------------------------------------------- 5. iperf3 under tcpdump

cap()	# NS DIRECTION FILE
{
	rl_bg "$1" "$RL_TMP/$3.err" timeout 20 tcpdump -n -i eth0 -Q "$2" \
	    -s 128 -c 2000 -U -w "$RL_TMP/$3.pcap" \
	    "ip and src 198.18.0.1 and dst 198.18.100.2"
	eval "CAP_$3=$RL_LAST"
}
cap gen out before
cap sink in after
# tcpdump says "listening on" once its socket is bound
for c in before after; do
	wait_log 10 "listening on" "$RL_TMP/$c.err" ||
	    bail "tcpdump_$c" "tcpdump does not capture: $(cat "$RL_TMP/$c.err")"
done
rl_bg sink "$RL_TMP/iperf-server.log" timeout 20 iperf3 -s -1 -p 5201
IPERF_S=$RL_LAST
wait_listen 10 "$RL_P-sink" 5201 ||
    bail iperf3_server "iperf3 -s does not listen: $(cat "$RL_TMP/iperf-server.log")"
rl_in gen timeout 20 iperf3 -c 198.18.100.2 -p 5201 -t 2 -f m \
    >"$RL_TMP/iperf.log" 2>&1
rc=$?
bps=$(awk '/receiver$/ { for (i = 1; i <= NF; i++)
    if ($i ~ /bits\/sec/) { print $(i - 1); exit } }' "$RL_TMP/iperf.log")
if [ $rc -eq 0 ] && _num_cmp "${bps:-0}" ">" 0; then
	pass "iperf3_tcp_through_two: $bps Mbit/s (receiver)"
else
	sed 's/^/    /' "$RL_TMP/iperf.log"
	fail iperf3_tcp_through_two \
	    "iperf3 exited $rc, throughput '${bps:-none}'"
fi
rl_stop "$IPERF_S"
rl_stop "$CAP_before"
rl_stop "$CAP_after"

# decode FILE: "KEY<TAB>TTL" per packet (KEY: tcpdump -v's text minus the
# TTL); a packet with a bad checksum as "BAD<TAB>text".  tcpdump cannot
# verify a checksum the sender left to offload, so the outbound capture
# is read for its keys and TTLs only.
decode()
{
	tcpdump -n -t -v -r "$RL_TMP/$1.pcap" 2>/dev/null | awk '
	/^IP / { if (hdr != "") emit(); hdr = $0; body = ""; next }
	{ body = body " " $0 }
	END { if (hdr != "") emit() }
	function emit(   ttl, key) {
		if (hdr body ~ /bad cksum|incorrect/)
			print "BAD\t" hdr body
		ttl = hdr; sub(/.*ttl /, "", ttl); sub(/[^0-9].*/, "", ttl)
		key = hdr body
		sub(/ttl [0-9]+, /, "", key)
		gsub(/,? ?cksum 0x[0-9a-f]+ \([^)]*\)/, "", key)
		print key "\t" ttl
	}'
}
decode before >"$RL_TMP/before.txt"
decode after >"$RL_TMP/after.txt"
set -- $(awk -F '\t' 'NR == FNR { if ($1 != "BAD") ttl[$1] = $2; next }
$1 == "BAD" { next }
$1 in ttl { m++; if ($2 == ttl[$1] - 2) d++ }
END { printf "%d %d\n", m, d }' "$RL_TMP/before.txt" "$RL_TMP/after.txt")
if [ "$1" -ge 100 ] && [ "$1" = "$2" ]; then
	pass "ttl_minus_two_gen_to_sink: $2 of $1 packets seen on both sides"
else
	fail ttl_minus_two_gen_to_sink \
	    "$2 of $1 matched packets had TTL - 2 (want all, at least 100)"
fi
bad=$(grep -c '^BAD' "$RL_TMP/after.txt")
nall=$(grep -vc '^BAD' "$RL_TMP/after.txt")
if [ "$bad" = 0 ] && [ "$nall" -gt 0 ]; then
	pass "checksums_valid_at_sink: no bad checksum in $nall packets"
else
	grep '^BAD' "$RL_TMP/after.txt" | head -n 3 | sed 's/^/    /'
	fail checksums_valid_at_sink "$bad of $nall packets with a bad checksum"
fi

# ---------------------------------------------------------------- 6. exit

rl_stop "$RL_PID_X"
assert_eq router_x_exits_0 0 "$?"
rl_stop "$RL_PID_Y"
assert_eq router_y_exits_0 0 "$?"
finish
