#!/bin/sh
# t_mgmt_resume: results survive a controller killed mid-run, and an agent
# killed and restarted while it holds them.  Lab prefix hlm3, management
# K 237 (shared with t_scale.sh; scenarios run in turn).
#
# 1. An uninterrupted run of a 6-point plan (variant A, frames 64/128/256,
#    2 repetitions): the reference summary.csv.
# 2. The same plan again; during point 3 the controller gets kill -9.  The
#    point's hoplab-gen (1 s) finishes on its own; its final batch must be
#    in the gen agent's spool (RUNDIR/spool/<run>/<role>-1.pb; -d keeps
#    the spool in the run folder), unacknowledged.
# 3. The gen agent gets kill -9 and is started again with the same
#    command line: the batch must still be in the spool, and the agent
#    must say it loaded it (and the cpu role's unacknowledged samples).
# 4. `hoplab attach DIR` reconnects, records point 3 from the spool (the
#    console says "1 recorded from the agents' spools"), measures points
#    4-6, and ends with exit 0, state.json "completed", an empty spool,
#    A's cpu samples sent after the kill in cpu.csv once each,
#    and a summary.csv whose (variant, frame, rep, flow, sent) rows equal
#    the reference's, in the same order, none doubled; likewise
#    intervals.csv (variant, frame, rep, flow, interval, sent) and the
#    per-point sums of pdf.csv's counts, which equal summary's received.
# 5. attach again: "complete; nothing to resume"; run --resume with an
#    edited plan is refused naming both sha256s.
# 6. A controller killed during point 3 and attached again within 3 s,
#    before the agents time it out: the attach measures points 4-6 (A's
#    agent hands its kernel router to the new controller's role).
. "$(dirname "$0")/lib.sh"
need_root
lab_init hlm3 237
T=$(mktemp -d /tmp/hoplab-t-resume.XXXXXX)
at_exit "rm -rf '$T'"
HOPLAB="$HL_BIN/hoplab -p hlm3"
RUN_PID=
at_exit '[ -n "$RUN_PID" ] && kill "$RUN_PID" 2>/dev/null'
cp "$HL_ROOT/tests/integration/plans/resume6.yaml" "$T/plan.yaml"

lab_up A
SPOOL=$LAB_STATE/gen/spool

# --- 1. the reference -----------------------------------------------------
$HOPLAB -q -o "$T/ref" run "$T/plan.yaml" >"$T/ref.log" 2>&1 ||
    bail reference_run "the uninterrupted run failed: $(tail -n 5 "$T/ref.log")"
REF=$(ls -d "$T/ref"/mgmt-resume-*)
summary_keys "$REF/summary.csv" "$T/refk" >"$T/ref.keys"
assert_eq "reference: 6 rows" 6 "$(wc -l <"$T/ref.keys" | tr -d ' ')"
assert_eq "reference: the spool is empty after a run" "" \
    "$(find "$SPOOL" -mindepth 1 ! -name .lock 2>/dev/null)"

# --- 2. kill -9 of the controller during point 3 --------------------------
$HOPLAB -o "$T/int" run "$T/plan.yaml" >"$T/int.log" 2>&1 &
RUN_PID=$!
wait_log 30 '^\[3/6\]' "$T/int.log" ||
    bail int_point3 "point 3 never started: $(tail -n 5 "$T/int.log")"
# Point 3 is in flight once state.json says so and its hoplab-gen runs
# in host gen (the agent logs no info lines by default).
DIR=$(ls -d "$T/int"/mgmt-resume-*)
wait_log 10 '"in_flight": \{"gen": \[[0-9]+\]\}' "$DIR/state.json" ||
    bail int_in_flight "state.json never had point 3 in flight"
ROLE=$(sed -n 's/.*"in_flight": {"gen": \[\([0-9]*\)\]}.*/\1/p' \
    "$DIR/state.json")
RUN=$(sed -n 's/.*"run_id": "\([^"]*\)".*/\1/p' "$DIR/state.json")
BATCH=$SPOOL/$RUN/$ROLE-1.pb
gen_runs() { proc_in_netns hlm3-gen hoplab-gen; }
wait_for 10 "hoplab-gen of point 3 in host gen" gen_runs ||
    bail int_gen_started "no hoplab-gen runs for point 3 (role $ROLE)"
