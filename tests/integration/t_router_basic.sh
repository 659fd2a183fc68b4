#!/bin/sh
# t_router_basic: hoplab-router forwarding by the book, through a chain of
# three routers, on a namespace lab of its own (prefix hlt5, K 245
# reserved; no management network, no agents):
#
#   hlt5-gen eth0 -- in A out -- in B out -- in C out -- eth0 hlt5-sink
#
#   gen eth0   198.18.0.1/24     A in  198.18.0.2   A out 198.18.1.1
#   B in       198.18.1.2        B out 198.18.2.1   C in  198.18.2.2
#   C out      198.18.100.1      sink eth0 198.18.100.2/24
#
# gen and sink are end hosts with kernel addresses (default routes via
# A and C); A, B and C run hoplab-router, their interfaces carry no kernel
# address.  Checks:
#
# 1. ping gen -> sink through all three (reply TTL 64 - 3), and ping of
#    C's address (answered by hoplab-router itself).
# 2. traceroute (UDP) shows A, B, C, sink in that order, each hop an
#    address of that router.
# 3. an iperf3 TCP transfer gen -> sink (-t 3) completes with throughput
#    above 0.
# 4. tcpdump captures B's input (B:in, from A) and B's output (as it
#    arrives at C:in; the router sends with PACKET_QDISC_BYPASS, which
#    taps on B:out do not see), and the reverse direction at B:out and
#    A:out: every packet seen on both sides left B with TTL one less than
#    it came in, and tcpdump -v finds no bad IP (or TCP) checksum.
# 5. ping to a net with no route: ICMP net unreachable from A, counted
#    as no_route; ping -t 1: ICMP time exceeded, counted as ttl.
# 6. hand-made frames (inject.c, built here with cc) into A, a different
#    number of each, every kind counted by exactly that number under its
#    reason in docs/router.md and no other: truncated and total length
#    beyond the frame as bad_frame, total length below the header, IHL 4
#    and version 6 as bad_header, a bad header checksum as bad_checksum,
#    a non-IPv4 ethertype as not_ipv4, TTL 1 as ttl (each answered by an
#    ICMP time exceeded that gen's kernel counts), IP options as other,
#    ARP requests from 1100 senders off A's prefix as arp (none learned
#    or answered: they would fill A's 1024-entry table).
#    A first fragment is forwarded to sink and counted as
#    fragments_forwarded; good packets after all that are forwarded; A is
#    still running and forwarding.
# 7. control at run time (hoplab-router --ctl): a route deleted on A
#    makes the next ping net unreachable, added back it works again; B's
#    output set down stops forwarding, set up resumes it.
# 8. filter hit counters: A reloaded with two rules; 4 pings denied by the
#    first and 3 permitted by the second are counted by exactly those
#    rules (and the denied ones as drop "filter"), the replies by the
#    default action.  Every router exits 0 on SIGTERM.
#
# HLT_ROUTER=linux runs checks 1-4 against Linux kernel forwarding on the
# same lab instead (the reference; the router-counter checks are then
# skipped), to show that the checks themselves hold for a correct router.
# Run as root; tests/integration/run.sh does.  About 20 s.
set -u
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/router_lab.sh"

IMPL=${HLT_ROUTER:-hoplab}
need_root
[ "$IMPL" = linux ] || [ -x "$HL_BIN/hoplab-router" ] ||
    bail router_built "$HL_BIN/hoplab-router is missing (make)"
for t in ethtool iperf3 traceroute tcpdump ping cc; do
	command -v "$t" >/dev/null 2>&1 ||
	    bail "tool_$t" "$t is missing (sudo make deps)"
done

rl_init hlt5 || bail rl_init "cannot make a temporary folder"
at_exit rl_down

# ---------------------------------------------------------------- the lab

# conf NAME IN_ADDR OUT_ADDR ROUTES...: write router NAME's configuration;
# each ROUTE is "prefix via".
conf()
{
	_f=$RL_TMP/$1.yaml
	{
		echo "# t_router_basic: router $1"
		echo "interfaces:"
		echo "  - {name: in, address: $2}"
		echo "  - {name: out, address: $3}"
		echo "routes:"
		shift 3
		for _r in "$@"; do
			echo "  - {prefix: ${_r% *}, via: ${_r#* }}"
		done
	} >"$_f"
}

