#!/bin/sh
#
# run-unit.sh: run CUnit test programs and sum their results.
#
#   sh tests/run-unit.sh build/asan/tests/test_clock build/asan/tests/test_pkt ...
#
# Each program's output is streamed as it runs.  Afterwards the script
# prints CUnit-style totals over all suites and, as its last line,
#
#   unit: N passed, M failed
#
# where N and M are the tests passed and failed, summed from the "tests"
# row of every program's CUnit "Run Summary".  A program that exits
# non-zero, crashes (ASan, a signal) or prints no summary fails the run; if
# its summary shows no failed test, it is counted as one failed test so
# that M is never 0 when something went wrong.  Exit status: 0 when every
# program passed, 1 otherwise, 2 on a usage error.

# shellcheck disable=SC2086

if [ $# -eq 0 ]; then
	echo "usage: run-unit.sh test-program ..." >&2
	exit 2
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/run-unit.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Sums: suites, tests, asserts, each total/ran/passed/failed/inactive.
s_tot=0 s_ran=0 s_fail=0 s_ina=0
t_tot=0 t_ran=0 t_pass=0 t_fail=0 t_ina=0
a_tot=0 a_ran=0 a_pass=0 a_fail=0
bad=""

for prog in "$@"; do
	case $prog in
	*/*) cmd=$prog ;;
	*) cmd=./$prog ;;
	esac
	out=$tmp/out
	: >"$out"
	echo "run-unit: $prog"
	# Stream through tee; the program's status survives in a file.
	{ "$cmd" 2>&1; echo $? >"$tmp/rc"; } | tee "$out"
	rc=$(cat "$tmp/rc" 2>/dev/null)
	[ -n "$rc" ] || rc=127

	# CUnit rows: "suites T R n/a F I", "tests T R P F I", "asserts T R P F n/a"
	sum=$(awk '
		/^Run Summary:/ { seen = 1; next }
		seen && $1 == "suites" && NF == 6 { print "S", $2, $3, $5, $6 }
		seen && $1 == "tests" && NF == 6 { print "T", $2, $3, $4, $5, $6 }
		seen && $1 == "asserts" && NF == 6 { print "A", $2, $3, $4, $5 }
	' "$out")
	srow=$(echo "$sum" | grep '^S ' | tail -n 1)
	trow=$(echo "$sum" | grep '^T ' | tail -n 1)
	arow=$(echo "$sum" | grep '^A ' | tail -n 1)

	# The rows hold only numbers and "n/a": split on purpose (SC2086).
	pfail=0
	if [ -n "$trow" ]; then
		set -- $trow
		t_tot=$((t_tot + $2)) t_ran=$((t_ran + $3))
		t_pass=$((t_pass + $4)) t_ina=$((t_ina + $6))
		pfail=$5
	fi
	if [ -n "$srow" ]; then
		set -- $srow
		s_tot=$((s_tot + $2)) s_ran=$((s_ran + $3))
		s_fail=$((s_fail + $4)) s_ina=$((s_ina + $5))
	fi
	if [ -n "$arow" ]; then
		set -- $arow
		a_tot=$((a_tot + $2)) a_ran=$((a_ran + $3))
		a_pass=$((a_pass + $4)) a_fail=$((a_fail + $5))
	fi

	why=""
	if [ -z "$trow" ]; then
		why="no CUnit summary (crashed?), exit status $rc"
	elif [ "$rc" -ne 0 ]; then
		why="exit status $rc"
	fi
	if [ "$rc" -gt 128 ] && [ "$rc" -lt 160 ]; then
		why="terminated by signal $((rc - 128))"
	fi
	if [ -n "$why" ] && [ "$pfail" -eq 0 ]; then
		pfail=1
	fi
	t_fail=$((t_fail + pfail))
	if [ -n "$why" ] || [ "$pfail" -ne 0 ]; then
		bad="$bad $prog"
		echo "run-unit: FAIL $prog${why:+: $why}"
	fi
	echo
done

echo "Run Summary (all programs): Type  Total    Ran Passed Failed Inactive"
printf '%34s%7d%7d%7s%7d%9d\n' suites $s_tot $s_ran n/a $s_fail $s_ina
printf '%34s%7d%7d%7d%7d%9d\n' tests $t_tot $t_ran $t_pass $t_fail $t_ina
printf '%34s%7d%7d%7d%7d%9s\n' asserts $a_tot $a_ran $a_pass $a_fail n/a
if [ -n "$bad" ]; then
	echo "failed:$bad"
fi
echo "unit: $t_pass passed, $t_fail failed"
if [ -n "$bad" ]; then
	exit 1
fi
exit 0
