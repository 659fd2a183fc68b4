#!/bin/sh
# t_killmatrix: kill -9 at random moments of a run, each followed by the
# documented recovery, and the results folder checked against an
# uninterrupted run of the same plan.  Lab prefix hlkm, management K 196;
# routers A and B (hoplab-router), the link A-B through its wire host
# (hoplab-link, 1 ms).
#
# Plan: variant A-B, frames 64/128/256, 400 probes 1 ms apart each.
# The reference run gives the rows every run must end with.  Then CASES
# cases (KM_CASES, default 5: each victim once, as make check runs it;
# bench/killmatrix.sh runs 100), seeded by
# KM_SEED (default 1): the victims in turn (agent, gen, router, link,
# controller), each killed at a random moment of the run: once the run
# has reached a random point (1..3) and the victim runs, after a random
# 0..400 ms more.  KM_FIRST=N starts at case N (to replay one of a seed's
# cases: KM_FIRST=43 KM_CASES=43).
#
#   controller  kill -9 of hoplab run; recovery: hoplab attach DIR.
#   agent       kill -9 of the gen or A agent (by turn); recovery: the
#               agent started again with its own command line over the
#               same spool (as systemd's Restart= would), then attach.
#   gen, router, link
#               kill -9 of hoplab-gen, of hoplab-router on A or B, of
#               hoplab-link; the run stops (its agent reports the role
#               FAILED); recovery: hoplab attach DIR.
#
# After each recovery: the attach exits 0 and state.json says completed;
# the document its --json wrote equals `hoplab report --json DIR`'s and
# its --json-stream ends with run_end completed;
# summary.csv's (variant, frame, rep, flow, sent, received) rows equal the
# reference's, in order, none lost or doubled; no hoplab-gen, -router or
# -link is left in the lab's namespaces (by PID, after the attach ended);
# a killed agent's children did not outlive it.  At the end the lab goes
# down and no namespace of its prefix is left.  The matrix is printed as
# a table, a row per case.
. "$(dirname "$0")/lib.sh"
need_root
lab_init hlkm 196
T=$(mktemp -d /tmp/hoplab-t-killmx.XXXXXX)
[ -n "${HLT_KEEP:-}" ] || at_exit "rm -rf '$T'"
HOPLAB="$HL_BIN/hoplab -p hlkm"
CASES=${KM_CASES:-5}
SEED=${KM_SEED:-1}
RUN_PID=
at_exit '[ -n "$RUN_PID" ] && kill "$RUN_PID" 2>/dev/null'
cat >"$T/plan.yaml" <<'PLAN'
name: killmx
topology: {chain: [A, B]}
variants: [A-B]
router: {impl: hoplab}
repeat: 1
sweep: {frame: [64, 128, 256]}
flows:
  - {name: probe, mode: l2, frame: $frame, idt: 1ms, count: 400}
impairments: [{link: A-B, delay: 1ms}]
PLAN

# keys SUMMARY: a line per row, the columns a recovery must restore.
keys()
{
	for _c in variant frame_bytes rep flow sent received; do
		csv_col "$1" $_c >"$T/k.$_c" || return 1
	done
	paste -d, "$T/k.variant" "$T/k.frame_bytes" "$T/k.rep" "$T/k.flow" \
	    "$T/k.sent" "$T/k.received"
}

# roles_left: the hoplab-gen, -router and -link processes in the lab's
# namespaces, "NAME:PID" each.
roles_left()
{
	for _ns in $(ip netns list | awk '{ print $1 }' | grep '^hlkm-'); do
		for _p in $(ip netns pids "$_ns" 2>/dev/null); do
			_c=$(cat "/proc/$_p/comm" 2>/dev/null) || continue
			case $_c in
			hoplab-gen|hoplab-router|hoplab-link) echo "$_c:$_p" ;;
			esac
		done
	done
}
no_roles_left() { [ -z "$(roles_left)" ]; }

# pid_in NS COMM: the pid of a COMM process in namespace hlkm-NS.
pid_in()
{
	for _p in $(ip netns pids "hlkm-$1" 2>/dev/null); do
		[ "$(cat "/proc/$_p/comm" 2>/dev/null)" = "$2" ] &&
		    { echo "$_p"; return 0; }
	done
	return 1
}
has_pid_in() { pid_in "$1" "$2" >/dev/null; }