# linux_router NAME IN_ADDR OUT_ADDR ROUTES...: the same with the kernel.
linux_router()
{
	rl_addr "$1" in "$2" && rl_addr "$1" out "$3" || return 1
	_n=$1
	shift 3
	for _r in "$@"; do
		rl_route "$_n" "${_r% *}" via "${_r#* }" || return 1
	done
	rl_in "$_n" sh -c 'echo 1 >/proc/sys/net/ipv4/ip_forward'
}

router()
{
	if [ "$IMPL" = linux ]; then
		linux_router "$@"
	else
		conf "$@" || return 1
		# B runs on CPU 0 only (io.cpus), checked below
		[ "$1" != B ] || echo "io: {cpus: 0}" >>"$RL_TMP/B.yaml"
		rl_router "$1" "$RL_TMP/$1.yaml"
	fi
}

build_lab()
{
	for n in gen A B C sink; do
		rl_ns $n || return 1
	done
	rl_veth gen eth0 A in && rl_veth A out B in &&
	rl_veth B out C in && rl_veth C out sink eth0 || return 1
	# The end hosts leave TCP/UDP checksums to "the hardware" (veth's
	# checksum offload, segmentation offload stays off): the first
	# router must fill them in (docs/router.md), or the sink's kernel
	# drops every segment and iperf3 and traceroute fail below.
	rl_in gen ethtool -K eth0 tx on >/dev/null &&
	rl_in sink ethtool -K eth0 tx on >/dev/null || return 1
	rl_addr gen eth0 198.18.0.1/24 && rl_addr sink eth0 198.18.100.2/24 &&
	rl_route gen default via 198.18.0.2 &&
	rl_route sink default via 198.18.100.1 || return 1
	router A 198.18.0.2/24 198.18.1.1/24 \
	    "198.18.100.0/24 198.18.1.2" "198.18.2.0/24 198.18.1.2" &&
	router B 198.18.1.2/24 198.18.2.1/24 \
	    "198.18.100.0/24 198.18.2.2" "198.18.0.0/24 198.18.1.1" &&
	router C 198.18.2.2/24 198.18.100.1/24 \
	    "198.18.0.0/24 198.18.2.1" "198.18.1.0/24 198.18.2.1"
}

build_lab || bail lab "could not build the lab"
if [ "$IMPL" != linux ]; then
	aff=$(taskset -pc "$RL_PID_B" 2>/dev/null | sed 's/.*: *//')
	if [ "$aff" = 0 ]; then
		pass "io_cpus_pins_router_B: affinity list $aff"
	else
		fail "io_cpus_pins_router_B: affinity list '$aff', expected 0"
	fi
fi
pass "lab: gen - A - B - C - sink ($IMPL routers)"

# ---------------------------------------------------------------- 1. ping

out=$(rl_in gen ping -n -c 5 -i 0.2 -W 2 198.18.100.2 2>&1)
assert_match ping_through_three " 0% packet loss" "$out"
ttls=$(echo "$out" | sed -n 's/.*ttl=\([0-9]*\).*/\1/p' | sort -u | tr '\n' ' ')
assert_eq ping_reply_ttl_61 "61 " "$ttls"
out=$(rl_in gen ping -n -c 2 -i 0.2 -W 2 198.18.2.2 2>&1)
assert_match ping_router_c_itself " 0% packet loss" "$out"

# ---------------------------------------------------------------- 2. traceroute

# hop N: the address traceroute printed for hop N ("*" if none).
out=$(rl_in gen timeout 30 traceroute -n -q 1 -w 2 -m 6 198.18.100.2 2>&1)
hop() { echo "$out" | awk -v n="$1" '$1 == n { print $2 }'; }
hops="$(hop 1) $(hop 2) $(hop 3) $(hop 4)"
case $(hop 1) in 198.18.0.2|198.18.1.1) h1=A ;; *) h1="?" ;; esac
case $(hop 2) in 198.18.1.2|198.18.2.1) h2=B ;; *) h2="?" ;; esac
case $(hop 3) in 198.18.2.2|198.18.100.1) h3=C ;; *) h3="?" ;; esac
[ "$(hop 4)" = 198.18.100.2 ] && h4=sink || h4="?"
if [ "$h1 $h2 $h3 $h4" = "A B C sink" ]; then
	pass "traceroute_order: $hops"
