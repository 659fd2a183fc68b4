#!/bin/sh
# t_nat: source NAT on a kernel router (docs/nat.md, issue 16).  Lab
# prefix hlnat, management K 222.  In1, In2 - R1 (linux) - Out, end
# hosts; link 2 R1-Out is 198.18.3.0/24, R1 .1, Out .2.  Two udp flows
# (In1 and In2 to Out, 500 probes each), a 1 s tcp flow (In1 to Out) and
# a ping (In2 to Out, 100 echo requests) cross R1, which translates what
# leaves toward Out.  Two plans:
# tests/integration/plans/nat.yaml (masquerade: Out, to R1's own
# 198.18.3.1) and nat-snat.yaml (snat: 198.18.3.100, out: Out).
#
# Known truth: libpcap captures the plans take at Out:R1, In1:R1 and
# In2:R1 (read here with tcpdump), R1's own conntrack table
# (/proc/net/nf_conntrack of its namespace, read here with awk), the
# generator's counts in summary.csv.  For each plan:
#
# 1. the run completes: the path checks (TTL 63 for one router, the
#    udp probes' and the echo replies') pass although the source Out
#    sees is not In1's or In2's;
# 2. every IPv4 packet Out receives from R1 has the NAT address as its
#    source, none carries an inside address at all (198.18.1.0/24,
#    198.18.2.0/24), both udp flows' probes are there, and
#    flow_paths.csv's nat_source of every flow is that address;
# 3. replies go to the right inside host: the tcp flow completes with
#    bytes moved and In1's capture has its segments from Out while In2's
#    has no tcp at all; each udp flow's receiver counted all 500 probes;
#    the ping got its 100 replies and In1 saw none of them;
# 4. R1's conntrack, sampled every 0.1 s during the run, holds at most
#    exactly one translated entry per connection Out saw (distinct
#    protocol and port pairs from the NAT address in Out's capture, and
#    echo ids: 4, two udp, one tcp, one icmp), and routers.csv's
#    nat_active for R1, in its final report and at its highest, is that
#    number;
# 5. after the run the agent's table (hoplab_nat_rN) is gone from R1,
#    and (snat) so is 198.18.3.100 from its interface Out.
# And nat-hoplab.yaml, the same plan with R1 a hoplab-router (its own
# connection table, router/nat.c, the config the agent writes from the
# plan): checks 1..3 as above, and routers.csv's counters against Out's
# capture: nat_created and the final nat_active are the 4 connections,
# nat_translated_out at least the packets Out saw from 198.18.3.1,
# nat_drop_exhausted 0.
# Not timing sensitive (QUIET in run.sh); about 25 s.  Run as root.
set -u
. "$(dirname "$0")/lib.sh"

need_root
for b in hoplab hoplab-agent hoplab-gen; do
	[ -x "$HL_BIN/$b" ] || bail "${b}_built" "$HL_BIN/$b is missing (make)"
done
command -v nft >/dev/null 2>&1 || bail nft "nft (nftables) is missing"
command -v tcpdump >/dev/null 2>&1 || bail tcpdump "tcpdump is missing"
lab_init hlnat 222
T=$(mktemp -d /tmp/hoplab-t-nat.XXXXXX) || bail tmp "mktemp failed"
[ -n "${HLT_KEEP:-}" ] || at_exit "rm -rf '$T'"
PL=$HL_ROOT/tests/integration/plans
HL="$HL_BIN/hoplab -p $LAB_PREFIX -k $LAB_K"

# pcap HOST FILTER: the packets of HOST's capture (its interface R1 or
# Out's R1) that tcpdump's FILTER takes, one a line.
pcap()
{
	_f=$(find "$D/captures" -name "$1-R1.pcap" | head -n 1)
	[ -n "$_f" ] || { echo "no capture of $1" >&2; return 1; }
	tcpdump -r "$_f" -nn -q "$2" 2>/dev/null
}

