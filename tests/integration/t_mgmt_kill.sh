#!/bin/sh
# t_mgmt_kill: supervision as a user sees it, on a lab gen + A.
# Lab prefix hlm2, management K 239.
#
# Each case starts a run of 4000 probes at 1 ms, waits until the measured
# hoplab-gen runs, hurts something, and checks what the console says,
# that the run stopped with exit 1 and run.json saying why, and that no
# process is left over (by PID):
#
# 1. kill -9 of hoplab-gen: "hoplab-gen on gen was terminated by signal 9
#    (Killed)" and the last lines of its log.
# 2. kill -STOP of agent A: "agent A (198.19.239.11:7700) lost: silent for
#    3 s, last heard <time>".
# 3. SIGTERM to agent gen: its hoplab-gen is stopped and gone, the agent
#    exits, the console names agent gen.
# 4. kill -9 of agent gen: its hoplab-gen does not survive it
#    (PR_SET_PDEATHSIG), the console names agent gen at once.
# 5. agent gen started again as systemd would (the same command line):
#    no stale state.  No process of the old agent is left in its
#    namespace, children.sock is a new socket (another inode), the spool
#    is read again (a damaged file planted while it was down is set aside
#    and said so), and a new run through it completes.
# 6. kill -9 of hoplab-router on B during the second point of a run with
#    router: {impl: hoplab} on chain A-B: the console says "hoplab-router
#    on B (198.19.239.12:7700) was terminated by signal 9 (Killed)" with
#    the role and the last lines of its log; the run stops (exit 1,
#    run.json says why), point 1's row and the routers' rows are kept,
#    and no hoplab-router or hoplab-gen is left (by PID).
. "$(dirname "$0")/lib.sh"
need_root
lab_init hlm2 239
T=$(mktemp -d /tmp/hoplab-t-kill.XXXXXX)
at_exit "rm -rf '$T'"
HOPLAB="$HL_BIN/hoplab -p hlm2"
RUN_PID=
at_exit '[ -n "$RUN_PID" ] && kill "$RUN_PID" 2>/dev/null'
cat >"$T/long.yaml" <<'PLAN'
name: mgmt-long
topology: {chain: [A]}
variants: [A]
router: {impl: linux}
repeat: 1
flows:
  - name: probe
    mode: l2
    frame: {dist: const, value: 64}
    idt: {dist: const, value: 1ms}
    count: 4000
PLAN
sed 's/count: 4000/count: 300/; s/mgmt-long/mgmt-short/' "$T/long.yaml" \
    >"$T/short.yaml"
cat >"$T/router.yaml" <<'PLAN'
name: mgmt-router
topology: {chain: [A, B]}
variants: [A-B]
router: {impl: hoplab}
repeat: 2
flows:
  - name: probe
    mode: l2
    frame: {dist: const, value: 64}
    idt: {dist: const, value: 1ms}
    count: 2000
PLAN

# pids_of HOST COMM: the PIDs of the processes named COMM in HOST.
pids_of()
{
	for _p in $(ip netns pids "hlm2-$1" 2>/dev/null); do
		[ "$(cat /proc/$_p/comm 2>/dev/null)" = "$2" ] && echo $_p
	done
}

# The PID of the hoplab-gen running in host gen's namespace, or nothing.
gen_pid()
{
	pids_of gen hoplab-gen
}

# start_run NAME: the run in the background, output in $T/NAME.log;
# returns once the measured hoplab-gen runs, with its PID in GEN_PID.
start_run()
{
	$HOPLAB -o "$T/$1" run "$T/long.yaml" >"$T/$1.log" 2>&1 &
	RUN_PID=$!
	GEN_PID=
	wait_log 15 '^\[1/1\]' "$T/$1.log" || return 1
	_i=0
	while [ $_i -lt 30 ] && [ -z "$GEN_PID" ]; do
		GEN_PID=$(gen_pid)
		sleep 0.1
		_i=$((_i + 1))
	done
	[ -n "$GEN_PID" ]
}

# end_run NAME: wait for the controller (at most 15 s); RUN_RC its status.
end_run()
{
	_i=0
	while [ $_i -lt 150 ] && kill -0 "$RUN_PID" 2>/dev/null; do
		sleep 0.1
		_i=$((_i + 1))
	done
	kill "$RUN_PID" 2>/dev/null
	wait "$RUN_PID"
	RUN_RC=$?
	RUN_PID=
	RUN_JSON=$(ls "$T/$1"/mgmt-long-*/run.json 2>/dev/null)
}

