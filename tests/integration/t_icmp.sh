#!/bin/sh
# t_icmp: hoplab-gen --mode icmp (ping as a measured flow) through a
# hoplab-link wire, a kernel router and a hoplab-router, on a namespace
# lab of its own (prefix hlic, no agents; the plan-level part, with
# agents, is t_icmp_plan.sh):
#
#   H1 eth0 -- a [hlic-W: hoplab-link, delay 5ms each way] b -- in [R1]
#       out -- in [R2] out -- eth0 H2
#
#   H1 198.18.0.1/24 (default via R1), R1 (Linux forwarding) in
#   198.18.0.2/24 and out 198.18.1.1/24, R2 (hoplab-router) in
#   198.18.1.2/24 and out 198.18.2.1/24, H2 198.18.2.2/24 (default via R2).
#
# 1. 200 echo requests of 102-byte frames (ping's default size) 20 ms
#    apart from H1 to H2, while R1 drops every 5th echo request it
#    forwards (an nftables rule of the test's own, table inet hlic_drop,
#    `icmp type echo-request numgen inc mod 5 == 0 counter drop`, removed
#    in the exit trap): the loss hoplab-gen reports equals that rule's
#    counter (40), nothing else is lost, no duplicates; the replies'
#    TTL is 62 (H2's 64, R2 and R1 on the way back); every round-trip
#    time (per-packet records) is at least 10 ms, the wire's 5 ms each
#    way, and the median is at most 10 ms + 5 ms.  The bound: the wire
#    releases a frame at its deadline plus its release error, which
#    docs/link.md measured at a p50 of 1.6..2.6 ms on this loaded 2-core
#    machine (twice per round trip), plus two routers' and two hosts'
#    stacks (tens of microseconds); 5 ms holds a median of two such
#    errors with room.  The largest RTT is bounded by 10 ms + 100 ms
#    (docs/link.md's release error p99.9 is 46..82 ms on a loaded run:
#    a stall of the machine, not of the path).
# 2. 50 requests to R2's own address 198.18.1.2: hoplab-router answers
#    them (router/icmp.c): loss equals the drop rule's count for them
#    (10), TTL 63 (R2 sends 64, R1 decrements), RTT at least 10 ms.
# 3. 5 requests to H2 with --ttl 1: R1 answers each with time exceeded;
#    hoplab-gen counts them as ICMP errors, not as replies (received 0),
#    and its count equals an nftables counter of the time-exceeded
#    messages R1 sends (table inet hlic_drop, output hook).
# Run as root; tests/integration/run.sh does.  About 12 s.
set -u
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/router_lab.sh"

need_root
for b in hoplab-link hoplab-gen hoplab-router; do
	[ -x "$HL_BIN/$b" ] || bail "${b}_built" "$HL_BIN/$b is missing (make)"
done
for t in jq nft; do
	command -v $t >/dev/null 2>&1 || bail "tool_$t" "$t is missing"
done

rl_init hlic || bail rl_init "cannot make a temporary folder"
# The drop table first (its namespace still exists), then the lab.
at_exit 'ip netns exec hlic-R1 nft delete table inet hlic_drop 2>/dev/null; rl_down'
T=$RL_TMP

rl_ns H1 && rl_ns W && rl_ns R1 && rl_ns R2 && rl_ns H2 &&
    rl_veth H1 eth0 W a && rl_veth W b R1 in && rl_veth R1 out R2 in &&
    rl_veth R2 out H2 eth0 &&
    rl_addr H1 eth0 198.18.0.1/24 && rl_route H1 default via 198.18.0.2 &&
    rl_addr R1 in 198.18.0.2/24 && rl_addr R1 out 198.18.1.1/24 &&
    rl_route R1 198.18.2.0/24 via 198.18.1.2 &&
    rl_in R1 sh -c 'echo 1 >/proc/sys/net/ipv4/ip_forward' &&
    rl_addr H2 eth0 198.18.2.2/24 && rl_route H2 default via 198.18.2.1 ||
    bail lab "could not build the lab"
cat >"$T/R2.yaml" <<'EOF'
# t_icmp: router R2
interfaces:
  - {name: in, address: 198.18.1.2/24}
  - {name: out, address: 198.18.2.1/24}
routes:
  - {prefix: 198.18.0.0/24, via: 198.18.1.1}
EOF
rl_router R2 "$T/R2.yaml" || bail router_started "hoplab-router R2"

rl_link W a b || bail link_started "hoplab-link W"
LINK=$RL_PID_W
lctl() { timeout 5 "$HL_BIN/hoplab-link" -s "ipc://$T/W.sock" --ctl "$1"; }
assert_ok link_delay_forward lctl "set a-b delay 5ms"
assert_ok link_delay_reverse lctl "set b-a delay 5ms"

rl_in R1 nft -f - <<'EOF' || bail nft_table "cannot add the drop table"
table inet hlic_drop {
	chain forward_drop {
		type filter hook forward priority 0; policy accept;
		icmp type echo-request numgen inc mod 5 == 0 counter drop
	}
	chain output_count {
		type filter hook output priority 0; policy accept;
		icmp type time-exceeded counter
	}
}
EOF
# counter CHAIN: the packets of the counter in CHAIN of the drop table.
counter()
{
	rl_in R1 nft -j list chain inet hlic_drop "$1" | jq '[.nftables[] |
	    .rule? // empty | .expr[] | .counter? // empty | .packets] | add'
}

