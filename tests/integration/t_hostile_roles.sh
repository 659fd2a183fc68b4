#!/bin/sh
# t_hostile_roles: hostile StartRole, LinkControl, Fault and capture
# requests from a controller that holds a good key, against a real agent
# (issue 17 items 5, 7, 8).  Lab prefix hlhs, management K 195; the
# agent under test is a second one in host A's namespace, on
# 198.19.195.11:7701, with a data folder of the test's own.
#
# The test builds rpoke (source below, into its temp folder), a DEALER
# that sends one message per word and prints every answer.  Each hostile
# request must be refused with its reason, to the controller and in the
# agent's log with the running count of refusals, message by message:
#
#  1. run id "..": refused (item 6).
#  2. csv:/etc/shadow, pcap-sizes:/dev/zero, csv:../x: refused by the agent
#     before hoplab-gen runs; the shadow file's content never comes back.
#  3. A symlink (to the shadow file) and a FIFO in the data folder: the
#     generator starts, refuses the file by name, exits; no content, no
#     hang (it ends within its 10 s bound).
#  4. A link role with "distribution /dev/zero": refused by the agent; a
#     link role on a veth pair of the test's: started; LinkControl SET
#     with "distribution /dev/zero" refused by the agent, with
#     "distribution zero.dist" (a symlink to /dev/zero) refused by
#     hoplab-link, both by name.
#  5. Duplicate role id, a count of 10^12: refused.
#  6. 300 cpu roles: 256 started, 44 refused "holds 256 roles".
#  7. The management interface mgmt0: a LINK_DOWN fault, a capture and a
#     link role on it are refused; mgmt0 is still up, the agent answers.
#  7b. A file shipped with the StartRole (GenParams.files): the generator
#     runs on it from the role's own folder, which goes with the role; a
#     shipped "../gaps.csv" and a flow naming a file not shipped: refused.
#  8. --insecure on 198.19.195.11 is refused (exit 2) unless
#     --insecure-on-network; on 127.0.0.1 it is fine.
#  9. SIGTERM: the exit line sums the refusals.
# 10. Through hoplab run and the lab's own agents (no data folder): a
#     plan with csv:/etc/shadow is refused at its line; one with
#     csv:gaps.csv beside it completes, its 300 probes sent: the file was
#     shipped with the StartRole.
. "$(dirname "$0")/lib.sh"
need_root
lab_init hlhs 195
T=$(mktemp -d /tmp/hoplab-t-hroles.XXXXXX)
at_exit "rm -rf '$T'"
AG_PID=
at_exit '[ -n "$AG_PID" ] && kill "$AG_PID" 2>/dev/null'
cat >"$T/rpoke.c" <<'POKE'
/*
 * rpoke: hostile requests for t_hostile_roles.sh (built by the test into
 * its temp folder, never installed).
 *
 *   rpoke ENDPOINT SERVERPUB KEYFILE WORD...
 *
 * WORDs: gen:ID:RUN:IDTDIST  gencount:ID:COUNT  cpu:ID  cpus:FIRST:N
 *        link:ID:IFA:IFB:PROFILE  lset:PROFILE  cap:ID:IFACE
 *        down:FAULTID:IFACE  stop:ID  wait:MS
 *        ship:ID:FILE:NAME (a generator of csv:NAME shipped FILE)
 * Every answer is printed on a line: "status ID STATE: error",
 * "error CODE: text", "faultack ID ok|refused: error", "lcreply ...".
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zmq.h>
#include "proto/hoplab.pb-c.h"
#include "pokeutil.h"

static void *s;
static uint64_t seq;

static void
send_env(Hoplab__Envelope *e)
{
	static uint8_t buf[1 << 16];
	size_t n;

	e->version = 1;
	e->sender = "rpoke";
	e->seq = ++seq;
	n = hoplab__envelope__pack(e, buf);
	zmq_send(s, buf, n, 0);
}

static void
print_reply(const uint8_t *d, size_t n)
{
	Hoplab__Envelope *e = hoplab__envelope__unpack(NULL, n, d);
	const char *st;

	if (e == NULL)
		return;
	switch (e->body_case) {
	case HOPLAB__ENVELOPE__BODY_ROLE_STATUS:
		st = protobuf_c_enum_descriptor_get_value(
		    &hoplab__role_status__state__descriptor,
		    e->role_status->state)->name;
		printf("status %u %s: %s\n", e->role_status->role_id, st,
		    e->role_status->error);
		break;
	case HOPLAB__ENVELOPE__BODY_ERROR:
		printf("error %u: %s\n", e->error->code, e->error->text);
		break;
	case HOPLAB__ENVELOPE__BODY_FAULT_ACK:
		printf("faultack %u %s: %s\n", e->fault_ack->fault_id,
		    e->fault_ack->ok ? "ok" : "refused", e->fault_ack->error);
		break;
	case HOPLAB__ENVELOPE__BODY_LINK_CONTROL_REPLY:
		printf("lcreply %s: %s\n", e->link_control_reply->ok ? "ok" :
		    "refused", e->link_control_reply->error);
		break;
	case HOPLAB__ENVELOPE__BODY_WELCOME:
		printf("welcome %s\n", e->welcome->name);
		break;
	default:
		break;
	}
	hoplab__envelope__free_unpacked(e, NULL);
}

static void
drain(int ms)
{
	zmq_pollitem_t it = { s, 0, ZMQ_POLLIN, 0 };
	int64_t end = now_ms() + ms;
	uint8_t buf[1 << 16];
	int n;

	while (now_ms() < end) {
		zmq_poll(&it, 1, end - now_ms());
		while ((n = zmq_recv(s, buf, sizeof(buf), ZMQ_DONTWAIT)) >= 0)
			print_reply(buf, (size_t)n > sizeof(buf) ? sizeof(buf) :
			    (size_t)n);
	}
	fflush(stdout);
}

static void
start(Hoplab__StartRole *sr)
{
	Hoplab__Envelope e = HOPLAB__ENVELOPE__INIT;

	e.body_case = HOPLAB__ENVELOPE__BODY_START_ROLE;
	e.start_role = sr;
	send_env(&e);
}

/* A udp sender of one flow to the discard port: no interface needed. */
static void
gen(unsigned id, const char *run, const char *idt, uint64_t count)
{
	Hoplab__StartRole sr = HOPLAB__START_ROLE__INIT;
	Hoplab__GenParams gp = HOPLAB__GEN_PARAMS__INIT;
	Hoplab__FlowSpec f = HOPLAB__FLOW_SPEC__INIT, *fp = &f;

	f.flow_id = 1;
	f.frame = 64;
	f.count = count;
	f.interval_ns = 1000000;
	f.idt_dist = (char *)idt;
	gp.mode = "udp";
	gp.role = "send";
	gp.peer = "127.0.0.1:9";
	gp.n_flows = 1;
	gp.flows = &fp;
	sr.role_id = id;
	sr.run_id = (char *)run;
	sr.params_case = HOPLAB__START_ROLE__PARAMS_GEN;
	sr.gen = &gp;
	start(&sr);
}

