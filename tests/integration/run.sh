#!/bin/sh
#
# run.sh: run every integration scenario (tests/integration/t_*.sh) in
# name order, as root, each under timeout(1) with 300 s, and count the
# scenarios that passed and failed.  The last line is always
#
#   integration: N passed, M failed
#
# and the exit status is non-zero when M > 0.  Without root nothing runs:
# every scenario counts as failed, with a message saying why (the lab needs
# network namespaces).  A scenario passes when it exits 0; its own output
# (one line per check, see lib.sh) is streamed as it runs.  Scenarios tear
# their labs down themselves (lib.sh traps); run.sh deliberately does not
# clean up after them, so a leak shows up as a failed scenario, not as
# silence.

dir=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)
limit=300

passed=0
failed=0
bad=

set -- "$dir"/t_*.sh
[ -e "$1" ] || set --

if [ "$(id -u)" != 0 ]; then
	echo "integration: skipped: the scenarios build network namespaces" \
	    "and need root; run: sudo make check" >&2
	n=$#
	[ "$n" -gt 0 ] || n=1
	echo "integration: 0 passed, $n failed"
	exit 1
fi
if [ $# -eq 0 ]; then
	echo "integration: no scenarios found in $dir" >&2
	echo "integration: 0 passed, 1 failed"
	exit 1
fi

for t in "$@"; do
	name=$(basename "$t" .sh)
	echo "integration: $name"
	start=$(date +%s)
	timeout -k 30 "$limit" sh "$t"
	rc=$?
	secs=$(($(date +%s) - start))
	if [ "$rc" -eq 0 ]; then
		passed=$((passed + 1))
		echo "integration: PASS $name (${secs} s)"
		continue
	fi
	failed=$((failed + 1))
	bad="$bad $name"
	case $rc in
	124|137) why="timed out after $limit s" ;;
	*) why="exit status $rc" ;;
	esac
	echo "integration: FAIL $name: $why (${secs} s)"
done

[ -z "$bad" ] || echo "integration: failed:$bad"
echo "integration: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
