#!/bin/sh
# t_kctr: kernel routers' counters in routers.csv (docs/router.md "Kernel
# routers", docs/results.md "routers.csv", "router_faults.csv").  Lab
# prefix hlkc, management K 206; the chain H1 - A - B - H2 of kernel
# routers (tests/integration/plans/kctr.yaml, kctr-cut.yaml).
#
# Known truth: an nftables table of the test's own in router A's
# namespace (inet hlkc_test, forward hook, priority 0: before the
# agent's at 100, nothing between them drops), counting forwarded udp,
# tcp and everything else, the udp flow's probes (UDP port 9000 with the
# probe magic "HL") and what came in on A's interface H1; and the
# generator's own counts in summary.csv.
#
# 1. kctr.yaml (2000 probes at 1 ms, a 1 s tcp flow, no fault): A's and
#    B's rows are impl linux; A's final report's fwd_udp, fwd_tcp and
#    fwd_icmp + fwd_other equal the test's counters exactly; the test's
#    probe counter equals the probes sent and received (2000), so A's
#    fwd_udp is the probes plus the udp mode's own stamp and end
#    datagrams (fwd_udp - 2000 >= 1); what A sent on its interface B
#    (tx_packets + tx_dropped, since the role started) is what it
#    forwarded from H1 plus its own ARP: 0..20 more;
# 2. the agent's table (hoplab_fwd_rN) is gone from A once the run is
#    over;
# 3. kctr-cut.yaml (9000 probes at 1 ms, A-B down at 5 s, up at 7 s):
#    router_faults.csv has A's row for "link A-B down" whose udp rate
#    before is the flow's 1000 a second (500..1500: the reports' times
#    are the agent's loop's, which a loaded machine delays) and after,
#    while the link is down, under a quarter of it (A routes nothing
#    toward B: the route's link is down);
# 4. `hoplab report` draws plots/routers_fwd.png (a PNG) and writes
#    router_faults.csv again, the same bytes; the agent's table is gone.
# About 35 s.  Run as root; tests/integration/run.sh does.
set -u
. "$(dirname "$0")/lib.sh"

need_root
for b in hoplab hoplab-agent hoplab-gen; do
	[ -x "$HL_BIN/$b" ] || bail "${b}_built" "$HL_BIN/$b is missing (make)"
done
command -v nft >/dev/null 2>&1 || bail nft "nft (nftables) is missing"
[ -x /usr/bin/gnuplot ] || bail gnuplot "/usr/bin/gnuplot is missing"
lab_init hlkc 206
T=$(mktemp -d /tmp/hoplab-t-kctr.XXXXXX) || bail tmp "mktemp failed"
[ -n "${HLT_KEEP:-}" ] || at_exit "rm -rf '$T'"
# The test's own table; lab_down removes A's namespace with it, and the
# table is deleted as soon as it has been read.
at_exit "ip netns exec $LAB_PREFIX-A nft delete table inet hlkc_test \
    2>/dev/null"
PL=$HL_ROOT/tests/integration/plans
HL="$HL_BIN/hoplab -p $LAB_PREFIX -k $LAB_K"

# final ROUTER IFACE COLUMN: COLUMN of ROUTER's final report, IFACE's row.
final()
{
	awk -F, -v r="$1" -v i="$2" -v c="$3" 'NR == 1 {
	    for (k = 1; k <= NF; k++) h[$k] = k; next }
	    $h["router"] == r && $h["final"] == 1 && $h["iface"] == i {
	    print $h[c] }' "$D/routers.csv"
}

# mine NAME: the packets of the test's counter commented NAME.
mine()
{
	in_host A nft list table inet hlkc_test | sed -n \
	    "s/.*counter packets \([0-9]*\) bytes [0-9]* comment \"$1\".*/\1/p"
}

# agent_tables: the agent's counter tables left in A's namespace.
agent_tables()
{
	in_host A nft list tables | grep -c hoplab_fwd
}

LAB_IS_UP=1
if ! $HL lab up --plan "$PL/kctr.yaml" >"$T/up.log" 2>&1; then
	sed 's/^/    /' "$T/up.log"
	bail lab_up_plan "hoplab lab up --plan failed"
