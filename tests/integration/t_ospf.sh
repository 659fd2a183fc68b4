#!/bin/sh
# t_ospf: kernel routers running OSPF with BIRD (docs/routing.md).  Lab
# prefix hlos, management K 242; the seed thesis's minimal network
# without H3: H1-R1, R1-R2, R2-R3, R3-R4, R1-R4 (the primary path),
# R4-H2, every router `routing: ospf` with hello 1s and dead 4s, a udp
# flow H1 -> H2 (1 ms probes), the primary R1-R4 cut 6 s into it.  The
# run starts the flow once OSPF has converged (controller/run/routing.c),
# so the cut comes more than 5 s (OSPF's MinLSInterval) after the
# adjacencies came up and the routers' LSAs were first sent.
#
# Links get 198.18.N.0/24 in plan order, the first end .1 (1 H1-R1,
# 2 R1-R2, 3 R2-R3, 4 R3-R4, 5 R1-R4, 6 R4-H2); every link costs 10.
# Known truth, worked out by hand from that:
#
# 1. the run starts bird on every router: each router's namespace has a
#    bird process with its control socket in the agent's run folder, and
#    `birdc show route` (BIRD's own table) on R1 has 198.18.6.0/24 via
#    198.18.5.2 (R4);
# 2. once converged, `ip -4 route show proto bird` in each namespace is
#    exactly the subnets the router is not on, with the next hops of the
#    shortest paths: R1 3 via 2.2, 4 and 6 via 5.2; R4 1 and 2 via 5.1,
#    3 via 4.1; R2 1 and 5 via 2.1, 4 via 3.2, 6 via 2.1 or 3.2 (a tie);
#    R3 2 via 3.1, 5 and 6 via 4.2, 1 via 3.1 or 4.2 (a tie); no
#    connected subnet is exported (the kernel protocol rejects direct);
# 3. routes.csv has, for every router, an add of proto bird for each of
#    those subnets, and every router's initial rows (its connected
#    routes, proto kernel);
# 4. after the cut, R1 routes 198.18.6.0/24 via 198.18.2.2 (R2) and R4
#    198.18.1.0/24 via 198.18.4.1 (R3), in the kernel during the run and
#    in routes.csv: an add for that prefix and next hop later than the
#    cut's time in faults.csv (time_unix_s);
# 5. the flow recovers: outages.csv's row for the cut has an outage of at
#    most the dead interval plus a second (5 s; carrier loss makes it far
#    shorter), the flow's ttl_min is 60 (the backup's 4 routers) and its
#    ttl_max 62, and routing/ holds each router's bird log;
# 6. when the run ends no bird is left and no proto bird route either
#    (persist no: bird withdraws them), and routes.csv has R1's dels;
# 7. bird killed (SIGKILL) on R2 during a second run: the run fails at
#    once with the agent's sentence (host, signal 9, pid, the end of
#    bird.log), and the routes the dead bird could not withdraw are
#    flushed from R2.
# About 23 s.  Run as root; tests/integration/run.sh does.
set -u
. "$(dirname "$0")/lib.sh"

need_root
for b in hoplab hoplab-agent hoplab-gen; do
	[ -x "$HL_BIN/$b" ] || bail "${b}_built" "$HL_BIN/$b is missing (make)"
done
[ -x /usr/sbin/bird ] || bail bird "bird (BIRD 2, package bird2) is missing"
lab_init hlos 242
ts() { [ -z "${HLT_TIMES:-}" ] || echo "  time $1: $(date +%s.%N | cut -c1-14)"; }
T=$(mktemp -d /tmp/hoplab-t-ospf.XXXXXX) || bail tmp "mktemp failed"
[ -n "${HLT_KEEP:-}" ] || at_exit "rm -rf '$T'"
HL="$HL_BIN/hoplab -p $LAB_PREFIX -k $LAB_K"
P=198.18

cat >"$T/ospf.yaml" <<'YAML'
name: ospf
topology:
  hosts:
    H1: {}
    H2: {}
    R1: {router: linux, routing: ospf}
    R2: {router: linux, routing: ospf}
    R3: {router: linux, routing: ospf}
    R4: {router: linux, routing: ospf}
  links:
    - [H1, R1]
    - [R1, R2]
    - [R2, R3]
    - [R3, R4]
    - [R1, R4]
    - [R4, H2]
  routing:
    ospf: {hello: 1s, dead: 4s}
faults:
  - {at: 6s, link: R1-R4, action: down}
flows:
  - {name: f1, from: H1, to: H2, mode: udp, frame: 128, idt: 1ms, count: 8000}
YAML

# routes R: R's bird routes in the kernel, "PREFIX via GW" sorted, one line.
routes()
{
	in_host "$1" ip -4 route show proto bird | awk '{ print $1, $2, $3 }' |
	    sort | tr '\n' ';'
}