# True when PID has ended: absent, or a zombie nobody reaped yet (a
# killed agent's children are reparented to PID 1).
gone()
{
	_st=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1)
	[ -z "$_st" ] || [ "$_st" = Z ]
}

lab_up A B
# --- 1. kill -9 of the generator -----------------------------------------
start_run gkill || bail gkill_start "the measured hoplab-gen did not start: $(cat "$T/gkill.log")"
kill -9 "$GEN_PID"
end_run gkill
assert_eq "generator killed: exit 1" 1 "$RUN_RC"
assert_match "generator killed: console says signal 9 on gen" \
    "run mgmt-long failed: hoplab-gen on gen was terminated by signal 9 \(Killed\)" \
    "$(cat "$T/gkill.log")"
assert_match "generator killed: run.json says why" \
    '"status": "failed: hoplab-gen on gen was terminated by signal 9' "$(cat "$RUN_JSON")"
assert_ok "generator killed: no hoplab-gen left" gone "$GEN_PID"

# --- 2. kill -STOP of agent A ------------------------------------------
A_PID=$(cat "$LAB_STATE/A.pid")
start_run astop || bail astop_start "no hoplab-gen: $(cat "$T/astop.log")"
kill -STOP "$A_PID"
end_run astop
kill -CONT "$A_PID"
assert_eq "agent A stopped: exit 1" 1 "$RUN_RC"
assert_match "agent A stopped: named with address and last-heard time" \
    "agent A \(198\.19\.239\.11:7700\) lost: silent for 3 s, last heard 20[0-9-]+T[0-9:.]+Z" \
    "$(cat "$T/astop.log")"
no_gen() { [ -z "$(gen_pid)" ]; }
wait_for 5 "no hoplab-gen in gen" no_gen
assert_ok "agent A stopped: no hoplab-gen left in gen" test -z "$(gen_pid)"

# --- 3. SIGTERM to agent gen --------------------------------------------
AG_PID=$(cat "$LAB_STATE/gen.pid")
start_run aterm || bail aterm_start "no hoplab-gen: $(cat "$T/aterm.log")"
kill -TERM "$AG_PID"
end_run aterm
assert_eq "agent gen terminated: exit 1" 1 "$RUN_RC"
assert_match "agent gen terminated: console names it" \
    "hoplab-gen on gen was stopped by its agent|agent gen \(198\.19\.239\.10:7700\) lost" \
    "$(cat "$T/aterm.log")"
assert_ok "agent gen terminated: its hoplab-gen is gone" gone "$GEN_PID"
assert_ok "agent gen terminated: the agent exited" gone "$AG_PID"
# its roles: the generator and the point's cpu role (cpu.csv)
assert_match "agent gen terminated: it stopped its roles" \
    "signal 15: stopping 2 roles and exiting" "$(cat "$LAB_STATE/gen.log")"

# --- 4. kill -9 of agent gen --------------------------------------------
lab_up A B
AG_PID=$(cat "$LAB_STATE/gen.pid")
echo "cmdline: $(tr '\0' ' ' <"/proc/$AG_PID/cmdline")" >"$T/gen.cmd"
start_run akill || bail akill_start "no hoplab-gen: $(cat "$T/akill.log")"
kill -9 "$AG_PID"
end_run akill
assert_eq "agent gen killed: exit 1" 1 "$RUN_RC"
assert_match "agent gen killed: console names it and the cause" \
    "agent gen \(198\.19\.239\.10:7700\) lost: its connection closed" \
    "$(cat "$T/akill.log")"
assert_ok "agent gen killed: its hoplab-gen did not survive" gone "$GEN_PID"

# --- 5. agent gen started again, as systemd would -------------------------
SOCK=$LAB_STATE/gen/children.sock
# tmpfs reuses inode numbers: the inode and its change time name a file.
OLD_INODE=$(stat -c '%i %z' "$SOCK" 2>/dev/null)
assert_ok "agent gen killed: its stale children.sock is still there" \
    test -S "$SOCK"
_i=0
while [ $_i -lt 50 ] && ! gone "$AG_PID"; do
	sleep 0.1
	_i=$((_i + 1))
done
printf 'not a result batch' >"$LAB_STATE/gen/spool/7-1.pb"
AG_CMD=$(sed -n 's/^cmdline: //p' "$T/gen.cmd")
# shellcheck disable=SC2086
setsid ip netns exec hlm2-gen $AG_CMD </dev/null >>"$LAB_STATE/gen.log" \
    2>&1 &
