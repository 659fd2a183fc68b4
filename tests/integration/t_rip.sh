#!/bin/sh
# t_rip: hoplab-router's RIPv2 against BIRD's, on a namespace lab of its
# own (prefix hlrp; checks 1-4 without management network or agents, 5
# on the agent lab with K 241):
#
#            198.18.62.0/24 (cut)
#   h1 -- R1 ----------------- R2 -- h2
#          \                  /
#  198.18.63.0/24     198.18.64.0/24
#            \              /
#             ------ R3 ----
#
#   h1 eth0 198.18.61.2/24   R1 h .61.1, b .62.1, c .63.1  (hoplab-router)
#   R2 a .62.2, b .64.2, h .65.1 (kernel forwarding, BIRD 2 RIP)
#   R3 a .63.2, b .64.1                                    (hoplab-router)
#   h2 eth0 198.18.65.2/24
#
# RIP with update 1 s, timeout 5 s, garbage 3 s and HMAC-SHA256 (RFC
# 4822, key id 1) on the router links; h and the end hosts' links are
# passive (announced, no RIP there).  The truth is BIRD's own table
# (birdc show route), ping's reply TTL, and counts made by hand.
#
# 1. Every router learns every prefix: BIRD has 198.18.61/24 and .63/24
#    from RIP, R1 and R3 have every subnet they are not on, with proto
#    rip and the metric the hops give (R1: .65/24 metric 2 via R2), and
#    BIRD's 30 static routes 198.18.128/24 .. .157/24 (updates of more
#    than 22 entries: two packets each way; BIRD logs none of ours as
#    bad); a static route added on R1 for .65/24 wins, deleted, RIP's
#    is back.
# 2. h1 -> h2 ping: reply TTL 62 (h2 -> R2 -> R1 -> h1).
# 3. R1-R2 cut (R2's end down): R1 moves .65/24 to R3 (metric 3) and
#    BIRD moves .61/24 to R3 within timeout + update x 7/6 + 1 s (8 s),
#    not before R1's route via R2 has timed out (BIRD sees the carrier
#    go); ping then shows TTL 61.
# 4. Hand-made RIP packets (rip_inject.py, raw socket in R2's namespace,
#    source 198.18.64.9) to R3, each kind a different number of times,
#    each counted by exactly that number under its reason in R3's
#    counters: malformed (too short, a bad family, a wrong UDP
#    checksum), oversize (26 entries), version (1), auth (none, a wrong
#    key), source (a response from port 999), entry (three bad entries
#    in an authenticated packet); R3 still runs and forwards (ping TTL
#    61 again).
# 5. From a topology plan (routing: rip, the agent lab): two
#    hoplab routers that only RIP gives routes carry a flow H1 -> H2 at
#    TTL 62; routers.csv's rip columns show one learned route each, RIP
#    packets received and no authentication drop.
# Run as root; tests/integration/run.sh does.  About 12 s.
set -u
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/router_lab.sh"

need_root
[ -x "$HL_BIN/hoplab-router" ] ||
    bail router_built "$HL_BIN/hoplab-router is missing (make)"
for t in bird birdc ethtool ping python3; do
	command -v "$t" >/dev/null 2>&1 ||
	    bail "tool_$t" "$t is missing (sudo make deps)"
done

rl_init hlrp || bail rl_init "cannot make a temporary folder"
at_exit rl_down
T=$(mktemp -d /tmp/hoplab-t-rip.XXXXXX) || bail tmp "mktemp failed"
at_exit "rm -rf '$T'"
KEY=hlrp-lab-key
HERE=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)

# hoplab_conf NAME "IF ADDR"...: router NAME's configuration, RIP on every
# interface but h.
hoplab_conf()
{
	_n=$1
	shift
	_act=
	{
		echo "# t_rip: router $_n"
		echo "interfaces:"
		for _i in "$@"; do
			echo "  - {name: ${_i% *}, address: ${_i#* }}"
			[ "${_i% *}" = h ] || _act="$_act${_act:+, }${_i% *}"
		done
		echo "rip:"
		echo "  interfaces: [$_act]"
		echo "  update: 1s"
		echo "  timeout: 5s"
		echo "  garbage: 3s"
		echo "  auth: {key_id: 1, secret: \"$KEY\"}"
	} >"$RL_TMP/$_n.yaml"
}

