#!/bin/sh
# t_topo_wan: a topology plan with an external router, an impaired
# topology link and captures (docs/plans.md "Topologies", "Impairments",
# "Captures"; docs/architecture.md "Topology labs").  Lab prefix hltw,
# management K 212.
#
#   H1 -- R1 (linux) -- R2 (external) -- R3 (linux) -- H2
#   198.18.1.0/24   198.18.2.0/24    198.18.3.0/24   198.18.4.0/24
#
# R2 is configured here by hand, as a user would (ip netns exec ...):
# its two addresses from the plan's link plan, kernel forwarding, and the
# two static routes the plan gives as its routes:.  hoplab gives it no
# role.
#
# Known truth:
#
# 1. --dry-run lists R2 as "router (external)" and the flow's path
#    H1 -> R1 -> R2 -> R3 -> H2;
# 2. the plain run: the udp flow H1 -> H2 (2000 x 200 B, 1 ms) crosses 3
#    routers, so it arrives with TTL 61 only (64 - 3; the run's own path
#    check fails otherwise) and loses nothing; R2's forwarding counter
#    (nft, on the box hoplab does not touch) counts exactly the 2000
#    probes; R2's routing table is still exactly the 4 routes set here
#    (hoplab installed nothing there);
# 3. its captures (default: H1:R1, where the flow leaves, and H2:R3,
#    where it arrives) match every received probe (capdelay.csv matched =
#    received = 2000), and the capture mean is within 200 us of the
#    generator's (both read one clock; the difference is the stacks' time
#    between the wire and the sockets);
# 4. the same plan with {link: R3-H2, delay: 5ms}: the run splices the
#    wire host w-R3-H2 (R3 -- wa [w-R3-H2] wb -- H2), the flow loses
#    nothing and keeps TTL 61 (the wire is transparent at L2), its mean
#    delay grows by 5000 us within -100..+2500 us (the link emulator's
#    release error and the scheduler's wake-ups only add delay: measured
#    +15..+400 us on a loaded 2-core machine; the bound is wide so that
#    make check never fails on load), the truth file's mean added delay
#    is in 5000..7000 us (never below: a constant delay releases no frame
#    early; the flow's growth also has the emulator's own receive
#    latency, which the truth does not count),
#    links.csv counts the 2000 probes forward through the link, and R2's
#    hand-set addresses survived the recabling (kept veth pairs);
# 5. a fault on a link's external end is refused before anything starts,
#    with the exact message;
# 6. `lab down` leaves no namespace of the lab, wire hosts included.
# About 20 s.  Run as root; tests/integration/run.sh does.
set -u
. "$(dirname "$0")/lib.sh"

need_root
for b in hoplab hoplab-agent hoplab-gen hoplab-link; do
	[ -x "$HL_BIN/$b" ] || bail "${b}_built" "$HL_BIN/$b is missing (make)"
done
command -v nft >/dev/null 2>&1 || bail nft "nft (nftables) is missing"
command -v ethtool >/dev/null 2>&1 || bail ethtool "ethtool is missing"
lab_init hltw 212
T=$(mktemp -d /tmp/hoplab-t-topo-wan.XXXXXX) || bail tmp "mktemp failed"
[ -n "${HLT_KEEP:-}" ] || at_exit "rm -rf '$T'"
HL="$HL_BIN/hoplab -p $LAB_PREFIX -k $LAB_K"

cat >"$T/plain.yaml" <<'EOF'
name: plain
topology:
  hosts:
    H1: {}
    H2: {}
    R1: {router: linux}
    R2: {router: external}
    R3: {router: linux}
  links:
    - [H1, R1]
    - [R1, R2]
    - [R2, R3]
    - [R3, H2]
  routes:
    R2:
      - {to: H1, via: R1}
      - {to: H2, via: R3}
captures: {}
flows:
  - {name: voice, from: H1, to: H2, mode: udp, frame: 200, idt: 1ms, count: 2000}
EOF
sed -e 's/^name: .*/name: wan/' -e 's/^captures: {}/impairments:\
  - {link: R3-H2, delay: 5ms}/' "$T/plain.yaml" >"$T/wan.yaml"
sed -e 's/^name: .*/name: extfault/' -e 's/^captures: {}/faults:\
  - {at: 1s, link: R1-R2, action: down}/' "$T/plain.yaml" >"$T/extfault.yaml"

# csv_field FILE FLOW COLUMN: COLUMN of FLOW's row in FILE.
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
$HL_BIN/hoplab run --dry-run "$T/plain.yaml" >"$T/dry.out" 2>&1
assert_eq dry_run_exits_0 0 "$?"
assert_match dry_run_r2_external "host  R2 +router \(external\)" \
    "$(cat "$T/dry.out")"
assert_match dry_run_path "voice +udp +H1 -> R1 -> R2 -> R3 -> H2" \
    "$(cat "$T/dry.out")"

LAB_IS_UP=1
if ! $HL lab up --plan "$T/plain.yaml" >"$T/up.log" 2>&1; then
	sed 's/^/    /' "$T/up.log"
	bail lab_up_plan "hoplab lab up --plan failed"
