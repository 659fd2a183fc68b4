#!/bin/sh
#
# t_scale: a lab of 32 hosts, each with its own agent, all listed healthy.
#
# Namespace prefix hls, management net K 237 (198.19.237.0/24).
#
# deploy/lab.sh builds the generator host and 31 routers R1..R31 (32
# network namespaces on one management bridge, a CURVE key pair each, an
# agent each); `hoplab agents` must then list all 32 with their version
# and "ok" within its 3 s handshake, and `lab.sh status` must find every
# agent listening.  This is the management plane at the scale of issue 6;
# driving a run through 32 generator hosts needs plans with more than one
# generator host, which the controller does not have yet (see
# docs/deploy.md, "Scale").  Timing figures go to bench/mgmt_scale.sh, not
# here.  Torn down on any exit.

. "$(dirname "$0")/lib.sh"

need_root
lab_init hls 237
HOPLAB=$HL_BIN/hoplab

routers=
i=1
while [ $i -le 31 ]; do
	routers="$routers R$i"
	i=$((i + 1))
done

# shellcheck disable=SC2086
lab_up $routers
pass lab_up_32_hosts

out=$(lab_sh status 2>&1)
assert_eq status_listening 32 "$(echo "$out" | grep -c 'listening on')"

out=$("$HOPLAB" -p "$LAB_PREFIX" agents 2>&1)
rc=$?
assert_eq agents_exit 0 "$rc"
assert_eq agents_rows 33 "$(echo "$out" | grep -c .)"
assert_eq agents_ok 32 "$(echo "$out" | awk '$NF == "ok"' | wc -l)"
missing=
for h in gen $routers; do
	echo "$out" | awk -v h="$h" '$1 == h && $NF == "ok" { f = 1 }
	    END { exit !f }' || missing="$missing $h"
done
assert_eq agents_every_host "" "$missing"
[ "$rc" = 0 ] || echo "$out" | sed 's/^/    /'

# The agents' addresses are 198.19.237.10 .. .41, one each, in order.
addrs=$(echo "$out" | awk 'NR > 1 { split($2, a, ":"); print a[1] }' |
    sort -t. -k4,4n | uniq | tr '\n' ' ')
assert_eq agents_addresses \
    "$(i=10; while [ $i -le 41 ]; do printf '198.19.237.%d ' $i; i=$((i + 1)); done)" \
    "$addrs"

finish
