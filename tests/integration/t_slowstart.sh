#!/bin/sh
# t_slowstart: an agent stays heard while its roles take long to start,
# refuses a capture its disk cannot hold and supervises captures as the
# roles they are (issue 17, items 8, 9 and 10).
# Lab prefix hlnb, management K 194; routers A and B (hoplab-router), the
# link A-B impaired (a wire host runs hoplab-link).
#
# The agents run from a bin folder of the test's own: copies of the
# programs, but hoplab-router and hoplab-link are wrappers that sleep
# SLOW_S (4) seconds before they exec the real ones, longer than the 3 s
# after which the controller declares a silent agent lost (and an agent a
# silent controller).  An agent that waited for its child in its loop
# (as it did before issue 17: role_wait_socket, up to 5 s) sent no
# heartbeat meanwhile, and the run aborted with "agent A lost".
#
# 1. the run completes, with every probe received through A, the link
#    and B (summary.csv, against the plan's count);
# 2. every wrapper slept its 4 s before its program ran (its own stamps:
#    2 routers and 1 link at least), so the start really was slow;
# 3. neither the console nor any agent log says that a peer was lost;
#    likewise (3b) in a run whose fault restarts hoplab-router B (4 s):
#    its FaultAck comes once B forwards (faults.csv: "rings open in
#    4xxx ms"), which the agent no longer waits for in its loop;
# 4. the gen agent's capture folder is a 1 MiB tmpfs of the test's own
#    (a link to it; unmounted by the trap): a plan capturing with limit
#    2MB fails, the console and the agent's log giving the reason, the
#    free space of that folder (statvfs), and no file is left in it.  Before issue 17
#    the capture started and wrote until the tmpfs was full.
# 5. captures are roles (below, with a hand-made controller).
#
# Root; about 60 s.
set -u
. "$(dirname "$0")/lib.sh"

need_root
[ -x "$HL_BIN/hoplab-router" ] && [ -x "$HL_BIN/hoplab-link" ] ||
    bail built "hoplab-router or hoplab-link missing in $HL_BIN (make)"
SLOW_S=4
COUNT=500
lab_init hlnb 194
T=$(mktemp -d /tmp/hoplab-t-slowstart.XXXXXX) || bail tmp "mktemp failed"
CAPDIR=$LAB_STATE/gen/captures
# The tmpfs is mounted in T and CAPDIR links to it, so that lab down
# removes the link only (its trap runs before at_exit's).
at_exit "umount '$T/capfs' 2>/dev/null; rm -rf '$T'"