/* gen with idt csv:NAME, shipping a file FILE ("1ms\n2ms\n"). */
static void
ship(unsigned id, char *file, const char *name)
{
	Hoplab__StartRole sr = HOPLAB__START_ROLE__INIT;
	Hoplab__GenParams gp = HOPLAB__GEN_PARAMS__INIT;
	Hoplab__FlowSpec f = HOPLAB__FLOW_SPEC__INIT, *fp = &f;
	Hoplab__ExecFile ef = HOPLAB__EXEC_FILE__INIT, *efp = &ef;
	char spec[160];

	snprintf(spec, sizeof(spec), "csv:%s", name);
	ef.name = file;
	ef.data.data = (uint8_t *)"1ms\n2ms\n";
	ef.data.len = 8;
	f.flow_id = 1;
	f.frame = 64;
	f.count = 10;
	f.interval_ns = 1500000;
	f.idt_dist = spec;
	gp.mode = "udp";
	gp.role = "send";
	gp.peer = "127.0.0.1:9";
	gp.n_flows = 1;
	gp.flows = &fp;
	gp.n_files = 1;
	gp.files = &efp;
	sr.role_id = id;
	sr.run_id = "hostile";
	sr.params_case = HOPLAB__START_ROLE__PARAMS_GEN;
	sr.gen = &gp;
	start(&sr);
}