else
	echo "$out" | sed 's/^/    /'
	fail traceroute_order "expected A B C sink, got $h1 $h2 $h3 $h4 ($hops)"
fi

# ------------------------------------------------- 3+4. iperf3 under tcpdump

# Captures, inbound only (-Q in), the first 3000 IPv4 packets each:
#   gen -> sink: B:in (before B), C:in (after B)
#   sink -> gen: B:out (before B), A:out (after B)
cap()	# NS IF FILE
{
	rl_bg "$1" "$RL_TMP/$3.err" timeout 30 tcpdump -n -i "$2" -Q in \
	    -s 128 -c 3000 -U -w "$RL_TMP/$3.pcap" ip
	eval "CAP_$3=$RL_LAST"
}
cap B in fw_before
cap C in fw_after
cap B out rv_before
cap A out rv_after
# tcpdump says "listening on" once its socket is bound
for c in fw_before fw_after rv_before rv_after; do
	wait_log 10 "listening on" "$RL_TMP/$c.err" ||
	    bail "tcpdump_$c" "tcpdump does not capture: $(cat "$RL_TMP/$c.err")"
done
rl_in gen ping -n -c 3 -i 0.2 -W 2 198.18.100.2 >/dev/null 2>&1

rl_bg sink "$RL_TMP/iperf-server.log" timeout 30 iperf3 -s -1 -p 5201
IPERF_S=$RL_LAST
wait_listen 10 "$RL_P-sink" 5201 ||
    bail iperf3_server "iperf3 -s does not listen: $(cat "$RL_TMP/iperf-server.log")"
rl_in gen timeout 30 iperf3 -c 198.18.100.2 -p 5201 -t 3 -f m \
    >"$RL_TMP/iperf.log" 2>&1
rc=$?
bps=$(awk '/receiver$/ { for (i = 1; i <= NF; i++)
    if ($i ~ /bits\/sec/) { print $(i - 1); exit } }' "$RL_TMP/iperf.log")
if [ $rc -eq 0 ] && _num_cmp "${bps:-0}" ">" 0; then
	pass "iperf3_tcp_through_three: $bps Mbit/s (receiver)"
else
	sed 's/^/    /' "$RL_TMP/iperf.log"
	fail iperf3_tcp_through_three \
	    "iperf3 exited $rc, throughput '${bps:-none}'"
fi
rl_stop "$IPERF_S"
for c in $CAP_fw_before $CAP_fw_after $CAP_rv_before $CAP_rv_after; do
	rl_stop "$c"
done

# decode FILE: one line per packet: "KEY<TAB>TTL", KEY being the packet
# as tcpdump -v prints it minus the TTL and the checksum fields that
# forwarding changes; every "bad cksum" or "incorrect" line is passed
# through as "BAD<TAB>line".
decode()
{
	tcpdump -n -t -v -r "$RL_TMP/$1.pcap" 2>/dev/null | awk '
	/^IP / {
		if (hdr != "") emit()
		hdr = $0; body = ""; next
	}
	{ body = body " " $0 }
	END { if (hdr != "") emit() }
	function emit(   ttl, key) {
		if (hdr body ~ /bad cksum|incorrect/)
			print "BAD\t" hdr body
		ttl = hdr; sub(/.*ttl /, "", ttl); sub(/[^0-9].*/, "", ttl)
		key = hdr body
		sub(/ttl [0-9]+, /, "", key)
		print key "\t" ttl
	}'
}

