#!/bin/sh
# t_gen_mix: a mix of multiservice presets from one hoplab-gen (l2 mode)
# through one Linux router, on a tiny lab of its own (namespace prefix
# "hlgx-", no management network, so no K):
#
#   hlgx-gen: tx ----veth---- in :hlgx-r 198.18.0.2/24
#             rx ----veth---- out:hlgx-r 198.18.100.1/24, ip_forward=1
#
# Three flows for 2 s each: preset=voip-g711, preset=iptv (4 Mbit/s)
# and preset=web with a 100 ms mean think time.  Checks, per flow:
# a row of its own, sent > 0, received = sent, lost 0, the preset's
# frame length (218, 1362, 1518 incl. FCS), and the DSCP on the wire:
# nftables counters in hlgx-r, one per DSCP (EF, AF41, CS0), must equal
# each flow's sent count exactly.  Also: the web flow ran in bursts
# (more than one begun) and every flow was ended by its duration.
#
# Then the same mix as a plan, one line per service, run by the
# controller on a lab of its own (bin/hoplab -p hlgx -k 230, chain [A]):
# summary.csv must have one row per flow with the preset's frame length,
# received = sent and lost 0.
#
# Run as root from the repository root (tests/integration/run.sh does).
# The namespaces go away on any exit.
set -u
GL_ROOT=$(CDPATH='' cd -- "$(dirname -- "$0")/../.." && pwd)
. "$GL_ROOT/tools/genlab.sh"
genlab_init hlgx
GEN=$GL_P-gen
RTR=$GL_P-r
BIN=${HL_BIN:-bin}/hoplab-gen
TMP=$(mktemp -d /tmp/hoplab-t-genmix.XXXXXX)
FAILS=0

HOPLAB="${HL_BIN:-bin}/hoplab -p hlgx"
cleanup() {
	$HOPLAB lab down >/dev/null 2>&1
	genlab_down
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'echo "FAIL t_gen_mix: interrupted"; exit 1' INT TERM HUP

pass() { echo "PASS t_gen_mix: $*"; }
fail() { echo "FAIL t_gen_mix: $*"; FAILS=$((FAILS + 1)); }
bail() { fail "$*"; exit 1; }

in_rtr() { ip netns exec "$RTR" "$@"; }

# One counter per DSCP of forwarded probes (UDP to port 7).
nft_up() {
	in_rtr nft add table ip hlgx &&
	in_rtr nft add chain ip hlgx probes \
	    '{ type filter hook forward priority 0; policy accept; }' &&
	in_rtr nft add rule ip hlgx probes udp dport 7 ip dscp ef counter &&
	in_rtr nft add rule ip hlgx probes udp dport 7 ip dscp af41 counter &&
	in_rtr nft add rule ip hlgx probes udp dport 7 ip dscp cs0 counter
}

# counter DSCP: packets the rule for DSCP counted.
counter() {
	in_rtr nft list chain ip hlgx probes |
	    sed -n "s/.*ip dscp $1 counter packets \([0-9]*\) .*/\1/p"
}

# field FILE NAME COLUMN: from the packet table row of flow NAME.
field() {
	awk -v name="$2" -v col="$3" '
	/^Packets per flow/ { t = 1; next }
	/^$/ { t = 0 }
	t && $2 == name {
		v["frame"] = $3; v["sent"] = $4; v["received"] = $5
		v["lost"] = $6
	}
	END { print (col in v) ? v[col] : "missing" }' "$1"
}

[ "$(id -u)" = 0 ] || bail "needs root (network namespaces)"
[ -x "$BIN" ] || bail "$BIN not built (make bin/hoplab-gen)"
cleanup
mkdir -p "$TMP"
genlab_chain1 || bail "could not build the lab"
nft_up || bail "nftables counters could not be added"

out=$TMP/mix.txt
if ! timeout -s INT 60 ip netns exec "$GEN" "$BIN" --tx tx --rx rx \
    --src 198.18.0.1 --dst 198.18.100.2 --gateway 198.18.0.2 \
    --flow preset=voip-g711,duration=2s,name=call \
    --flow preset=iptv,duration=2s,name=tv \
    --flow preset=web,duration=2s,off=exp:100ms,name=surf \
    --drain 500ms >"$out" 2>&1; then
	sed 's/^/    /' "$out"
	bail "hoplab-gen exited with an error"
fi

check_flow() {	# NAME FRAME DSCP
	s=$(field "$out" "$1" sent)
	r=$(field "$out" "$1" received)
	l=$(field "$out" "$1" lost)
	fr=$(field "$out" "$1" frame)
	c=$(counter "$3")
	d="sent $s, received $r, lost $l, frame $fr, nft $3 counter $c"
	if [ "$s" != missing ] && [ "$s" -gt 0 ] && [ "$r" = "$s" ] &&
	    [ "$l" = 0 ] && [ "$fr" = "$2" ] && [ "$c" = "$s" ]; then
		pass "$1: $d"
	else
		fail "$1: expected sent > 0 = received = nft $3 counter," \
		    "lost 0, frame $2; got $d"
	fi
}
check_flow call 218 ef
check_flow tv 1362 af41
check_flow surf 1518 cs0

bursts=$(sed -n 's/^flow surf: on\/off.*: \([0-9]*\) bursts begun.*/\1/p' "$out")
ends=$(grep -c '^flow [a-z]*: duration 2.000 s, ended by duration' "$out")
if [ -n "$bursts" ] && [ "$bursts" -gt 1 ] && [ "$ends" = 3 ]; then
	pass "web ran in $bursts bursts; all 3 flows ended by their duration"
else
	fail "expected more than 1 web burst and 3 flows ended by duration;" \
	    "got bursts '$bursts', $ends ended by duration"
fi
[ "$FAILS" -eq 0 ] || sed 's/^/    /' "$out"

# The mix as a plan through controller, agent and generator.
genlab_down
cat >"$TMP/mix.yaml" <<'PLAN'
name: mix
topology: {chain: [A]}
variants: [A]
router: {impl: linux}
flows:
  - {name: call, preset: voip-g711, duration: 2s}
  - {name: tv, preset: iptv, rate: 8, duration: 2s}
  - {name: surf, preset: web, duration: 2s, off: exp:100ms}
PLAN
if ! $HOPLAB -k 230 lab up >"$TMP/up.log" 2>&1; then
	sed 's/^/    /' "$TMP/up.log"
	bail "plan: lab up failed"
fi
if ! timeout 120 $HOPLAB -q -o "$TMP/res" run "$TMP/mix.yaml" \
    >"$TMP/run.log" 2>&1; then
	sed 's/^/    /' "$TMP/run.log"
	bail "plan: hoplab run failed"
fi
rows=$(awk -F, 'NR > 1 && $6 > 0 && $6 == $7 && $8 == 0 {
	printf "%s:%s ", $5, $3 }' "$TMP"/res/mix-*/summary.csv)
if [ "$rows" = "call:218 tv:1362 surf:1518 " ]; then
	pass "plan: one row per service, none lost: $rows"
else
	sed 's/^/    /' "$TMP"/res/mix-*/summary.csv
	fail "plan: expected call:218 tv:1362 surf:1518 with received =" \
	    "sent and 0 lost; got '$rows'"
fi
if [ "$FAILS" -ne 0 ]; then
	echo "FAIL t_gen_mix: $FAILS checks failed"
	exit 1
fi
echo "PASS t_gen_mix"
exit 0
