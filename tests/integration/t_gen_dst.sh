#!/bin/sh
# t_gen_dst: flows to different destinations are measured apart.
#
# Lab (tools/genlab.sh, prefix hlgd; no management network, no K): the
# generator namespace hlgd-gen (tx, rx without kernel addresses) and one
# Linux kernel router hlgd-r1 (in 198.18.0.2/24, out 198.18.100.1/24).
# hoplab-gen sends two flows of 2000 probes of 64 bytes at 200 us to UDP
# port 9: "near" to --dst 198.18.100.2 and "far" with dst=198.18.100.7.
# The generator owns both on rx (answers the router's ARP for each).  A
# rule in the router's forward hook drops every 10th probe to
# 198.18.100.7 only (numgen inc mod 10, with a counter).
#
# Checked: far lost == the rule's counter == 200 and received 1800; near
# lost 0, received 2000 (the other destination's drops are not its own);
# the router resolved both destinations by ARP to rx's MAC; nothing on
# rx was counted foreign; a flow whose dst= is --src is refused before
# anything is sent.  No timing asserted.  Root; about 3 s.
. "$(dirname "$0")/lib.sh"
GL_ROOT=$HL_ROOT
. "$HL_ROOT/tools/genlab.sh"

need_root
TMP=$(mktemp -d /tmp/hoplab-t-gen-dst.XXXXXX)
genlab_init hlgd
at_exit "genlab_down; rm -rf '$TMP'"
[ -x "$GL_GEN_BIN" ] || bail build "$GL_GEN_BIN not built (make bin/hoplab-gen)"
genlab_up 1 || bail lab_up "could not build the namespace lab"

ip netns exec hlgd-r1 nft -f - <<EOF2 || bail rule "nftables rule could not be added"
table ip hlgd {
	chain probes {
		type filter hook forward priority 0; policy accept;
		ip daddr 198.18.100.7 udp dport 9 numgen inc mod 10 == 0 counter drop
	}
}
EOF2

if ! gen_run "$TMP/g.txt" 60 --drain 300ms \
    --flow "frame=64,count=2000,idt=200us,dport=9,name=near" \
    --flow "frame=64,count=2000,idt=200us,dport=9,name=far,dst=198.18.100.7"
then
	sed 's/^/    /' "$TMP/g.txt"
	bail run "hoplab-gen exited non-zero"
fi
CTR=$(ip netns exec hlgd-r1 nft list table ip hlgd |
    sed -n 's/.*counter packets \([0-9]*\) .*/\1/p')
g() { gen_get "$TMP/g.txt" Packets "$1" "$2"; }
echo "    near: sent $(g near sent) received $(g near received)" \
    "lost $(g near lost); far: sent $(g far sent) received" \
    "$(g far received) lost $(g far lost); nftables counter $CTR"
assert_eq counter_every_10th 200 "$CTR"
assert_eq far_lost_is_counter "$CTR" "$(g far lost)"
assert_eq far_received "2000/$((2000 - CTR))" "$(g far sent)/$(g far received)"
assert_eq near_untouched "2000/2000/0" \
    "$(g near sent)/$(g near received)/$(g near lost)"

# The router's neighbour table: both destinations at rx's MAC.
RXMAC=$(ip netns exec hlgd-gen cat /sys/class/net/rx/address)
n2=$(ip -n hlgd-r1 neigh show 198.18.100.2 | awk '{ print $5 }')
n7=$(ip -n hlgd-r1 neigh show 198.18.100.7 | awk '{ print $5 }')
assert_eq arp_both_destinations "$RXMAC/$RXMAC" "$n2/$n7"

if grep -q "other frames arrived" "$TMP/g.txt"; then
	fail no_foreign "$(grep "other frames arrived" "$TMP/g.txt")"
else
	pass no_foreign
fi

if gen_run "$TMP/bad.txt" 10 \
    --flow "frame=64,count=10,idt=1ms,name=x,dst=$GL_SRC"; then
	fail refuses_dst_is_src "hoplab-gen accepted dst= equal to --src"
elif grep -q "dst=$GL_SRC is --src" "$TMP/bad.txt"; then
	pass refuses_dst_is_src
else
	fail refuses_dst_is_src "$(head -n 1 "$TMP/bad.txt")"
fi
finish
