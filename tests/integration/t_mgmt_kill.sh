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

# wait_for PATTERN FILE TENTHS: until grep -E finds PATTERN in FILE.
wait_for()
{
	_i=0
	while [ $_i -lt "$3" ]; do
		grep -Eq -- "$1" "$2" 2>/dev/null && return 0
		sleep 0.1
		_i=$((_i + 1))
	done
	return 1
}

# The PID of the hoplab-gen running in host gen's namespace, or nothing.
gen_pid()
{
	for _p in $(ip netns pids hlm2-gen 2>/dev/null); do
		[ "$(cat /proc/$_p/comm 2>/dev/null)" = hoplab-gen ] && echo $_p
	done
}

# start_run NAME: the run in the background, output in $T/NAME.log;
# returns once the measured hoplab-gen runs, with its PID in GEN_PID.
start_run()
{
	$HOPLAB -o "$T/$1" run "$T/long.yaml" >"$T/$1.log" 2>&1 &
	RUN_PID=$!
	GEN_PID=
	wait_for '^\[1/1\]' "$T/$1.log" 150 || return 1
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

lab_up A
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
wait_for x /dev/null 10
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
assert_match "agent gen terminated: it stopped its role" \
    "signal 15: stopping 1 role and exiting" "$(cat "$LAB_STATE/gen.log")"

# --- 4. kill -9 of agent gen --------------------------------------------
lab_up A
AG_PID=$(cat "$LAB_STATE/gen.pid")
start_run akill || bail akill_start "no hoplab-gen: $(cat "$T/akill.log")"
kill -9 "$AG_PID"
end_run akill
assert_eq "agent gen killed: exit 1" 1 "$RUN_RC"
assert_match "agent gen killed: console names it and the cause" \
    "agent gen \(198\.19\.239\.10:7700\) lost: its connection closed" \
    "$(cat "$T/akill.log")"
assert_ok "agent gen killed: its hoplab-gen did not survive" gone "$GEN_PID"
finish