bird_conf()
{
	cat >"$RL_TMP/R2.conf" <<EOB
# t_rip: R2, BIRD 2 with RIP (the truth side)
log "$RL_TMP/R2.birdlog" all;
router id 198.18.62.2;
protocol device { scan time 1; }
protocol direct { ipv4; interface "a", "b", "h"; }
protocol kernel { ipv4 { export where source = RTS_RIP; }; }
protocol static { ipv4; $(i=128; while [ $i -lt 158 ]; do
	printf 'route 198.18.%d.0/24 blackhole; ' $i; i=$((i + 1)); done) }
protocol rip {
	ipv4 { import all; export all; };
	interface "a", "b" {
		update time 1; timeout time 5; garbage time 3;
		authentication cryptographic;
		password "$KEY" { id 1; algorithm hmac sha256; };
	};
}
EOB
}

build_lab()
{
	for n in h1 R1 R2 R3 h2; do
		rl_ns $n || return 1
	done
	rl_veth h1 eth0 R1 h && rl_veth R1 b R2 a && rl_veth R1 c R3 a &&
	    rl_veth R3 b R2 b && rl_veth R2 h h2 eth0 || return 1
	rl_addr h1 eth0 198.18.61.2/24 && rl_addr h2 eth0 198.18.65.2/24 &&
	    rl_route h1 default via 198.18.61.1 &&
	    rl_route h2 default via 198.18.65.1 || return 1
	rl_addr R2 a 198.18.62.2/24 && rl_addr R2 b 198.18.64.2/24 &&
	    rl_addr R2 h 198.18.65.1/24 || return 1
	rl_in R2 sh -c 'echo 1 >/proc/sys/net/ipv4/ip_forward' || return 1
	bird_conf
	rl_bg R2 "$RL_TMP/R2.out" bird -f -c "$RL_TMP/R2.conf" \
	    -s "$RL_TMP/R2.ctl"
	RL_PID_BIRD=$RL_LAST
	hoplab_conf R1 "h 198.18.61.1/24" "b 198.18.62.1/24" \
	    "c 198.18.63.1/24"
	hoplab_conf R3 "a 198.18.63.2/24" "b 198.18.64.1/24"
	rl_router R1 "$RL_TMP/R1.yaml" -v && rl_router R3 "$RL_TMP/R3.yaml" -v
}

build_lab || bail lab "cannot build the lab"
pass lab

# route_of NAME PREFIX: "via metric proto" of PREFIX in hoplab router
# NAME's table (ctl counters' "route" lines), or nothing.
route_of()
{
	rl_ctl "$1" counters 2>/dev/null | awk -v p="$2" \
	    '$1 == "route" && $2 == p { print $4, $8, $10 }'
}

# bird_via PREFIX: BIRD's next hop for PREFIX (its best route), or nothing.
bird_via()
{
	birdc -s "$RL_TMP/R2.ctl" show route "$1" 2>/dev/null |
	    awk '/via / { for (i = 1; i < NF; i++) if ($i == "via") {
		print $(i + 1); exit } }'
}

# has NAME PREFIX VIA METRIC: the hoplab router's route is that.
has() { [ "$(route_of "$1" "$2")" = "$3 $4 rip" ]; }
bird_has() { [ "$(bird_via "$1")" = "$2" ]; }

# ping_ttl: the reply TTL of one ping h1 -> h2, or nothing.
ping_ttl()
{
	rl_in h1 ping -n -c 1 -W 1 198.18.65.2 2>/dev/null |
	    sed -n 's/.*ttl=\([0-9]*\).*/\1/p'
}
ttl_is() { [ "$(ping_ttl)" = "$1" ]; }