# converged: every router has its 4 (R1, R4: 3) routes from bird.
converged()
{
	[ "$(routes R1 | tr ';' '\n' | grep -c via)" = 3 ] &&
	[ "$(routes R4 | tr ';' '\n' | grep -c via)" = 3 ] &&
	[ "$(routes R2 | tr ';' '\n' | grep -c via)" = 4 ] &&
	[ "$(routes R3 | tr ';' '\n' | grep -c via)" = 4 ]
}

# r4_moved: R4's route to H1's subnet goes via R3.
r4_moved()
{
	routes R4 | grep -q "$P.1.0/24 via $P.4.1;"
}

# bird_sock R: the control socket of R's bird now running, if any.
bird_sock()
{
	for _s in "$LAB_STATE/$1"/role-*/bird.ctl; do
		[ -S "$_s" ] && echo "$_s" && return 0
	done
	return 1
}

# r2_runs: R2's bird runs and has installed its routes.
r2_runs()
{
	bird_sock R2 >/dev/null && [ -n "$(routes R2)" ]
}

# r1_moved: R1's route to H2's subnet goes via R2.
r1_moved()
{
	routes R1 | grep -q "$P.6.0/24 via $P.2.2;"
}

ts start
LAB_IS_UP=1
if ! $HL lab up --plan "$T/ospf.yaml" >"$T/up.log" 2>&1; then
	sed 's/^/    /' "$T/up.log"
	bail lab_up_plan "hoplab lab up --plan failed"
fi

ts lab_up
$HL -o "$T/out" run "$T/ospf.yaml" >"$T/run.log" 2>&1 &
RUN=$!
at_exit "kill $RUN 2>/dev/null"

# 1., 2.  The tables are checked once the run says the routing converged
# (controller/run/routing.c: every router through a shortest path); the
# route counts alone were seen complete while R2-R3's adjacency was still
# forming, R4 then reaching R2-R3's subnet through R1.
if wait_for 10 "the routers' OSPF routes" converged &&
    wait_log 20 "^routing: converged in" "$T/run.log"; then
	pass ospf_converged
	assert_eq r1_routes "$P.3.0/24 via $P.2.2;$P.4.0/24 via $P.5.2;$P.6.0/24 via $P.5.2;" "$(routes R1)"
	assert_eq r4_routes "$P.1.0/24 via $P.5.1;$P.2.0/24 via $P.5.1;$P.3.0/24 via $P.4.1;" "$(routes R4)"
	assert_match r2_routes "^$P.1.0/24 via $P.2.1;$P.4.0/24 via $P.3.2;$P.5.0/24 via $P.2.1;$P.6.0/24 via ($P.2.1|$P.3.2);\$" "$(routes R2)"
	assert_match r3_routes "^$P.1.0/24 via ($P.3.1|$P.4.2);$P.2.0/24 via $P.3.1;$P.5.0/24 via $P.4.2;$P.6.0/24 via $P.4.2;\$" "$(routes R3)"
	sock=$(bird_sock R1)
	assert_match bird_table_r1 "$P.6.0/24 +unicast \[ospf1 .*via $P.5.2 on R4" \
	    "$(in_host R1 birdc -s "$sock" show route "$P.6.0/24" 2>&1 |
	    tr '\n' ' ')"
	for r in R1 R2 R3 R4; do
		assert_ok "bird_runs_$r" test -n "$(ip netns pids "$LAB_PREFIX-$r" |
		    xargs -r ps -o comm= -p | grep -x bird)"
	done
else
	fail ospf_converged "not within 10 s: R1 $(routes R1) R2 $(routes R2)"
fi

# 4. (in the kernel, during the run)
if wait_for 12 "R1's route via R2 after the cut" r1_moved; then
	pass r1_moves_to_r2
	if wait_for 3 "R4's route via R3" r4_moved; then
		pass r4_moves_to_r3
	else
		fail r4_moves_to_r3 "R4: $(routes R4)"
	fi
else
	fail r1_moves_to_r2 "R1: $(routes R1)"
fi

if ! wait "$RUN"; then
	sed 's/^/    /' "$T/run.log"
	fail run_completes "hoplab run failed"
	finish