# ttl_pairs BEFORE AFTER: "matched decremented bad" over the packets that
# appear in both captures.
ttl_pairs()
{
	decode "$1" >"$RL_TMP/$1.txt"
	decode "$2" >"$RL_TMP/$2.txt"
	awk -F '\t' 'NR == FNR { if ($1 != "BAD") ttl[$1] = $2; next }
	$1 == "BAD" { next }
	$1 in ttl { m++; if ($2 == ttl[$1] - 1) d++ }
	END { printf "%d %d\n", m, d }' "$RL_TMP/$1.txt" "$RL_TMP/$2.txt"
}

set -- $(ttl_pairs fw_before fw_after)
if [ "$1" -ge 100 ] && [ "$1" = "$2" ]; then
	pass "ttl_minus_one_gen_to_sink: $2 of $1 packets seen on both sides"
else
	fail ttl_minus_one_gen_to_sink \
	    "$2 of $1 matched packets had TTL - 1 (want all, at least 100)"
fi
set -- $(ttl_pairs rv_before rv_after)
if [ "$1" -ge 100 ] && [ "$1" = "$2" ]; then
	pass "ttl_minus_one_sink_to_gen: $2 of $1 packets seen on both sides"
else
	fail ttl_minus_one_sink_to_gen \
	    "$2 of $1 matched packets had TTL - 1 (want all, at least 100)"
fi
bad=$(cat "$RL_TMP"/fw_*.txt "$RL_TMP"/rv_*.txt | grep -c '^BAD')
nall=$(cat "$RL_TMP"/fw_*.txt "$RL_TMP"/rv_*.txt | grep -vc '^BAD')
if [ "$bad" = 0 ] && [ "$nall" -gt 0 ]; then
	pass "checksums_valid: no bad checksum in $nall packets (tcpdump -v)"
else
	grep '^BAD' "$RL_TMP"/fw_*.txt "$RL_TMP"/rv_*.txt | head -n 3 |
	    sed 's/^/    /'
	fail checksums_valid "$bad of $nall packets with a bad checksum"
fi

if [ "$IMPL" = linux ]; then
	echo "  (HLT_ROUTER=linux: router counter checks skipped)"
	finish
fi

# ------------------------------------------------------- 5. ICMP errors

# ctr ROUTER IFACE KEY: a counter of the router's dump (0 if unlisted).
ctr() { _c=$(rl_counter "$1" "$2" "$3"); echo "${_c:-0}"; }

[ -n "$(rl_counter A in rx_packets)" ] ||
    bail counter_dump "no interface 'in' in A's counter dump:
$(rl_ctl A counters 2>&1 | head -n 40)"

b=$(ctr A in no_route)
out=$(rl_in gen ping -n -c 1 -W 2 198.18.200.1 2>&1)
assert_match icmp_net_unreachable \
    "From 198.18.0.2 .*[Nn]et [Uu]nreachable" "$out"
assert_num_eq no_route_counted $(($(ctr A in no_route) - b)) 1

b=$(ctr A in ttl)
out=$(rl_in gen ping -n -c 1 -t 1 -W 2 198.18.100.2 2>&1)
assert_match icmp_time_exceeded \
    "From 198.18.0.2 .*[Tt]ime to live exceeded" "$out"
assert_num_eq ttl_counted $(($(ctr A in ttl) - b)) 1

# ---------------------------------------------------------------- 6. bad input

INJ=$RL_TMP/inject
cc -std=c11 -Wall -Wextra -Werror -D_GNU_SOURCE -O2 -o "$INJ" \
    "$(dirname "$0")/inject.c" || bail inject_build "cc inject.c failed"
AMAC=$(rl_mac A in)

# send KIND COUNT: COUNT frames of KIND from gen to A, 20 ms apart.
send()
{
	rl_in gen "$INJ" eth0 "$AMAC" "${INJ_SRC:-198.18.0.1}" \
	    "${INJ_DST:-198.18.100.2}" "$1" "$2" "${INJ_GAP:-20000}"
}

# all_drops: "reason=count ..." of every drop reason on A's "in".
all_drops()
{
	rl_ctl A counters 2>/dev/null | awk '
	$1 == "iface" { next }
	/^[^ ]/ { cur = $1; next }
	cur == "in" && $1 == "drop" { printf "%s=%s ", $2, $3 }'
}

