#!/bin/sh
# t_hops_flags: the consistency check of hops.csv, on saved folders.
# No lab, no root: `hoplab report --no-plots` on copies of two results
# folders crafted by tests/data/hops/make.py (summary.csv and
# intervals.csv only): variants A, A-B, A-B-C at 20, 23, 26 us, 5
# repetitions in sequential mode (15 runs, 4 bins of 500 packets each).
#
# 1. consistent: no flags (empty flags column, no warning line, an empty
#    hops_flags.json list); hops.csv and the console output equal the
#    saved expected files (diff -u).  By hand: A's run means 20 + (0,
#    .04, -.03, .02, -.05), A-B's the same offsets rotated: the variance
#    of each mean 5.32e-3 / 4 / 5 = 2.66e-4, Welch 8 df, so A-B - A is
#    3 +- t95(8) sqrt(5.32e-4) = 3 +- 0.0532 (the blocks' +- 0.0497 is
#    narrower): [2.9468, 3.0532].
# 2. shifted: run 5 (A-B, rep 2) 6 us later: A-B - A, A-B-C - A-B and
#    the regression carry the flag inconsistent (the other four A-B runs
#    average 23.0025, spread 0.039 us), the mean-difference A-B-C - A,
#    which does not use A-B, does not; warning lines on the console, the
#    flags column and the reasons in hops_flags.json equal the saved
#    expected files.
. "$(dirname "$0")/lib.sh"
T=$(mktemp -d /tmp/hoplab-t-hops-flags.XXXXXX)
at_exit "rm -rf '$T'"
D=$HL_ROOT/tests/data/hops

# same NAME FILE EXPECTED: pass when they are equal, else fail with the diff.
same()
{
	if diff -u "$3" "$2" >"$T/diff" 2>&1; then
		pass "$1"
	else
		fail "$1" "$(cat "$T/diff")"
	fi
}

for f in consistent shifted; do
	cp -r "$D/$f" "$T/$f"
	if "$HL_BIN/hoplab" report --no-plots "$T/$f" >"$T/$f.raw" 2>&1; then
		pass "${f}_report_exits_0"
	else
		fail "${f}_report_exits_0" "$(cat "$T/$f.raw")"
	fi
	sed "s#^Results: .*#Results: DIR/#;
	    s#^Report page: .*/index.html #Report page: DIR/index.html #" \
	    "$T/$f.raw" >"$T/$f.out"
	same "${f}_hops_csv" "$T/$f/hops.csv" "$D/expected/$f.hops.csv"
	same "${f}_console" "$T/$f.out" "$D/expected/$f.out"
	same "${f}_flags_json" "$T/$f/hops_flags.json" \
	    "$D/expected/$f.hops_flags.json"
done

# The consistent folder: quiet, whatever the expected files hold.
n=$(grep -c '^warning:' "$T/consistent.out")
assert_eq consistent_no_warning "$n" 0
n=$(awk -F, 'NR > 1 && $NF != ""' "$T/consistent/hops.csv" | wc -l)
assert_eq consistent_no_flags "$n" 0
# The shifted one: the three estimates that use A-B, and only they.
n=$(grep -c '^warning: .*run 5 (rep 2) of A-B .*(flag inconsistent)$' \
    "$T/shifted.out")
assert_eq shifted_three_warnings "$n" 3
got=$(awk -F, 'NR > 1 { print $3 "/" $4 "/" $NF }' "$T/shifted/hops.csv" |
    tr '\n' ' ')
assert_eq shifted_flags_column "$got" "difference/A-B - A/inconsistent \
difference/A-B-C - A-B/inconsistent mean-difference/A-B-C - A/ \
regression/slope over all/inconsistent "
finish
