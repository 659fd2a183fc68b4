#!/bin/sh
# t_routefault: route changes on a topology's timeline, end to end
# (docs/plans.md "Route changes", issue 15).  Lab prefix hlrf,
# management K 243.  Two paths between R1 and R4: the link R1-R4 (2
# routers end to end) and R1-R2-R3-R4 (4); R1 and R3 kernel routers, R2
# and R4 hoplab-routers:
#
#   link 0 H1-R1 198.18.1.0/24   link 3 R1-R2 198.18.4.0/24
#   link 1 R1-R4 198.18.2.0/24   link 4 R3-R4 198.18.5.0/24
#   link 2 R2-R3 198.18.3.0/24   link 5 R4-H2 198.18.6.0/24
#
# (R2's and R3's ties go to their first link, R2-R3: R2 sends H2's
# subnet to R3, R3 sends H1's to R2, so both long paths are loop-free.)
# Flows f1 H1 -> H2 and f2 H2 -> H1, 2500 probes 1 ms apart each;
# faults at 1.2 s: R1's route to H2 via R2 (a kernel router: ip route
# replace), R4's route to H1 via R3 (a hoplab-router: ROUTE_ADD on its
# control socket); the plan repeated twice.  Known truth:
#
# 1. the console printed each change with its time and each restore at
#    the point's end; faults.csv has per point a "route" row of R1 and of
#    R4, both ok, with the command in target, and a "restore" row each;
# 2. a capture on R3's interface toward R2 (tcpdump, on the long path's
#    middle link) sees f1's probes (to 198.18.6.2) only at or after the
#    time faults.csv gives R1's change (the agent's clock just before
#    it: one clock in the lab) and before its restore, and f2's (to
#    198.18.1.1) likewise against R4's, in both points: none of the
#    second point's probes before its own change, so the routes were
#    put back between the points;
# 3. summary.csv: each flow's ttl_max is 62 (2 routers) and ttl_min 60
#    (4): the TTLs differ by the path length difference, 2;
# 4. `ip route` in R1's namespace, sampled during the run: the metric-1
#    route to 198.18.6.0/24 went via 198.18.4.2 (R2) after the change
#    and via 198.18.2.2 (R4) again after the restore;
# 5. outages.csv has a row of each flow around "router R1 route".
# About 20 s.  Run as root; tests/integration/run.sh does.
set -u
. "$(dirname "$0")/lib.sh"

need_root
for b in hoplab hoplab-agent hoplab-gen hoplab-router; do
	[ -x "$HL_BIN/$b" ] || bail "${b}_built" "$HL_BIN/$b is missing (make)"
done
command -v tcpdump >/dev/null 2>&1 || bail tcpdump "tcpdump is missing"
lab_init hlrf 243
T=$(mktemp -d /tmp/hoplab-t-routefault.XXXXXX) || bail tmp "mktemp failed"
HL="$HL_BIN/hoplab -p $LAB_PREFIX -k $LAB_K"

cat >"$T/rf.yaml" <<'PLAN'
name: routefault
topology:
  hosts:
    H1: {}
    H2: {}
    R1: {router: linux}
    R2: {router: hoplab}
    R3: {router: linux}
    R4: {router: hoplab}
  links:
    - [H1, R1]
    - [R1, R4]
    - [R2, R3]
    - [R1, R2]
    - [R3, R4]
    - [R4, H2]
repeat: 2
faults:
  - {at: 1.2s, router: R1, route: {to: H2, via: R2}}
  - {at: 1.2s, router: R4, route: {to: H1, via: R3}}
flows:
  - {name: f1, from: H1, to: H2, mode: udp, frame: 128, idt: 1ms, count: 2500}
  - {name: f2, from: H2, to: H1, mode: udp, frame: 128, idt: 1ms, count: 2500}
PLAN

# csv_field FILE FLOW COLUMN: COLUMN of FLOW's first row in FILE.
csv_field()
{
	csv_col "$1" flow >"$T/flows.$$" && csv_col "$1" "$3" >"$T/col.$$" &&
	    paste -d' ' "$T/flows.$$" "$T/col.$$" | awk -v f="$2" \
	    '$1 == f { print $2; exit }'
}

LAB_IS_UP=1
if ! $HL lab up --plan "$T/rf.yaml" >"$T/up.log" 2>&1; then
	sed 's/^/    /' "$T/up.log"
	bail lab_up_plan "hoplab lab up --plan failed"
fi

# The truths hoplab does not compute: a capture on the long path's
# middle link (R3's end of R2-R3; the run cables it, so wait for it) and
# R1's route sampled every 20 ms, both stopped by their pids.
cat >"$T/poll.sh" <<EOF2
while [ ! -e "$T/stop" ]; do
	r=\$(ip -n $LAB_PREFIX-R1 route show 198.18.6.0/24 2>/dev/null |
	    grep -m1 -E 'metric 1( |\$)')
	[ -n "\$r" ] && echo "\$(date +%s.%N) \$r"
	sleep 0.02
done
EOF2
sh "$T/poll.sh" >"$T/routes.txt" 2>/dev/null &
POLL=$!
at_exit "touch '$T/stop'; kill $POLL 2>/dev/null"
(
	while ! ip -n "$LAB_PREFIX-R3" link show R2 2>/dev/null |
	    grep -q '[<,]UP[,>]'; do
		[ -e "$T/stop" ] && exit 0
		sleep 0.05
	done
	exec ip netns exec "$LAB_PREFIX-R3" tcpdump -i R2 -n -l -tt \
	    --time-stamp-precision=nano udp 2>"$T/tcpdump.err"
) >"$T/cap.txt" &
CAP=$!
at_exit "kill $CAP 2>/dev/null"
[ -n "${HLT_KEEP:-}" ] || at_exit "rm -rf '$T'"

