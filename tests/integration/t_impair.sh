#!/bin/sh
# t_impair: a plan's impairments through hoplab's own link emulator, end to
# end: the controller adds a wire host for link A-B (deploy/lab.sh wires),
# splices it into the variants that cross A-B, starts hoplab-link there
# per point and fetches its truth file (docs/architecture.md "Impaired
# links").  Lab prefix hlt12, management K 229; routers A and B, kernel
# forwarding.
#
# Plan: variants A and A-B, frame 128, 1000 probes 1 ms apart,
# impairments: [{link: A-B, delay: 5ms, loss: 1%}].  Checks:
#
# 1. variant A crosses no wire: no loss, no link rows, no truth file,
#    median delay under 1 ms (nothing added);
# 2. variant A-B: the median one-way delay grows by 5 ms +- 0.3 ms over
#    variant A's (a generous, stated tolerance for a shared 2-core
#    machine; the emulator's own precision is bench/link_timing.sh's);
# 3. summary.csv's lost count equals, exactly, the number of probes of
#    the flow that the truth file (links/A-B_A-B_128_1.csv, its CSV
#    export) says the link dropped, and it is not 0;
# 4. links.csv's final forward row counts the same drops as the truth
#    file (every frame kind), and the warm-up has its own truth file;
# 5. a profile hoplab-link refuses (a correlation of 120 %) stops the run
#    with hoplab-link's own message on the console;
# 6. `lab down` removes the wire host's namespace and agent too.
# About 20 s.  Run as root; tests/integration/run.sh does.
set -u
. "$(dirname "$0")/lib.sh"

need_root
for b in hoplab hoplab-agent hoplab-link; do
	[ -x "$HL_BIN/$b" ] || bail "${b}_built" "$HL_BIN/$b is missing (make)"
done
lab_init hlt12 229
T=$(mktemp -d /tmp/hoplab-t-impair.XXXXXX) || bail tmp "mktemp failed"
[ -n "${HLT_KEEP:-}" ] || at_exit "rm -rf '$T'"
lab_up A B

# plan NAME IMPAIRMENT COUNT VARIANTS: a plan file T/NAME.yaml.
plan()
{
	cat >"$T/$1.yaml" <<PLAN
name: $1
topology: {chain: [A, B]}
variants: [$4]
router: {impl: linux}
sweep: {frame: [128]}
flows:
  - {name: probe, frame: \$frame, idt: 1ms, count: $3}
impairments: [$2]
PLAN
}

# cell FILE VARIANT COLUMN: the value of COLUMN in VARIANT's row.
cell()
{
	awk -F, -v v="$2" -v name="$3" 'NR == 1 {
	    for (i = 1; i <= NF; i++) h[$i] = i; next }
	    $h["variant"] == v { print $h[name] }' "$1"
}

plan impair "{link: A-B, delay: 5ms, loss: 1%}" 1000 "A, A-B"
if ! "$HL_BIN/hoplab" -p "$LAB_PREFIX" -q -o "$T/r" run "$T/impair.yaml" \
    >"$T/run.log" 2>&1; then
	sed 's/^/    /' "$T/run.log"
	bail run "hoplab run impair.yaml failed"
fi
pass run_with_impairment_completes
D=$(ls -d "$T"/r/impair-*)
S=$D/summary.csv

# 1.
assert_eq variant_A_lost_nothing 0 "$(cell "$S" A lost)"
assert_lt variant_A_median_under_1ms "$(cell "$S" A delay_p50_us)" 1000
assert_eq variant_A_has_no_link_rows "" \
    "$(awk -F, 'NR > 1 && $1 == "A"' "$D/links.csv")"
assert_eq variant_A_has_no_truth "" "$(ls "$D/links" | grep '^A_')"

# 2.
pa=$(cell "$S" A delay_p50_us)
pab=$(cell "$S" A-B delay_p50_us)
added=$(awk -v a="$pa" -v b="$pab" 'BEGIN { printf "%.1f", b - a }')
echo "    median delay A ${pa} us, A-B ${pab} us: added ${added} us"
assert_near median_delay_grows_by_5ms 5000 "$added" 300

# 3.
TC=$D/links/A-B_A-B_128_1.csv
[ -s "$TC" ] || bail truth_csv "no truth export $TC: $(ls "$D/links")"
truth_lost=$(awk -F, 'NR == 1 {
    for (i = 1; i <= NF; i++) h[$i] = i; next }
    $h["dir"] == "a-b" && $h["kind"] == "probe" && $h["flow"] == 1 &&
    $h["fate"] == "lost" { n++ } END { print n + 0 }' "$TC")
lost=$(cell "$S" A-B lost)
echo "    variant A-B: hoplab-gen lost $lost, truth file dropped $truth_lost probes"
assert_gt truth_file_dropped_probes "$truth_lost" 0
assert_eq measured_loss_equals_truth_exactly "$truth_lost" "$lost"

# 4.
all_lost=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
    $h["dir"] == "a-b" && $h["fate"] == "lost" { n++ } END { print n + 0 }' "$TC")
row_lost=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
    $h["variant"] == "A-B" && $h["rep"] == 1 && $h["final"] == 1 &&
    $h["direction"] == "forward" { print $h["lost"] }' "$D/links.csv")
assert_eq links_csv_final_lost_equals_truth "$all_lost" "$row_lost"
assert_ok warmup_has_its_own_truth test -s "$D/links/A-B_A-B_128_warmup.truth"
assert_match links_csv_names_profile 'delay 5ms loss 1%' \
    "$(grep ',forward,' "$D/links.csv" | head -1)"

# 5.
plan refused "{link: A-B, netem: \"delay 5ms 1ms 120%\"}" 10 "A-B"
if "$HL_BIN/hoplab" -p "$LAB_PREFIX" -q -o "$T/r2" run "$T/refused.yaml" \
    >"$T/run2.log" 2>&1; then
	fail refused_profile_stops_the_run "the run succeeded"
else
	assert_match refused_profile_reaches_the_console \
	    'w-A-B.*120%.*expected' "$(cat "$T/run2.log")"
fi

# 6.
assert_ok wire_namespace_exists ip netns exec "$LAB_PREFIX-w-A-B" true
lab_down
assert_eq lab_down_removes_wire_host "" \
    "$(ip netns list | awk '{ print $1 }' | grep "^$LAB_PREFIX-")"
finish
