#!/bin/sh
# t_icmp_plan: icmp (ping) flows of a topology plan, run by `hoplab run`
# on the namespace lab (lab prefix hlic, management K 209; the
# generator-level checks are t_icmp.sh):
#
#   H1 -- R1 (linux) -- [w-R1-R2: delay 5ms each way] -- R2 (hoplab)
#      -- R3 (external, configured here as its user would) -- H2
#
#   links in file order: H1-R1 198.18.1/24, R1-R2 198.18.2/24 (R2 .2),
#   R2-R3 198.18.3/24 (R3 .2), R3-H2 198.18.4/24.
#
# 1. A plan whose icmp flow pings 198.18.9.9, which no route of the plan
#    reaches, is refused at load (exit 2) with file:line, the key and
#    what was expected, before anything starts.
# 2. The plan: `ping` from H1 to H2 (60 requests 50 ms apart),
#    `ping_r2` from H1 to dst 198.18.2.2, hoplab-router R2's own address,
#    and `ping_r3` to 198.18.3.2, the external router's (30 each, 100 ms
#    apart); R2 restarted at 1 s for 500 ms (a router fault on the run's
#    timeline).  Known truth: summary.csv says delay_kind rtt for all;
#    every RTT is at least the wire's 10 ms (delay_min_us >= 10000);
#    reply TTL 61 for ping (H2's 64, R3, R2 and R1 on the way back), 63
#    for ping_r2 (R2 answers with 64, R1) and 62 for ping_r3 (R3's kernel
#    answers with 64, R2, R1; the run does not check an external
#    router's answer, this test does); all lose requests,
#    between 500 ms / idt - 1 (the restart's down time) and twice that,
#    and only in intervals from the fault's on (intervals.csv, times from
#    the run's start: none before 1.0 s); outages.csv has a row for the
#    restart and each icmp flow with that loss; faults.csv has the
#    restart; hops.csv has no estimate for the icmp flows (round-trip
#    times are not one router's).
# About 10 s.  Run as root; tests/integration/run.sh does.
set -u
. "$(dirname "$0")/lib.sh"

need_root
for b in hoplab hoplab-agent hoplab-gen hoplab-router hoplab-link; do
	[ -x "$HL_BIN/$b" ] || bail "${b}_built" "$HL_BIN/$b is missing (make)"
done
lab_init hlic 209
T=$(mktemp -d /tmp/hoplab-t-icmp-plan.XXXXXX) || bail tmp "mktemp failed"
[ -n "${HLT_KEEP:-}" ] || at_exit "rm -rf '$T'"
HL="$HL_BIN/hoplab -p $LAB_PREFIX -k $LAB_K"

cat >"$T/ping.yaml" <<'EOF'
name: ping
topology:
  hosts:
    H1: {}
    H2: {}
    R1: {router: linux}
    R2: {router: hoplab}
    R3: {router: external}
  links:
    - [H1, R1]
    - [R1, R2]
    - [R2, R3]
    - [R3, H2]
impairments:
  - {link: R1-R2, delay: 5ms}
faults:
  - {at: 1s, router: R2, action: restart, down: 500ms}
flows:
  - {name: ping, from: H1, to: H2, mode: icmp, frame: 102, idt: 50ms, count: 60}
  - {name: ping_r2, from: H1, dst: 198.18.2.2, mode: icmp, frame: 64, idt: 100ms, count: 30}
  - {name: ping_r3, from: H1, dst: 198.18.3.2, mode: icmp, frame: 64, idt: 100ms, count: 30}
EOF
sed -e 's/^name: .*/name: nowhere/' -e 's/dst: 198.18.2.2/dst: 198.18.9.9/' \
    "$T/ping.yaml" >"$T/nowhere.yaml"

# csv_field FILE FLOW COLUMN: COLUMN of FLOW's row in summary FILE.
csv_field()
{
	csv_col "$1" flow >"$T/flows.$$" && csv_col "$1" "$3" >"$T/col.$$" &&
	    paste -d' ' "$T/flows.$$" "$T/col.$$" | awk -v f="$2" \
	    '$1 == f { print $2; exit }'
}

# 1.
$HL -o "$T/nowhere" run "$T/nowhere.yaml" >"$T/nowhere.log" 2>&1
assert_eq unreachable_dst_exit_2 2 "$?"
assert_match unreachable_dst_names_file_line_key \
    "nowhere.yaml:20: flows\[1\].dst: no route of the plan reaches 198.18.9.9 from H1: R1 has no route to 198.18.9.9 \(expected an address of a host or router of topology.links" \
    "$(cat "$T/nowhere.log")"