echo $! >"$LAB_STATE/gen.pid"
NEW_PID=$!
wait_log 5 "spool .*: 1 damaged file set aside" "$LAB_STATE/gen.log"
# the new agent has bound its own children.sock
new_sock()
{
	test -S "$SOCK" && test "$(stat -c '%i %z' "$SOCK")" != "$OLD_INODE"
}
wait_for 5 "a new children.sock" new_sock
assert_eq "agent gen restarted: only the new agent in its namespace" \
    "$NEW_PID" "$(ip netns pids hlm2-gen | tr '\n' ' ' | sed 's/ $//')"
assert_ok "agent gen restarted: children.sock is a socket again" \
    test -S "$SOCK"
assert_ok "agent gen restarted: children.sock is a new one" \
    test "$(stat -c '%i %z' "$SOCK")" != "$OLD_INODE"
assert_match "agent gen restarted: it read its spool again" \
    "spool $LAB_STATE/gen/spool: 1 damaged file set aside as \*\.bad" \
    "$(cat "$LAB_STATE/gen.log")"
$HOPLAB -q -o "$T/again" run "$T/short.yaml" >"$T/again.log" 2>&1
RC=$?
assert_eq "agent gen restarted: a new run completes" 0 "$RC"
[ "$RC" = 0 ] || tail -n 5 "$T/again.log" "$LAB_STATE/gen.log" |
    sed 's/^/    /'
assert_eq "agent gen restarted: the new run has its row" 1 \
    "$(csv_col "$(ls "$T/again"/mgmt-short-*/summary.csv)" sent | wc -l)"

# --- 6. kill -9 of hoplab-router on B ----------------------------------
$HOPLAB -o "$T/rkill" run "$T/router.yaml" >"$T/rkill.log" 2>&1 &
RUN_PID=$!
wait_log 20 '^\[2/2\]' "$T/rkill.log" ||
    bail rkill_start "point 2 never started: $(tail -n 5 "$T/rkill.log")"
_i=0
GEN_PID=
while [ $_i -lt 30 ] && [ -z "$GEN_PID" ]; do
	GEN_PID=$(gen_pid)
	sleep 0.1
	_i=$((_i + 1))
done
RA_PID=$(pids_of A hoplab-router)
RB_PID=$(pids_of B hoplab-router)
[ -n "$RB_PID" ] && [ -n "$RA_PID" ] && [ -n "$GEN_PID" ] ||
    bail rkill_pids "no hoplab-router on A or B or no hoplab-gen"
kill -9 "$RB_PID"
RUN_JSON=
end_run rkill
RUN_JSON=$(ls "$T/rkill"/mgmt-router-*/run.json 2>/dev/null)
DIR=$(dirname "$RUN_JSON")
assert_eq "router killed: exit 1" 1 "$RUN_RC"
assert_match "router killed: console names B, signal 9 and the role" \
    "run mgmt-router failed: hoplab-router on B \(198\.19\.239\.12:7700\) was terminated by signal 9 \(Killed\) while the run needed it \(role [0-9]+, pid $RB_PID\)" \
    "$(cat "$T/rkill.log")"
# The console quotes the end of B's role-N.log, or says that it is empty.
RB_ROLE=$(sed -n "s/.*(role \([0-9]*\), pid $RB_PID).*/\1/p" "$T/rkill.log" |
    head -n 1)
RB_LOG=$LAB_STATE/B/role-$RB_ROLE.log
if [ -s "$RB_LOG" ]; then
	assert_match "router killed: console shows the last line of its log" \
	    "last lines of role-$RB_ROLE\.log: .*$(tail -n 1 "$RB_LOG" |
	    sed 's/[][\.*^$()+?{}|]/./g')" "$(cat "$T/rkill.log")"
else
	assert_match "router killed: console says its log is empty" \
	    "its log role-$RB_ROLE\.log in the agent's run folder is empty" \
	    "$(cat "$T/rkill.log")"
fi
assert_match "router killed: run.json says why" \
    '"status": "failed: hoplab-router on B .* terminated by signal 9' \
    "$(cat "$RUN_JSON")"
assert_eq "router killed: point 1's row is kept" "2000" \
    "$(csv_col "$DIR/summary.csv" sent)"
assert_ge "router killed: the routers' rows are kept" \
    "$(csv_col "$DIR/routers.csv" router 2>/dev/null | wc -l)" 2
all_gone() { gone "$RB_PID" && gone "$RA_PID" && gone "$GEN_PID"; }
wait_for 5 "the run's processes gone" all_gone
assert_ok "router killed: hoplab-router on B is gone" gone "$RB_PID"
assert_ok "router killed: hoplab-router on A was stopped" gone "$RA_PID"
assert_ok "router killed: hoplab-gen was stopped" gone "$GEN_PID"
finish