kill -9 "$RUN_PID"
wait "$RUN_PID" 2>/dev/null
RUN_PID=
assert_match "killed: state.json has point 3 in flight on gen" \
    '"in_flight": \{"gen": \[[0-9]+\]\}' "$(cat "$DIR/state.json")"
# The generator runs 1 s and drains 0.5 s; give it 3 s to be spooled.
wait_for 3 "point 3's batch in the spool" test -e "$BATCH"
assert_ok "killed: point 3's batch is in the spool under its run, unacknowledged" \
    test -s "$BATCH"
assert_eq "killed: summary.csv holds points 1 and 2 only" 3 \
    "$(wc -l <"$DIR/summary.csv" | tr -d ' ')"

# --- 3. kill -9 and restart of the gen agent ------------------------------
AG_PID=$(cat "$LAB_STATE/gen.pid")
AG_CMD=$(tr '\0' ' ' <"/proc/$AG_PID/cmdline")
kill -9 "$AG_PID"
# Until it is reaped: the new agent refuses a pid file whose pid exists.
gone() { ! kill -0 "$1" 2>/dev/null; }
wait_for 5 "the killed agent reaped" gone "$AG_PID"
# Beside point 3's batch the spool holds the cpu role's samples the dead
# controller did not acknowledge (cpu.csv, docs/results.md): N in all.
N=$(find "$SPOOL" -name '*.pb' | wc -l | tr -d ' ')
[ "$N" -eq 1 ] && BATCHES="1 unacknowledged result batch" ||
    BATCHES="$N unacknowledged result batches"
GEN_LINE=$(($(wc -l <"$LAB_STATE/gen.log") + 1))
# shellcheck disable=SC2086
setsid ip netns exec hlm3-gen $AG_CMD </dev/null \
    >>"$LAB_STATE/gen.log" 2>&1 &
echo $! >"$LAB_STATE/gen.pid"
wait_log 5 "spool .*: $BATCHES" "$LAB_STATE/gen.log" "$GEN_LINE"
assert_match "agent restarted: it loaded the spooled batches ($N)" \
    "spool $SPOOL: $BATCHES" "$(cat "$LAB_STATE/gen.log")"
assert_ok "agent restarted: the batch is still on disk" \
    test -s "$BATCH"
wait_listen 5 hlm3-gen 7700 ||
    bail agent_restarted "the restarted agent does not listen on 7700"

# --- 4. attach ------------------------------------------------------------
$HOPLAB -o "$T/int" attach "$DIR" >"$T/att.log" 2>&1
RC=$?
assert_eq "attach: exit 0" 0 "$RC"
[ "$RC" = 0 ] || { tail -n 5 "$T/att.log" "$LAB_STATE/gen.log" \
    "$LAB_STATE/A.log" | sed 's/^/    /'; }
assert_match "attach: point 3 recorded from the spool" \
    "1 point\(s\) in flight: 1 recorded from the agents' spools, 0 to measure again" \
    "$(cat "$T/att.log")"
assert_match "attach: points 4 to 6 measured" '^\[6/6\]' "$(cat "$T/att.log")"
assert_match "attach: state.json completed" '"status": "completed"' \
    "$(cat "$DIR/state.json")"
assert_match "attach: run.json completed" '"status": "completed"' \
    "$(cat "$DIR/run.json")"
assert_eq "attach: the spool is empty" "" \
    "$(find "$SPOOL" -mindepth 1 ! -name .lock 2>/dev/null)"
# A's agent outlived the controller: its cpu samples after the kill were
# sent again to the attach and written without their point, once each.
assert_ge "attach: A's resent cpu samples in cpu.csv" "$(awk -F, \
    '$1 == "" && $5 == "A" && $8 == "all"' "$DIR/cpu.csv" | wc -l)" 1
assert_eq "attach: no cpu.csv interval doubled" "" \
    "$(awk -F, 'NR > 1 { print $5, $6, $8 }' "$DIR/cpu.csv" | sort | uniq -d)"
summary_keys "$DIR/summary.csv" "$T/intk" >"$T/int.keys"
assert_eq "attach: summary rows equal the uninterrupted run's" \
    "$(cat "$T/ref.keys")" "$(cat "$T/int.keys")"
assert_eq "attach: no row doubled" 6 \
    "$(cut -d, -f1-4 "$T/int.keys" | sort -u | wc -l | tr -d ' ')"
