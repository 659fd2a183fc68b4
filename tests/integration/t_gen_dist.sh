#!/bin/sh
# t_gen_dist: hoplab-gen's kernel timestamps and traffic distributions,
# through one Linux router on a tiny lab of its own (namespace prefix
# "hlgd-", no management network, so no K):
#
#   hlgd-gen: tx ----veth---- in :hlgd-r 198.18.0.2/24
#             rx ----veth---- out:hlgd-r 198.18.100.1/24, ip_forward=1
#
# 1. Default timestamps: the summary names tx=kernel-sw,rx=kernel-sw and
#    every packet arrives; --tstamp user names tx=user,rx=user.
# 2. frame=uniform:64:1518, idt=exp:500us, seed=3: nothing lost, the mean
#    frame sent lies within 5 % of 791 bytes, and a second run with the
#    same seed sends exactly the same mean frame; seed=4 does not.
# 3. frame=normal:64:200: about half the draws fall below 64 and are
#    clamped and counted (60..140 of 200; the binomial sd is 7).
# 4. Impossible parameters (idt=exp:0ms, frame=uniform:10:20) exit 1
#    with a message naming the flow key and the value, before any lab
#    is touched.
#
# Run as root from the repository root.  The namespaces go away on exit.
set -u
GL_ROOT=$(CDPATH='' cd -- "$(dirname -- "$0")/../.." && pwd)
. "$GL_ROOT/tools/genlab.sh"
genlab_init hlgd
GEN=$GL_P-gen
BIN=${HL_BIN:-bin}/hoplab-gen
TMP=$(mktemp -d /tmp/hoplab-t-gdist.XXXXXX)
FAILS=0

cleanup() {
	genlab_down
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'echo "FAIL t_gen_dist: interrupted"; exit 1' INT TERM HUP

pass() { echo "PASS t_gen_dist: $*"; }
fail() { echo "FAIL t_gen_dist: $*"; FAILS=$((FAILS + 1)); }
bail() { fail "$*"; exit 1; }
# gen OUTFILE ARGS...: hoplab-gen in hlgd-gen, bounded by timeout.
gen() {
	out=$1
	shift
	timeout -s INT 60 ip netns exec "$GEN" "$BIN" --tx tx --rx rx \
	    --src 198.18.0.1 --dst 198.18.100.2 --gateway 198.18.0.2 \
	    --drain 300ms "$@" >"$out" 2>&1
}

# counts FILE: "sent received lost" of the first flow row.
counts() {
	awk '/^Packets per flow/ { getline; getline; print $4, $5, $6; exit }' "$1"
}

check_tstamp() {
	gen "$TMP/k.txt" --flow frame=64,count=500,idt=1ms
	c=$(counts "$TMP/k.txt")
	if grep -q "timestamps tx=kernel-sw,rx=kernel-sw" "$TMP/k.txt" &&
	    [ "$c" = "500 500 0" ]; then
		pass "kernel stamps named, sent/received/lost $c"
	else
		sed 's/^/    /' "$TMP/k.txt"
		fail "expected tx=kernel-sw,rx=kernel-sw and 500 500 0, got $c"
	fi
	gen "$TMP/u.txt" --tstamp user --flow frame=64,count=200,idt=1ms
	if grep -q "timestamps tx=user,rx=user" "$TMP/u.txt"; then
		pass "--tstamp user named as tx=user,rx=user"
	else
		sed 's/^/    /' "$TMP/u.txt"
		fail "--tstamp user: source not named tx=user,rx=user"
	fi
}

meanframe() {
	sed -n 's/.*mean frame sent \([0-9.]*\).*/\1/p' "$1" | head -n 1
}

check_dists() {
	f=frame=uniform:64:1518,idt=exp:500us,count=1000
	gen "$TMP/d1.txt" --flow "$f,seed=3"
	gen "$TMP/d2.txt" --flow "$f,seed=3"
	gen "$TMP/d3.txt" --flow "$f,seed=4"
	c=$(counts "$TMP/d1.txt")
	m1=$(meanframe "$TMP/d1.txt")
	m2=$(meanframe "$TMP/d2.txt")
	m3=$(meanframe "$TMP/d3.txt")
	if [ "$c" = "1000 1000 0" ] && [ -n "$m1" ] && [ "$m1" = "$m2" ] &&
	    [ "$m1" != "$m3" ] && awk -v m="$m1" 'BEGIN {
	    exit !(m > 791 * 0.95 && m < 791 * 1.05) }'; then
		pass "uniform/exp: $c, mean frame $m1 (same seed $m2," \
		    "other seed $m3)"
	else
		sed 's/^/    /' "$TMP/d1.txt"
		fail "uniform/exp: expected 1000 1000 0, mean frame within" \
		    "5 % of 791, equal for equal seeds; got $c, $m1, $m2, $m3"
	fi
	gen "$TMP/c.txt" --flow frame=normal:64:200,idt=1ms,count=200
	n=$(sed -n 's/.* \([0-9]*\) sizes clamped.*/\1/p' "$TMP/c.txt")
	if [ -n "$n" ] && [ "$n" -ge 60 ] && [ "$n" -le 140 ]; then
		pass "normal:64:200: $n of 200 sizes clamped and counted"
	else
		sed 's/^/    /' "$TMP/c.txt"
		fail "normal:64:200: expected 60..140 clamped, got '$n'"
	fi
}

check_bad() {
	for spec in "frame=64,count=10,idt=exp:0ms|idt: exp:0ms: the mean" \
	    "frame=uniform:10:20,count=10,idt=1ms|frame: uniform:10:20 gives"
	do
		flow=${spec%%|*}
		want=${spec#*|}
		"$BIN" --tx tx --rx rx --src 198.18.0.1 --dst 198.18.100.2 \
		    --gateway 198.18.0.2 --flow "$flow" >"$TMP/bad.txt" 2>&1
		rc=$?
		if [ "$rc" = 1 ] && grep -qF "$want" "$TMP/bad.txt"; then
			pass "refused: $(head -n 1 "$TMP/bad.txt")"
		else
			sed 's/^/    /' "$TMP/bad.txt"
			fail "$flow: expected exit 1 and '$want', got exit $rc"
		fi
	done
}

[ "$(id -u)" = 0 ] || bail "needs root (network namespaces)"
[ -x "$BIN" ] || bail "$BIN not built (make bin/hoplab-gen)"
check_bad
cleanup
mkdir -p "$TMP"
genlab_chain1 || bail "could not build the lab"
check_tstamp
check_dists
if [ "$FAILS" -eq 0 ]; then
	echo "PASS t_gen_dist"
	exit 0
fi
echo "FAIL t_gen_dist: $FAILS checks failed"
exit 1