fi

# R2 by hand, as its user would; an nft counter of the probes it forwards.
in_host R2 ip addr add 198.18.2.2/24 dev R1 &&
    in_host R2 ip addr add 198.18.3.1/24 dev R3 &&
    in_host R2 ip route add 198.18.1.0/24 via 198.18.2.1 &&
    in_host R2 ip route add 198.18.4.0/24 via 198.18.3.2 &&
    in_host R2 sysctl -q -w net.ipv4.ip_forward=1 ||
    bail r2_by_hand "configuring the external router R2 failed"
in_host R2 nft -f - <<'NFT' || bail nft_rule "nft on R2 failed"
table ip hltw {
	chain probes {
		type filter hook forward priority 0;
		udp dport 9000 @th,64,16 0x484c counter
	}
}
NFT
r2_routes()
{
	in_host R2 ip -4 route show | sort | tr '\n' ';'
}
R2_ROUTES=$(r2_routes)
assert_eq r2_has_4_data_routes 4 "$(in_host R2 ip -4 route show |
    grep -vc mgmt0)"

# 2. and 3.
if run_plan plain "$T/plain.yaml"; then
	S=$D/summary.csv
	assert_match console_says_external "R2 is external" \
	    "$(cat "$T/plain.log")"
	assert_eq udp_sent 2000 "$(csv_field "$S" voice sent)"
	assert_eq udp_no_loss 0 "$(csv_field "$S" voice lost)"
	assert_eq udp_ttl_min_61 61 "$(csv_field "$S" voice ttl_min)"
	assert_eq udp_ttl_max_61 61 "$(csv_field "$S" voice ttl_max)"
	assert_eq udp_routers_column 3 "$(csv_field "$S" voice routers)"
	assert_eq r2_forwarded_the_2000 2000 "$(in_host R2 nft list table ip \
	    hltw | sed -n 's/.*counter packets \([0-9]*\) .*/\1/p')"
	assert_eq r2_routes_untouched "$R2_ROUTES" "$(r2_routes)"
	C=$D/capdelay.csv
	assert_eq capdelay_one_row 1 "$(csv_col "$C" flow | grep -c '^voice$')"
	assert_eq capdelay_from_to "H1:R1 H2:R3" \
	    "$(csv_field "$C" voice from) $(csv_field "$C" voice to)"
	assert_eq capdelay_matched_2000 2000 "$(csv_field "$C" voice matched)"
	assert_eq capdelay_gen_received_2000 2000 \
	    "$(csv_field "$C" voice gen_received)"
	assert_near capture_mean_near_generator 0 \
	    "$(csv_field "$C" voice diff_mean_us | tr -d +)" 200
	assert_eq pcap_files_2 2 "$(ls "$D"/captures/*/*.pcap | wc -l)"
	PLAIN_MEAN=$(csv_field "$S" voice delay_mean_us)
fi
in_host R2 nft delete table ip hltw

# 4.
if run_plan wan "$T/wan.yaml"; then
	S=$D/summary.csv
	assert_match wire_host_added "^wires=R3-H2$" \
	    "$(cat "$LAB_STATE/lab.env")"
	assert_eq wan_no_loss 0 "$(csv_field "$S" voice lost)"
	assert_eq wan_ttl_max_61 61 "$(csv_field "$S" voice ttl_max)"
	ADDED=$(awk -v a="$(csv_field "$S" voice delay_mean_us)" \
	    -v b="${PLAIN_MEAN:-0}" 'BEGIN { print a - b }')
	assert_near wan_mean_delay_plus_5ms 6200 "$ADDED" 1300
	L=$D/links.csv
	r=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	    $c["link"] == "R3-H2" && $c["direction"] == "forward" &&
	    $c["final"] == 1 && $c["rep"] == 1 { print $c["rx_packets"],
	    $c["added_delay_mean_us"] }' "$L" | tail -n 1)
	assert_ge links_csv_counts_the_probes "${r%% *}" 2000
	assert_near truth_mean_added_5000_to_7000us 6000 "${r#* }" 1000
	assert_eq truth_file_there 1 "$(ls "$D"/links/*R3-H2*_1.truth |
	    wc -l)"
	assert_eq r2_addresses_survived "198.18.2.2/24 198.18.3.1/24" \
	    "$(in_host R2 ip -4 -o addr show | awk '$2 != "lo" &&
	    $2 != "mgmt0" { print $4 }' |
	    sort | tr '\n' ' ' | sed 's/ $//')"
fi

# 5.
$HL -o "$T/extfault" run "$T/extfault.yaml" >"$T/extfault.log" 2>&1
assert_eq ext_fault_exit_1 1 "$?"
assert_eq ext_fault_message "hoplab: run extfault failed: fault on link \
R1-R2: R2 is an external router (hoplab has no agent there); cut the other \
end (end: R1)" "$(cat "$T/extfault.log")"

# 6.
lab_down
assert_eq no_namespace_left "" "$(ip netns list | grep "^$LAB_PREFIX-")"
finish