static void
cpu(unsigned id)
{
	Hoplab__StartRole sr = HOPLAB__START_ROLE__INIT;
	Hoplab__CpuParams cp = HOPLAB__CPU_PARAMS__INIT;

	cp.interval_ns = 60000000000ULL;
	sr.role_id = id;
	sr.run_id = "hostile";
	sr.params_case = HOPLAB__START_ROLE__PARAMS_CPU;
	sr.cpu = &cp;
	start(&sr);
}

static void
link_role(unsigned id, char *a, char *b, char *prof)
{
	Hoplab__StartRole sr = HOPLAB__START_ROLE__INIT;
	Hoplab__LinkParams lp = HOPLAB__LINK_PARAMS__INIT;

	lp.link = "X-Y";
	lp.iface_a = a;
	lp.iface_b = b;
	lp.profile_ab = prof;
	lp.profile_ba = "none";
	sr.role_id = id;
	sr.run_id = "hostile";
	sr.params_case = HOPLAB__START_ROLE__PARAMS_LINK;
	sr.link = &lp;
	start(&sr);
}

static void
lset(char *prof)
{
	Hoplab__Envelope e = HOPLAB__ENVELOPE__INIT;
	Hoplab__LinkControl lc = HOPLAB__LINK_CONTROL__INIT;

	lc.op = HOPLAB__LINK_CONTROL__OP__SET;
	lc.dir = "a-b";
	lc.profile = prof;
	e.body_case = HOPLAB__ENVELOPE__BODY_LINK_CONTROL;
	e.link_control = &lc;
	send_env(&e);
}

static void
cap(unsigned id, char *iface)
{
	Hoplab__StartRole sr = HOPLAB__START_ROLE__INIT;
	Hoplab__CaptureParams cp = HOPLAB__CAPTURE_PARAMS__INIT;

	cp.iface = iface;
	sr.role_id = id;
	sr.run_id = "hostile";
	sr.params_case = HOPLAB__START_ROLE__PARAMS_CAPTURE;
	sr.capture = &cp;
	start(&sr);
}

static void
down(unsigned id, char *iface)
{
	Hoplab__Envelope e = HOPLAB__ENVELOPE__INIT;
	Hoplab__Fault f = HOPLAB__FAULT__INIT;

	f.fault_id = id;
	f.action = HOPLAB__FAULT__ACTION__LINK_DOWN;
	f.iface = iface;
	e.body_case = HOPLAB__ENVELOPE__BODY_FAULT;
	e.fault = &f;
	send_env(&e);
}

static void
stop(unsigned id)
{
	Hoplab__Envelope e = HOPLAB__ENVELOPE__INIT;
	Hoplab__StopRole sr = HOPLAB__STOP_ROLE__INIT;

	sr.role_id = id;
	e.body_case = HOPLAB__ENVELOPE__BODY_STOP_ROLE;
	e.stop_role = &sr;
	send_env(&e);
}

