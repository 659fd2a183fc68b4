#!/bin/sh
# t_spool_unit: the spool survives an agent restart through the systemd
# unit's own paths (issue 17, item 1).  Lab prefix hlsu, management K 199.
# The lab has no systemd as init, so the test does what the unit makes
# systemd do, with temporary folders standing in for /run and /var/lib:
#
# 1. `systemd-analyze verify` of deploy/hoplab-agent.service (a copy whose
#    ExecStart names this tree's bin/hoplab-agent, the installed path not
#    existing here), and the agent's own -n check of the unit's arguments.
# 2. The gen host's agent is started with the unit's ExecStart arguments:
#    -r under RUN standing in for /run/<RuntimeDirectory=>, --spool under
#    STATE standing in for /var/lib/<StateDirectory=>, and the options that
#    deploy writes to HOPLAB_AGENT_OPTS.
# 3. A 3-point run; during point 2 the controller gets kill -9, so point
#    2's batch stays in the spool unacknowledged.  It must be in the state
#    folder's spool under its run (SPOOL/RUN/ROLE-1.pb), not in the run
#    folder, which keeps only sockets, the pid file and role logs.
# 4. The agent gets kill -9 (Restart=on-failure), the run folder is
#    deleted as systemd deletes a RuntimeDirectory= on every stop, and the
#    agent is started again with the same arguments.
#    Then a peer with the controller's key acknowledges that batch (role,
#    seq) for another run (ackpoke, built below into the temp folder): the
#    agent must log and count it and keep the batch (issue 17, item 3).
# 5. `hoplab attach` records point 2 from the spool (not measured again)
#    and measures point 3: summary.csv holds every point exactly once, and
#    each row's sent and received equal what that point's hoplab-gen
#    printed in its own report (its role log, saved before the run folder
#    went), and sent equals the plan's count.  The agent's exit line
#    (SIGTERM) counts the foreign ack.
#
# HL_UNIT=FILE tests another unit file (the old one, to show the bug).
. "$(dirname "$0")/lib.sh"
need_root
lab_init hlsu 199
T=$(mktemp -d /tmp/hoplab-t-spoolunit.XXXXXX)
[ -n "$HL_KEEP" ] || at_exit "rm -rf '$T'"
HOPLAB="$HL_BIN/hoplab -p hlsu"
UNIT=${HL_UNIT:-$HL_ROOT/deploy/hoplab-agent.service}
RUN_PID=
at_exit '[ -n "$RUN_PID" ] && kill "$RUN_PID" 2>/dev/null'
cat >"$T/plan.yaml" <<'PLAN'
name: spool-unit
topology: {chain: [A]}
variants: [A]
router: {impl: linux}
sweep: {frame: [64, 128, 256]}
flows:
  - name: probe
    mode: l2
    frame: {dist: const, value: $frame}
    idt: {dist: const, value: 1ms}
    count: 1000
PLAN
COUNT=1000
cat >"$T/ackpoke.c" <<'POKE'
/*
 * ackpoke ENDPOINT SERVERPUB KEYFILE ROLE SEQ RUN: a controller (DEALER,
 * CURVE with KEYFILE's pair) that says Hello, then acknowledges batch SEQ
 * of ROLE for run RUN, and prints how many batches the agent sent it.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zmq.h>
#include "proto/hoplab.pb-c.h"

static int
key_line(const char *file, const char *what, char *out)
{
	char line[256], fmt[64];
	FILE *f = fopen(file, "r");
	int rc = -1;

	if (f == NULL)
		return -1;
	snprintf(fmt, sizeof(fmt), "%s = \"%%40[^\"]\"", what);
	while (rc == -1 && fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, fmt, out) == 1)
			rc = 0;
	fclose(f);
	return rc;
}

static void
send_env(void *s, Hoplab__Envelope *e)
{
	static uint8_t buf[4096];

	e->version = 1;
	e->sender = "ackpoke";
	e->seq++;
	zmq_send(s, buf, hoplab__envelope__pack(e, buf), 0);
}

/* Batches received within MS. */
static int
drain(void *s, int ms)
{
	static uint8_t buf[1 << 20];
	zmq_pollitem_t it = { s, 0, ZMQ_POLLIN, 0 };
	Hoplab__Envelope *e;
	int n, batches = 0;

	while (zmq_poll(&it, 1, ms) > 0)
		while ((n = zmq_recv(s, buf, sizeof(buf), ZMQ_DONTWAIT)) >= 0)
			if ((e = hoplab__envelope__unpack(NULL, (size_t)n,
			    buf)) != NULL) {
				batches += e->body_case ==
				    HOPLAB__ENVELOPE__BODY_RESULT_BATCH;
				hoplab__envelope__free_unpacked(e, NULL);
			}
	return batches;
}