# The bin folder: real copies (the agent finds its programs beside its
# own executable), two of them slow.
REAL=$HL_BIN
mkdir -p "$T/bin" "$T/stamps" || bail bin "mkdir failed"
for b in "$REAL"/*; do
	cp "$b" "$T/bin/" || bail bin "cp $b failed"
done
for b in hoplab-router hoplab-link; do
	cat >"$T/bin/$b" <<WRAP
#!/bin/sh
# t_slowstart: $b that takes $SLOW_S s to start
s=\$(date +%s.%N)
sleep $SLOW_S
echo "\$s \$(date +%s.%N)" >"$T/stamps/$b.\$\$"
exec "$REAL/$b" "\$@"
WRAP
	chmod 0755 "$T/bin/$b"
done
HL_BIN=$T/bin
HOPLAB_HOME=$HL_ROOT	# the controller's lab.sh, not beside the copies
export HOPLAB_HOME

cat >"$T/slow.yaml" <<PLAN
name: slowstart
topology: {chain: [A, B]}
variants: [A-B]
router: {impl: hoplab}
repeat: 1
flows:
  - {name: probe, mode: l2, frame: 64, idt: 1ms, count: $COUNT}
impairments: [{link: A-B, delay: 1ms}]
PLAN

cat >"$T/restart.yaml" <<PLAN
name: slowrestart
topology: {chain: [A, B]}
variants: [A-B]
router: {impl: hoplab}
flows:
  - {name: probe, mode: l2, frame: 64, idt: 1ms, count: 8000}
faults:
  - {at: 1s, router: B, action: restart, down: 300ms}
PLAN

cat >"$T/cap.yaml" <<PLAN
name: capfull
topology: {chain: [A]}
router: {impl: linux}
flows:
  - {name: probe, frame: 64, idt: 1ms, count: 100}
captures: {ifaces: [gen:tx, gen:rx], snaplen: 128, limit: 2MB}
PLAN

# The tmpfs for part 4, mounted before the agents start: each runs in a
# mount namespace of its own (ip netns exec), a copy of ours made then.
mkdir -p "$T/capfs" && mount -t tmpfs -o size=1m hlnb-cap "$T/capfs" ||
    bail tmpfs "cannot mount a tmpfs on $T/capfs"
lab_up A B

# 1. The slow run completes, every probe through.
if lab_run slow "$T/slow.yaml" "$T"; then
	assert_eq slow_every_probe_received "$COUNT" \
	    "$(csv_col "$LAB_RUN/summary.csv" received | head -n 1)"
fi

# 2. The wrappers really were slow.
n=0
for f in "$T"/stamps/*; do
	[ -f "$f" ] || continue
	if awk -v s="$SLOW_S" '{ exit !($2 - $1 >= s) }' "$f"; then
		n=$((n + 1))
	fi
done
assert_ge slow_starts_took_4s "$n" 3
assert_ge slow_router_starts "$(ls "$T"/stamps/hoplab-router.* 2>/dev/null |
    wc -l)" 2
assert_ge slow_link_starts "$(ls "$T"/stamps/hoplab-link.* 2>/dev/null |
    wc -l)" 1

# 3. Nobody was lost.
assert_eq console_lost_no_agent "" "$(grep -E 'agent [^ ]+ lost' \
    "$T/slow.log")"
# the agents' logs (lab.sh: STATE/HOST.log, warnings: a controller lost
# with roles running is one)
assert_eq agent_logs_there "A.log B.log gen.log" \
    "$(cd "$LAB_STATE" && ls gen.log A.log B.log | tr '\n' ' ' | sed 's/ $//')"
assert_eq agents_lost_no_controller "" "$(cat "$LAB_STATE"/*.log |
    grep -E 'controller [^ ]+ lost')"

# 3b. A plan's restart of hoplab-router B that takes 4 s: answered once
# B forwards again, and nobody is lost meanwhile.
if lab_run restart "$T/restart.yaml" "$T"; then
	assert_match slow_restart_answered_once_forwarding \
	    'B,start,pid [0-9]+ started \(rings open in [4-9][0-9]{3} ms\),ok,' \
	    "$(grep ',B,start,' "$LAB_RUN/faults.csv")"
	assert_match slow_restart_kill_not_waited_for \
	    'B,kill,pid [0-9]+ SIGKILL,ok,' \
	    "$(grep ',B,kill,' "$LAB_RUN/faults.csv")"
fi
assert_eq restart_console_lost_no_agent "" "$(grep -E 'agent [^ ]+ lost' \
    "$T/restart.log")"

# 4. A capture bigger than its tmpfs is refused with the free space.
rm -rf "$CAPDIR" && ln -s "$T/capfs" "$CAPDIR" ||
    bail tmpfs "cannot link $CAPDIR to the tmpfs"
free=$(df -B1 --output=avail "$T/capfs" | tail -n 1 | tr -d ' ')
if "$HL_BIN/hoplab" -p "$LAB_PREFIX" -k "$LAB_K" -o "$T/c" run \
    "$T/cap.yaml" >"$T/cap.log" 2>&1; then
	fail capture_over_free_space_refused "the run succeeded"
else
	pass capture_over_free_space_refused
fi
want="limit_bytes 2000000 is more than the $free bytes free in $CAPDIR"
assert_match capture_refusal_on_console "$want" "$(cat "$T/cap.log")"
assert_match capture_refusal_in_agent_log "refused start role [0-9]+: capture: $want" \
    "$(cat "$LAB_STATE/gen.log")"
assert_eq capture_folder_left_empty "" "$(ls -A "$T/capfs")"

# 5. Captures are roles like the others (issue 17 item 10), against the
#    gen agent with cappeer (source below, built into T): a second
#    StartRole of a running capture's id is refused; a capture child
#    killed from outside is reported FAILED with how it ended (before:
#    reaped as "not a role", never reported); its id started again is
#    refused, its file there not written over (O_EXCL); and a capture
#    whose controller goes silent is stopped with it (before: it ran on).
cat >"$T/cappeer.c" <<'PEER'
/*
 * cappeer: a controller that starts capture roles by hand, for
 * t_slowstart.sh (built by the test into its temp folder, never
 * installed).  It says Hello, then runs its steps in order, sending a
 * Heartbeat every 500 ms and printing every RoleStatus and CaptureReport:
 *
 *   cappeer ENDPOINT SERVERPUB PUB SECRET IFACE STEP...
 *     start:ID    StartRole ID, a capture of IFACE (limit 1MB)
 *     wait:MS     wait MS milliseconds
 *     kill:ID     SIGKILL to the pid role ID was STARTED with
 *
 *   status ID STATE pid PID: ERROR
 *   report ID: ERROR
 *
 * At the end it leaves without a StopRole, as a controller that dies.
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zmq.h>
#include "proto/hoplab.pb-c.h"

#define MAXID	16

static uint32_t ids[MAXID];
static int pids[MAXID], nids;
static uint64_t seq;

static void
send_env(void *s, Hoplab__Envelope *e)
{
	static uint8_t buf[4096];
	size_t n;

	e->version = 1;
	e->sender = "cappeer";
	e->seq = ++seq;
	n = hoplab__envelope__pack(e, buf);
	if (zmq_send(s, buf, n, 0) == -1)
		printf("not sent: %s\n", zmq_strerror(zmq_errno()));
}

static void
hello(void *s)
{
	Hoplab__Envelope e = HOPLAB__ENVELOPE__INIT;
	Hoplab__Hello h = HOPLAB__HELLO__INIT;

	h.proto_version = 1;
	h.software_version = "0.1.0";
	h.controller = "cappeer";
	e.body_case = HOPLAB__ENVELOPE__BODY_HELLO;
	e.hello = &h;
	send_env(s, &e);
}

static void
heartbeat(void *s)
{
	Hoplab__Envelope e = HOPLAB__ENVELOPE__INIT;
	Hoplab__Heartbeat hb = HOPLAB__HEARTBEAT__INIT;

	e.body_case = HOPLAB__ENVELOPE__BODY_HEARTBEAT;
	e.heartbeat = &hb;
	send_env(s, &e);
}

static void
start(void *s, uint32_t id, const char *iface)
{
	Hoplab__Envelope e = HOPLAB__ENVELOPE__INIT;
	Hoplab__StartRole sr = HOPLAB__START_ROLE__INIT;
	Hoplab__CaptureParams cp = HOPLAB__CAPTURE_PARAMS__INIT;

	cp.iface = (char *)iface;
	cp.limit_bytes = 1000000;
	sr.role_id = id;
	sr.run_id = "cappeer-run";
	sr.params_case = HOPLAB__START_ROLE__PARAMS_CAPTURE;
	sr.capture = &cp;
	e.body_case = HOPLAB__ENVELOPE__BODY_START_ROLE;
	e.start_role = &sr;
	send_env(s, &e);
}

static void
show(const uint8_t *d, size_t n)
{
	Hoplab__Envelope *e = hoplab__envelope__unpack(NULL, n, d);
	const Hoplab__RoleStatus *rs;

	if (e == NULL)
		return;
	if (e->body_case == HOPLAB__ENVELOPE__BODY_ROLE_STATUS) {
		rs = e->role_status;
		printf("status %u %s pid %d: %s\n", rs->role_id,
		    protobuf_c_enum_descriptor_get_value(
		    &hoplab__role_status__state__descriptor,
		    rs->state)->name, rs->pid, rs->error);
		if (rs->state == HOPLAB__ROLE_STATUS__STATE__STARTED &&
		    nids < MAXID) {
			ids[nids] = rs->role_id;
			pids[nids++] = rs->pid;
		}
	} else if (e->body_case == HOPLAB__ENVELOPE__BODY_CAPTURE_REPORT)
		printf("report %u: %s\n", e->capture_report->role_id,
		    e->capture_report->error);
	hoplab__envelope__free_unpacked(e, NULL);
	fflush(stdout);
}

/* Print what comes for MS, with a Heartbeat every 500 ms. */
static void
wait_ms(void *s, unsigned long ms)
{
	zmq_pollitem_t it = { s, 0, ZMQ_POLLIN, 0 };
	void *watch = zmq_stopwatch_start();
	unsigned long hb = 0, us;
	uint8_t buf[8192];
	int n;

	while ((us = zmq_stopwatch_intermediate(watch)) < ms * 1000) {
		if (us >= hb) {
			heartbeat(s);
			hb = us + 500 * 1000;
		}
		zmq_poll(&it, 1, 100);
		while ((n = zmq_recv(s, buf, sizeof(buf), ZMQ_DONTWAIT)) >= 0)
			show(buf, (size_t)n > sizeof(buf) ? sizeof(buf) :
			    (size_t)n);
	}
	zmq_stopwatch_stop(watch);
}