static void
word(char *w)
{
	char *f[6] = { 0 };
	int n = 0, i;

	for (f[n++] = w; n < 6 && (w = strchr(w, ':')) != NULL; f[n++] = ++w)
		*w = '\0';
	/* the last field of gen, link and lset keeps its colons */
	if (strcmp(f[0], "gen") == 0 && n > 4)
		for (i = 4; i < n; i++)
			f[i][-1] = ':';
	if (strcmp(f[0], "gen") == 0)
		gen(atoi(f[1]), f[2], f[3] ? f[3] : "", 10);
	else if (strcmp(f[0], "gencount") == 0)
		gen(atoi(f[1]), "hostile", "", strtoull(f[2], NULL, 10));
	else if (strcmp(f[0], "cpu") == 0)
		cpu(atoi(f[1]));
	else if (strcmp(f[0], "cpus") == 0)
		for (i = 0; i < atoi(f[2]); i++) {
			cpu(atoi(f[1]) + i);
			if (i % 50 == 49)
				drain(100);
		}
	else if (strcmp(f[0], "link") == 0)
		link_role(atoi(f[1]), f[2], f[3], f[4]);
	else if (strcmp(f[0], "lset") == 0)
		lset(f[1]);
	else if (strcmp(f[0], "cap") == 0)
		cap(atoi(f[1]), f[2]);
	else if (strcmp(f[0], "down") == 0)
		down(atoi(f[1]), f[2]);
	else if (strcmp(f[0], "stop") == 0)
		stop(atoi(f[1]));
	else if (strcmp(f[0], "ship") == 0)
		ship(atoi(f[1]), f[2], f[3]);
	else if (strcmp(f[0], "wait") == 0)
		drain(atoi(f[1]));
	else {
		fprintf(stderr, "rpoke: unknown word %s\n", f[0]);
		exit(2);
	}
	drain(200);
}

int
main(int argc, char **argv)
{
	void *ctx = zmq_ctx_new();
	Hoplab__Envelope e = HOPLAB__ENVELOPE__INIT;
	Hoplab__Hello h = HOPLAB__HELLO__INIT;
	char pub[41], sec[41];
	int linger = 500, i;

	if (argc < 4 || key_line(argv[3], "public-key", pub) == -1 ||
	    key_line(argv[3], "secret-key", sec) == -1) {
		fprintf(stderr, "usage: rpoke ENDPOINT SERVERPUB KEYFILE "
		    "WORD...\n");
		return 2;
	}
	s = zmq_socket(ctx, ZMQ_DEALER);
	zmq_setsockopt(s, ZMQ_LINGER, &linger, sizeof(linger));
	zmq_setsockopt(s, ZMQ_CURVE_SERVERKEY, argv[2], 40);
	zmq_setsockopt(s, ZMQ_CURVE_PUBLICKEY, pub, 40);
	zmq_setsockopt(s, ZMQ_CURVE_SECRETKEY, sec, 40);
	zmq_connect(s, argv[1]);
	h.proto_version = 1;
	h.software_version = "0.1.0";
	h.controller = "rpoke";
	e.body_case = HOPLAB__ENVELOPE__BODY_HELLO;
	e.hello = &h;
	send_env(&e);
	drain(500);
	for (i = 4; i < argc; i++)
		word(argv[i]);
	zmq_close(s);
	zmq_ctx_term(ctx);
	return 0;
}
POKE
cc -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -I"$HL_ROOT/build" \
    -I"$HL_ROOT/tests/integration" \
    -o "$T/rpoke" "$T/rpoke.c" "$HL_ROOT/build/proto/hoplab.pb-c.o" \
    -lprotobuf-c -lzmq 2>"$T/cc.log" ||
    bail build_rpoke "cannot build the test client: $(cat "$T/cc.log")"

lab_up A
S=$LAB_STATE
NS=hlhs-A
ADDR=198.19.195.11
EP=tcp://$ADDR:7701
A_PUB=$(sed -n 's/^public-key = "\(.*\)"$/\1/p' "$S/keys/A.pub")
CKEY=$S/keys/controller.key