fi
in_host A nft -f - <<'NFT' || bail nft_rule "nft on A failed"
table inet hlkc_test {
	chain count {
		type filter hook forward priority 0; policy accept;
		meta l4proto udp counter comment "udp"
		meta l4proto tcp counter comment "tcp"
		meta l4proto != { udp, tcp } counter comment "rest"
		udp dport 9000 @th,64,16 0x484c counter comment "probes"
		iifname "H1" counter comment "from_H1"
	}
}
NFT

# 1.
if lab_run kctr "$PL/kctr.yaml" "$T"; then
	D=$LAB_RUN
	S=$D/summary.csv
	assert_eq routers_rows_are_linux "A B linux" "$(csv_col \
	    "$D/routers.csv" router | sort -u | tr '\n' ' ')$(csv_col \
	    "$D/routers.csv" impl | sort -u)"
	udp=$(final A H1 fwd_udp)
	tcp=$(final A H1 fwd_tcp)
	rest=$(($(final A H1 fwd_icmp) + $(final A H1 fwd_other)))
	echo "    A forwarded: udp $udp, tcp $tcp, icmp + other $rest;" \
	    "the test's counters: udp $(mine udp), tcp $(mine tcp)," \
	    "rest $(mine rest), probes $(mine probes)"
	assert_eq fwd_udp_is_the_tests_counter "$(mine udp)" "$udp"
	assert_eq fwd_tcp_is_the_tests_counter "$(mine tcp)" "$tcp"
	assert_gt fwd_tcp_counted "$tcp" 0
	assert_eq fwd_icmp_other_is_the_tests_rest "$(mine rest)" "$rest"
	assert_eq probes_forwarded_are_the_sent "$(csv_col "$S" sent |
	    head -n 1)" "$(mine probes)"
	assert_eq probes_forwarded_are_the_received 2000 "$(csv_col "$S" \
	    received | head -n 1)"
	assert_ge fwd_udp_is_probes_and_followups $((udp - 2000)) 1
	txb=$(($(final A B tx_packets) + $(final A B tx_dropped)))
	echo "    A sent on B: $txb (tx_packets + tx_dropped); forwarded" \
	    "from H1: $(mine from_H1)"
	assert_ge tx_on_B_covers_what_came_from_H1 $((txb - $(mine \
	    from_H1))) 0
	assert_le tx_on_B_beyond_forwarding_is_arp $((txb - $(mine \
	    from_H1))) 20
	assert_ge rx_on_H1_covers_what_came_from_H1 $(($(final A H1 \
	    rx_packets) - $(mine from_H1))) 0
fi
in_host A nft delete table inet hlkc_test || fail own_table "not deleted"

# 2.
assert_eq agent_table_gone_after_run 0 "$(agent_tables)"

# 3.
if lab_run cut "$PL/kctr-cut.yaml" "$T"; then
	D=$LAB_RUN
	RF=$D/router_faults.csv
	row=$(awk -F, 'NR == 1 { for (k = 1; k <= NF; k++) h[$k] = k; next }
	    $h["router"] == "A" && $h["fault"] == "link A-B down" {
	    print $h["udp_pps_before"], $h["udp_pps_after"] }' "$RF")
	echo "    A's udp per second around the cut: ${row:-none}"
	before=${row% *}
	after=${row#* }
	assert_ge udp_rate_before_cut_is_the_flows "${before:-0}" 500
	assert_le udp_rate_before_cut_at_most_1500 "${before:-9999}" 1500
	assert_lt udp_rate_during_cut_under_a_quarter "${after:-9999}" \
	    "$(awk -v b="${before:-0}" 'BEGIN { print b / 4 }')"
	assert_eq agent_table_gone_after_cut_run 0 "$(agent_tables)"
	# 4.
	cp "$RF" "$T/rf.csv"
	if $HL_BIN/hoplab report "$D" >"$T/report.log" 2>&1; then
		pass report_completes
	else
		sed 's/^/    /' "$T/report.log"
		fail report_completes "hoplab report failed"
	fi
	assert_ok router_faults_csv_made_again_the_same cmp -s "$RF" \
	    "$T/rf.csv"
	assert_eq routers_fwd_png "PNG" "$(dd if="$D/plots/routers_fwd.png" \
	    bs=1 skip=1 count=3 2>/dev/null)"
fi
finish
