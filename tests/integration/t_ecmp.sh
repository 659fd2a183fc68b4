#!/bin/sh
# t_ecmp: two parallel impaired links and equal-cost multipath
# (docs/plans.md "Parallel links and ECMP").  Lab prefix hlec,
# management K 221.
#
#   H1 -- R1 ==[R1-R2: delay 2 ms]== R2 -- H2
#            ==[R1-R2.2: delay 6 ms]==
#   198.18.1.0/24, 2.0/24 (R1-R2), 3.0/24 (R1-R2.2), 4.0/24 (R2-H2)
#
# topology.ecmp: true; 12 udp flows H1 -> H2 (200 x 200 B at 1 ms each,
# receiver ports 9000..9011, each its own socket's source port).
#
# Known truth:
#
# 1. --dry-run lists R1's multipath route to H2's subnet with both next
#    hops (198.18.2.2 dev R2, 198.18.3.2 dev R2.2) and both paths of a
#    flow, one per link;
# 2. during the run R1's kernel table (ip -j route, read in its
#    namespace) holds 198.18.4.0/24 as one route with two nexthops,
#    198.18.2.2 and 198.18.3.2, and fib_multipath_hash_policy is 1;
#    routes.csv has it as via 198.18.2.2+198.18.3.2, dev R2+R2.2;
# 3. the links' truth files (bin/hoplab-link --export-truth): each
#    flow's probes, forward (H1 -> H2), are all in one link's file and
#    none in the other's (the kernel hashes per flow), 200 of them;
#    both links carried at least one flow.  The source ports are the
#    kernel's ephemeral ones, so which link a flow takes is not known
#    beforehand: the chance that all 12 hash onto one link is
#    2 x 2^-12 = 2^-11 (0.05 %), and then link_both_used fails (12
#    flows rather than 8, whose 2^-7 = 0.8 % is too often for make check);
# 4. each flow's mean delay (summary.csv) is its link's truth mean added
#    delay + the stacks' own (measured: +30..+400 us) within
#    -100..+2500 us as t_topo_wan.sh bounds the same thing, and the
#    flows on the 6 ms link are at least 3 ms slower than those on the
#    2 ms link; TTL 62 on either path (two routers, equal length);
# 5. run.json says how the routes hash ("fib_multipath_hash_policy=1")
#    and that there are 2 multipath routes (R1's to H2, R2's to H1);
# 6. a link fault on R1-R2 (R1's first next hop): while down R1's kernel
#    keeps the multipath route with that next hop dead; after up the
#    route is whole again (both next hops alive, metric 1, one entry);
# 7. refusals before anything starts: ecmp on a single path, a link name
#    taken, ecmp with a hoplab router that has two equal-cost next hops;
# 8. `lab down` leaves no namespace of the lab.
# About 15 s.  Run as root; tests/integration/run.sh does.
set -u
. "$(dirname "$0")/lib.sh"

need_root
for b in hoplab hoplab-agent hoplab-gen hoplab-link; do
	[ -x "$HL_BIN/$b" ] || bail "${b}_built" "$HL_BIN/$b is missing (make)"
done
command -v ethtool >/dev/null 2>&1 || bail ethtool "ethtool is missing"
lab_init hlec 221
T=$(mktemp -d /tmp/hoplab-t-ecmp.XXXXXX) || bail tmp "mktemp failed"
[ -n "${HLT_KEEP:-}" ] || at_exit "rm -rf '$T'"
HL="$HL_BIN/hoplab -p $LAB_PREFIX -k $LAB_K"
FLOWS="1 2 3 4 5 6 7 8 9 10 11 12"

{
	cat <<'EOF'
name: ecmp
topology:
  hosts:
    H1: {}
    H2: {}
    R1: {router: linux}
    R2: {router: linux}
  links:
    - [H1, R1]
    - [R1, R2]
    - [R1, R2]
    - [R2, H2]
  ecmp: true
impairments:
  - {link: R1-R2, delay: 2ms}
  - {link: R1-R2.2, delay: 6ms}
flows:
EOF
	for i in $FLOWS; do
		echo "  - {name: f$i, from: H1, to: H2, mode: udp, frame: 200," \
		    "idt: 1ms, count: 200}"
	done
} >"$T/ecmp.yaml"

