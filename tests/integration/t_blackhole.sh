#!/bin/sh
# t_blackhole: a link that fails and keeps its carrier (docs/plans.md
# "Silent failures", `action: blackhole`).  Lab prefix hlbh, management
# K 250.  H1 - R1 - R2 - H2, kernel routers with static routes; a udp
# flow H1 -> H2 of 3000 probes 1 ms apart; R1-R2 blackholed at 1 s and
# brought up at 2 s.  Known truth, from the kernel and the files:
#
# 1. while the blackhole lasts, both ends of R1-R2 keep their carrier
#    (`ip link show`: LOWER_UP) and each holds the agent's table
#    `netdev hoplab_bh_IFACE` (`nft list tables`), sampled every 20 ms
#    by this test;
# 2. faults.csv: a blackhole row of R1 and of R2, then an up row of
#    each, all ok; outages.csv's row "link R1-R2 blackhole": lost x 1 ms
#    between 0.95 and 1.25 s (the time between the two faults, plus the
#    probes in flight);
# 3. after the run neither namespace holds a hoplab_bh table, and the
#    flow's last second lost nothing (intervals.csv).
# About 8 s.  Run as root; tests/integration/run.sh does.
set -u
. "$(dirname "$0")/lib.sh"

need_root
for b in hoplab hoplab-agent hoplab-gen; do
	[ -x "$HL_BIN/$b" ] || bail "${b}_built" "$HL_BIN/$b is missing (make)"
done
lab_init hlbh 250
T=$(mktemp -d /tmp/hoplab-t-blackhole.XXXXXX) || bail tmp "mktemp failed"
HL="$HL_BIN/hoplab -p $LAB_PREFIX -k $LAB_K"

cat >"$T/bh.yaml" <<'PLAN'
name: blackhole
topology:
  hosts:
    H1: {}
    H2: {}
    R1: {router: linux}
    R2: {router: linux}
  links:
    - [H1, R1]
    - [R1, R2]
    - [R2, H2]
faults:
  - {at: 1s, link: R1-R2, action: blackhole}
  - {at: 2s, link: R1-R2, action: up}
flows:
  - {name: f1, from: H1, to: H2, mode: udp, frame: 128, idt: 1ms, count: 3000}
PLAN

LAB_IS_UP=1
if ! $HL lab up --plan "$T/bh.yaml" >"$T/up.log" 2>&1; then
	sed 's/^/    /' "$T/up.log"
	bail lab_up_plan "hoplab lab up --plan failed"
fi

# The kernel's view, every 20 ms: carrier and the agents' tables.
cat >"$T/poll.sh" <<EOF2
while [ ! -e "$T/stop" ]; do
	for h in R1:R2 R2:R1; do
		n=\${h%%:*} i=\${h#*:}
		c=\$(ip -n $LAB_PREFIX-\$n link show \$i 2>/dev/null |
		    grep -c LOWER_UP)
		t=\$(ip netns exec $LAB_PREFIX-\$n nft list tables 2>/dev/null |
		    grep -c "netdev hoplab_bh_\$i")
		echo "\$n carrier=\$c table=\$t"
	done
	sleep 0.02
done
EOF2
sh "$T/poll.sh" >"$T/poll.txt" 2>/dev/null &
POLL=$!
at_exit "touch '$T/stop'; kill $POLL 2>/dev/null"
[ -n "${HLT_KEEP:-}" ] || at_exit "rm -rf '$T'"

lab_run bh "$T/bh.yaml" "$T" || finish
D=$LAB_RUN
touch "$T/stop"
wait "$POLL" 2>/dev/null

# 1.
for n in R1 R2; do
	assert_ge "${n}_table_seen" "$(grep -c "^$n carrier=.* table=1" \
	    "$T/poll.txt")" 1
	assert_eq "${n}_carrier_kept_while_blackholed" 0 \
	    "$(grep -c "^$n carrier=0 table=1" "$T/poll.txt")"
done

# 2.
F=$D/faults.csv
for n in R1 R2; do
	assert_eq "${n}_blackhole_row" 1 "$(grep -c ",$n,blackhole,.*,ok," "$F")"
	assert_eq "${n}_up_row" 1 "$(grep -c ",$n,up,.*,ok," "$F")"
done
O=$D/outages.csv
row=$(grep "link R1-R2 blackhole" "$O")
assert_match outage_row "f1" "$row"
est=$(csv_col "$O" outage_est_s | head -n 1)
assert_ge outage_at_least_the_hole "${est:-0}" 0.95
assert_le outage_at_most_0.25s_more "${est:-9}" 1.25

# 3.
for n in R1 R2; do
	assert_eq "${n}_no_table_left" 0 "$(ip netns exec "$LAB_PREFIX-$n" \
	    nft list tables 2>/dev/null | grep -c hoplab_bh_)"
done
last=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    $c["start_s"] >= 2.5 { l += $c["lost"] } END { print l + 0 }' \
    "$D/intervals.csv")
assert_eq no_loss_after_the_up "0" "$last"
finish
