#!/bin/sh
# t_gen_loopback: hoplab-gen (l2 mode) through one Linux router, on a tiny
# lab of its own (prefix "hlg-", nothing shared with deploy/lab.sh):
#
#   hlg-gen: tx  ----veth----  in  :hlg-r  198.18.0.2/24
#            rx  ----veth----  out :hlg-r  198.18.100.1/24, ip_forward=1
#
# The generator namespace has no IPv4 address at all: hoplab-gen owns
# 198.18.0.1 on tx and 198.18.100.2 on rx in user space (it answers ARP).
#
# 1. 2000 packets at 1 ms, frame 64 and then 1518: nothing lost, received
#    == sent, TTL seen 63 (one router), mean delay above 0 and below 1 ms.
# 2. An nftables rule in hlg-r drops every 100th forwarded probe
#    (numgen inc mod 100): the generator's lost count equals the rule's
#    counter exactly, 20 of 2000.
# 3. A gateway that does not exist: exit status 3 and a message naming
#    the gateway and the interface.
#
# Run as root from the repository root (tests/integration/run.sh does).
# Prints "PASS t_gen_loopback: ..." / "FAIL t_gen_loopback: ..." per check
# and exits non-zero if any failed.  The namespaces go away on any exit.
set -u
GL_ROOT=$(CDPATH='' cd -- "$(dirname -- "$0")/../.." && pwd)
. "$GL_ROOT/tools/genlab.sh"
genlab_init hlg
GEN=$GL_P-gen
RTR=$GL_P-r
BIN=${HL_BIN:-bin}/hoplab-gen
TMP=$(mktemp -d /tmp/hoplab-t-gen.XXXXXX)
FAILS=0

cleanup() {
	genlab_down
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'echo "FAIL t_gen_loopback: interrupted"; exit 1' INT TERM HUP

pass() { echo "PASS t_gen_loopback: $*"; }
fail() { echo "FAIL t_gen_loopback: $*"; FAILS=$((FAILS + 1)); }
bail() { fail "$*"; exit 1; }

in_rtr() { ip netns exec "$RTR" "$@"; }

# gen OUTFILE GATEWAY FLOW: run hoplab-gen in hlg-gen (bounded by timeout),
# stdout and stderr to OUTFILE; its exit status is returned.
gen() {
	timeout -s INT 60 ip netns exec "$GEN" "$BIN" --tx tx --rx rx \
	    --src 198.18.0.1 --dst 198.18.100.2 --gateway "$2" \
	    --flow "$3" --drain 500ms --ttl 64 >"$1" 2>&1
}

# field FILE NAME COLUMN: column COLUMN of flow NAME's row in the packet
# table (packets) or the delay table (delay).
field() {
	awk -v name="$2" -v col="$3" '
	/^Packets per flow/ { t = "packets"; next }
	/^One-way delay/ { t = "delay"; next }
	/^Transmit pacing/ { t = ""; next }
	t != "" && $2 == name {
		if (t == "packets") {
			v["sent"] = $4; v["received"] = $5; v["lost"] = $6
			v["ttl"] = $11
		} else
			v["mean"] = $4
	}
	END { print (col in v) ? v[col] : "missing" }' "$1"
}

# run_clean FRAME: 2000 packets at 1 ms, nothing may go missing.
run_clean() {
	out=$TMP/clean-$1.txt
	if ! gen "$out" 198.18.0.2 \
	    "frame=$1,count=2000,idt=1ms,id=1,name=probe"; then
		sed 's/^/    /' "$out"
		fail "frame $1: hoplab-gen exited with $?"
		return
	fi
	sent=$(field "$out" probe sent)
	recv=$(field "$out" probe received)
	lost=$(field "$out" probe lost)
	ttl=$(field "$out" probe ttl)
	mean=$(field "$out" probe mean)
	detail="sent $sent, received $recv, lost $lost, ttl $ttl, mean $mean us"
	if [ "$sent" = 2000 ] && [ "$recv" = "$sent" ] && [ "$lost" = 0 ] &&
	    [ "$ttl" = 63 ] && awk -v m="$mean" 'BEGIN {
	    exit !(m ~ /^[0-9.]+$/ && m > 0 && m < 1000) }'; then
		pass "frame $1: $detail"
	else
		sed 's/^/    /' "$out"
		fail "frame $1: expected 2000 sent and received, 0 lost, ttl 63," \
		    "0 < mean < 1000 us; got $detail"
	fi
}

run_drop() {
	out=$TMP/drop.txt
	in_rtr nft add table ip hlg &&
	in_rtr nft add chain ip hlg drop100 \
	    '{ type filter hook forward priority 0; policy accept; }' &&
	in_rtr nft add rule ip hlg drop100 udp dport 7 numgen inc mod 100 == 0 \
	    counter drop || bail "nftables rule could not be added"
	if ! gen "$out" 198.18.0.2 "frame=64,count=2000,idt=1ms,name=probe"
	then
		sed 's/^/    /' "$out"
		fail "drop: hoplab-gen exited with $?"
		return
	fi
	lost=$(field "$out" probe lost)
	sent=$(field "$out" probe sent)
	dropped=$(in_rtr nft list chain ip hlg drop100 |
	    sed -n 's/.*counter packets \([0-9]*\) .*/\1/p')
	if [ "$sent" = 2000 ] && [ "$dropped" = 20 ] &&
	    [ "$lost" = "$dropped" ]; then
		pass "drop: lost $lost = nftables counter $dropped of $sent"
	else
		sed 's/^/    /' "$out"
		fail "drop: expected lost = nftables counter = 20 of 2000;" \
		    "got lost '$lost', counter '$dropped', sent '$sent'"
	fi
}

run_no_gateway() {
	out=$TMP/arp.txt
	gen "$out" 198.18.0.99 "frame=64,count=10,idt=1ms"
	rc=$?
	if [ "$rc" = 3 ] && grep -q "198.18.0.99" "$out" &&
	    grep -q "interface tx" "$out"; then
		pass "no gateway: exit 3, $(head -n 1 "$out")"
	else
		sed 's/^/    /' "$out"
		fail "no gateway: expected exit 3 naming 198.18.0.99 and tx," \
		    "got exit $rc"
	fi
}

[ "$(id -u)" = 0 ] || bail "needs root (network namespaces)"
[ -x "$BIN" ] || bail "$BIN not built (make bin/hoplab-gen)"
cleanup
mkdir -p "$TMP"
genlab_chain1 || bail "could not build the lab"
run_clean 64
run_clean 1518
run_drop
run_no_gateway
if [ "$FAILS" -eq 0 ]; then
	echo "PASS t_gen_loopback"
	exit 0
fi
echo "FAIL t_gen_loopback: $FAILS checks failed"
exit 1