lab_run rf "$T/rf.yaml" "$T" || finish
D=$LAB_RUN
touch "$T/stop"
sleep 0.2		# the capture's last lines out
kill "$CAP" 2>/dev/null
wait "$POLL" "$CAP" 2>/dev/null

# 1.
L=$T/rf.log
assert_match console_route_r1 "fault: router R1 route 198.18.6.0/24 via R2 \
\(198.18.4.2\)" "$(cat "$L")"
assert_match console_route_r4 "fault: router R4 route 198.18.1.0/24 via R3 \
\(198.18.5.1\)" "$(cat "$L")"
assert_match console_restore_r1 "fault: router R1 route restored \
\(198.18.6.0/24 via R4 \(198.18.2.2\)\)" "$(cat "$L")"
assert_match console_restore_r4 "fault: router R4 route restored \
\(198.18.1.0/24 via R1 \(198.18.2.1\)\)" "$(cat "$L")"
F=$D/faults.csv
# row_times HOST ACTION: time_unix_s of HOST's ok rows of ACTION, by point.
row_times()
{
	awk -F, -v h="$1" -v a="$2" 'NR == 1 {
	    for (i = 1; i <= NF; i++) c[$i] = i; next }
	    $c["host"] == h && $c["action"] == a && $c["result"] == "ok" {
		print $c["point"], $c["time_unix_s"] }' "$F" | sort -n
}
assert_eq faults_csv_r1_routes 2 "$(row_times R1 route | wc -l)"
assert_eq faults_csv_r4_routes 2 "$(row_times R4 route | wc -l)"
assert_eq faults_csv_r1_restores 2 "$(row_times R1 restore | wc -l)"
assert_eq faults_csv_r4_restores 2 "$(row_times R4 restore | wc -l)"
assert_match faults_csv_r1_command "ip route replace 198.18.6.0/24 via \
198.18.4.2 metric 1" "$(cat "$F")"
assert_match faults_csv_r4_command "hoplab-router ROUTE_ADD 198.18.1.0/24 \
via 198.18.5.1" "$(cat "$F")"
assert_eq faults_csv_r1_at_1_2s ok "$(awk -F, 'NR == 1 {
    for (i = 1; i <= NF; i++) c[$i] = i; next }
    $c["host"] == "R1" && $c["action"] == "route" {
	d = $c["time_s"] - 1.2; if (d < 0) d = -d; if (d > 0.25) bad = 1 }
    END { print bad ? "off: " $0 : "ok" }' "$F")"

# 2. The windows [change, restore) of each point, from faults.csv.
windows()
{
	row_times "$1" route >"$T/a.$$"
	row_times "$1" restore >"$T/b.$$"
	join "$T/a.$$" "$T/b.$$" | awk '{ printf "%s %s ", $2, $3 }'
}
W1=$(windows R1)
W4=$(windows R4)
# in_windows DST "T0 T1 T2 T3": probes to DST captured, and how many
# fall outside [T0, T1) and [T2, T3).
in_windows()
{
	awk -v dst="$1" -v w="$2" 'BEGIN { n = split(w, t, " ") }
	    $0 ~ ("> " dst "\\.") { all++; ok = 0
		for (i = 1; i < n; i += 2)
			if ($1 + 0 >= t[i] + 0 && $1 + 0 < t[i + 1] + 0) {
				ok = 1; in_[i]++ }
		if (!ok) { out++; if (first == "") first = $1 } }
	    END { printf "%d %d %d %d %s\n", all, out, in_[1], in_[3], first }' \
	    "$T/cap.txt"
}
set -- $(in_windows 198.18.6.2 "$W1")
assert_gt capture_f1_on_long_path "${1:-0}" 500
assert_eq capture_f1_only_between_change_and_restore 0 "${2:-x}"
assert_gt capture_f1_point1 "${3:-0}" 0
assert_gt capture_f1_point2 "${4:-0}" 0
set -- $(in_windows 198.18.1.1 "$W4")
assert_gt capture_f2_on_long_path "${1:-0}" 500
assert_eq capture_f2_only_between_change_and_restore 0 "${2:-x}"
assert_gt capture_f2_point1 "${3:-0}" 0
assert_gt capture_f2_point2 "${4:-0}" 0

# 3.
S=$D/summary.csv
assert_eq f1_ttl_max_62 62 "$(csv_field "$S" f1 ttl_max)"
assert_eq f1_ttl_min_60 60 "$(csv_field "$S" f1 ttl_min)"
assert_eq f2_ttl_max_62 62 "$(csv_field "$S" f2 ttl_max)"
assert_eq f2_ttl_min_60 60 "$(csv_field "$S" f2 ttl_min)"

# 4. R1's samples: via R2 inside a window, via R4 between the points.
set -- $W1
assert_eq ip_route_via_r2_after_change yes "$(awk -v a="${1:-0}" \
    -v b="${2:-0}" '$1 >= a + 0.05 && $1 < b && /via 198.18.4.2 / {
    y = 1 } END { print y ? "yes" : "no" }' "$T/routes.txt")"
assert_eq ip_route_via_r4_after_restore yes "$(awk -v a="${2:-0}" \
    -v b="${3:-0}" '$1 >= a + 0.05 && $1 < b { n++
    if (!/via 198.18.2.2 /) bad = 1 } END {
    print (n > 0 && !bad) ? "yes" : ("no: " n " samples") }' "$T/routes.txt")"

# 5.
assert_eq outages_csv_rows_of_r1_route 4 "$(csv_col "$D/outages.csv" fault |
    grep -c '^router R1 route$')"

lab_down
assert_eq no_namespace_left "" "$(ip netns list | grep "^$LAB_PREFIX-")"
finish
