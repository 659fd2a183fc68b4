#!/bin/sh
# t_gen_offset: offset= staggers a flow's packets by that much.
#
# Lab (tools/genlab.sh, prefix hlgo; no management network): the
# generator namespace hlgo-gen and one Linux kernel router hlgo-r1.
# hoplab-gen sends two flows of 20 probes of 64 bytes at 10 ms: "a" to
# --dst (UDP port 9), "b" to dst=198.18.100.7 (port 10) with offset=4ms.
# tcpdump on the router's "in" stamps every probe (the truth, taken
# apart from hoplab-gen).  Checked: both flows arrive whole; the median
# time from each "a" probe to the next "b" one is 2..6 ms (without the
# offset both are due at one instant and leave microseconds apart; the
# band is wide, for a loaded 2-core machine); a 61 s offset is refused
# before anything is sent.  Root; about 3 s.
. "$(dirname "$0")/lib.sh"
GL_ROOT=$HL_ROOT
. "$HL_ROOT/tools/genlab.sh"

need_root
TMP=$(mktemp -d /tmp/hoplab-t-gen-offset.XXXXXX)
genlab_init hlgo
at_exit "genlab_down; rm -rf '$TMP'"
[ -x "$GL_GEN_BIN" ] || bail build "$GL_GEN_BIN not built (make bin/hoplab-gen)"
genlab_up 1 || bail lab_up "could not build the namespace lab"
cap_start r1 in "$TMP/in.pcap" "udp and (dst port 9 or dst port 10)" ||
    bail capture "tcpdump did not start"

if ! gen_run "$TMP/g.txt" 30 --drain 300ms \
    --flow "frame=64,count=20,idt=10ms,dport=9,name=a" \
    --flow "frame=64,count=20,idt=10ms,dport=10,name=b,dst=198.18.100.7,offset=4ms"
then
	sed 's/^/    /' "$TMP/g.txt"
	bail run "hoplab-gen exited non-zero"
fi
cap_stop || fail capture_whole "tcpdump dropped packets"
g() { gen_get "$TMP/g.txt" Packets "$1" "$2"; }
assert_eq both_arrive "20/20" "$(g a received)/$(g b received)"

# Per "b" probe, the time since the "a" probe before it, in us.
tcpdump -n -tt --time-stamp-precision=nano -r "$TMP/in.pcap" 2>/dev/null |
    awk '/\.9: / { ta = $1 } /\.10: / && ta != "" {
	printf "%.0f\n", ($1 - ta) * 1e6 }' | sort -n >"$TMP/gaps"
N=$(wc -l <"$TMP/gaps")
MED=$(awk -v n="$N" 'NR == int((n + 1) / 2) { print }' "$TMP/gaps")
echo "    $N b probes after an a probe; gap median ${MED:-none} us"
if [ "$N" -ge 15 ] && [ "${MED:-0}" -ge 2000 ] && [ "${MED:-0}" -le 6000 ]
then
	pass b_starts_4ms_after_a
else
	fail b_starts_4ms_after_a "median gap ${MED:-none} us over $N probes"
fi

if gen_run "$TMP/bad.txt" 10 \
    --flow "frame=64,count=10,idt=1ms,name=x,offset=61s"; then
	fail refuses_offset_61s "hoplab-gen accepted offset=61s"
elif grep -q "offset: expected 0ns..60s" "$TMP/bad.txt"; then
	pass refuses_offset_61s
else
	fail refuses_offset_61s "$(head -n 1 "$TMP/bad.txt")"
fi
finish