int
main(int argc, char **argv)
{
	Hoplab__Envelope e = HOPLAB__ENVELOPE__INIT;
	Hoplab__Hello h = HOPLAB__HELLO__INIT;
	Hoplab__Ack a = HOPLAB__ACK__INIT;
	char spub[41], pub[41], sec[41];
	void *ctx, *s;
	int linger = 0, n;

	if (argc != 7 || key_line(argv[2], "public-key", spub) == -1 ||
	    key_line(argv[3], "public-key", pub) == -1 ||
	    key_line(argv[3], "secret-key", sec) == -1) {
		fprintf(stderr, "usage: ackpoke ENDPOINT SERVERPUB KEYFILE "
		    "ROLE SEQ RUN (with readable key files)\n");
		return 2;
	}
	ctx = zmq_ctx_new();
	s = zmq_socket(ctx, ZMQ_DEALER);
	zmq_setsockopt(s, ZMQ_LINGER, &linger, sizeof(linger));
	zmq_setsockopt(s, ZMQ_ROUTING_ID, "ackpoke", 7);
	zmq_setsockopt(s, ZMQ_CURVE_SERVERKEY, spub, 40);
	zmq_setsockopt(s, ZMQ_CURVE_PUBLICKEY, pub, 40);
	zmq_setsockopt(s, ZMQ_CURVE_SECRETKEY, sec, 40);
	zmq_connect(s, argv[1]);
	h.proto_version = 1;
	h.software_version = "0.1.0";
	h.controller = "ackpoke";
	e.body_case = HOPLAB__ENVELOPE__BODY_HELLO;
	e.hello = &h;
	send_env(s, &e);
	drain(s, 500);
	a.role_id = (uint32_t)strtoul(argv[4], NULL, 10);
	a.batch_seq = strtoull(argv[5], NULL, 10);
	a.run_id = argv[6];
	e.body_case = HOPLAB__ENVELOPE__BODY_ACK;
	e.ack = &a;
	send_env(s, &e);
	n = drain(s, 1000);
	printf("ackpoke: acknowledged role %u batch %llu of run %s; %d "
	    "batches received\n", a.role_id, (unsigned long long)a.batch_seq,
	    a.run_id, n);
	zmq_close(s);
	zmq_ctx_term(ctx);
	return 0;
}
POKE
build_client build_ackpoke "$T/ackpoke"