fi
pass run_completes
ts run_done
D=$(ls -d "$T/out"/*-*)
RC=$D/routes.csv

# rows R EVENT PROTO: "PREFIX via" of R's routes.csv rows, sorted, one line.
rows()
{
	awk -F, -v r="$1" -v e="$2" -v p="$3" 'NR > 1 && $3 == r && $7 == e &&
	    $12 == p { print $8, $9 }' "$RC" | sort -u | tr '\n' ';'
}

cut=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    $c["action"] == "down" { print $c["time_unix_s"]; exit }' "$D/faults.csv")

# 3.
assert_eq routes_csv_header \
    "variant,routers,router,role,batch,time_unix_s,event,prefix,via,dev,metric,proto" \
    "$(head -n 1 "$RC")"
assert_match routes_csv_r1_bird "$P.3.0/24 $P.2.2;.*$P.4.0/24 $P.5.2;.*$P.6.0/24 $P.5.2;" \
    "$(rows R1 add bird)"
for r in R1 R2 R3 R4; do
	case $r in
	R1) want="$P.3.0/24 $P.4.0/24 $P.6.0/24" ;;
	R2) want="$P.1.0/24 $P.4.0/24 $P.5.0/24 $P.6.0/24" ;;
	R3) want="$P.1.0/24 $P.2.0/24 $P.5.0/24 $P.6.0/24" ;;
	R4) want="$P.1.0/24 $P.2.0/24 $P.3.0/24" ;;
	esac
	assert_eq "routes_csv_${r}_every_subnet" "$want" "$(awk -F, -v r="$r" \
	    -v t="${cut:-0}" 'NR > 1 && $3 == r && $7 == "add" &&
	    $12 == "bird" && $6 < t { print $8 }' "$RC" | sort -u |
	    tr '\n' ' ' | sed 's/ $//')"
	assert_match "routes_csv_${r}_initial_connected" "$P\.[0-9]\.0/24 ;" \
	    "$(rows "$r" initial kernel)"
done

# 4. (in routes.csv, against faults.csv)
assert_match fault_time_known '^[0-9]+\.[0-9]+$' "$cut"
assert_eq r1_change_after_cut 1 "$(awk -F, -v t="$cut" -v p="$P" 'NR > 1 &&
    $3 == "R1" && $7 == "add" && $8 == p ".6.0/24" && $9 == p ".2.2" &&
    $6 > t { n = 1 } END { print n + 0 }' "$RC")"
assert_eq r4_change_after_cut 1 "$(awk -F, -v t="$cut" -v p="$P" 'NR > 1 &&
    $3 == "R4" && $7 == "add" && $8 == p ".1.0/24" && $9 == p ".4.1" &&
    $6 > t { n = 1 } END { print n + 0 }' "$RC")"

# 5.
o=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    $c["fault"] == "link R1-R4 down" { print $c["outage_est_s"]; exit }' \
    "$D/outages.csv")
assert_match outage_row "^[0-9.]+\$" "$o"
assert_le outage_within_dead_plus_1s "${o:-99}" 5
S=$D/summary.csv
assert_eq ttl_min_60_backup 60 "$(csv_col "$S" ttl_min)"
assert_eq ttl_max_62_primary 62 "$(csv_col "$S" ttl_max)"
for r in R1 R2 R3 R4; do
	assert_match "bird_log_$r" "Started|Initializing|Reconfigured" \
	    "$(cat "$D"/routing/"$r"-*-bird.log 2>/dev/null | head -n 20)"
done

# 6.
for r in R1 R2 R3 R4; do
	assert_eq "no_bird_route_left_$r" "" "$(routes "$r")"
	assert_eq "no_bird_left_$r" "" "$(ip netns pids "$LAB_PREFIX-$r" |
	    xargs -r ps -o comm= -p | grep -x bird)"
done
assert_match routes_csv_r1_dels "$P.6.0/24" "$(rows R1 del bird)"

# 7. bird killed during a run: the run stops with the agent's sentence.
sed -e 's/^name: .*/name: killed/' -e '/^faults:/d' -e '/action: down}/d' \
    -e 's/count: 8000/count: 6000/' "$T/ospf.yaml" >"$T/killed.yaml"
$HL -o "$T/killed" run "$T/killed.yaml" >"$T/killed.log" 2>&1 &
RUN=$!
if wait_for 8 "R2's bird" bird_sock R2; then
	# its routes, if they come soon (OSPF takes 4-5 s here at a start)
	wait_for 3 "R2's routes" r2_runs && had=installed || had=none
	pid=$(cat "$(dirname "$(bird_sock R2)")/bird.pid")
	kill -KILL "$pid"
	wait "$RUN"
	assert_eq killed_run_exit_1 1 "$?"
	assert_match killed_run_says_why "kernel router on R2.* failed while \
the run needed it \(role [0-9]+\): bird on R2 was terminated by signal 9 \
while the run needed it \(role [0-9]+, pid $pid\); last lines of \
.*/bird.log: .*Started" "$(cat "$T/killed.log")"
	wait_for 5 "the routers stopped" test -z "$(routes R1)$(routes R3)"
	assert_eq "killed_r2_routes_flushed_($had)" "" "$(routes R2)"
else
	fail killed_bird_started "R2's bird did not run"
	kill "$RUN" 2>/dev/null
fi
ts killed

lab_down
ts lab_down
assert_eq no_namespace_left "" "$(ip netns list | grep "^$LAB_PREFIX-")"
finish