# translated ADDR: R1's conntrack entries whose original source is an
# inside host and whose reply goes to ADDR, as "PROTO" lines.
translated()
{
	in_host R1 cat /proc/net/nf_conntrack | awk -v a="$1" '{
	    n = 0; o = ""; r = ""
	    for (i = 1; i <= NF; i++) if ($i ~ /^(src|dst)=/) {
		n++
		if (n == 1) o = substr($i, 5)
		if (n == 4) r = substr($i, 5)
	    }
	    if ($1 == "ipv4" && r == a && o ~ /^198\.18\.[12]\./) print $3 }'
}

# final COLUMN: COLUMN of R1's final report (its first interface's row).
final()
{
	awk -F, -v c="$1" 'NR == 1 { for (k = 1; k <= NF; k++) h[$k] = k
	    next } $h["router"] == "R1" && $h["final"] == 1 { print $h[c]
	    exit }' "$D/routers.csv"
}

# flowrow FLOW COLUMN: summary.csv's COLUMN of flow FLOW.
flowrow()
{
	csv_col "$D/summary.csv" flow >"$T/col.flow"
	csv_col "$D/summary.csv" "$2" >"$T/col.val"
	paste -d' ' "$T/col.flow" "$T/col.val" | awk -v f="$1" '$1 == f {
	    print $2; exit }'
}

# sample_start ADDR: sample translated ADDR every 0.1 s (at most 600
# times) into $T/samples, one sorted protocol list a line, until
# sample_stop.  Masquerade's entries go with R1's address when its role
# stops (the kernel drops what was masqueraded to an address that is
# deleted), so they are counted while the run goes on.
sample_start()
{
	rm -f "$T/samples" "$T/stop"
	(
		i=0
		while [ $i -lt 600 ] && [ ! -e "$T/stop" ]; do
			translated "$1" | sort | tr '\n' ' ' >>"$T/samples"
			echo >>"$T/samples"
			sleep 0.1
			i=$((i + 1))
		done
	) &
	SAMPLER=$!
	at_exit "kill $SAMPLER 2>/dev/null"
}

sample_stop()
{
	touch "$T/stop"
	wait "$SAMPLER"
}

# The longest protocol list the samples saw: R1's most entries at once.
most()
{
	awk '{ if (NF > n) { n = NF; l = $0 } } END { print l }' \
	    "$T/samples" | sed 's/ *$//'
}

# check NAME NAT_ADDR: the checks 1..5 of the run NAME.
check()
{
	_n=$1
	_a=$2
	echo "  $_n: NAT address $_a"
	# 2.
	_to_out=$(pcap Out "ip and dst host 198.18.3.2 and not icmp" | wc -l)
	_other=$(pcap Out "ip and dst host 198.18.3.2 and not src host $_a" |
	    wc -l)
	_inside=$(pcap Out "ip and (net 198.18.1.0/24 or net 198.18.2.0/24)" |
	    wc -l)
	echo "    Out received $_to_out packets (not icmp), $_other from" \
	    "another source than $_a, $_inside with an inside address"
	assert_ge "${_n}_out_received_the_flows" "$_to_out" 1000
	assert_eq "${_n}_every_source_at_out_is_translated" 0 "$_other"
	assert_eq "${_n}_no_inside_address_outside" 0 "$_inside"
	csv_col "$D/flow_paths.csv" nat_source | sort -u >"$T/natsrc"
	assert_eq "${_n}_flow_paths_nat_source_is_what_out_saw" "$_a" \
	    "$(cat "$T/natsrc")"
	for p in 9000 9001; do
		assert_ge "${_n}_udp_${p}_probes_from_${_a}" "$(pcap Out \
		    "src host $_a and udp dst port $p" | wc -l)" 500
	done
	# 3.
	assert_gt "${_n}_tcp_moved_bytes" "$(flowrow t1 throughput_mbps)" 0
	assert_gt "${_n}_tcp_segments_reach_In1" "$(pcap In1 \
	    "tcp and src host 198.18.3.2 and dst host 198.18.1.1" | wc -l)" 10
	assert_eq "${_n}_no_tcp_reaches_In2" 0 "$(pcap In2 tcp | wc -l)"
	assert_eq "${_n}_u1_received_all" 500 "$(flowrow u1 received)"
	assert_eq "${_n}_u2_received_all" 500 "$(flowrow u2 received)"
	assert_eq "${_n}_p1_replies_all" 100 "$(flowrow p1 received)"
	assert_eq "${_n}_no_icmp_reply_reaches_In1" 0 "$(pcap In1 \
	    "icmp[icmptype] == icmp-echoreply" | wc -l)"
	conns "$_n" "$_a"
	[ "${3:-linux}" = hoplab ] && return
	# 4.
	_ct=$(most)
	_max=$(csv_col "$D/routers.csv" nat_active | sort -n | tail -n 1)
	echo "    connections at Out: $(paste -s -d';' "$T/$_n.conns");" \
	    "R1's conntrack at most: $_ct; nat_active: final" \
	    "$(final nat_active), at most $_max"
	assert_eq "${_n}_conntrack_one_entry_per_connection" \
	    "icmp tcp udp udp" "$_ct"
	assert_eq "${_n}_final_nat_active_is_the_connections" "$_conns" \
	    "$(final nat_active)"
	assert_eq "${_n}_most_nat_active_is_the_connections" "$_conns" \
	    "$_max"
	# 5.
	assert_eq "${_n}_agent_table_gone" 0 "$(in_host R1 nft list tables |
	    grep -c hoplab_nat)"
}