assert_ok "attach: hops.csv written" test -s "$DIR/hops.csv"
# intervals.csv: per point, the intervals' sent add up to what the
# uninterrupted run sent, and no (point, interval) row is doubled.  Which
# interval a packet falls in depends on pacing near a 0.5 s boundary, so
# the rows of two runs are not compared one by one.
ikeys()
{
	for c in variant frame_bytes rep flow interval sent; do
		csv_col "$1" $c >"$2.$c" || return 1
	done
	paste -d, "$2.variant" "$2.frame_bytes" "$2.rep" "$2.flow" \
	    "$2.interval" "$2.sent"
}
isums()
{
	awk -F, '{ s[$1 "," $2 "," $3 "," $4] += $6 }
	    END { for (k in s) print k "," s[k] }' "$1" | sort
}
ikeys "$REF/intervals.csv" "$T/refi" >"$T/ref.ikeys"
ikeys "$DIR/intervals.csv" "$T/inti" >"$T/int.ikeys"
assert_ge "reference: intervals.csv has rows for the 6 points" \
    "$(wc -l <"$T/ref.ikeys" | tr -d ' ')" 6
assert_eq "attach: intervals.csv sums per point equal the uninterrupted run's" \
    "$(isums "$T/ref.ikeys")" "$(isums "$T/int.ikeys")"
assert_eq "attach: no intervals.csv row doubled" \
    "$(wc -l <"$T/int.ikeys" | tr -d ' ')" \
    "$(cut -d, -f1-5 "$T/int.ikeys" | sort -u | wc -l | tr -d ' ')"
# pdf.csv: per point, the counts sum to the packets received, once.
assert_eq "attach: pdf.csv counts per point = received, none doubled" \
    "$(point_received "$DIR/summary.csv" "$T/rv")" \
    "$(pdf_counts "$DIR/pdf.csv" "$T/pd")"

# --- 5. nothing left to resume; another plan refused ----------------------
assert_match "attach again: nothing to resume" "complete; nothing to resume" \
    "$($HOPLAB -o "$T/int" attach "$DIR" 2>&1)"
sed 's/count: 1000/count: 999/' "$T/plan.yaml" >"$T/edited.yaml"
# As if the run had failed half-way, so that there is something to resume.
sed -i 's/"status": "completed"/"status": "failed"/' "$DIR/state.json"
OUT=$($HOPLAB -o "$T/int" run --resume "$DIR" "$T/edited.yaml" 2>&1)
RC=$?
assert_eq "resume with an edited plan: exit 2" 2 "$RC"
assert_match "resume with an edited plan: both sha256 named" \
    "is not the plan run mgmt-resume-.* was started with \(its sha256 is [0-9a-f]{12}\.\.\., the run's [0-9a-f]{12}\.\.\." \
    "$OUT"

# --- 6. attach before the agents time the killed controller out ----------
# The generator of point 3 ends 1.5 s after its start; attach comes then,
# before A's agent declares the killed controller lost (3 s of silence).
# A's agent must hand the kernel router to the new controller's role
# instead of flushing, 3 s later, the addresses that role configured:
# before, the re-measured points' generator found no gateway (ARP).
$HOPLAB -o "$T/take" run "$T/plan.yaml" >"$T/take.log" 2>&1 &
RUN_PID=$!
wait_log 30 '^\[3/6\]' "$T/take.log" ||
    bail take_point3 "point 3 never started: $(tail -n 5 "$T/take.log")"
TDIR=$(ls -d "$T/take"/mgmt-resume-*)
wait_log 10 '"in_flight": \{"gen": \[[0-9]+\]\}' "$TDIR/state.json" ||
    bail take_in_flight "state.json never had point 3 in flight"
kill -9 "$RUN_PID"
wait "$RUN_PID" 2>/dev/null
RUN_PID=
sleep 1.6	# the window itself: after point 3's end, before A's 3 s
$HOPLAB -o "$T/take" attach "$TDIR" >"$T/take-att.log" 2>&1
RC=$?
assert_eq "attach within 3 s of the kill: exit 0" 0 "$RC"
[ "$RC" = 0 ] || tail -n 3 "$T/take-att.log" | sed 's/^/    /'
assert_match "attach within 3 s of the kill: points 4 to 6 measured" \
    '^\[6/6\]' "$(cat "$T/take-att.log")"
grep -h "replaced by role" "$LAB_STATE/A.log" | sed 's/^/    A: /'
finish