# --- 1. the unit ----------------------------------------------------------
unit_key() { sed -n "s/^$1=//p" "$UNIT" | tail -n 1; }
EXEC=$(unit_key ExecStart)
RTD=$(unit_key RuntimeDirectory)
STD=$(unit_key StateDirectory)
PROG=${EXEC%% *}
ARGS=${EXEC#* }
assert_match "unit: ExecStart runs hoplab-agent" '/hoplab-agent$' "$PROG"
assert_match "unit: a RuntimeDirectory and a StateDirectory" \
    '^[a-z-]+ [a-z-]+$' "$RTD $STD"
mkdir -p "$T/unit"
sed "s#^ExecStart=$PROG #ExecStart=$HL_BIN/hoplab-agent #" "$UNIT" \
    >"$T/unit/hoplab-agent.service"
# Documentation=man:hoplab-agent(8): verify runs man(1) on it; the page
# is the tree's, as make install puts it under share/man/man8.
mkdir -p "$T/man/man8"
ln -s "$HL_ROOT/man/hoplab-agent.8" "$T/man/man8/hoplab-agent.8"
assert_ok "unit: systemd-analyze verify passes" \
    env MANPATH="$T/man" systemd-analyze verify "$T/unit/hoplab-agent.service"
MANPATH="$T/man" systemd-analyze verify "$T/unit/hoplab-agent.service" 2>&1 |
    sed 's/^/    /'

# The folders systemd would make: RuntimeDirectory= fresh at each start,
# StateDirectory= kept.  The unit's arguments, with /run/RTD and
# /var/lib/STD moved under $T and $HOPLAB_AGENT_OPTS as deploy writes it.
RUND=$T/run/$RTD
STATED=$T/var/lib/$STD
mkdir -p "$T/run" "$STATED" && chmod 0700 "$STATED"
OPTS="-N gen -l $(lab_addr 0):7700 -k /run/hoplab/hlsu/keys/gen.key \
-a /run/hoplab/hlsu/keys/controller.pub"
# shellcheck disable=SC2016
AG_ARGS=$(echo "$ARGS" | sed -e "s#/run/$RTD#$RUND#g" \
    -e "s#/var/lib/$STD#$STATED#g" -e "s#\$HOPLAB_AGENT_OPTS#$OPTS#")
echo "    agent arguments: $AG_ARGS"

# --- 2. the gen agent as the unit starts it --------------------------------
lab_up A
# shellcheck disable=SC2086
assert_match "unit: the agent accepts the unit's arguments (-n)" \
    "configuration OK" "$("$HL_BIN/hoplab-agent" -n $AG_ARGS 2>&1)"
AG_PID=$(cat "$LAB_STATE/gen.pid")
kill "$AG_PID"
gone() { ! kill -0 "$1" 2>/dev/null; }
wait_for 5 "the lab's gen agent stopped" gone "$AG_PID" ||
    bail lab_agent_stopped "the lab's gen agent does not stop"
start_agent()
{
	mkdir -m 0700 "$RUND" || return 1
	# shellcheck disable=SC2086
	setsid ip netns exec hlsu-gen "$HL_BIN/hoplab-agent" $AG_ARGS \
	    </dev/null >>"$T/agent.log" 2>&1 &
	echo $! >"$LAB_STATE/gen.pid"
	wait_listen 5 hlsu-gen 7700
}
start_agent || bail agent_started "the agent does not listen: \
$(tail -n 3 "$T/agent.log")"

# --- 3. kill -9 of the controller during point 2 --------------------------
$HOPLAB -o "$T/res" run "$T/plan.yaml" >"$T/run.log" 2>&1 &
RUN_PID=$!
wait_log 30 '^\[2/3\]' "$T/run.log" ||
    bail point2 "point 2 never started: $(tail -n 5 "$T/run.log")"
DIR=$(ls -d "$T/res"/spool-unit-*)
wait_log 10 '"in_flight": \{"gen": \[[0-9]+\]\}' "$DIR/state.json" ||
    bail in_flight "state.json never had point 2 in flight"
ROLE=$(sed -n 's/.*"in_flight": {"gen": \[\([0-9]*\)\]}.*/\1/p' \
    "$DIR/state.json")
RUN=$(sed -n 's/.*"run_id": "\([^"]*\)".*/\1/p' "$DIR/state.json")
gen_runs()
{
	for _p in $(ip netns pids hlsu-gen 2>/dev/null); do
		[ "$(cat "/proc/$_p/comm" 2>/dev/null)" = hoplab-gen ] &&
		    return 0
	done
	return 1
}
wait_for 10 "hoplab-gen of point 2" gen_runs ||
    bail gen_started "no hoplab-gen runs for point 2 (role $ROLE)"
kill -9 "$RUN_PID"
wait "$RUN_PID" 2>/dev/null
RUN_PID=
# The generator runs 1 s and drains 0.5 s; its final batch is then
# spooled, wherever the agent keeps its spool.
spooled() { [ -n "$(find "$T" -name "$ROLE-1.pb" -size +0)" ]; }
wait_for 5 "point 2's batch spooled" spooled
assert_ok "killed: point 2's batch is in the state folder's spool, under its run" \
    test -s "$STATED/spool/$RUN/$ROLE-1.pb"
assert_eq "killed: the run folder holds no batch" "" \
    "$(find "$RUND" -name '*.pb')"
wait_for 5 "point 2's generator report" test -s "$RUND/role-$ROLE.log"
cp "$RUND"/role-*.log "$T/" 2>/dev/null

# --- 4. kill -9, the run folder removed, the same command again -----------
AG_PID=$(cat "$LAB_STATE/gen.pid")
kill -9 "$AG_PID"
wait_for 5 "the killed agent reaped" gone "$AG_PID"
rm -rf "$RUND"
start_agent || bail agent_restarted "the restarted agent does not listen: \
$(tail -n 3 "$T/agent.log")"
assert_match "restarted: the agent loaded the spooled batches" \
    "spool $STATED/spool: [0-9]+ unacknowledged result batch" \
    "$(cat "$T/agent.log")"

# Role ids of two runs may collide: an ack naming another run must not
# delete this run's batch.
ip netns exec hlsu-gen "$T/ackpoke" "tcp://$(lab_addr 0):7700" \
    "$LAB_STATE/keys/gen.pub" "$LAB_STATE/keys/controller.key" "$ROLE" 1 \
    "$RUN-other" | sed 's/^/    /'
wait_log 3 "ack role $ROLE batch 1 of run $RUN-other ignored \(1 so far\)" \
    "$T/agent.log"
assert_match "foreign ack: logged with its run and counted" \
    "ack role $ROLE batch 1 of run $RUN-other ignored \(1 so far\): spool $STATED/spool: batch 1 of role $ROLE is kept for run $RUN, not for run $RUN-other: not deleted" \
    "$(cat "$T/agent.log")"
assert_ok "foreign ack: the batch is still in the spool" \
    test -s "$STATED/spool/$RUN/$ROLE-1.pb"

# --- 5. attach ------------------------------------------------------------
$HOPLAB -o "$T/res" attach "$DIR" >"$T/att.log" 2>&1
RC=$?
assert_eq "attach: exit 0" 0 "$RC"
[ "$RC" = 0 ] || tail -n 5 "$T/att.log" "$T/agent.log" | sed 's/^/    /'
assert_match "attach: point 2 recorded from the spool, not measured again" \
    "1 point\(s\) in flight: 1 recorded from the agents' spools, 0 to measure again" \
    "$(cat "$T/att.log")"
assert_match "attach: state.json completed" '"status": "completed"' \
    "$(cat "$DIR/state.json")"
cp "$RUND"/role-*.log "$T/" 2>/dev/null
# The generator's own report: the "probe" row of its "Packets per flow"
# table, columns id name frame sent received (generator/report.c), of each
# point's role in state.json, in the points' order (warm-ups left out).
truth()
{
	for _id in $(sed -n 's/.*{"n": [0-9]*, .*"role": \([0-9]*\)}.*/\1/p' \
	    "$DIR/state.json"); do
		awk '/^Packets per flow/ { c = 1; next }
		    c && $2 == "probe" { print $3 "," $4 "," $5; c = 0 }' \
		    "$T/role-$_id.log" | tail -n 1
	done
}
truth >"$T/truth"
csv_col "$DIR/summary.csv" frame_bytes >"$T/s.f"
csv_col "$DIR/summary.csv" sent >"$T/s.s"
csv_col "$DIR/summary.csv" received >"$T/s.r"
paste -d, "$T/s.f" "$T/s.s" "$T/s.r" >"$T/rows"
assert_eq "attach: one row per point, each exactly once" "64 128 256" \
    "$(cut -d, -f1 "$T/rows" | tr '\n' ' ' | sed 's/ $//')"
assert_eq "attach: a generator report for each of the 3 points" 3 \
    "$(wc -l <"$T/truth" | tr -d ' ')"
assert_eq "attach: rows' sent and received equal the generators' own reports" \
    "$(cat "$T/truth")" "$(cat "$T/rows")"
assert_eq "attach: every point sent the plan's count" "$COUNT $COUNT $COUNT" \
    "$(cut -d, -f2 "$T/rows" | tr '\n' ' ' | sed 's/ $//')"
assert_eq "attach: the spool is empty" "" \
    "$(find "$STATED/spool" -mindepth 1 ! -name .lock 2>/dev/null)"
AG_PID=$(cat "$LAB_STATE/gen.pid")
kill "$AG_PID"
wait_for 5 "the agent stopped" gone "$AG_PID"
assert_match "exit line: the foreign ack counted" \
    "exiting: .* 1 acks for another run ignored, 0 unacknowledged kept in $STATED/spool" \
    "$(cat "$T/agent.log")"
finish