# ------------------------------------------------------ 1. learning
n_statics() { rl_ctl "$1" counters 2>/dev/null | awk '$1 == "route" &&
    $2 ~ /^198\.18\.1[2-5][0-9]\.0\/24$/ && $10 == "rip"' | wc -l; }
statics_are()
{
	[ "$(n_statics R1)" = "$1" ] && [ "$(n_statics R3)" = "$1" ]
}
if wait_for 10 "R1 learns .65/24 via R2" has R1 198.18.65.0/24 \
    198.18.62.2 2 && wait_for 5 "BIRD learns .61/24 via R1" bird_has \
    198.18.61.0/24 198.18.62.1 && wait_for 5 "R3 learns .61/24" has R3 \
    198.18.61.0/24 198.18.63.1 2 && wait_for 5 "R1 and R3 learn BIRD's \
    statics" statics_are 30; then
	pass learned_in_time
else
	fail learned_in_time "not every route within 10 s"
fi
# BIRD's 30 static routes (two packets of its): every one on R1 and R3
assert_eq R1_bird_statics 30 "$(n_statics R1)"
assert_eq R3_bird_statics 30 "$(n_statics R3)"
assert_eq R1_65 "198.18.62.2 2 rip" "$(route_of R1 198.18.65.0/24)"
# two paths of metric 2: either is right
assert_match R1_64 '^198\.18\.(63\.2|62\.2) 2 rip$' \
    "$(route_of R1 198.18.64.0/24)"
assert_eq R3_61 "198.18.63.1 2 rip" "$(route_of R3 198.18.61.0/24)"
assert_match R3_62 '^198\.18\.(64\.2|63\.1) 2 rip$' \
    "$(route_of R3 198.18.62.0/24)"
assert_eq R3_65 "198.18.64.2 2 rip" "$(route_of R3 198.18.65.0/24)"
assert_eq R1_62_connected "- 0 connected" "$(route_of R1 198.18.62.0/24)"
assert_eq bird_61 198.18.62.1 "$(bird_via 198.18.61.0/24)"
assert_match bird_63 '^198\.18\.6[24]\.[12]$' "$(bird_via 198.18.63.0/24)"
assert_match bird_61_rip 'RIP|rip' "$(birdc -s "$RL_TMP/R2.ctl" show route \
    198.18.61.0/24 all 2>/dev/null)"
# BIRD took every packet of ours (it logs each one it refuses)
assert_eq bird_auth_ok 0 "$(grep -c 'Authentication failed\|Bad packet' \
    "$RL_TMP/R2.birdlog")"
assert_match bird_kernel '198.18.61.0/24 via 198.18.62.1' \
    "$(ip -n hlrp-R2 route show 198.18.61.0/24)"

# a static route for the same prefix wins; deleted, RIP's comes back
rl_ctl R1 "route add 198.18.65.0/24 via 198.18.63.2" >/dev/null
assert_eq R1_static_wins "198.18.63.2 0 static" \
    "$(route_of R1 198.18.65.0/24)"
rl_ctl R1 "route del 198.18.65.0/24" >/dev/null
assert_eq R1_rip_back "198.18.62.2 2 rip" "$(route_of R1 198.18.65.0/24)"

# ------------------------------------------------------ 2. TTL
wait_for 3 "ping h1 -> h2" ttl_is 62
assert_eq ttl_before 62 "$(ping_ttl)"

# ------------------------------------------------------ 3. cut R1-R2
t0=$(date +%s.%N)
ip -n hlrp-R2 link set dev a down
if wait_for 8 "R1 moves .65/24 to R3" has R1 198.18.65.0/24 198.18.63.2 3
then
	t1=$(date +%s.%N)
	pass R1_converged
	echo "  info R1 took $(awk -v a="$t0" -v b="$t1" \
	    'BEGIN { printf "%.2f", b - a }') s after the cut"
	# R1 keeps its route until it times out: 5 s after the last
	# update it heard, which came at most 1 s + 1/6 before the cut,
	# so not before 3.83 s (3.5: the clock read around the cut)
	assert_ge R1_not_before_timeout \
	    "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" 3.5
else
	fail R1_converged "R1: $(route_of R1 198.18.65.0/24)"
fi
if wait_for 8 "BIRD moves .61/24 to R3" bird_has 198.18.61.0/24 \
    198.18.64.1; then
	pass bird_converged
else
	fail bird_converged "BIRD: $(bird_via 198.18.61.0/24)"
fi
wait_for 3 "ping h1 -> h2 over R3" ttl_is 61
assert_eq ttl_after 61 "$(ping_ttl)"
assert_match R1_timed_out 'timed_out [1-9]' "$(rl_ctl R1 counters)"

# ------------------------------------------------------ 4. bad packets
# rip_counts NAME: R3's "rip drops:" line as "malformed oversize version
# auth source entry".
rip_counts()
{
	rl_ctl "$1" counters 2>/dev/null |
	    awk '$1 == "rip" && $2 == "drops:" { print $4, $6, $8, $10, $12,
		$14 }'
}
inject() { rl_in R2 python3 "$HERE/rip_inject.py" 198.18.64.9 \
    198.18.64.1 "$KEY" 1 "$1" "$2"; }