# rand N K: case N's K-th random number in 0..999999, from the seeded
# list (3 per case).
RANDS=$(awk -v s="$SEED" -v n="$CASES" 'BEGIN { srand(s)
    for (i = 0; i < n * 3; i++) printf "%d ", int(rand() * 1000000) }')
rand()
{
	echo "$RANDS" | awk -v i="$((($1 - 1) * 3 + $2))" '{ print $i }'
}

lab_up A B

# --- the reference --------------------------------------------------------
START=$(date +%s)
$HOPLAB -q -o "$T/ref" run "$T/plan.yaml" >"$T/ref.log" 2>&1 ||
    bail reference_run "the uninterrupted run failed: $(tail -n 5 "$T/ref.log")"
REF=$(ls -d "$T/ref"/killmx-*)
keys "$REF/summary.csv" >"$T/ref.keys"
assert_eq "reference: 3 rows" 3 "$(wc -l <"$T/ref.keys" | tr -d ' ')"
assert_eq "reference: no loss" "" "$(awk -F, '$5 != $6' "$T/ref.keys")"
echo "    reference: $(($(date +%s) - START)) s"
# The controller added the wire host of A-B for the impairment.
WIRE_NS=$(ip netns list | awk '{ print $1 }' | grep '^hlkm-w-' | head -1)
WIRE=${WIRE_NS#hlkm-}
[ -n "$WIRE" ] && [ -n "$(ls "$REF/links" 2>/dev/null)" ] ||
    bail reference_link "the run crossed no hoplab-link (wire $WIRE)"

# restart_agent HOST: start HOST's agent again with its own command line.
restart_agent()
{
	_cmd=$(cat "$T/agent.cmd")
	# shellcheck disable=SC2086
	setsid ip netns exec "hlkm-$1" $_cmd </dev/null \
	    >>"$LAB_STATE/$1.log" 2>&1 &
	echo $! >"$LAB_STATE/$1.pid"
	wait_listen 5 "hlkm-$1" 7700
}

# kill_case N VICTIM: one case; appends its row to T/matrix.
kill_case()
{
	_n=$1 _v=$2 _who=$2
	_at=$(($(rand "$_n" 1) % 3 + 1)) _ms=$(($(rand "$_n" 2) % 400))
	_out=$T/c$_n
	$HOPLAB -o "$_out" run "$T/plan.yaml" >"$_out.log" 2>&1 &
	RUN_PID=$!
	_rec=attach _note=
	if ! wait_log 30 "^\[$_at/3\]" "$_out.log"; then
		_note="point $_at never started"
	fi
	case $_v in
	controller) _pid=$RUN_PID ;;
	agent)	_host=gen
		[ $((_n % 2)) = 0 ] && _host=A
		_who="agent $_host"
		_pid=$(cat "$LAB_STATE/$_host.pid")
		tr '\0' ' ' <"/proc/$_pid/cmdline" >"$T/agent.cmd" ;;
	gen)	wait_for 10 "hoplab-gen runs" has_pid_in gen hoplab-gen
		_pid=$(pid_in gen hoplab-gen) ;;
	router)	_host=A
		[ $((_n % 2)) = 0 ] && _host=B
		_who="router $_host"
		wait_for 10 "hoplab-router runs" has_pid_in "$_host" hoplab-router
		_pid=$(pid_in "$_host" hoplab-router) ;;
	link)	wait_for 10 "hoplab-link runs" has_pid_in "$WIRE" hoplab-link
		_pid=$(pid_in "$WIRE" hoplab-link) ;;
	esac
	sleep "$(awk -v m="$_ms" 'BEGIN { printf "%.3f", m / 1000 }')"
	_dir=$(ls -d "$_out"/killmx-* 2>/dev/null)
	_done=$(grep -c '"done"' "$_dir/state.json" 2>/dev/null)
	if [ -z "$_pid" ] || ! kill -9 "$_pid" 2>/dev/null; then
		_note="${_note:-the victim had ended}"
	fi
	# The run ends: killed, or stopped by the fault (a run that
	# finishes anyway is fine: the attach has nothing to do).
	_rc=
	if [ "$_v" = controller ]; then
		wait "$RUN_PID" 2>/dev/null
		_rc=killed
	else
		wait_for 30 "the run to end" sh -c "! kill -0 $RUN_PID 2>/dev/null"
		wait "$RUN_PID" 2>/dev/null
		_rc=$?
	fi
	RUN_PID=
	if [ "$_v" = agent ]; then
		gone() { ! kill -0 "$1" 2>/dev/null; }
		wait_for 5 "the killed agent reaped" gone "$_pid"
		_orph=$(for _p in $(ip netns pids "hlkm-$_host"); do
			cat "/proc/$_p/comm" 2>/dev/null; done | grep -c '^hoplab-')
		assert_eq "case $_n: agent $_host's children died with it" 0 \
		    "$_orph"
		restart_agent "$_host" || _note="agent $_host did not restart"
		_rec="restart + attach"
	fi
	if [ -z "$_dir" ]; then
		_dir=$(ls -d "$_out"/killmx-* 2>/dev/null)
	fi
	if grep -q '"status": "completed"' "$_dir/state.json" 2>/dev/null; then
		_arc=-
		_rec="(none: completed)"
	else
		$HOPLAB -o "$_out" attach --json "$_out.json" \
		    --json-stream "$_out.jsonl" "$_dir" >"$_out.att" 2>&1
		_arc=$?
		_end=$(tail -n 1 "$_out.jsonl" | jq -r '.event + " " + .status')
		[ "$_arc" != 0 ] || [ "$_end" = "run_end completed" ] ||
		    fail "case $_n: attach --json-stream ends with run_end" \
		    "last line: $_end"
		# the document attach wrote is the folder's, as report's
		$HOPLAB report --json "$_dir" >"$_out.rep" 2>/dev/null
		cmp -s "$_out.json" "$_out.rep" ||
		    fail "case $_n: attach --json is report --json's document" \
		    "$(diff "$_out.json" "$_out.rep" 2>&1 | head -3)"
	fi
	keys "$_dir/summary.csv" >"$T/c$_n.keys" 2>/dev/null
	_rows=$(wc -l <"$T/c$_n.keys" | tr -d ' ')
	wait_for 5 "the roles to end" no_roles_left
	_left=$(roles_left | tr '\n' ' ')
	_ok=ok
	[ "$_arc" = 0 ] || [ "$_arc" = - ] || _ok=FAIL
	cmp -s "$T/ref.keys" "$T/c$_n.keys" || _ok=FAIL
	[ -z "$_left" ] || _ok=FAIL
	grep -q '"status": "completed"' "$_dir/state.json" 2>/dev/null ||
	    _ok=FAIL
	assert_eq "case $_n ($_who at point $_at +${_ms} ms): attach exit 0" \
	    0 "${_arc#-}"
	[ "$_arc" = 0 ] || [ "$_arc" = - ] ||
	    tail -n 4 "$_out.att" | sed 's/^/      /'
	assert_eq "case $_n: summary rows equal the reference's" \
	    "$(cat "$T/ref.keys")" "$(cat "$T/c$_n.keys")"
	assert_eq "case $_n: no role process left" "" "$_left"
	printf '%4s  %-10s  %-5s  %6s  %4s  %-7s  %-16s  %4s  %4s  %s\n' \
	    "$_n" "$_who" "$_at" "+$_ms" "${_done:-0}" "$_rc" "$_rec" \
	    "${_arc}" "$_rows" "$_ok${_note:+ ($_note)}" >>"$T/matrix"
}

VICTIMS="agent gen router link controller"
n=${KM_FIRST:-1}
while [ "$n" -le "$CASES" ]; do
	v=$(echo $VICTIMS | cut -d' ' -f$(((n - 1) % 5 + 1)))
	kill_case "$n" "$v"
	n=$((n + 1))
done

echo "    kill matrix (seed $SEED, $CASES cases; point: the run's point" \
    "reached before the kill, done: points done then):"
printf '    %4s  %-10s  %-5s  %6s  %4s  %-7s  %-16s  %4s  %4s  %s\n' case \
    victim point ms done run-rc recovery att rows verdict
sed 's/^/    /' "$T/matrix"
lab_down
assert_eq "lab down: no namespace of the lab left" "" \
    "$(ip netns list | awk '{ print $1 }' | grep '^hlkm-')"
finish