# 1.
$HL_BIN/hoplab run --dry-run "$T/ecmp.yaml" >"$T/dry.out" 2>&1
assert_eq dry_run_exits_0 0 "$?"
DRY=$(cat "$T/dry.out")
assert_match dry_run_multipath_route "route R1 +198\.18\.4\.0/24 +via \
198\.18\.2\.2 +dev R2 +metric 1 \(multipath, hashed per flow on L4: also via \
198\.18\.3\.2 dev R2\.2\)" "$DRY"
assert_match dry_run_path_link1 "path 1: H1 \[H1-R1\] R1 \[R1-R2\] R2 \
\[R2-H2\] H2" "$DRY"
assert_match dry_run_path_link2 "path 2: H1 \[H1-R1\] R1 \[R1-R2\.2\] R2 \
\[R2-H2\] H2" "$DRY"
assert_match dry_run_link2_iface "link +R1-R2\.2 +198\.18\.3\.0/24 +R1 \
198\.18\.3\.1 \(dev R2\.2\), R2 198\.18\.3\.2 \(dev R1\.2\)" "$DRY"

LAB_IS_UP=1
if ! $HL lab up --plan "$T/ecmp.yaml" >"$T/up.log" 2>&1; then
	sed 's/^/    /' "$T/up.log"
	bail lab_up_plan "hoplab lab up --plan failed"
fi

# The gateways of R1's route to 198.18.4.0/24, sorted, from the kernel.
r1_gateways()
{
	in_host R1 ip -j route show 198.18.4.0/24 2>/dev/null | python3 -c '
import json, sys
rs = json.load(sys.stdin)
print(" ".join(sorted(n["gateway"] for r in rs for n in r.get("nexthops", []))))'
}
r1_multipath()
{
	[ "$(r1_gateways)" = "198.18.2.2 198.18.3.2" ]
}

# 2. The run in the background; R1's table read while its role is on.
$HL -o "$T/run" run "$T/ecmp.yaml" >"$T/run.log" 2>&1 &
RUN_PID=$!
at_exit "kill $RUN_PID 2>/dev/null"
if wait_for 20 "R1's multipath route" r1_multipath; then
	pass r1_kernel_multipath_route
	GW=$(r1_gateways)
	HASH=$(in_host R1 cat /proc/sys/net/ipv4/fib_multipath_hash_policy)
	ROUTES=$(in_host R1 ip -j route show 198.18.4.0/24)
else
	GW=$(r1_gateways)
	HASH=?
	ROUTES=$(in_host R1 ip -j route show 198.18.4.0/24)
fi
assert_eq r1_route_two_nexthops "198.18.2.2 198.18.3.2" "$GW"
assert_eq r1_one_route_entry 1 "$(echo "$ROUTES" | python3 -c '
import json, sys
print(len(json.load(sys.stdin)))')"
assert_eq r1_hash_policy_l4 1 "$HASH"
wait "$RUN_PID"
RC=$?
if [ "$RC" != 0 ]; then
	sed 's/^/    /' "$T/run.log"
	bail run "hoplab run failed ($RC)"
