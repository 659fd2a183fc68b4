#!/bin/sh
# t_examples: every shipped example plan loads and lists its runs, and one
# quick example really runs (examples/README.md).  Lab prefix hlt18,
# management K 217; routers A B C, kernel forwarding.
#
# Checks:
# 1. (no lab) for every examples/*.yaml: `hoplab run --dry-run` exits 0,
#    prints the header line "plan NAME (FILE): N run(s)", exactly N
#    numbered run lines 1..N and an "estimate:" line; the file starts
#    with a comment header; examples/README.md names the file;
# 2. (lab) examples/link-cut-quick.yaml runs: summary.csv has the four
#    flows probe, voip, iptv, web; the probe lost packets (the link B-C
#    was down) and received packets (it came back); faults.csv has the
#    down and the up of both ends (4 rows, result ok); outages.csv has a
#    row for the probe around "link B-C down"; the probe lost nothing in
#    the intervals that end before the first fault of faults.csv (the
#    cut, at about 1.5 s: the intervals 0..0.5 and 0.5..1.0 s).
# About 20 s.  Run as root; tests/integration/run.sh does.
set -u
. "$(dirname "$0")/lib.sh"

need_root
for b in hoplab hoplab-agent hoplab-gen; do
	[ -x "$HL_BIN/$b" ] || bail "${b}_built" "$HL_BIN/$b is missing (make)"
done
T=$(mktemp -d /tmp/hoplab-t-examples.XXXXXX) || bail tmp "mktemp failed"
[ -n "${HLT_KEEP:-}" ] || at_exit "rm -rf '$T'"
E=$HL_ROOT/examples

# 1. Every example: a dry run lists its runs.
n_ex=0
for f in "$E"/*.yaml; do
	x=$(basename "$f" .yaml)
	n_ex=$((n_ex + 1))
	(cd "$HL_ROOT" && "$HL_BIN/hoplab" run --dry-run "examples/$x.yaml") \
	    >"$T/$x.dry" 2>&1
	rc=$?
	if [ "$rc" != 0 ]; then
		sed 's/^/    /' "$T/$x.dry"
		fail "${x}_dry_run_exits_0" "exit $rc"
		continue
	fi
	want=$(sed -n "1s/^plan [^ ]* (examples\/$x\.yaml): \([0-9][0-9]*\) run(s).*/\1/p" \
	    "$T/$x.dry")
	if [ -z "$want" ]; then
		fail "${x}_dry_run_header" "first line: $(head -n 1 "$T/$x.dry")"
		continue
	fi
	got=$(awk '$1 ~ /^[0-9]+$/ { if ($1 != ++n) bad = 1 }
	    END { print bad ? "out of order" : n + 0 }' "$T/$x.dry")
	assert_eq "${x}_lists_its_${want}_runs" "$want" "$got"
	if grep -q '^estimate: ' "$T/$x.dry"; then
		pass "${x}_has_an_estimate"
	else
		fail "${x}_has_an_estimate" "no 'estimate:' line"
	fi
	assert_eq "${x}_starts_with_a_comment" "# $x.yaml:" \
	    "$(head -n 1 "$f" | cut -d' ' -f1-2)"
	if grep -q "$x\.yaml" "$E/README.md"; then
		pass "${x}_in_readme"
	else
		fail "${x}_in_readme" "examples/README.md does not name $x.yaml"
	fi
done
# 14 since the eight cpu-{linux,hoplab}-N.yaml became cpu-linux.yaml and
# cpu-hoplab.yaml (replicas: $n).
assert_ge at_least_14_examples "$n_ex" 14

# 2. A real run of the quick link cut.
lab_init hlt18 217
lab_up A B C
if ! "$HL_BIN/hoplab" -p "$LAB_PREFIX" -q -o "$T/r" run \
    "$E/link-cut-quick.yaml" >"$T/run.log" 2>&1; then
	sed 's/^/    /' "$T/run.log"
	bail run "hoplab run examples/link-cut-quick.yaml failed"
fi
pass link_cut_quick_runs
R=$(ls -d "$T"/r/link-cut-quick-*)
assert_eq four_flows "probe voip iptv web" \
    "$(csv_col "$R/summary.csv" flow | tr '\n' ' ' | sed 's/ $//')"
csv_col "$R/summary.csv" lost >"$T/lost"
csv_col "$R/summary.csv" received >"$T/recv"
assert_gt probe_lost_in_the_cut "$(head -n 1 "$T/lost")" 0
assert_gt probe_received_around_it "$(head -n 1 "$T/recv")" 0
assert_eq faults_down_and_up_at_both_ends "down down up up ok ok ok ok" \
    "$(csv_col "$R/faults.csv" action | tr '\n' ' ')$(csv_col \
    "$R/faults.csv" result | tr '\n' ' ' | sed 's/ $//')"
csv_col "$R/outages.csv" flow >"$T/of"
csv_col "$R/outages.csv" fault >"$T/ofa"
if paste -d, "$T/of" "$T/ofa" | grep -qx 'probe,link B-C down'; then
	pass probe_outage_row
else
	fail probe_outage_row "no probe row around 'link B-C down'"
fi
csv_col "$R/faults.csv" time_s >"$T/ft"
cut=$(sort -n "$T/ft" | head -n 1)
csv_col "$R/intervals.csv" flow >"$T/if"
csv_col "$R/intervals.csv" start_s >"$T/is"
csv_col "$R/intervals.csv" length_s >"$T/ilen"
csv_col "$R/intervals.csv" lost >"$T/il"
assert_eq probe_no_loss_before_the_cut 0 "$(paste -d' ' "$T/if" "$T/is" \
    "$T/ilen" "$T/il" | awk -v cut="$cut" '$1 == "probe" && $2 + $3 <= cut {
    n++; s += $4 } END { print n ? s : "no intervals before " cut }')"
finish
