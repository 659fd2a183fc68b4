#!/bin/sh
# fast-reroute-shortcut.sh up|down: the user's shortcut on R1 of
# examples/fast-reroute-shortcut.yaml.  A packet for H2's subnet that
# comes back from R2 (R2's backup next hop points at R1) is marked by
# nftables and routed by a rule of its own through R3, R1's alternate
# path, instead of back to R2: the loop becomes one U-turn.
set -e
case "$1" in
up)
	nft -f fast-reroute-shortcut.nft
	ip rule add fwmark 0x2 lookup 102 priority 102
	ip route add 198.18.4.0/24 via 198.18.5.2 dev R3 table 102
	# the U-turned packets come in on R2 with H1's source address
	sysctl -qw net.ipv4.conf.all.rp_filter=0 net.ipv4.conf.R2.rp_filter=0
	;;
down)
	ip route flush table 102 || true
	ip rule del fwmark 0x2 lookup 102 priority 102 || true
	nft delete table ip hoplab_shortcut || true
	;;
*)
	echo "usage: $0 up|down" >&2
	exit 2
	;;
esac
