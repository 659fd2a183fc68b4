#!/bin/sh
#
# bench/killmatrix.sh [CASES [SEED]]: make bench's part (q), the kill
# matrix of tests/integration/t_killmatrix.sh with CASES (100) cases
# seeded by SEED (1): kill -9 of an agent, hoplab-gen, hoplab-router,
# hoplab-link or the controller at a random moment of a 3-point run,
# each followed by its recovery (an agent restarted over its spool,
# `hoplab attach`), and the results folder compared with an uninterrupted
# run.  Prints the matrix (a row per case) and a line of totals.  Its own
# lab (hlkm, K 196), torn down on any exit.  About 11 s a case.  Root.
ROOT=$(CDPATH='' cd -- "$(dirname -- "$0")/.." && pwd)
CASES=${1:-100}
SEED=${2:-1}
OUT=$(mktemp /tmp/hoplab-bench-killmx.XXXXXX) || exit 1
trap 'rm -f "$OUT"' EXIT
KM_CASES=$CASES KM_SEED=$SEED sh "$ROOT/tests/integration/t_killmatrix.sh" \
    >"$OUT" 2>&1
rc=$?
sed -n '/kill matrix (seed/,/^  ok   lab down\|^  FAIL lab down/p' "$OUT" |
    grep -v '^  \(ok\|FAIL\) '
grep -A 5 '^  FAIL' "$OUT"
echo "$(grep -c ' ok$' "$OUT") of $CASES cases recovered whole" \
    "($(tail -n 1 "$OUT" | sed 's/^t_killmatrix: //'))"
exit $rc
