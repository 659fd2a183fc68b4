#!/bin/sh
#
# check.sh: everything `make check` runs after the build: the CUnit unit
# suites (the programs given as arguments, through tests/run-unit.sh), the
# shape check (tools/callgraph.py: no call circles between the files of a
# program), the fuzz targets for a bounded time (tests/fuzz/run.sh: 16
# libFuzzer targets, the parsers and receive paths of every program, 3 to
# 4 s each in two lanes, about 30 s), then the
# integration
# scenarios (tests/integration/run.sh, root only).  It
# reads the summary line of each part ("unit: N passed, M failed",
# "integration: N passed, M failed"), says how long each part took, and
# ends with exactly
#
#   check: N passed, M failed
#
# summing both; the exit status is non-zero on any failure.  A part that
# prints no summary, or fails without counting a failure, counts as one
# failure, so M is never 0 when something went wrong.  Without root the
# integration part does not run and counts as one failure.

here=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)
cd "$here/.." || exit 1

tmp=$(mktemp -d "${TMPDIR:-/tmp}/check.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

total_pass=0
total_fail=0
times=

# run_part NAME CMD...: run CMD streaming its output, then add the counts
# of its "NAME: N passed, M failed" line to the totals.
run_part()
{
	_name=$1
	shift
	_start=$(date +%s)
	{ "$@" 2>&1; echo $? >"$tmp/rc"; } | tee "$tmp/out"
	_rc=$(cat "$tmp/rc" 2>/dev/null)
	_secs=$(($(date +%s) - _start))
	_line=$(grep -E "^$_name: [0-9]+ passed, [0-9]+ failed\$" "$tmp/out" |
	    tail -n 1)
	_p=$(echo "$_line" | awk '{ print $2 }')
	_f=$(echo "$_line" | awk '{ print $4 }')
	if [ -z "$_line" ]; then
		echo "check: $_name printed no summary (exit status ${_rc:-?})"
		_p=0
		_f=1
	elif [ "${_rc:-1}" != 0 ] && [ "$_f" -eq 0 ]; then
		echo "check: $_name exited with status ${_rc:-?}"
		_f=1
	fi
	total_pass=$((total_pass + _p))
	total_fail=$((total_fail + _f))
	times="$times
check: $_name took $_secs s ($_p passed, $_f failed)"
}

run_part unit sh tests/run-unit.sh "$@"
# No call circles between the files of a program (tools/callgraph.py,
# docs/architecture.md "The pipeline").
run_part shape sh -c 'if python3 tools/callgraph.py; then
	echo "shape: 1 passed, 0 failed"
else
	echo "shape: 0 passed, 1 failed"; exit 1
fi'
# libFuzzer on every parser and receive path, each for its time in
# tests/fuzz/run.sh's table.
run_part fuzz sh tests/fuzz/run.sh
if [ "$(id -u)" = 0 ]; then
	run_part integration sh tests/integration/run.sh
else
	echo "check: integration tests need root (network namespaces);" \
	    "run: sudo make check"
	total_fail=$((total_fail + 1))
	times="$times
check: integration not run (not root)"
fi

echo "$times" | sed '/^$/d'
echo "check: $total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
