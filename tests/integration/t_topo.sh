#!/bin/sh
# t_topo: plans with a general topology on the namespace lab
# (docs/architecture.md "Topology labs").  Lab prefix hlto, management K
# 216; the seed thesis's minimal network of examples/minimal-net-quick.yaml:
# end hosts H1, H2, H3, kernel routers R1..R4, the primary path H1-R1-R4-H2
# and the backup R1-R2-R3-R4.
#
# Known truth:
#
# 1. `hoplab lab up --plan` builds exactly the plan's hosts, and the run
#    cables its 7 links (lab.sh status lists 14 link ends);
# 2. the quick plan without its fault: the udp flow H1 -> H2 (3000 x 200 B,
#    1 ms) loses nothing and arrives with TTL 62 only (64 - R1, R4), the
#    tcp flow H1 -> H2 has a throughput > 0; intervals.csv has the udp
#    flow's 6 intervals of 0.5 s (7 when pacing spills past 3 s), adding
#    up to the 3000 sent;
# 3. an nftables rule on R4 (on the path) dropping every 50th probe of the
#    udp flow (port 9000, probe magic): 2000 probes lose exactly what the
#    rule's counter says, 40;
# 4. a plan naming a host the lab has not (R9) is refused before anything
#    starts, with the exact message, exit 1, and no results folder;
# 5. with faults on topology links (examples/minimal-net-quick.yaml as
#    shipped: R1-R4 down at 1.5 s): the run completes, faults.csv has
#    the cut, the udp flow's ttl_max is 62 and ttl_min 60 (the backup's 4
#    routers), it loses packets only in the intervals around the cut (at
#    most 50), and receives in every interval after it; the tcp flow
#    still has a throughput > 0;
# 5b. the cut of one end (R1's) of the primary link when it runs through
#    a link emulator (impairment: delay 1ms; R1 -- wa [w-R1-R4] wb -- R4):
#    the wire's side facing R4 goes down with R1's end, so R4 loses its
#    carrier as on a plain veth and its flow back to H1 (H2 -> H1, 3000
#    x 1 ms) fails over to the backup: ttl_min 60, and every interval
#    from 2.0 s on receives (without it R4 would send into the dead wire
#    until the link came back at the point's end);
# 6. `lab down` leaves no namespace of the lab;
# 7. nor does it after a crash (agents killed, state folder removed).
# About 35 s.  Run as root; tests/integration/run.sh does.
set -u
. "$(dirname "$0")/lib.sh"

need_root
for b in hoplab hoplab-agent hoplab-gen; do
	[ -x "$HL_BIN/$b" ] || bail "${b}_built" "$HL_BIN/$b is missing (make)"
done
command -v nft >/dev/null 2>&1 || bail nft "nft (nftables) is missing"
lab_init hlto 216
T=$(mktemp -d /tmp/hoplab-t-topo.XXXXXX) || bail tmp "mktemp failed"
[ -n "${HLT_KEEP:-}" ] || at_exit "rm -rf '$T'"
EX=$HL_ROOT/examples/minimal-net-quick.yaml
HL="$HL_BIN/hoplab -p $LAB_PREFIX -k $LAB_K"

# The quick example without its fault, and with only the udp flow at 2000.
sed -e '/^faults:/d' -e '/action: down}/d' -e 's/^name: .*/name: nofault/' \
    "$EX" >"$T/nofault.yaml"
sed -e '/name: bulk/d' -e 's/count: 3000/count: 2000/' \
    -e 's/^name: .*/name: drop/' "$T/nofault.yaml" >"$T/drop.yaml"
sed -e 's/^name: .*/name: missing/' -e 's/    R4: {router: linux}/&\
    R9: {router: linux}/' -e 's/    - \[R2, H3\]/&\
    - [R4, R9]/' "$T/nofault.yaml" >"$T/missing.yaml"

# csv_field FILE FLOW COLUMN: COLUMN of FLOW's row in summary FILE.
csv_field()
{
	csv_col "$1" flow >"$T/flows.$$" && csv_col "$1" "$3" >"$T/col.$$" &&
	    paste -d' ' "$T/flows.$$" "$T/col.$$" | awk -v f="$2" \
	    '$1 == f { print $2; exit }'
}

# run_plan NAME FILE: hoplab run; D is its results folder.
run_plan()
{
	D=
	if ! $HL -o "$T/$1" run "$2" >"$T/$1.log" 2>&1; then
		sed 's/^/    /' "$T/$1.log"
		fail "$1_run" "hoplab run $2 failed"
		return 1
	fi
	pass "$1_run_completes"
	D=$(ls -d "$T/$1"/*-*)
}

# 1.
LAB_IS_UP=1
if ! $HL lab up --plan "$EX" >"$T/up.log" 2>&1; then
	sed 's/^/    /' "$T/up.log"
	bail lab_up_plan "hoplab lab up --plan failed"
fi
assert_eq lab_hosts_are_the_plans "H1 H2 H3 R1 R2 R3 R4" "$(ip netns list |
    sed -n "s/^$LAB_PREFIX-\([A-Za-z0-9_]*\).*/\1/p" | sort | tr '\n' ' ' |
    sed 's/ $//')"

# 2.
if run_plan nofault "$T/nofault.yaml"; then
	S=$D/summary.csv
	assert_eq status_links_cabled 14 \
	    "$(lab_sh status | grep -c " -> $LAB_PREFIX-")"
	assert_eq udp_sent 3000 "$(csv_field "$S" voice sent)"
	assert_eq udp_no_loss 0 "$(csv_field "$S" voice lost)"
	assert_eq udp_ttl_min_62_two_routers 62 "$(csv_field "$S" voice ttl_min)"
	assert_eq udp_ttl_max_62 62 "$(csv_field "$S" voice ttl_max)"
	assert_eq udp_routers_column 2 "$(csv_field "$S" voice routers)"
	assert_gt tcp_throughput_positive "$(csv_field "$S" bulk \
	    throughput_mbps)" 0
	assert_eq udp_intervals_add_up "3000 ok" "$(awk -F, 'NR == 1 {
	    for (i = 1; i <= NF; i++) c[$i] = i; next }
	    $c["flow"] == "voice" { n++; s += $c["sent"] }
	    END { print s, (n == 6 || n == 7) ? "ok" : n " intervals" }' \
	    "$D/intervals.csv")"
	assert_match console_names_the_path "voice \(udp H1 R1 R4 H2\)" \
	    "$(cat "$T/nofault.log")"
