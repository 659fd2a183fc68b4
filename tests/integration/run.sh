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
#
# The scenarios in NOISY measure delays against a known truth within a
# stated bound; on a shared 2-core machine a whole run can shift by
# microseconds, so one of them that fails is run once more and passes
# only if the second run passes.  The retry is printed, never hidden.
NOISY=" t_chain t_link_basic t_link_impair t_gen_pcap t_impair "

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
	case "$NOISY" in
	*" $name "*)
		if [ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] && [ "$rc" -ne 137 ]; then
			echo "integration: RETRY $name: its first run failed" \
			    "(exit status $rc); running it once more"
			timeout -k 30 "$limit" sh "$t"
			rc=$?
		fi ;;
	esac
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