# ping NAME DST COUNT [ARGS...]: hoplab-gen icmp from H1; JSON in
# T/NAME.json, records in T/NAME.rec, exported to T/NAME.csv.
ping()
{
	_n=$1
	_d=$2
	_c=$3
	shift 3
	rl_in H1 "$HL_BIN/hoplab-gen" --mode icmp --dst "$_d" --json \
	    --records "$T/$_n.rec" --drain 1s "$@" \
	    --flow "frame=102,count=$_c,idt=20ms,name=$_n" \
	    >"$T/$_n.json" 2>"$T/$_n.err" &&
	"$HL_BIN/hoplab-gen" --export-records "$T/$_n.rec" >"$T/$_n.csv"
}
# gj NAME FILTER: a value of the flow's JSON summary.
gj() { jq -r ".flows[0] | $2" "$T/$1.json" 2>/dev/null; }
# rtts NAME: the answered requests' RTTs in us from the records, sorted.
rtts()
{
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
	$h["received"] == 1 { printf "%.3f\n", $h["delay_ns"] / 1000 }' \
	    "$T/$1.csv" | sort -n
}

# ---------------------------------------------------------------- 1.

d0=$(counter forward_drop)
ping h2 198.18.2.2 200 || fail ping_h2 "hoplab-gen failed: $(tail -n 3 "$T/h2.err")"
d1=$(counter forward_drop)
drops=$((d1 - d0))
echo "    H1 -> H2: sent $(gj h2 .sent), received $(gj h2 .received)," \
    "lost $(gj h2 .lost), dropped by R1's rule $drops," \
    "TTL $(gj h2 .ttl_min)..$(gj h2 .ttl_max), ts $(jq -r .ts_source "$T/h2.json")"
assert_eq json_says_round_trip true "$(jq -r .round_trip "$T/h2.json")"
assert_num_eq h2_sent "$(gj h2 .sent)" 200
assert_num_eq h2_rule_dropped_every_5th "$drops" 40
assert_num_eq h2_loss_equals_nft_counter "$(gj h2 .lost)" "$drops"
assert_num_eq h2_no_duplicates "$(gj h2 .duplicates)" 0
assert_num_eq h2_reply_ttl_min_62 "$(gj h2 .ttl_min)" 62
assert_num_eq h2_reply_ttl_max_62 "$(gj h2 .ttl_max)" 62
rtts h2 >"$T/h2.rtt"
set -- $(awk '{ v[NR] = $1 } END { if (NR) printf "%d %s %s %s", NR, v[1],
    v[int((NR + 1) / 2)], v[NR] }' "$T/h2.rtt")
echo "    RTT us from the records: n ${1:-0} min ${2:-?} p50 ${3:-?} max ${4:-?};" \
    "summary min $(gj h2 '.delay.min_ns / 1000') p50 $(gj h2 '.delay.p50_ns / 1000')"
assert_num_eq h2_records_answered "${1:-0}" 160
assert_ge h2_rtt_min_at_least_10ms "${2:-0}" 10000
assert_le h2_rtt_p50_at_most_10ms_plus_5ms "${3:-99999999}" 15000
assert_le h2_rtt_max_at_most_10ms_plus_100ms "${4:-99999999}" 110000
assert_ge h2_summary_min_at_least_10ms "$(gj h2 .delay.min_ns)" 10000000
assert_num_eq h2_intervals_sent_add_up "$(gj h2 '[.intervals[].sent] | add')" 200
assert_num_eq h2_intervals_lost_add_up "$(gj h2 '[.intervals[].lost] | add')" 40

# ---------------------------------------------------------------- 2.

d0=$(counter forward_drop)
ping r2 198.18.1.2 50 || fail ping_r2 "hoplab-gen failed: $(tail -n 3 "$T/r2.err")"
d1=$(counter forward_drop)
drops=$((d1 - d0))
echo "    H1 -> R2 (hoplab-router): sent $(gj r2 .sent), received" \
    "$(gj r2 .received), dropped by R1's rule $drops, TTL" \
    "$(gj r2 .ttl_min)..$(gj r2 .ttl_max), RTT min $(gj r2 '.delay.min_ns / 1000') us"
assert_num_eq r2_rule_dropped_every_5th "$drops" 10
assert_num_eq r2_loss_equals_nft_counter "$(gj r2 .lost)" "$drops"
assert_num_eq r2_reply_ttl_63 "$(gj r2 .ttl_max)" 63
assert_num_eq r2_reply_ttl_min_63 "$(gj r2 .ttl_min)" 63
assert_ge r2_rtt_min_at_least_10ms "$(gj r2 .delay.min_ns)" 10000000

# ---------------------------------------------------------------- 3.

t0=$(counter output_count)
ping ttl1 198.18.2.2 5 --ttl 1 ||
    fail ping_ttl1 "hoplab-gen failed: $(tail -n 3 "$T/ttl1.err")"
t1=$(counter output_count)
echo "    --ttl 1: time exceeded counted $(gj ttl1 .icmp_time_exceeded)," \
    "sent by R1 $((t1 - t0)), received $(gj ttl1 .received)"
assert_num_eq ttl1_no_replies "$(gj ttl1 .received)" 0
assert_gt ttl1_r1_sent_time_exceeded "$((t1 - t0))" 0
assert_num_eq ttl1_errors_equal_nft_counter "$(gj ttl1 .icmp_time_exceeded)" \
    "$((t1 - t0))"
assert_num_eq ttl1_no_unreachable "$(gj ttl1 .icmp_unreachable)" 0

rl_stop "$LINK"
assert_ok nft_table_removed rl_in R1 nft delete table inet hlic_drop
finish