# The data folder: a good file, a symlink to a secret, a FIFO, a symlink
# to /dev/zero as a delay table.
D=$T/data
mkdir -p "$D" "$T/run"
printf 'root:$6$supersecrethash:19000:0:99999:7:::\n' >"$T/shadow"
printf '64\n128\n' >"$D/good.csv"
ln -s "$T/shadow" "$D/link.csv"
mkfifo "$D/fifo.csv"
ln -s /dev/zero "$D/zero.dist"
ip -n "$NS" link add hx0 type veth peer name hx1 &&
    ip -n "$NS" link set hx0 up && ip -n "$NS" link set hx1 up ||
    bail veth "cannot make hx0/hx1 in $NS"

ip netns exec "$NS" "$HL_BIN/hoplab-agent" -d -v -N hostile -l "$ADDR:7701" \
    -r "$T/run" --data "$D" -k "$S/keys/A.key" \
    -a "$S/keys/controller.pub" >"$T/agent.log" 2>&1 &
AG_PID=$!
wait_listen 5 "$NS" 7701 || bail agent_listen "agent did not listen"

rpoke() { timeout 60 "$T/rpoke" "$EP" "$A_PUB" "$CKEY" "$@"; }
# refused_in_log N PATTERN: the agent's log has refusal number N with it.
# The numbers count the hostile requests below by hand: 4 in part 1-2
# (part 3's generators start), 2 in part 4 (role 31 and the first SET;
# the second SET is hoplab-link's refusal), 2 in part 5, 44 in part 6
# (9..52), 3 in part 7 (53..55), 2 in part 7b: 57 in all.
refused_in_log()
{
	grep -E -- "refused .*$2.* \($1 refused so far\)" "$T/agent.log" \
	    >/dev/null
}

# --- 1, 2: names the agent refuses before any child runs -----------------
out=$(rpoke gen:11:..:exp:1ms gen:12:r1:csv:/etc/shadow \
    gen:13:r1:pcap-sizes:/dev/zero gen:14:r1:csv:../shadow)
echo "$out" >"$T/o12.txt"
assert_match "run id ..: refused" "^status 11 FAILED: run_id: expected" "$out"
assert_match "csv:/etc/shadow: refused as not a data-folder name" \
    "^status 12 FAILED: .*plain file name of the agent's data folder" "$out"
assert_match "pcap-sizes:/dev/zero: refused" \
    "^status 13 FAILED: .*plain file name of the agent's data folder" "$out"
assert_match "csv:../shadow: refused" \
    "^status 14 FAILED: .*plain file name of the agent's data folder" "$out"
assert_ok "refusal 1 (run id ..) logged with its count" refused_in_log 1 \
    "start role 11: run_id"
assert_ok "refusal 2 (csv:/etc/shadow) logged with its count" \
    refused_in_log 2 "start role 12: .*data folder"
assert_ok "refusal 4 (csv:../shadow) logged with its count" \
    refused_in_log 4 "start role 14: .*data folder"

# --- 3: files the generator refuses by name --------------------------------
t0=$(date +%s)
out=$(rpoke gen:21:r1:csv:link.csv gen:22:r1:csv:fifo.csv wait:4000)
t1=$(date +%s)
echo "$out" >"$T/o3.txt"
assert_match "symlink in the data folder: the generator refuses it by name" \
    "^status 21 EXITED: .*link\.csv: a symbolic link \(not followed\)" "$out"
assert_match "FIFO in the data folder: refused, no hang" \
    "^status 22 EXITED: .*fifo\.csv: not a regular file \(a FIFO\)" "$out"