static void
kill_role(uint32_t id)
{
	int i;

	for (i = nids - 1; i >= 0; i--)
		if (ids[i] == id && pids[i] > 0) {
			printf("kill %u: pid %d\n", id, pids[i]);
			kill(pids[i], SIGKILL);
			return;
		}
	printf("kill %u: no pid\n", id);
}

int
main(int argc, char **argv)
{
	void *ctx = zmq_ctx_new(), *s = zmq_socket(ctx, ZMQ_DEALER);
	int i, linger = 0;

	if (argc < 6) {
		fprintf(stderr, "usage: see the comment atop cappeer.c\n");
		return 2;
	}
	zmq_setsockopt(s, ZMQ_LINGER, &linger, sizeof(linger));
	zmq_setsockopt(s, ZMQ_ROUTING_ID, "cappeer", 7);
	zmq_setsockopt(s, ZMQ_CURVE_SERVERKEY, argv[2], 40);
	zmq_setsockopt(s, ZMQ_CURVE_PUBLICKEY, argv[3], 40);
	zmq_setsockopt(s, ZMQ_CURVE_SECRETKEY, argv[4], 40);
	zmq_connect(s, argv[1]);
	hello(s);
	wait_ms(s, 300);
	for (i = 6; i < argc; i++) {
		if (strncmp(argv[i], "start:", 6) == 0)
			start(s, (uint32_t)atoi(argv[i] + 6), argv[5]);
		else if (strncmp(argv[i], "wait:", 5) == 0)
			wait_ms(s, strtoul(argv[i] + 5, NULL, 10));
		else if (strncmp(argv[i], "kill:", 5) == 0)
			kill_role((uint32_t)atoi(argv[i] + 5));
		else {
			fprintf(stderr, "cappeer: unknown step %s\n", argv[i]);
			return 2;
		}
	}
	zmq_close(s);
	zmq_ctx_term(ctx);
	return 0;
}
PEER
CFLAGS_PEER="-std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror"
# shellcheck disable=SC2086
if ! cc $CFLAGS_PEER -I"$HL_ROOT/build" -o "$T/cappeer" "$T/cappeer.c" \
    "$HL_ROOT/build/proto/hoplab.pb-c.o" -lprotobuf-c -lzmq 2>"$T/cc.log"