assert_eq unreachable_dst_nothing_started no "$([ -e "$T/nowhere" ] &&
    echo yes || echo no)"

# 2.
LAB_IS_UP=1
if ! $HL lab up --plan "$T/ping.yaml" >"$T/up.log" 2>&1; then
	sed 's/^/    /' "$T/up.log"
	bail lab_up_plan "hoplab lab up --plan failed"
fi
in_host R3 ip addr add 198.18.3.2/24 dev R2 &&
    in_host R3 ip addr add 198.18.4.1/24 dev H2 &&
    in_host R3 ip route add 198.18.1.0/24 via 198.18.3.1 &&
    in_host R3 ip route add 198.18.2.0/24 via 198.18.3.1 &&
    in_host R3 sysctl -q -w net.ipv4.ip_forward=1 ||
    bail r3_by_hand "configuring the external router R3 failed"
if ! $HL -o "$T/ping" run "$T/ping.yaml" >"$T/ping.log" 2>&1; then
	sed 's/^/    /' "$T/ping.log"
	bail ping_run "hoplab run failed"
fi
pass ping_run_completes
D=$(ls -d "$T/ping"/*-*)
S=$D/summary.csv
grep 'icmp\|fault' "$T/ping.log" | sed 's/^/    /'
for f in ping ping_r2 ping_r3; do
	assert_eq "${f}_delay_kind_rtt" rtt "$(csv_field "$S" $f delay_kind)"
	assert_ge "${f}_rtt_min_at_least_10ms" \
	    "$(csv_field "$S" $f delay_min_us)" 10000
done
assert_eq ping_sent 60 "$(csv_field "$S" ping sent)"
assert_eq ping_r2_sent 30 "$(csv_field "$S" ping_r2 sent)"
assert_eq ping_r3_sent 30 "$(csv_field "$S" ping_r3 sent)"
assert_eq ping_reply_ttl_61 "61 61" "$(csv_field "$S" ping ttl_min) $(csv_field "$S" ping ttl_max)"
assert_eq ping_r2_reply_ttl_63 "63 63" "$(csv_field "$S" ping_r2 ttl_min) $(csv_field "$S" ping_r2 ttl_max)"
assert_eq ping_r3_reply_ttl_62 "62 62" "$(csv_field "$S" ping_r3 ttl_min) $(csv_field "$S" ping_r3 ttl_max)"
assert_eq ping_routers_column 3 "$(csv_field "$S" ping routers)"
assert_eq ping_r2_routers_column 1 "$(csv_field "$S" ping_r2 routers)"
assert_eq ping_r3_routers_column 2 "$(csv_field "$S" ping_r3 routers)"
# The restart keeps R2 down 500 ms: 500 / 50 - 1 = 9 requests of ping
# at least, 500 / 100 - 1 = 4 of ping_r2; at most twice that (the
# router's start and its ARP on top).
assert_ge ping_lost_in_the_restart "$(csv_field "$S" ping lost)" 9
assert_le ping_lost_at_most_twice "$(csv_field "$S" ping lost)" 18
for f in ping_r2 ping_r3; do
	assert_ge "${f}_lost_in_the_restart" "$(csv_field "$S" $f lost)" 4
	assert_le "${f}_lost_at_most_twice" "$(csv_field "$S" $f lost)" 8
done
for f in ping ping_r2 ping_r3; do
	r=$(awk -F, -v f=$f 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i
	    next }
	    $c["flow"] == f { n++; sent += $c["sent"]; lost += $c["lost"]
		if ($c["lost"] != 0 && $c["start_s"] + $c["length_s"] <= 1.0)
			bad = bad " lost:" $c["start_s"] }
	    END { print sent, lost, (n > 0 ? "ok" : "none"),
		(bad == "" ? "ok" : bad) }' \
	    "$D/intervals.csv")
	assert_eq "${f}_intervals_add_up_no_loss_before_the_fault" \
	    "$(csv_field "$S" $f sent) $(csv_field "$S" $f lost) ok ok" "$r"
	assert_eq "${f}_outage_row_of_the_restart" \
	    "router R2 restart $(csv_field "$S" $f lost)" "$(awk -F, -v f=$f '
	    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	    $c["flow"] == f { print $c["fault"], $c["lost"] }' \
	    "$D/outages.csv")"
done
assert_eq faults_csv_has_the_restart 1 "$(csv_col "$D/faults.csv" action |
    grep -c '^restart$\|^kill$')"
assert_eq hops_has_no_icmp_estimate 0 "$(grep -c 'ping' "$D/hops.csv" \
    2>/dev/null || true)"

lab_down
assert_eq no_namespace_left "" "$(ip netns list | grep "^$LAB_PREFIX-")"
finish