assert_le "FIFO: the requests took at most 10 s" "$((t1 - t0))" 10
if grep -q supersecrethash "$T"/o*.txt "$T/agent.log" "$T"/run/*.log; then
	fail "the secret never comes back" "found in the answers or logs"
else
	pass "the secret never comes back"
fi

# --- 4: link roles and LinkControl ----------------------------------------
out=$(rpoke "link:31:hx0:hx1:delay 5ms 1ms distribution /dev/zero" \
    "link:32:hx0:hx1:none" wait:1500 \
    "lset:delay 5ms 1ms distribution /dev/zero" \
    "lset:delay 5ms 1ms distribution zero.dist" \
    "lset:delay 5ms 1ms distribution normal" stop:32 wait:2500)
echo "$out" >"$T/o4.txt"
assert_match "link role with distribution /dev/zero: refused by the agent" \
    "^status 31 FAILED: link role: profile: a distribution table is a plain file name.*, got /dev/zero" \
    "$out"
assert_match "link role on hx0/hx1 with none: started" "^status 32 STARTED" \
    "$out"
assert_match "LinkControl SET distribution /dev/zero: refused by the agent" \
    "^error 1: agent hostile: link role 32: profile: a distribution table is a plain file name.*got /dev/zero" \
    "$out"
assert_match "LinkControl SET distribution zero.dist (symlink to /dev/zero): refused by hoplab-link" \
    "^lcreply refused: .*zero\.dist: a symbolic link \(not followed\)" "$out"
assert_match "LinkControl SET distribution normal: taken" "^lcreply ok" "$out"
assert_ok "LinkControl refusal logged with its count" refused_in_log 6 \
    "link control set: .*got /dev/zero"

# --- 5: duplicate role id, a huge count ------------------------------------
out=$(rpoke cpu:41 cpu:41 gencount:42:1000000000000 stop:41 wait:500)
echo "$out" >"$T/o5.txt"
assert_match "first role 41: started" "^status 41 STARTED" "$out"
assert_match "duplicate role id 41: refused" \
    "^status 41 FAILED: role 41 already exists" "$out"
assert_match "count 10^12: refused" "^status 42 FAILED: .*count: expected 1\.\.100000000" \
    "$out"
assert_ok "duplicate id refusal logged with its count" refused_in_log 7 \
    "start role 41: role 41 already exists"

# --- 6: 300 roles ------------------------------------------------------------
out=$(rpoke cpus:1000:300 wait:1000 stop:0 wait:1500)
echo "$out" >"$T/o6.txt"
assert_eq "300 roles asked: 256 started" 256 \
    "$(echo "$out" | grep -c '^status [0-9]* STARTED')"
assert_eq "300 roles asked: 44 refused for the cap" 44 \
    "$(echo "$out" | grep -c '^status [0-9]* FAILED: agent hostile holds 256 roles, the most it takes')"
assert_ok "the 300th role's refusal is logged with its count" \
    refused_in_log 52 "start role 1299: agent hostile holds 256 roles"

# --- 7: the management interface -------------------------------------------
out=$(rpoke down:51:mgmt0 cap:52:mgmt0 link:53:mgmt0:hx0:none \
    gen:54:r1:exp:1ms wait:300)
echo "$out" >"$T/o7.txt"
assert_match "LINK_DOWN of mgmt0: refused" \
    "^faultack 51 refused: interface mgmt0 carries this agent's management address 198\.19\.195\.11" \
    "$out"
assert_match "capture on mgmt0: refused" \
    "^status 52 FAILED: capture interface mgmt0 carries this agent's management address" \
    "$out"
assert_match "link role on mgmt0: refused" \
    "^status 53 FAILED: link interface mgmt0 carries this agent's management address" \
    "$out"
assert_ok "mgmt0 refusal logged with its count" refused_in_log 53 \
    "fault 51: interface mgmt0"
assert_match "mgmt0 is still up" "state UP|,UP" \
    "$(ip -n "$NS" link show mgmt0)"
assert_match "the agent still answers after all that" "^status 54 " "$out"

# --- 7b: files shipped with the StartRole ----------------------------------
# gaps.csv is not in the data folder: a generator that runs on it ran on
# the shipped copy, in a folder of the role's own that goes with it.
out=$(rpoke ship:61:gaps.csv:gaps.csv wait:4000 ship:62:../gaps.csv:gaps.csv \
    ship:63:gaps.csv:other.csv)
echo "$out" >"$T/o7b.txt"
assert_match "shipped gaps.csv: the generator ran on it and exited 0" \
    "^status 61 EXITED: $" "$out"
assert_match "shipped gaps.csv: written into the role's own folder" \
    "role 61: 1 file shipped into $T/run/gen/61-" "$(cat "$T/agent.log")"
assert_eq "shipped gaps.csv: the folder went with the role" "" \
    "$(ls "$T/run/gen" 2>/dev/null)"
assert_match "a shipped ../gaps.csv: refused" \
    "^status 62 FAILED: files: name \"\.\./gaps\.csv\": expected a plain file name" \
    "$out"
assert_match "a flow naming a file not shipped: refused" \
    "^status 63 FAILED: files: flow 0 names a file that is not among the 1 shipped" \
    "$out"

# --- 8: --insecure on a network address ------------------------------------
out=$(ip netns exec "$NS" "$HL_BIN/hoplab-agent" -d --insecure -N x \
    -l "$ADDR:7702" -r "$T/x" -n 2>&1); rc=$?
assert_eq "--insecure on $ADDR: exit 2" 2 "$rc"
assert_match "--insecure on $ADDR: says why and what to do" \
    "--insecure on 198\.19\.195\.11, not a loopback address: .*--insecure-on-network" \
    "$out"
out=$(ip netns exec "$NS" "$HL_BIN/hoplab-agent" -d --insecure \
    --insecure-on-network -N x -l "$ADDR:7702" -r "$T/x" -n 2>&1); rc=$?
assert_eq "--insecure --insecure-on-network: configuration OK" 0 "$rc"
out=$("$HL_BIN/hoplab-agent" -d --insecure -N x -l 127.0.0.1:7702 \
    -r "$T/x" -n 2>&1); rc=$?
assert_eq "--insecure on 127.0.0.1: configuration OK" 0 "$rc"

# --- 10: a plan's csv: file, shipped from the plan's folder ---------------
# The lab's agents have no data folder (/var/lib/hoplab-agent/data is not
# made by the lab): the run can only read gaps.csv from what it shipped.
printf '# gaps\n1ms\n2ms\n' >"$T/gaps.csv"
cat >"$T/ship.yaml" <<PLAN
name: ship
topology: {chain: [A]}
variants: [A]
router: {impl: linux}
flows:
  - {name: probe, frame: 64, idt: 'csv:gaps.csv', count: 300}
PLAN
sed 's|csv:gaps.csv|csv:/etc/shadow|' "$T/ship.yaml" >"$T/shadow.yaml"
HOPLAB="$HL_BIN/hoplab -p $LAB_PREFIX"
$HOPLAB -o "$T/r" run "$T/shadow.yaml" >"$T/shadow.log" 2>&1; rc=$?
assert_eq "a plan with csv:/etc/shadow: refused (exit 2)" 2 "$rc"
assert_match "a plan with csv:/etc/shadow: named at its line and key" \
    "shadow.yaml:6: flows\[0\]\.idt: csv:/etc/shadow: the file is a plain name" \
    "$(cat "$T/shadow.log")"
$HOPLAB -o "$T/r" run "$T/ship.yaml" >"$T/ship.log" 2>&1; rc=$?
[ "$rc" = 0 ] || sed 's/^/    /' "$T/ship.log" | tail -n 20
assert_eq "a plan with csv:gaps.csv beside it: the run completes" 0 "$rc"
sent=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "sent") c = i }
    NR == 2 { print $c }' "$T"/r/ship-*/summary.csv 2>/dev/null)
assert_eq "a plan with csv:gaps.csv: the 300 probes were sent" 300 "$sent"

# --- 9: the exit line --------------------------------------------------------
kill -TERM "$AG_PID"
wait "$AG_PID" 2>/dev/null
AG_PID=
assert_match "the exit line sums the refused requests" \
    "exiting: .* 57 requests refused" "$(cat "$T/agent.log")"
finish