then
	bail build_cappeer "cannot build cappeer: $(cat "$T/cc.log")"
fi
# key FILE WHAT: the public-key or secret-key of a key file
key() { sed -n "s/^$2 = \"\\(.*\\)\"\$/\\1/p" "$1"; }
GEN_PUB=$(key "$LAB_STATE/keys/gen.pub" public-key)
GEN_PID=$(cat "$LAB_STATE/gen.pid")
log0=$(($(wc -l <"$LAB_STATE/gen.log") + 1))
timeout 30 "$T/cappeer" "tcp://$(lab_addr 0):7700" "$GEN_PUB" \
    "$(key "$LAB_STATE/keys/controller.key" public-key)" \
    "$(key "$LAB_STATE/keys/controller.key" secret-key)" rx \
    start:101 wait:1500 start:101 wait:500 kill:101 wait:1500 \
    start:101 wait:500 start:102 wait:1500 \
    >"$T/peer.out" 2>&1
sed 's/^/    cappeer: /' "$T/peer.out"
peer=$(cat "$T/peer.out")
assert_match capture_started "^status 101 STARTED pid [0-9]+" "$peer"
assert_match capture_duplicate_id_refused \
    "^status 101 FAILED pid 0: role 101 already exists" "$peer"
assert_match capture_killed_reported_failed \
    "^status 101 FAILED pid [1-9][0-9]*: the capture process terminated by signal 9" \
    "$peer"
assert_match capture_file_not_written_twice \
    "^status 101 FAILED pid 0: capture: .*/101\.pcap: File exists" "$peer"
assert_match second_capture_started "^status 102 STARTED pid [0-9]+" "$peer"
p102=$(sed -n 's/^status 102 STARTED pid \([0-9]*\).*/\1/p' "$T/peer.out")
if wait_log 6 "controller cappeer lost .*stopping its 1 role" \
    "$LAB_STATE/gen.log" "$log0"; then
	pass lost_controller_stops_capture
else
	fail lost_controller_stops_capture "no 'controller cappeer lost' line"
fi
# not_child PID: PID is no child of the gen agent any more
not_child() { [ "$(ps -o ppid= -p "$1" | tr -d ' ')" != "$GEN_PID" ]; }
if [ -n "$p102" ] && wait_for 4 "capture pid $p102 gone" not_child "$p102"
then
	pass lost_controller_capture_process_gone
else
	fail lost_controller_capture_process_gone "pid ${p102:-?} runs on"
fi
finish