before=$(rip_counts R3)
inject short 2 && inject badfamily 1 && inject oversize 1 &&
    inject version1 4 && inject noauth 2 && inject wrongkey 3 &&
    inject badport 5 && inject badentry 1 && inject badcsum 2 ||
    fail inject "rip_inject.py failed"
# expected deltas: malformed 5, oversize 1, version 4, auth 5, source 5,
# entry 3
want=$(echo "$before" | awk '{ print $1 + 5, $2 + 1, $3 + 4, $4 + 5,
    $5 + 5, $6 + 3 }')
counts_are() { [ "$(rip_counts R3)" = "$want" ]; }
wait_for 3 "R3 counts the bad packets" counts_are
assert_eq rip_drops "$want" "$(rip_counts R3)"
echo "  info R3 rip drops before $before, after $(rip_counts R3)"
assert_ok R3_running kill -0 "$RL_PID_R3"
assert_eq ttl_still 61 "$(ping_ttl)"
assert_eq R3_still_61 "198.18.63.1 2 rip" "$(route_of R3 198.18.61.0/24)"

rl_stop "$RL_PID_BIRD"
for n in R1 R3; do
	eval "_p=\$RL_PID_$n"
	rl_stop "$_p"
	assert_eq "${n}_exit" 0 "$?"
done
rl_down

# ------------------------------------------------------ 5. from a plan
# The same protocol from a topology plan (routing: rip, the plan's
# timers and key) on the agent lab: two hoplab routers with no route but
# RIP's carry a flow H1 -> H2 at TTL 62, and routers.csv has their RIP
# counters.  Without the plan key (an older plan loader) it is skipped.
cat >"$T/rip.yaml" <<'PLAN'
name: rip
topology:
  hosts:
    H1: {}
    H2: {}
    R1: {router: hoplab, routing: rip}
    R2: {router: hoplab, routing: rip}
  links:
    - [H1, R1]
    - [R1, R2]
    - [R2, H2]
  routing:
    rip: {update: 1s, timeout: 3s, garbage: 2s,
          auth: {key_id: 3, secret: "hlrp-plan-key"}}
flows:
  - {name: f1, from: H1, to: H2, mode: udp, frame: 128, idt: 1ms, count: 1500}
PLAN
if ! "$HL_BIN/hoplab" run --dry-run "$T/rip.yaml" >"$T/dry.log" 2>&1; then
	echo "  skip plan: this plan loader has no routing: rip"
	finish
fi
lab_init hlrp 241
HL="$HL_BIN/hoplab -p $LAB_PREFIX -k $LAB_K"
LAB_IS_UP=1
if ! $HL lab up --plan "$T/rip.yaml" >"$T/up.log" 2>&1; then
	sed 's/^/    /' "$T/up.log"
	bail lab_up_plan "hoplab lab up --plan failed"
fi
lab_run rip "$T/rip.yaml" "$T" || finish
D=$LAB_RUN
# col FILE COLUMN ROUTER: COLUMN of ROUTER's last row in FILE (router,
# or flow for summary.csv).
col()
{
	awk -F, -v c="$2" -v r="$3" 'NR == 1 { for (i = 1; i <= NF; i++)
	    h[$i] = i; next } $h["router"] == r || $h["flow"] == r {
	    v = $h[c] } END { print v }' "$1"
}
assert_eq plan_f1_ttl_62 62 "$(col "$D/summary.csv" ttl_max f1)"
assert_gt plan_f1_received "$(col "$D/summary.csv" received f1)" 1000
assert_eq plan_R1_rip_routes 1 "$(col "$D/routers.csv" rip_routes R1)"
assert_eq plan_R2_rip_routes 1 "$(col "$D/routers.csv" rip_routes R2)"
assert_gt plan_R1_rip_rx "$(col "$D/routers.csv" rip_rx R1)" 0
assert_eq plan_R1_rip_drop_auth 0 "$(col "$D/routers.csv" rip_drop_auth R1)"
finish
