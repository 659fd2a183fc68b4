#!/bin/sh
# t_cpufit: the CPU fit and the replicas' totals on a saved results
# folder (tests/data/cpufit/run, written by hand).  No lab, no root:
# `hoplab report --no-plots` on copies.
#
# The folder: variant A (one router, A), a sweep n = 1..4 of replicas:
# $n, run n carrying n copies p.1 .. p.n of 100 Mbit/s each, so router A
# forwards x = 100, 200, 300, 400 Mbit/s.  cpu.csv has 4 intervals per
# run for A and for gen (gen is no router of A: left out) and a core row
# per interval (cpu 0: left out).  A's busy (100 - idle) per run is
# 50, 4, 6, 70 / 40, 8, 10, 80 / 30, 15, 17, 90 / 60, 19, 21, 95: without
# the first and last interval y = 5, 9, 16, 20; hoplab_pct y = 1, 2, 3, 4.
#
# By hand (the same numbers as tests/unit/test_cpufit.c): busy K =
# 15100 / 300000 = 0.050333, +- 3.1824463 sqrt(1.966667 / 3 / 300000) =
# +- 0.004704, R2 1 - 1.966667 / 762 = 0.997419; slope 0.052, intercept
# -0.5, R2 0.986861.  hoplab: K = 3000 / 300000 = 0.01 exactly, the line
# slope 0.01, intercept 0, R2 1.  flows_total.csv: run 3 holds p.1..p.3
# with 1000 sent each and 0, 1, 2 lost: 3000 sent, 2997 received, 3 lost,
# loss 0.1 %, 300 Mbit/s, delay mean (11 x 1000 + 12 x 999 + 13 x 998) /
# 2997 = 11.999 us, min 6, max 23.
. "$(dirname "$0")/lib.sh"
T=$(mktemp -d /tmp/hoplab-t-cpufit.XXXXXX)
at_exit "rm -rf '$T'"
D=$HL_ROOT/tests/data/cpufit

same()
{
	if diff -u "$3" "$2" >"$T/diff" 2>&1; then
		pass "$1"
	else
		fail "$1" "$(cat "$T/diff")"
	fi
}

cp -r "$D/run" "$T/run"
if "$HL_BIN/hoplab" report --no-plots "$T/run" >"$T/out" 2>&1; then
	pass report_exits_0
else
	fail report_exits_0 "$(cat "$T/out")"
fi
for f in cpufit.csv cpufit_points.csv flows_total.csv; do
	same "$f" "$T/run/$f" "$D/expected/$f"
done
n=$(grep -c '^  A  *A  *busy  *4 points  K 0.050333 \[0.045629, 0.055038\]' \
    "$T/out")
assert_eq console_busy_line "$n" 1

# Without cpu.csv: nothing fitted, one line, exit 0, no cpufit files.
cp -r "$D/run" "$T/nocpu"
rm "$T/nocpu/cpu.csv"
"$HL_BIN/hoplab" report --no-plots "$T/nocpu" >"$T/nocpu.out" 2>&1
assert_eq nocpu_exit_0 "$?" 0
n=$(grep -c '^CPU fit: nothing fitted (no cpu.csv)$' "$T/nocpu.out")
assert_eq nocpu_one_line "$n" 1
assert_eq nocpu_no_file "$(ls "$T/nocpu" | grep -c cpufit)" 0

# One point (run 1 only): fewer than 2 points, nothing fitted.
cp -r "$D/run" "$T/one"
awk -F, 'NR == 1 || $4 == 1' "$D/run/cpu.csv" >"$T/one/cpu.csv"
"$HL_BIN/hoplab" report --no-plots "$T/one" >"$T/one.out" 2>&1
assert_eq one_exit_0 "$?" 0
n=$(grep -c '^CPU fit: nothing fitted (fewer than 2 points' "$T/one.out")
assert_eq one_point_one_line "$n" 1
assert_eq one_no_file "$(ls "$T/one" | grep -c cpufit)" 0
# No sweep (summary.csv without point): nothing to fit and not a word.
cp -r "$D/run" "$T/flat"
awk -F, 'NR == 1 || $15 == 1' "$D/run/summary.csv" | cut -d, -f1-13,15- \
    >"$T/flat/summary.csv"
"$HL_BIN/hoplab" report --no-plots "$T/flat" >"$T/flat.out" 2>&1
assert_eq flat_exit_0 "$?" 0
assert_eq flat_no_line "$(grep -c 'CPU fit' "$T/flat.out")" 0
assert_eq flat_no_file "$(ls "$T/flat" | grep -c cpufit)" 0
finish