fi
pass run_completes
D=$(ls -d "$T/run"/*-*)

# 3. Which link carried each flow, from the truth files (forward).
for l in R1-R2 R1-R2.2; do
	f=$(ls "$D"/links/*"$l"_*_1.truth 2>/dev/null | head -n 1)
	[ -n "$f" ] || { fail "truth_$l" "no truth file for $l in $D/links"; continue; }
	"$HL_BIN/hoplab-link" --export-truth "$f" >"$T/$l.csv" ||
	    fail "export_$l" "hoplab-link --export-truth $f failed"
done
# flow link count mean_delay_us, one line per flow id 1..8 (forward: the
# wire's a-b direction is R1 -> R2, as the link is written)
python3 - "$T/R1-R2.csv" "$T/R1-R2.2.csv" >"$T/carried" <<'PY'
import csv, sys
per = {}
for path, name in ((sys.argv[1], "R1-R2"), (sys.argv[2], "R1-R2.2")):
    for r in csv.DictReader(open(path)):
        if r["kind"] != "probe" or r["dir"] != "a-b" or r["fate"] != "sent":
            continue
        d = per.setdefault(int(r["flow"]), {}).setdefault(name, [0, 0])
        d[0] += 1
        d[1] += int(r["delay_ns"])
for f in range(1, 13):
    links = per.get(f, {})
    desc = " ".join("%s:%d:%.1f" % (n, c, s / c / 1000)
                    for n, (c, s) in sorted(links.items()))
    print(f, len(links), desc)
PY
cat "$T/carried" | sed 's/^/    flow /'
ONE=$(awk '$2 == 1' "$T/carried" | wc -l)
assert_eq every_flow_on_exactly_one_link 12 "$ONE"
assert_eq every_flow_200_probes 12 "$(awk '$2 == 1 && $3 ~ /:200:/' \
    "$T/carried" | wc -l)"
N1=$(awk '$3 ~ /^R1-R2:/' "$T/carried" | wc -l)
N2=$(awk '$3 ~ /^R1-R2\.2:/' "$T/carried" | wc -l)
assert_eq link_both_used 1 "$([ "$N1" -ge 1 ] && [ "$N2" -ge 1 ] &&
    echo 1 || echo 0)"

# 4. Each flow's mean delay against its link's truth.
S=$D/summary.csv
csv_col "$S" flow >"$T/sflow" && csv_col "$S" delay_mean_us >"$T/smean" &&
    csv_col "$S" ttl_min >"$T/sttl" && csv_col "$S" lost >"$T/slost"
paste -d' ' "$T/sflow" "$T/smean" "$T/sttl" "$T/slost" >"$T/sum"
FAST_MAX=0
SLOW_MIN=999999
for i in $FLOWS; do
	set -- $(awk -v f="$i" '$1 == f { print $3 }' "$T/carried" | tr ':' ' ')
	link=${1:-none}
	truth=${3:-0}
	set -- $(awk -v f="f$i" '$1 == f { print $2, $3, $4 }' "$T/sum")
	mean=${1:-0}
	assert_eq "f${i}_ttl_62" 62 "${2:-?}"
	assert_eq "f${i}_no_loss" 0 "${3:-?}"
	over=$(awk -v a="$mean" -v b="$truth" 'BEGIN { print a - b }')
	echo "    f$i: mean $mean us on $link, truth $truth us, over $over us"
	assert_near "f${i}_mean_${link}_truth_${truth}us" 1200 "$over" 1300
	if [ "$link" = R1-R2 ]; then
		FAST_MAX=$(awk -v a="$FAST_MAX" -v b="$mean" \
		    'BEGIN { print (b > a) ? b : a }')
	else
		SLOW_MIN=$(awk -v a="$SLOW_MIN" -v b="$mean" \
		    'BEGIN { print (b < a) ? b : a }')
	fi
done
if [ "$N1" -ge 1 ] && [ "$N2" -ge 1 ]; then
	assert_ge slow_link_3ms_slower "$(awk -v a="$SLOW_MIN" \
	    -v b="$FAST_MAX" 'BEGIN { print a - b }')" 3000
fi

# routes.csv (the agent's routewatch over rtnetlink) has the same route
assert_eq routes_csv_multipath "R1 198.18.2.2+198.18.3.2 R2+R2.2" "$(awk -F, '
    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    $c["router"] == "R1" && $c["prefix"] == "198.18.4.0/24" {
	print $c["router"], $c["via"], $c["dev"]; exit }' "$D/routes.csv")"

# 5.
assert_match run_json_hash "fib_multipath_hash_policy=1" "$(cat "$D/run.json")"
assert_match run_json_two_multipath_routes '"multipath_routes": *2[^0-9]' \
    "$(cat "$D/run.json")"

# 6. A fault on the link of R1's first next hop (R1 dev R2): while it is
# down the kernel keeps the multipath route with that next hop dead; after
# `up` hoplab puts the route back whole (metric 1, both next hops), and
# no single-hop route to 198.18.4.0/24 is left beside it.
# The link stays down 2.7 s: a poll (ip -j route and python3, a tenth of
# a second or more under load) must see it; with 0.5 s it missed it once.
sed -e 's/^name: ecmp$/name: ecmpfault/' -e 's/count: 200}/count: 4000}/' \
    -e '/^flows:$/i\
faults:\
  - {at: 300ms, link: R1-R2, action: down}\
  - {at: 3s, link: R1-R2, action: up}' "$T/ecmp.yaml" |
    awk '/name: f[5-9]|name: f1[0-9]/ { next } 1' >"$T/fault.yaml"
# "GATEWAY:FLAGS" of each next hop of R1's 198.18.4.0/24 routes, and their count.
r1_hops()
{
	in_host R1 ip -j route show 198.18.4.0/24 2>/dev/null | python3 -c '
import json, sys
rs = json.load(sys.stdin)
print(len(rs), " ".join(sorted("%s:%s" % (n["gateway"], ",".join(n.get("flags", [])))
    for r in rs for n in r.get("nexthops", []))))'
}
r1_dead()
{
	r1_hops | grep -q "^1 198.18.2.2:dead"
}
r1_whole()
{
	[ "$(r1_hops)" = "1 198.18.2.2: 198.18.3.2:" ]
}
$HL -o "$T/fault" run "$T/fault.yaml" >"$T/fault.log" 2>&1 &
RUN_PID=$!
at_exit "kill $RUN_PID 2>/dev/null"
if wait_for 20 "R1's first next hop dead" r1_dead; then
	pass fault_down_keeps_multipath_one_dead
	wait_for 5 "R1's route whole again" r1_whole
	assert_eq fault_up_route_whole "1 198.18.2.2: 198.18.3.2:" "$(r1_hops)"
	assert_eq fault_up_metric_1 1 "$(in_host R1 ip -j route show \
	    198.18.4.0/24 | python3 -c '
import json, sys
print(json.load(sys.stdin)[0].get("metric", 0))')"
else
	fail fault_down_keeps_multipath_one_dead "R1: $(r1_hops)"
fi
wait "$RUN_PID"
RC=$?
[ "$RC" = 0 ] || sed 's/^/    /' "$T/fault.log"
assert_eq fault_run_completes 0 "$RC"

# 7. Refusals, with file:line: key.
awk '/^    - \[R1, R2\]$/ && n++ { next } /R1-R2\.2, delay/ { next } 1' \
    "$T/ecmp.yaml" >"$T/single.yaml"
$HL_BIN/hoplab run --dry-run "$T/single.yaml" >"$T/single.out" 2>&1
assert_eq single_path_refused 2 "$?"
assert_match single_path_message "single.yaml:12: topology.ecmp: no linux \
router or end host has two equal-cost next hops to any prefix \(an ECMP \
request between hosts with a single path\)" "$(cat "$T/single.out")"
sed -e 's/^    - \[R1, R2\]$/    - {ends: [R1, R2], name: wan}/' \
    "$T/ecmp.yaml" >"$T/clash.yaml"
$HL_BIN/hoplab run --dry-run "$T/clash.yaml" >"$T/clash.out" 2>&1
assert_eq name_clash_refused 2 "$?"
assert_match name_clash_message "clash.yaml:11: topology.links\[2\].name: \
link name wan is taken by the link at line 10 \(wan\)" "$(cat "$T/clash.out")"
sed -e 's/R2: {router: linux}/R2: {router: hoplab}/' "$T/ecmp.yaml" \
    >"$T/hoplab.yaml"
$HL_BIN/hoplab run --dry-run "$T/hoplab.yaml" >"$T/hoplab.out" 2>&1
assert_eq hoplab_ecmp_refused 2 "$?"
assert_match hoplab_ecmp_message "hoplab.yaml:13: topology.ecmp: R2 is a \
hoplab router \(its FIB holds one next hop per prefix\) with 2 equal-cost \
next hops to 198.18.1.0/24" "$(cat "$T/hoplab.out")"

# 8.
lab_down
assert_eq no_namespace_left "" "$(ip netns list | grep "^$LAB_PREFIX-")"
finish
