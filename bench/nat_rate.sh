#!/bin/sh
# nat_rate: source NAT throughput and CPU per packet, hoplab-router
# (router/nat.c, `nat: {interface: out}`) against the kernel's NAT
# (nftables masquerade in the kernel router's namespace), 64 and 1518 B
# frames, on the lab and with the method of bench/router_rate.sh (read
# its header: one UDP flow from trafgen, CPU of everything the
# experiment runs per forwarded packet, the "none" baseline subtracted,
# ratios hoplab / linux).  Lab prefix hlnb; no management network.
# Bounded as router_rate.sh: DUR seconds a point (default 5), 8 points
# (ROUTERS, default "none linux hoplab hoplab-i": NAT takes every
# frame of the fast path to the slow path).
#
#	sudo sh bench/nat_rate.sh [DUR]
here=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)
ROUTERS=${ROUTERS:-none linux hoplab hoplab-i} RL_PREFIX=hlnb NAT=1 exec sh "$here/router_rate.sh" "$@"