# sum_drops "reason=n ...": the sum of the counts.
sum_drops()
{
	echo "$1" | tr ' ' '\n' |
	    awk -F= 'NF == 2 { n += $2 } END { print n + 0 }'
}

# drops_reach N: A's drop counters on "in" sum to N or more.
drops_reach() { [ "$(sum_drops "$(all_drops)")" -ge "$1" ]; }

# inject KIND COUNT REASON: send COUNT frames of KIND and check that A's
# drop counter REASON (on "in", docs/router.md) grew by exactly COUNT and
# no other drop counter moved (once the drops add up to COUNT more, or
# after 5 s).
inject()
{
	_before=$(all_drops)
	if ! send "$1" "$2"; then
		fail "inject_$1" "inject failed"
		return
	fi
	wait_for 5 "$2 more drops on A" \
	    drops_reach $(($(sum_drops "$_before") + $2))
	_after=$(all_drops)
	_b=$(echo "$_before" | tr ' ' '\n' | sed -n "s/^$3=//p")
	_a=$(echo "$_after" | tr ' ' '\n' | sed -n "s/^$3=//p")
	_all=$(($(sum_drops "$_after") - $(sum_drops "$_before")))
	if [ $((${_a:-0} - ${_b:-0})) -eq "$2" ] && [ "$_all" -eq "$2" ]; then
		pass "${1}_x${2}_dropped_as_$3"
	else
		fail "${1}_dropped_as_$3" "expected $3 to grow by $2 and\
 nothing else; before: ${_before:-none}; after: ${_after:-none}"
	fi
}

inject trunc 3 bad_frame
inject totlen 4 bad_frame
inject shortlen 5 bad_header
inject badsum 6 bad_checksum
inject ihl4 7 bad_header
inject ver6 8 bad_header
inject nonip 9 not_ipv4

# ARP requests for A's address from 1100 senders off its prefix (more
# than its table's 1024 entries): none learned or answered, each counted
# under arp; the on-prefix gen is still answered (the traffic below).
ar=$(rl_global A arp_replies)
INJ_SRC=198.18.200.1 INJ_DST=198.18.0.2 INJ_GAP=200 inject arpspray 1100 arp
assert_num_eq arpspray_not_answered $(($(rl_global A arp_replies) - ar)) 0

# snmp_reach NS PROTO KEY N: the namespace's kernel counter is N or more.
snmp_reach() { [ "$(rl_snmp "$1" "$2" "$3")" -ge "$4" ]; }

te=$(rl_snmp gen Icmp InTimeExcds)
inject ttl1 3 "ttl"
wait_for 5 "3 ICMP time exceeded at gen" snmp_reach gen Icmp InTimeExcds \
    $((te + 3))
assert_num_eq ttl1_icmp_time_exceeded_received \
    $(($(rl_snmp gen Icmp InTimeExcds) - te)) 3

# Fragments are forwarded (docs/router.md) and counted; the sink's kernel
# counts each as a fragment to reassemble (it waits there for the rest).
rf=$(rl_snmp sink Ip ReasmReqds)
ff=$(rl_global A fragments_forwarded)
# global_reach ROUTER KEY N: the router's global counter is N or more.
global_reach() { [ "$(rl_global "$1" "$2")" -ge "$3" ]; }
send frag 2 &&
    wait_for 5 "2 fragments at sink" snmp_reach sink Ip ReasmReqds \
    $((rf + 2)) &&
    wait_for 5 "2 fragments counted by A" global_reach A \
    fragments_forwarded $((${ff:-0} + 2))
assert_num_eq fragments_forwarded_to_sink \
    $(($(rl_snmp sink Ip ReasmReqds) - rf)) 2
assert_num_eq fragments_counted \
    $(($(rl_global A fragments_forwarded) - ${ff:-0})) 2

# IP options: dropped and counted as "other" (docs/router.md); good
# packets sent right after them are forwarded, and the sink's kernel
# counts those as UDP to a closed port (NoPorts).
np=$(rl_snmp sink Udp NoPorts)
inject options 2 other
send good 4 &&
    wait_for 5 "4 good packets at sink" snmp_reach sink Udp NoPorts \
    $((np + 4))