# conns NAME NAT_ADDR: the connections Out's capture saw from NAT_ADDR
# (protocol and ports, echo ids) into $T/NAME.conns, their count in
# _conns, which must be 4.
conns()
{
	pcap Out "src host $2 and (udp or tcp)" | awk '{
	    split($3, s, "."); split($5, d, "."); sub(":", "", d[5])
	    print $6, s[5], d[5] }' | sed 's/,//' | sort -u >"$T/$1.conns"
	pcap Out "src host $2 and icmp[icmptype] == icmp-echo" | sed -n \
	    's/.* id \([0-9]*\),.*/ICMP \1/p' | sort -u >>"$T/$1.conns"
	_conns=$(wc -l <"$T/$1.conns")
	assert_eq "${1}_four_connections_at_out" 4 "$_conns"
}

# check_hoplab NAME NAT_ADDR: R1 (hoplab-router)'s own counters against
# Out's capture.
check_hoplab()
{
	_pk=$(pcap Out "ip and src host $2" | wc -l)
	echo "    hoplab-router: created $(final nat_created), active" \
	    "$(final nat_active), translated out $(final nat_translated_out)" \
	    "(Out saw $_pk from $2), in $(final nat_translated_in)," \
	    "exhausted $(final nat_drop_exhausted)"
	assert_eq "${1}_created_is_the_connections" "$_conns" \
	    "$(final nat_created)"
	assert_eq "${1}_final_active_is_the_connections" "$_conns" \
	    "$(final nat_active)"
	assert_ge "${1}_translated_out_covers_out_capture" \
	    "$(final nat_translated_out)" "$_pk"
	assert_gt "${1}_translated_in_counted" "$(final nat_translated_in)" 0
	assert_eq "${1}_no_exhaustion" 0 "$(final nat_drop_exhausted)"
}

LAB_IS_UP=1
if ! $HL lab up --plan "$PL/nat.yaml" >"$T/up.log" 2>&1; then
	sed 's/^/    /' "$T/up.log"
	bail lab_up_plan "hoplab lab up --plan failed"
fi

# 1.
sample_start 198.18.3.1
lab_run masq "$PL/nat.yaml" "$T"
_ok=$?
sample_stop
if [ $_ok = 0 ]; then
	D=$LAB_RUN
	check masq 198.18.3.1
fi
sample_start 198.18.3.100
lab_run snat "$PL/nat-snat.yaml" "$T"
_ok=$?
sample_stop
if [ $_ok = 0 ]; then
	D=$LAB_RUN
	check snat 198.18.3.100
	assert_eq snat_address_gone_from_R1 0 "$(in_host R1 ip -4 addr show \
	    dev Out | grep -c 198.18.3.100)"
fi
lab_run hoplab "$PL/nat-hoplab.yaml" "$T" && {
	D=$LAB_RUN
	check hoplab 198.18.3.1 hoplab
	check_hoplab hoplab 198.18.3.1
}
finish
