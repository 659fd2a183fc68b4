#!/bin/sh
# t_sweep: a plan that sweeps an IDT and an impairment's delay, end to end
# (docs/plans.md "Sweeps").  Lab prefix hlt16, management K 219; router A,
# kernel forwarding, the link gen-A impaired by hoplab-link.
#
# Plan tests/plans/sweep-ok.yaml: idt [1ms, 500us] x delay [0ms, 5ms],
# 300 probes of 128 bytes.  Checks:
#
# 1. `hoplab run --dry-run` prints the list saved in sweep-ok.dryrun
#    (diff -u) and exits 0 without any agent; every broken plan in
#    tests/plans/ is refused with exit 2 and exactly its .expected text;
# 2. the run measures 4 points, in order, and summary.csv has a "point"
#    column holding idt=...;delay=... for each row, after the first 31
#    and before the pacing percentiles (the columns appended since);
# 3. each row sent 300 probes;
# 4. the rows with delay=5ms have a median one-way delay of at least
#    5000 us, those with delay=0ms under 5000 us: each point ran with its
#    own impairment, not the first one's;
# 5. tests/plans/sweep-random.yaml (order: {random: true, seed: 7}, two
#    variants): the rows come in the order --dry-run lists, which is not
#    the listed order, and the lab is rewired at every variant change.
# About 30 s.  Run as root; tests/integration/run.sh does.
set -u
. "$(dirname "$0")/lib.sh"

need_root
for b in hoplab hoplab-agent hoplab-link; do
	[ -x "$HL_BIN/$b" ] || bail "${b}_built" "$HL_BIN/$b is missing (make)"
done
T=$(mktemp -d /tmp/hoplab-t-sweep.XXXXXX) || bail tmp "mktemp failed"
[ -n "${HLT_KEEP:-}" ] || at_exit "rm -rf '$T'"
P=$HL_ROOT/tests/plans

# 1. No lab needed for these.
(cd "$HL_ROOT" && "$HL_BIN/hoplab" run --dry-run tests/plans/sweep-ok.yaml) \
    >"$T/dry.out" 2>&1
assert_eq dry_run_exits_0 0 "$?"
if diff -u "$P/sweep-ok.dryrun" "$T/dry.out" >&2; then
	pass dry_run_lists_the_runs
else
	fail dry_run_lists_the_runs "see the diff above"
fi
for f in "$P"/*.expected; do
	n=$(basename "$f" .expected)
	(cd "$HL_ROOT" && "$HL_BIN/hoplab" run --dry-run "tests/plans/$n.yaml") \
	    >"$T/$n.out" 2>&1
	rc=$?
	if [ "$rc" = 2 ] && diff -u "$f" "$T/$n.out" >&2; then
		pass "broken_plan_${n}_refused"
	else
		fail "broken_plan_${n}_refused" "exit $rc, or the diff above"
	fi
done

lab_init hlt16 219
lab_up A B
if ! "$HL_BIN/hoplab" -p "$LAB_PREFIX" -q -o "$T/r" run \
    "$P/sweep-ok.yaml" >"$T/run.log" 2>&1; then
	sed 's/^/    /' "$T/run.log"
	bail run "hoplab run sweep-ok.yaml failed"
fi
pass run_with_sweep_completes
S=$(ls -d "$T"/r/sweep-ok-*)/summary.csv

# 2.
assert_match summary_has_point_before_the_pacing_percentiles \
    ',tx_idt_err_p99_us,point,run,tx_idt_err_p50_us,tx_idt_err_p999_us,disturbed,replica_of$' \
    "$(head -n 1 "$S")"
assert_eq points_in_order \
    "idt=1ms;delay=0ms idt=1ms;delay=5ms idt=500us;delay=0ms idt=500us;delay=5ms" \
    "$(csv_col "$S" point | tr '\n' ' ' | sed 's/ $//')"
# 3.
assert_eq every_point_sent_300 "300 300 300 300" \
    "$(csv_col "$S" sent | tr '\n' ' ' | sed 's/ $//')"
# 4.
csv_col "$S" point >"$T/pt"
csv_col "$S" delay_p50_us >"$T/p50"
paste -d' ' "$T/pt" "$T/p50" >"$T/both"
while read -r pt p50; do
	case $pt in
	*delay=5ms) assert_ge "median_${pt}_at_least_5ms" "$p50" 5000 ;;
	*) assert_lt "median_${pt}_under_5ms" "$p50" 5000 ;;
	esac
done <"$T/both"

# 5. A seeded random order over two variants: the rows come in the order
#    --dry-run lists, and every variant change rewires the lab.
(cd "$HL_ROOT" && "$HL_BIN/hoplab" run --dry-run tests/plans/sweep-random.yaml) |
    awk 'NR > 2 && $1 ~ /^[0-9]+$/ { print $2 "," $3 }' >"$T/want.order"
if ! "$HL_BIN/hoplab" -p "$LAB_PREFIX" -o "$T/r" run \
    "$P/sweep-random.yaml" >"$T/rnd.log" 2>&1; then
	sed 's/^/    /' "$T/rnd.log"
	bail run_random "hoplab run sweep-random.yaml failed"
fi
S=$(ls -d "$T"/r/sweep-random-*)/summary.csv
csv_col "$S" variant >"$T/v"
csv_col "$S" point >"$T/p"
assert_eq random_order_as_dry_run_lists "$(cat "$T/want.order")" \
    "$(paste -d, "$T/v" "$T/p")"
if [ "$(tr '\n' ' ' <"$T/want.order")" != \
    "A,idt=1ms A,idt=500us A-B,idt=1ms A-B,idt=500us " ]; then
	pass random_order_is_not_the_listed_one
else
	fail random_order_is_not_the_listed_one "seed 7 kept the order"
fi
assert_eq random_order_rewires_at_each_change \
    "$(awk -F, '$1 != p { n++ } { p = $1 } END { print n }' \
    "$T/want.order")" "$(grep -c 'wiring gen' "$T/rnd.log")"
finish