assert_num_eq good_packets_after_bad_forwarded \
    $(($(rl_snmp sink Udp NoPorts) - np)) 4

if kill -0 "$RL_PID_A" 2>/dev/null; then
	pass "router_A_survives_bad_input"
else
	fail router_A_survives_bad_input "hoplab-router A is gone:
$(tail -n 5 "$RL_TMP/A.log")"
fi
out=$(rl_in gen ping -n -c 3 -i 0.2 -W 2 198.18.100.2 2>&1)
assert_match still_forwarding_after_bad_input " 0% packet loss" "$out"

# ------------------------------------------------------- 7. control at run time

# A route removed at run time: the next packet finds no route; put back,
# forwarding resumes.  An interface set down: nothing leaves by it; up
# again, forwarding resumes.  The routers keep running throughout.
assert_ok ctl_route_del rl_ctl A "route del 198.18.100.0/24"
out=$(rl_in gen ping -n -c 1 -W 2 198.18.100.2 2>&1)
assert_match route_del_takes_effect \
    "From 198.18.0.2 .*[Nn]et [Uu]nreachable" "$out"
assert_ok ctl_route_add rl_ctl A "route add 198.18.100.0/24 via 198.18.1.2"
out=$(rl_in gen ping -n -c 3 -i 0.2 -W 2 198.18.100.2 2>&1)
assert_match route_add_takes_effect " 0% packet loss" "$out"
assert_ok ctl_iface_down rl_ctl B "iface out down"
out=$(rl_in gen ping -n -c 2 -i 0.2 -W 1 198.18.100.2 2>&1)
assert_match iface_down_stops_forwarding " 100% packet loss|[Uu]nreachable" \
    "$out"
assert_ok ctl_iface_up rl_ctl B "iface out up"
out=$(rl_in gen ping -n -c 3 -i 0.2 -W 2 198.18.100.2 2>&1)
assert_match iface_up_resumes " 0% packet loss" "$out"

# ------------------------------------------------------- 8. filter hits

# A reloaded with two filter rules (a reload starts their counters at 0):
# 4 pings to .77 are denied by rule 0, 3 pings to the sink permitted by
# rule 1, and their 3 replies (dst gen) match no rule: the default.
conf A 198.18.0.2/24 198.18.1.1/24 \
    "198.18.100.0/24 198.18.1.2" "198.18.2.0/24 198.18.1.2"
cat >>"$RL_TMP/A.yaml" <<'EOF'
filters:
  rules:
    - {action: deny, proto: icmp, dst: 198.18.100.77/32}
    - {action: permit, proto: icmp, dst: 198.18.100.2/32}
EOF
assert_ok ctl_reload_with_filters rl_ctl A reload
# hits N: rule N's packets ("default": the default action's) in A's dump.
hits()
{
	rl_ctl A counters 2>/dev/null | awk -v k="$1" '
	/^filter hits:/ { for (i = 3; i <= NF; i++) {
		if ($i == "rule" && $(i + 1) == k) { v = $(i + 2); break }
		if ($i == "default" && k == "default") { v = $(i + 1); break }
	} }
	END { sub(/,$/, "", v); print v + 0 }'
}
b=$(ctr A in filter)
rl_in gen ping -n -c 4 -i 0.2 -W 1 198.18.100.77 >/dev/null 2>&1
out=$(rl_in gen ping -n -c 3 -i 0.2 -W 2 198.18.100.2 2>&1)
assert_match filter_permits_the_sink " 0% packet loss" "$out"
assert_num_eq filter_rule0_hits_4_denied "$(hits 0)" 4
assert_num_eq filter_denied_counted_as_filter $(($(ctr A in filter) - b)) 4
assert_num_eq filter_rule1_hits_3_permitted "$(hits 1)" 3
d=$(hits default)
if [ "$d" -ge 3 ]; then
	pass "filter_default_hits_the_3_replies: $d"
else
	fail filter_default_hits_the_3_replies "expected >= 3, got $d"
fi

for r in A B C; do
	eval "pid=\$RL_PID_$r"
	rl_stop "$pid"
	assert_num_eq "router_${r}_exits_0_on_sigterm" "$?" 0
done
finish