fi

# 3.
in_host R4 nft -f - <<'NFT' || fail nft_rule "nft on R4 failed"
table ip hlto {
	chain probes {
		type filter hook forward priority 0;
		udp dport 9000 @th,64,16 0x484c numgen inc mod 50 == 0 counter drop
	}
}
NFT
if run_plan drop "$T/drop.yaml"; then
	n=$(in_host R4 nft list table ip hlto | sed -n \
	    's/.*counter packets \([0-9]*\) .*/\1/p')
	assert_eq nft_counter_40 40 "$n"
	assert_eq udp_loss_is_the_counter "$n" \
	    "$(csv_field "$D/summary.csv" voice lost)"
fi
in_host R4 nft delete table ip hlto

# 4.
$HL -o "$T/missing" run "$T/missing.yaml" >"$T/missing.log" 2>&1
assert_eq missing_host_exit_1 1 "$?"
assert_eq missing_host_message "hoplab: run missing failed: plan missing \
needs 1 host that inventory $LAB_STATE/inventory.yaml does not have: R9 \
(build the plan's lab: hoplab lab up --plan $T/missing.yaml)" \
    "$(cat "$T/missing.log")"
assert_eq missing_host_nothing_started no "$([ -e "$T/missing" ] &&
    echo yes || echo no)"

# 5.
if [ -n "${HLT_TOPO_NO_FAULT:-}" ]; then
	echo "  skip faults on topology links (HLT_TOPO_NO_FAULT set)"
elif run_plan cut "$EX"; then
	S=$D/summary.csv
	assert_match fault_on_console "fault: link R1-R4 down" \
	    "$(cat "$T/cut.log")"
	assert_eq faults_csv_has_the_cut 2 "$(csv_col "$D/faults.csv" action |
	    grep -c '^down$')"
	assert_eq cut_ttl_max_62_primary 62 "$(csv_field "$S" voice ttl_max)"
	assert_eq cut_ttl_min_60_backup 60 "$(csv_field "$S" voice ttl_min)"
	assert_le cut_loss_small "$(csv_field "$S" voice lost)" 50
	r=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	    $c["flow"] == "voice" { s = $c["start_s"]; e = s + $c["length_s"]
		if ($c["lost"] != 0 && (e < 1.0 || s > 2.0)) bad = bad " lost:" s
		if (s >= 1.5 && $c["received"] == 0) bad = bad " silent:" s }
	    END { print bad == "" ? "ok" : bad }' "$D/intervals.csv")
	assert_eq cut_loss_only_around_the_cut_then_backup ok "$r"
	assert_gt cut_tcp_throughput_positive "$(csv_field "$S" bulk \
	    throughput_mbps)" 0
fi

# 5b.
sed -e 's/^name: .*/name: wirecut/' \
    -e 's/action: down}/action: down, end: R1}/' \
    -e 's/name: voice, from: H1, to: H2/name: back, from: H2, to: H1/' \
    -e '/name: bulk/d' "$EX" >"$T/wirecut.yaml"
printf 'impairments:\n  - {link: R1-R4, delay: 1ms}\n' >>"$T/wirecut.yaml"
if [ -n "${HLT_TOPO_NO_FAULT:-}" ]; then
	:
elif run_plan wirecut "$T/wirecut.yaml"; then
	S=$D/summary.csv
	assert_match wirecut_wire_side_down "w-R1-R4:wb" \
	    "$(grep 'fault: link R1-R4 down' "$T/wirecut.log")"
	assert_eq wirecut_ttl_min_60_backup 60 "$(csv_field "$S" back ttl_min)"
	# The 2.0 and 2.5 s intervals must be there and receive.
	r=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	    $c["flow"] == "back" && $c["start_s"] >= 2.0 &&
	    $c["start_s"] + $c["length_s"] <= 3.0 && $c["received"] > 0 {
		n++ } END { print n + 0 }' "$D/intervals.csv")
	assert_eq wirecut_back_flow_receives_after_the_cut 2 "$r"
fi

# 6.
lab_down
assert_eq no_namespace_left "" "$(ip netns list | grep "^$LAB_PREFIX-")"

# 7. A crashed topology lab (agents killed, state folder gone) with a '_'
# in a host name: `down` still finds and removes everything.
LAB_IS_UP=1
lab_up --hosts H_1 R1
assert_ok crash_lab_links lab_sh links H_1:R1-R1:H_1
for f in "$LAB_STATE"/*.pid; do
	kill -KILL "$(cat "$f")" 2>/dev/null
done
rm -rf "$LAB_STATE"
assert_ok crash_lab_down lab_sh down
LAB_IS_UP=0
assert_eq crash_no_namespace_left "" "$(ip netns list | grep "^$LAB_PREFIX-")"
assert_eq crash_no_link_left "" "$(ip -o link show | grep "$LAB_PREFIX-")"
finish
