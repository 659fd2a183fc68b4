#!/bin/sh
# t_switch: a switch host in a topology plan (docs/plans.md "Switches")
# on the namespace lab.  Lab prefix hlsw, management K 235.  The plan is
# tests/plans/switch-ok.yaml: devices D1, D2, D3 and router R1 on switch
# S1, R1's uplink to the outside host Out.
#
# Known truth, worked out by hand from the addressing rule (S1's subnet is
# the /24 of its first link, 198.18.1.0/24, its hosts .1 .. .4 in link
# order; R1-Out is link 4, 198.18.5.0/24):
#
# 1. `hoplab lab up --plan` builds the 6 hosts; in S1's namespace the
#    bridge S1 has STP off and no IPv4 address, and `bridge link` lists
#    its ports D1, D2, D3, R1 (one per link to S1, named after the far
#    host), all forwarding, and `lab.sh status` shows it with them;
# 2. during a run the kernel's tables (ip -j addr, ip -j route) are:
#    D1..D3 198.18.1.1..3/24 on S1, default via 198.18.1.4 dev S1; R1
#    198.18.1.4/24 on S1 and 198.18.5.1/24 on Out, no route but the two
#    connected ones; Out 198.18.5.2/24 on R1, default via 198.18.5.1;
# 3. udp flows D1 -> Out and D2 -> Out (2000 x 1 ms each) arrive with
#    TTL 63 (R1 only: the switch is no hop), D3 -> D1 on the LAN with
#    TTL 64; every flow receives all it sent;
# 3b. the same with R1 a hoplab router (its own ARP on the segment): the
#    plan's 500 x 1 ms per flow all arrive, TTL 63, 63, 64;
# 4. a fault `link: D1-S1, action: down` at 1 s of a 2 s flow D3 -> D1
#    takes D1's interface down (S1's port loses carrier): the flow loses
#    from then on (between 800 and 1200 of 2000), while D2 -> Out over
#    the same switch loses nothing;
# 5. `lab down` leaves no namespace of the lab and no link of its prefix.
# About 25 s.  Run as root; tests/integration/run.sh does.
set -u
. "$(dirname "$0")/lib.sh"

need_root
for b in hoplab hoplab-agent hoplab-gen; do
	[ -x "$HL_BIN/$b" ] || bail "${b}_built" "$HL_BIN/$b is missing (make)"
done
command -v bridge >/dev/null 2>&1 || bail bridge "bridge (iproute2) is missing"
command -v jq >/dev/null 2>&1 || bail tool_jq "jq is missing (sudo make deps)"
lab_init hlsw 235
T=$(mktemp -d /tmp/hoplab-t-switch.XXXXXX) || bail tmp "mktemp failed"
[ -n "${HLT_KEEP:-}" ] || at_exit "rm -rf '$T'"
PL=$HL_ROOT/tests/plans/switch-ok.yaml
HL="$HL_BIN/hoplab -p $LAB_PREFIX -k $LAB_K"
sed -e 's/count: 500/count: 2000/' -e 's/^name: .*/name: sw/' "$PL" \
    >"$T/sw.yaml"
sed -e 's/^name: .*/name: cut/' -e '/name: d1out/d' \
    -e 's/count: 500/count: 2000/' "$PL" >"$T/cut.yaml"
printf 'faults:\n  - {at: 1s, link: D1-S1, action: down}\n' >>"$T/cut.yaml"
sed -e 's/^name: .*/name: hop/' -e 's/R1: {router: linux}/R1: {router: hoplab}/' \
    "$PL" >"$T/hop.yaml"

# csv_field FILE FLOW COLUMN: COLUMN of FLOW's row in summary FILE.
csv_field()
{
	csv_col "$1" flow >"$T/flows.$$" && csv_col "$1" "$3" >"$T/col.$$" &&
	    paste -d' ' "$T/flows.$$" "$T/col.$$" | awk -v f="$2" \
	    '$1 == f { print $2; exit }'
}

# addrs HOST: "IFACE A.B.C.D/LEN" of each IPv4 address on HOST's data
# interfaces (not lo, mgmt0), sorted, ';' between them.
addrs()
{
	ip -n "$LAB_PREFIX-$1" -j addr show | jq -r '[.[] |
	    select(.ifname != "lo" and .ifname != "mgmt0") | .ifname as $i |
	    .addr_info[] | select(.family == "inet") |
	    "\($i) \(.local)/\(.prefixlen)"] | sort | join(";")'
}

# routes HOST: "DST [via GW] dev IF" of each IPv4 route of HOST's main
# table but the management one, sorted, ';' between them.
routes()
{
	ip -n "$LAB_PREFIX-$1" -j route show | jq -r '[.[] |
	    select(.dev != "mgmt0") | "\(.dst)\(if .gateway then
	    " via " + .gateway else "" end) dev \(.dev)"] | sort | join(";")'
}

# What 2. expects: "HOST addrs | routes" per host, a line each.
want_tables()
{
	for d in 1 2 3; do
		echo "D$d S1 198.18.1.$d/24 | 198.18.1.0/24 dev S1;default via 198.18.1.4 dev S1"
	done
	echo "R1 Out 198.18.5.1/24;S1 198.18.1.4/24 | 198.18.1.0/24 dev S1;198.18.5.0/24 dev Out"
	echo "Out R1 198.18.5.2/24 | 198.18.5.0/24 dev R1;default via 198.18.5.1 dev R1"
	echo "S1  | "
}

