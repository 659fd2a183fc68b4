#!/bin/sh
# t_gen_measure: hoplab-gen's per-flow measurements beyond the summary,
# checked against an nftables rule's truth, through one Linux router on
# a tiny lab of its own (namespace prefix "hlgm-", no management network,
# so no K):
#
#   hlgm-gen: tx ----veth---- in :hlgm-r 198.18.0.2/24
#             rx ----veth---- out:hlgm-r 198.18.100.1/24, ip_forward=1
#
# The router drops every 100th probe (nft "numgen inc mod 100 == 0"):
# of 500 packets at 1 ms, sequence numbers 0, 100, 200, 300 and 400.
# 1. The summary, the rule's counter and --json all say 5 lost.
# 2. --records FILE and --export-records: 500 records, exactly the five
#    dropped sequence numbers not received, 495 received with a delay.
# 3. --json: the intervals (0.1 s) add up to 500 sent and 5 lost, the
#    delay PDF rows to 495 packets, and the RFC 3393 ipdv has exactly
#    490 consecutive pairs (499 neighbours, minus 1 for seq 0 and 2 for
#    each of 100..400).
# 4. --show intervals,pdf prints both tables; --export-records of a file
#    that is not a records file exits 1 and says so.
#
# Run as root from the repository root.  The namespaces go away on exit.
set -u
GL_ROOT=$(CDPATH='' cd -- "$(dirname -- "$0")/../.." && pwd)
. "$GL_ROOT/tools/genlab.sh"
genlab_init hlgm
GEN=$GL_P-gen
RTR=$GL_P-r
BIN=${HL_BIN:-bin}/hoplab-gen
TMP=$(mktemp -d /tmp/hoplab-t-gmeas.XXXXXX)
FAILS=0

cleanup() {
	genlab_down
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'echo "FAIL t_gen_measure: interrupted"; exit 1' INT TERM HUP

pass() { echo "PASS t_gen_measure: $*"; }
fail() { echo "FAIL t_gen_measure: $*"; FAILS=$((FAILS + 1)); }
bail() { fail "$*"; exit 1; }
in_rtr() { ip netns exec "$RTR" "$@"; }
lab_up() {
	genlab_chain1 && nft_rule
}

# A fresh drop rule: its numgen and counter start at 0.
nft_rule() {
	in_rtr nft delete table ip hlgm 2>/dev/null
	in_rtr nft -f - <<'NFT'
table ip hlgm {
	chain drop100 {
		type filter hook forward priority 0;
		udp dport 7 numgen inc mod 100 == 0 counter drop
	}
}
NFT
}

# gen OUTFILE ARGS...: hoplab-gen in hlgm-gen, bounded by timeout.
gen() {
	out=$1
	shift
	timeout -s INT 60 ip netns exec "$GEN" "$BIN" --tx tx --rx rx \
	    --src 198.18.0.1 --dst 198.18.100.2 --gateway 198.18.0.2 \
	    --drain 300ms "$@" >"$out" 2>"$out.err"
}

counter() {
	in_rtr nft list table ip hlgm | sed -n 's/.*counter packets \([0-9]*\) .*/\1/p'
}

# Run 1: records and the human summary.
check_records() {
	if ! gen "$TMP/r.txt" --records "$TMP/r.bin" --show intervals,pdf \
	    --interval 100ms --flow frame=64,count=500,idt=1ms,name=probe; then
		sed 's/^/    /' "$TMP/r.txt" "$TMP/r.txt.err"
		bail "hoplab-gen with --records failed"
	fi
	lost=$(awk '/^Packets per flow/ { getline; getline; print $6; exit }' \
	    "$TMP/r.txt")
	c=$(counter)
	if [ "$lost" = 5 ] && [ "$c" = 5 ]; then
		pass "summary lost $lost = nft counter $c"
	else
		sed 's/^/    /' "$TMP/r.txt"
		fail "expected 5 lost and counter 5, got lost '$lost' counter '$c'"
	fi
	if grep -q "^Intervals of 0.100 s" "$TMP/r.txt" &&
	    grep -q "^Delay PDF per flow" "$TMP/r.txt"; then
		pass "--show intervals,pdf prints both tables"
	else
		fail "--show intervals,pdf: tables missing"
	fi
	"$BIN" --export-records "$TMP/r.bin" >"$TMP/r.csv" 2>"$TMP/e.txt" ||
	    { cat "$TMP/e.txt"; bail "--export-records failed"; }
	rows=$(awk -F, 'NR > 1' "$TMP/r.csv" | wc -l)
	notrx=$(awk -F, 'NR > 1 && $9 == 0 { printf "%s ", $3 }' "$TMP/r.csv")
	rx=$(awk -F, 'NR > 1 && $9 == 1 && $6 > 0 && $8 == 63 { n++ }
	    END { print n + 0 }' "$TMP/r.csv")
	if [ "$rows" = 500 ] && [ "$notrx" = "0 100 200 300 400 " ] &&
	    [ "$rx" = 495 ]; then
		pass "records: 500 rows, not received: $notrx, 495 with delay"
	else
		head -n 3 "$TMP/r.csv" | sed 's/^/    /'
		fail "records: expected 500 rows, 0 100 200 300 400 lost," \
		    "495 received; got $rows, '$notrx', $rx"
	fi
	printf 'garbage that is not a records file\n' >"$TMP/bad.bin"
	"$BIN" --export-records "$TMP/bad.bin" >/dev/null 2>"$TMP/e.txt"
	rc=$?
	if [ "$rc" = 1 ] && grep -q "not a hoplab-gen records file" \
	    "$TMP/e.txt"; then
		pass "--export-records refuses a foreign file (exit 1)"
	else
		fail "--export-records of garbage: exit $rc, $(cat "$TMP/e.txt")"
	fi
}

# Run 2: --json, checked with jq.
check_json() {
	if ! gen "$TMP/j.json" --json --interval 100ms \
	    --flow frame=64,count=500,idt=1ms,name=probe; then
		sed 's/^/    /' "$TMP/j.json" "$TMP/j.json.err"
		bail "hoplab-gen --json failed"
	fi
	got=$(jq -r '.flows[0] | [.sent, .received, .lost,
	    ([.intervals[].sent] | add), ([.intervals[].lost] | add),
	    ([.delay_pdf[].count] | add), .ipdv.pairs,
	    (.delay.p999_ns > 0), (.ipdv.abs_p99_ns >= 0)] | @tsv' \
	    "$TMP/j.json" | tr '\t' ' ')
	want="500 495 5 500 5 495 490 true true"
	if [ "$got" = "$want" ]; then
		pass "json: sent/received/lost, intervals, pdf, ipdv pairs: $got"
	else
		head -c 600 "$TMP/j.json" | sed 's/^/    /'
		echo
		fail "json: expected '$want', got '$got'"
	fi
}

[ "$(id -u)" = 0 ] || bail "needs root (network namespaces)"
[ -x "$BIN" ] || bail "$BIN not built (make bin/hoplab-gen)"
command -v jq >/dev/null || bail "jq missing (make deps)"
cleanup
mkdir -p "$TMP"
lab_up || bail "could not build the lab"
check_records
nft_rule || bail "could not renew the nftables rule"
check_json
if [ "$FAILS" -eq 0 ]; then
	echo "PASS t_gen_measure"
	exit 0
fi
echo "FAIL t_gen_measure: $FAILS checks failed"
exit 1