tables()
{
	for h in D1 D2 D3 R1 Out S1; do
		echo "$h $(addrs "$h") | $(routes "$h")"
	done
}

tables_configured()
{
	[ "$(tables)" = "$(want_tables)" ]
}

# 1.
LAB_IS_UP=1
if ! $HL lab up --plan "$PL" >"$T/up.log" 2>&1; then
	sed 's/^/    /' "$T/up.log"
	bail lab_up_plan "hoplab lab up --plan failed"
fi
assert_eq lab_hosts_are_the_plans "D1 D2 D3 Out R1 S1" "$(ip netns list |
    sed -n "s/^$LAB_PREFIX-\([A-Za-z0-9_]*\).*/\1/p" | sort | tr '\n' ' ' |
    sed 's/ $//')"
wait_for 5 "bridge S1's ports forwarding" sh -c "[ \$(bridge -n \
    $LAB_PREFIX-S1 link | grep -c 'master S1 state forwarding') = 4 ]"
assert_eq bridge_link_lists_the_ports "D1 D2 D3 R1" "$(bridge -n \
    "$LAB_PREFIX-S1" -j link | jq -r '[.[] | select(.master == "S1" and
    .state == "forwarding") | .ifname] | sort | join(" ")')"
assert_eq bridge_stp_off 0 "$(ip -n "$LAB_PREFIX-S1" -j -d link show S1 |
    jq -r '.[0].linkinfo.info_data.stp_state')"
assert_eq switch_has_no_data_address "" "$(addrs S1)"
assert_match status_shows_the_switch "$LAB_PREFIX-S1:S1 switch, ports: D1 D2 D3 R1 UP" \
    "$(lab_sh status)"

# 2. and 3.
$HL -o "$T/sw" run "$T/sw.yaml" >"$T/sw.log" 2>&1 &
RUN=$!
at_exit "kill $RUN 2>/dev/null"
wait_for 10 "the run's addresses and routes" tables_configured
tables >"$T/tables.got"
want_tables >"$T/tables.want"
if diff -u "$T/tables.want" "$T/tables.got" >"$T/tables.diff"; then
	pass kernel_tables_as_worked_out
else
	sed 's/^/    /' "$T/tables.diff"
	fail kernel_tables_as_worked_out "ip addr/route differ (above)"
fi
if wait "$RUN"; then
	pass run_completes
	S=$(ls -d "$T/sw"/sw-*)/summary.csv
	for f in d1out d2out d3d1; do
		assert_eq "${f}_sent" 2000 "$(csv_field "$S" $f sent)"
		assert_eq "${f}_received_all" 2000 "$(csv_field "$S" $f received)"
	done
	assert_eq d1out_ttl_63_one_router "63 63" "$(csv_field "$S" d1out \
	    ttl_min) $(csv_field "$S" d1out ttl_max)"
	assert_eq d2out_ttl_63_one_router "63 63" "$(csv_field "$S" d2out \
	    ttl_min) $(csv_field "$S" d2out ttl_max)"
	assert_eq d3d1_ttl_64_same_lan "64 64" "$(csv_field "$S" d3d1 \
	    ttl_min) $(csv_field "$S" d3d1 ttl_max)"
	assert_match console_path_skips_the_switch "d3d1 \(udp D3 D1\)" \
	    "$(cat "$T/sw.log")"
else
	sed 's/^/    /' "$T/sw.log"
	fail run_completes "hoplab run $T/sw.yaml failed"
fi

# 3b.
if $HL -o "$T/hop" run "$T/hop.yaml" >"$T/hop.log" 2>&1; then
	pass hoplab_run_completes
	S=$(ls -d "$T/hop"/hop-*)/summary.csv
	for f in d1out d2out d3d1; do
		assert_eq "hoplab_${f}_received_all" 500 \
		    "$(csv_field "$S" $f received)"
	done
	assert_eq hoplab_ttls_63_63_64 "63 63 64" "$(csv_field "$S" d1out \
	    ttl_max) $(csv_field "$S" d2out ttl_max) $(csv_field "$S" d3d1 \
	    ttl_max)"
else
	sed 's/^/    /' "$T/hop.log"
	fail hoplab_run_completes "hoplab run $T/hop.yaml failed"
fi

# 4.
if $HL -o "$T/cut" run "$T/cut.yaml" >"$T/cut.log" 2>&1; then
	pass cut_run_completes
	S=$(ls -d "$T/cut"/cut-*)/summary.csv
	assert_match cut_downs_d1s_end "fault: link D1-S1 down" \
	    "$(cat "$T/cut.log")"
	assert_ge cut_d3d1_loses_after_the_cut "$(csv_field "$S" d3d1 lost)" 800
	assert_le cut_d3d1_received_before "$(csv_field "$S" d3d1 lost)" 1200
	assert_eq cut_d2out_unaffected 0 "$(csv_field "$S" d2out lost)"
else
	sed 's/^/    /' "$T/cut.log"
	fail cut_run_completes "hoplab run $T/cut.yaml failed"
fi

# 5.
lab_down
assert_eq no_namespace_left "" "$(ip netns list | grep "^$LAB_PREFIX-")"
assert_eq no_link_left "" "$(ip -o link show | grep "$LAB_PREFIX-")"
finish
