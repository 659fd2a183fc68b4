#!/bin/sh
# t_mgmt_hostile: hostile input on the management port, against a real
# agent and a real controller.  Lab prefix hlm4, management K 228; a fake
# agent and a relay on 127.0.0.1 ports 22801-22803.
#
# The test builds poke (source below, into its temp folder, never
# installed), a ZeroMQ peer that says what libzmq and the other side did:
#
# 1. Without an authorized key a sender cannot reach agent A at all: the
#    CURVE handshake is refused (status 400), its garbage is never sent,
#    and A logs and counts the refusal (ZAP).  A plain-text client is
#    dropped at the handshake too.
# 2. With the controller's key (past the handshake): garbage bytes, a
#    truncated Hello, a bare RoleStatus (valid protobuf, wrong type), a
#    Welcome (an envelope an agent does not take), a version-2 envelope,
#    a version-1 envelope whose Hello says version 2, extra frames: each
#    is logged with its running count; the two version cases are answered
#    with an Error naming both versions.  A message of 2 MiB (over
#    ZMQ_MAXMSGSIZE, 1 MiB) makes libzmq close the connection.  A is still
#    the same process, and `hoplab agents` gets its answer.
# 3. The controller against a fake agent (`hoplab --insecure agents`):
#    garbage, a truncated envelope and a bare RoleStatus before the
#    Welcome are logged with their count and the listing succeeds; a fake
#    that sends 2 MiB is named as not answering (no crash); one that
#    answers in protocol version 2 is refused naming both versions.
# 4. A relay between a real controller and agent A rewrites the Hello to
#    version 2: A refuses naming both versions and the controller prints
#    that refusal.
# 5. SIGTERM to A: its exit line counts 6 malformed and 1 unexpected
#    messages and at least 1 refused controller.
. "$(dirname "$0")/lib.sh"
need_root
lab_init hlm4 228
T=$(mktemp -d /tmp/hoplab-t-hostile.XXXXXX)
at_exit "rm -rf '$T'"
BG_PID=
at_exit '[ -n "$BG_PID" ] && kill "$BG_PID" 2>/dev/null'
HOPLAB="$HL_BIN/hoplab"
cat >"$T/poke.c" <<'POKE'
/*
 * poke: a hostile management peer for t_mgmt_hostile.sh (built by the
 * test into its temp folder, never installed).
 *
 *   poke send ENDPOINT SERVERPUB|- KEYFILE|- KIND...  DEALER to an agent
 *   poke raw ADDR PORT                               bytes that are not ZMTP
 *   poke fake ENDPOINT MODE SECS                     a fake agent (ROUTER)
 *   poke relay ENDPOINT AGENT SERVERPUB KEYFILE SECS Hello rewritten to v2
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <zmq.h>
#include "proto/hoplab.pb-c.h"
#include "pokeutil.h"

/* Pack an envelope of protocol VERSION with body set by the caller. */
static size_t
pack(Hoplab__Envelope *e, unsigned version, uint8_t *buf)
{
	e->version = version;
	e->sender = "poke";
	e->seq = 1;
	return hoplab__envelope__pack(e, buf);
}

static size_t
hello(unsigned env_version, unsigned hello_version, uint8_t *buf)
{
	Hoplab__Envelope e = HOPLAB__ENVELOPE__INIT;
	Hoplab__Hello h = HOPLAB__HELLO__INIT;

	h.proto_version = hello_version;
	h.software_version = "9.9.9";
	h.controller = "poke";
	e.body_case = HOPLAB__ENVELOPE__BODY_HELLO;
	e.hello = &h;
	return pack(&e, env_version, buf);
}

static size_t
welcome(unsigned version, uint8_t *buf)
{
	Hoplab__Envelope e = HOPLAB__ENVELOPE__INIT;
	Hoplab__Welcome w = HOPLAB__WELCOME__INIT;

	w.proto_version = version;
	w.software_version = "0.1.0";
	w.name = "fake";
	w.hostname = "fake";
	e.body_case = HOPLAB__ENVELOPE__BODY_WELCOME;
	e.welcome = &w;
	return pack(&e, version, buf);
}

/* A RoleStatus packed alone: valid protobuf, but not an envelope. */
static size_t
raw_status(uint8_t *buf)
{
	Hoplab__RoleStatus rs = HOPLAB__ROLE_STATUS__INIT;

	rs.role_id = 7;
	rs.state = HOPLAB__ROLE_STATUS__STATE__EXITED;
	rs.error = "not an envelope";
	rs.pid = 4242;
	return hoplab__role_status__pack(&rs, buf);
}

static void
print_reply(const char *who, const uint8_t *d, size_t n)
{
	Hoplab__Envelope *e = hoplab__envelope__unpack(NULL, n, d);

	if (e == NULL) {
		printf("%s: %zu bytes that do not decode\n", who, n);
		return;
	}
	if (e->body_case == HOPLAB__ENVELOPE__BODY_ERROR)
		printf("%s: error %u: %s\n", who, e->error->code,
		    e->error->text);
	else if (e->body_case == HOPLAB__ENVELOPE__BODY_WELCOME)
		printf("%s: welcome from %s\n", who, e->welcome->name);
	else
		printf("%s: body %d\n", who, (int)e->body_case);
	hoplab__envelope__free_unpacked(e, NULL);
}

static void
print_events(void *mon)
{
	zmq_msg_t m;
	uint16_t ev;
	uint32_t val;
	int more;

	for (;;) {
		zmq_msg_init(&m);
		if (zmq_msg_recv(&m, mon, ZMQ_DONTWAIT) == -1) {
			zmq_msg_close(&m);
			return;
		}
		memcpy(&ev, zmq_msg_data(&m), 2);
		memcpy(&val, (uint8_t *)zmq_msg_data(&m) + 2, 4);
		more = zmq_msg_more(&m);
		zmq_msg_close(&m);
		while (more) {
			zmq_msg_init(&m);
			zmq_msg_recv(&m, mon, 0);
			more = zmq_msg_more(&m);
			zmq_msg_close(&m);
		}
		if (ev == ZMQ_EVENT_DISCONNECTED)
			printf("event: disconnected\n");
		else if (ev == ZMQ_EVENT_HANDSHAKE_FAILED_AUTH)
			printf("event: handshake refused, status %u\n", val);
		else if (ev == ZMQ_EVENT_HANDSHAKE_SUCCEEDED)
			printf("event: handshake ok\n");
		else if (ev == ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL)
			printf("event: handshake protocol error 0x%x\n", val);
	}
}

/* Wait up to MS for replies and events on S and MON, printing them. */
static void
drain(void *s, void *mon, int ms)
{
	zmq_pollitem_t it[2] = { { s, 0, ZMQ_POLLIN, 0 },
	    { mon, 0, ZMQ_POLLIN, 0 } };
	int64_t end = now_ms() + ms;
	uint8_t buf[4096];
	int n;

	while (now_ms() < end) {
		zmq_poll(it, 2, end - now_ms());
		print_events(mon);
		while ((n = zmq_recv(s, buf, sizeof(buf), ZMQ_DONTWAIT)) >= 0)
			print_reply("reply", buf, (size_t)n);
	}
	fflush(stdout);
}

static void
send_kind(void *s, const char *kind)
{
	static uint8_t buf[2 << 20];
	size_t n = 0;

	if (strcmp(kind, "garbage") == 0) {
		for (n = 0; n < 200; n++)
			buf[n] = (uint8_t)(n * 37 + 11);
	} else if (strcmp(kind, "trunc") == 0)
		n = hello(1, 1, buf) / 2;
	else if (strcmp(kind, "raw") == 0)
		n = raw_status(buf);
	else if (strcmp(kind, "welcome") == 0)
		n = welcome(1, buf);
	else if (strcmp(kind, "v2") == 0)
		n = hello(2, 2, buf);
	else if (strcmp(kind, "hello2") == 0)
		n = hello(1, 2, buf);
	else if (strcmp(kind, "hello") == 0)
		n = hello(1, 1, buf);
	else if (strcmp(kind, "extra") == 0) {
		n = hello(1, 1, buf);
		zmq_send(s, buf, n, ZMQ_SNDMORE | ZMQ_DONTWAIT);
		n = 3;
	} else if (strcmp(kind, "oversize") == 0) {
		n = sizeof(buf);
		memset(buf, 0x55, n);
	} else {
		fprintf(stderr, "poke: unknown kind %s\n", kind);
		exit(2);
	}
	if (zmq_send(s, buf, n, ZMQ_DONTWAIT) == -1)
		printf("not sent %s: %s\n", kind, zmq_strerror(zmq_errno()));
	else
		printf("sent %s (%zu bytes)\n", kind, n);
}

static void *
dealer(void *ctx, const char *ep, const char *spub, const char *keyfile,
    void **mon)
{
	void *s = zmq_socket(ctx, ZMQ_DEALER);
	char pub[41], sec[41];
	int64_t max = -1;
	int ivl = -1, linger = 500;

	zmq_setsockopt(s, ZMQ_MAXMSGSIZE, &max, sizeof(max));
	zmq_setsockopt(s, ZMQ_RECONNECT_IVL, &ivl, sizeof(ivl));
	zmq_setsockopt(s, ZMQ_LINGER, &linger, sizeof(linger));
	zmq_setsockopt(s, ZMQ_ROUTING_ID, "poke", 4);
	if (strcmp(spub, "-") != 0) {
		if (key_line(keyfile, "public-key", pub) == -1 ||
		    key_line(keyfile, "secret-key", sec) == -1) {
			fprintf(stderr, "poke: no key pair in %s\n", keyfile);
			exit(2);
		}
		zmq_setsockopt(s, ZMQ_CURVE_SERVERKEY, spub, 40);
		zmq_setsockopt(s, ZMQ_CURVE_PUBLICKEY, pub, 40);
		zmq_setsockopt(s, ZMQ_CURVE_SECRETKEY, sec, 40);
	}
	zmq_socket_monitor(s, "inproc://poke-mon", ZMQ_EVENT_ALL);
	*mon = zmq_socket(ctx, ZMQ_PAIR);
	zmq_connect(*mon, "inproc://poke-mon");
	zmq_connect(s, ep);
	return s;
}

static int
cmd_send(int argc, char **argv)
{
	void *ctx = zmq_ctx_new(), *mon, *s;
	int i;

	s = dealer(ctx, argv[0], argv[1], argv[2], &mon);
	drain(s, mon, 300);
	for (i = 3; i < argc; i++) {
		send_kind(s, argv[i]);
		drain(s, mon, 400);
	}
	zmq_socket_monitor(s, NULL, 0);
	zmq_close(mon);
	zmq_close(s);
	zmq_ctx_term(ctx);
	return 0;
}

static int
cmd_raw(const char *addr, const char *port)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	char buf[512];
	ssize_t n, got = 0;
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	struct timeval tv = { 3, 0 };

	sa.sin_port = htons((uint16_t)atoi(port));
	inet_pton(AF_INET, addr, &sa.sin_addr);
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == -1) {
		perror("poke: connect");
		return 1;
	}
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	memset(buf, 'G', sizeof(buf));
	if (write(fd, "GET / HTTP/1.0\r\n\r\n", 18) != 18 ||
	    write(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
		printf("raw: write failed\n");
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		got += n;
	printf("raw: connection closed by the agent after %zd bytes "
	    "(%s)\n", got, n == 0 ? "eof" : "error or timeout");
	close(fd);
	return 0;
}

/* A fake agent: answer each Hello with the MODE sequence. */
static int
cmd_fake(const char *ep, const char *mode, int secs)
{
	void *ctx = zmq_ctx_new(), *s = zmq_socket(ctx, ZMQ_ROUTER);
	static uint8_t buf[2 << 20];
	uint8_t id[256], in[4096];
	int64_t end = now_ms() + secs * 1000;
	int idn, n, linger = 500;
	size_t len;

	zmq_setsockopt(s, ZMQ_LINGER, &linger, sizeof(linger));
	if (zmq_bind(s, ep) == -1) {
		fprintf(stderr, "poke: bind %s: %s\n", ep,
		    zmq_strerror(zmq_errno()));
		return 1;
	}
	printf("fake: listening\n");
	fflush(stdout);
	while (now_ms() < end) {
		zmq_pollitem_t it = { s, 0, ZMQ_POLLIN, 0 };

		if (zmq_poll(&it, 1, 100) <= 0)
			continue;
		if ((idn = zmq_recv(s, id, sizeof(id), 0)) < 0 ||
		    (n = zmq_recv(s, in, sizeof(in), 0)) < 0)
			continue;
		Hoplab__Envelope *e = hoplab__envelope__unpack(NULL,
		    (size_t)n, in);
		int is_hello = e != NULL &&
		    e->body_case == HOPLAB__ENVELOPE__BODY_HELLO;
		if (e != NULL)
			hoplab__envelope__free_unpacked(e, NULL);
		if (!is_hello)
			continue;
		printf("fake: hello, answering %s\n", mode);
		fflush(stdout);
		if (strcmp(mode, "v2") == 0) {
			len = welcome(2, buf);
			zmq_send(s, id, (size_t)idn, ZMQ_SNDMORE);
			zmq_send(s, buf, len, 0);
			continue;
		}
		if (strcmp(mode, "oversize") == 0) {
			memset(buf, 0x55, sizeof(buf));
			zmq_send(s, id, (size_t)idn, ZMQ_SNDMORE);
			zmq_send(s, buf, sizeof(buf), 0);
			continue;
		}
		/* "junk": garbage, truncated, a bare RoleStatus, then welcome */
		memset(buf, 0xa5, 100);
		zmq_send(s, id, (size_t)idn, ZMQ_SNDMORE);
		zmq_send(s, buf, 100, 0);
		len = welcome(1, buf);
		zmq_send(s, id, (size_t)idn, ZMQ_SNDMORE);
		zmq_send(s, buf, len / 2, 0);
		len = raw_status(buf);
		zmq_send(s, id, (size_t)idn, ZMQ_SNDMORE);
		zmq_send(s, buf, len, 0);
		len = welcome(1, buf);
		zmq_send(s, id, (size_t)idn, ZMQ_SNDMORE);
		zmq_send(s, buf, len, 0);
	}
	zmq_close(s);
	zmq_ctx_term(ctx);
	return 0;
}

/* Between a real controller and a real agent: Hello becomes version 2. */
static int
cmd_relay(char **argv)
{
	void *ctx = zmq_ctx_new(), *front = zmq_socket(ctx, ZMQ_ROUTER);
	void *mon, *back = dealer(ctx, argv[1], argv[2], argv[3], &mon);
	uint8_t id[256], in[4096], out[4096];
	int64_t end = now_ms() + atoi(argv[4]) * 1000;
	int idn = 0, n;

	if (zmq_bind(front, argv[0]) == -1)
		return 1;
	printf("relay: listening\n");
	fflush(stdout);
	while (now_ms() < end) {
		zmq_pollitem_t it[2] = { { front, 0, ZMQ_POLLIN, 0 },
		    { back, 0, ZMQ_POLLIN, 0 } };

		if (zmq_poll(it, 2, 100) <= 0)
			continue;
		if (it[0].revents & ZMQ_POLLIN) {
			idn = zmq_recv(front, id, sizeof(id), 0);
			n = zmq_recv(front, in, sizeof(in), 0);
			Hoplab__Envelope *e = hoplab__envelope__unpack(NULL,
			    (size_t)n, in);
			if (e != NULL && e->body_case ==
			    HOPLAB__ENVELOPE__BODY_HELLO) {
				e->version = 2;
				e->hello->proto_version = 2;
				n = (int)hoplab__envelope__pack(e, in);
				printf("relay: hello rewritten to version 2\n");
				fflush(stdout);
			}
			if (e != NULL)
				hoplab__envelope__free_unpacked(e, NULL);
			zmq_send(back, in, (size_t)n, 0);
		}
		if ((it[1].revents & ZMQ_POLLIN) && idn > 0) {
			n = zmq_recv(back, out, sizeof(out), 0);
			print_reply("relay: agent answered", out, (size_t)n);
			fflush(stdout);
			zmq_send(front, id, (size_t)idn, ZMQ_SNDMORE);
			zmq_send(front, out, (size_t)n, 0);
		}
	}
	return 0;
}

int
main(int argc, char **argv)
{
	if (argc >= 5 && strcmp(argv[1], "send") == 0)
		return cmd_send(argc - 2, argv + 2);
	if (argc == 4 && strcmp(argv[1], "raw") == 0)
		return cmd_raw(argv[2], argv[3]);
	if (argc == 5 && strcmp(argv[1], "fake") == 0)
		return cmd_fake(argv[2], argv[3], atoi(argv[4]));
	if (argc == 7 && strcmp(argv[1], "relay") == 0)
		return cmd_relay(argv + 2);
	fprintf(stderr, "usage: see the comment atop poke.c\n");
	return 2;
}
POKE
build_client build_poke "$T/poke"
POKE_BIN=$T/poke

# bg_stop: end the background helper (by its PID).
bg_stop()
{
	[ -n "$BG_PID" ] || return 0
	kill "$BG_PID" 2>/dev/null
	wait "$BG_PID" 2>/dev/null
	BG_PID=
}

lab_up A
S=$LAB_STATE
A_EP=tcp://198.19.228.11:7700
A_PUB=$(sed -n 's/^public-key = "\(.*\)"$/\1/p' "$S/keys/A.pub")
A_PID=$(cat "$S/A.pid")

# --- 1. no authorized key: refused at the handshake ------------------------
"$HOPLAB" keygen "$T/k" rogue >/dev/null 2>&1
out=$(timeout 10 "$POKE_BIN" send "$A_EP" "$A_PUB" "$T/k/rogue.key" garbage)
assert_match "rogue key: the handshake is refused with status 400" \
    "event: handshake refused, status 400" "$out"
assert_match "rogue key: its garbage never leaves the client" \
    "not sent garbage" "$out"
wait_log 2 "refused a controller from 198\.19\.228\.1" "$S/A.log"
assert_match "rogue key: agent A logs and counts the refusal (ZAP)" \
    "refused a controller from 198\.19\.228\.1: its key .* is not among the 1 authorized \(1 refused so far\)" \
    "$(cat "$S/A.log")"
out=$(timeout 10 "$POKE_BIN" send "$A_EP" - - garbage)
assert_match "plain-text client: dropped at the handshake" \
    "event: disconnected" "$out"
assert_match "plain-text client: its garbage never leaves the client" \
    "not sent garbage" "$out"

# --- 2. past the handshake, with the controller's key ----------------------
out=$(timeout 20 "$POKE_BIN" send "$A_EP" "$A_PUB" "$S/keys/controller.key" \
    garbage trunc raw welcome v2 hello2 extra hello oversize)
echo "$out" >"$T/send.out"
L=$(cat "$S/A.log")
assert_match "garbage: logged and counted" \
    'from "poke": malformed: 200 bytes that do not decode as a hoplab envelope \(dropped, 1 so far\)' "$L"
assert_match "truncated Hello: logged and counted" \
    'malformed: 13 bytes that do not decode as a hoplab envelope \(dropped, 2 so far\)' "$L"
assert_match "bare RoleStatus (wrong type): logged and counted" \
    'malformed: 24 bytes that decode as protobuf but not as a hoplab envelope \(no sender, no body\) \(dropped, 3 so far\)' "$L"
assert_match "Welcome sent to an agent: logged and counted" \
    'controller poke sent welcome, which an agent does not take \(dropped, 1 so far\)' "$L"
assert_match "version-2 envelope: logged and counted" \
    'from "poke": protocol version 2 from peer, this side speaks 1 \(dropped, 4 so far\)' "$L"
assert_match "version-2 envelope: answered naming both versions" \
    "reply: error 93: agent A \(hoplab 0\.1\.0\) speaks protocol version 1 and refuses this controller: protocol version 2 from peer, this side speaks 1" \
    "$out"
assert_match "Hello of version 2: answered naming both versions" \
    "reply: error 93: hello: protocol version 2, this agent speaks 1" "$out"
assert_match "extra frames: logged and counted" \
    'malformed: 1 extra frame after the body \(dropped, 5 so far\)' "$L"
assert_match "a good Hello after all that is welcomed" \
    "sent hello .*reply: welcome from A" "$(echo "$out" | tr '\n' ' ')"
# The agent's heartbeats (body 12, every second) may arrive before the
# disconnect; anything else between the two fails.
assert_match "2 MiB message: libzmq closes the connection" \
    "sent oversize \(2097152 bytes\) (reply: body 12 )*event: disconnected" \
    "$(echo "$out" | tr '\n' ' ')"
assert_eq "agent A survived: the same process" "$A_PID" "$(cat "$S/A.pid")"
assert_ok "agent A survived: it runs" kill -0 "$A_PID"
out=$("$HOPLAB" -p hlm4 agents 2>&1)
assert_match "agent A still answers a real controller" "^A .* curve  *ok$" \
    "$out"

# --- 3. the controller against a fake agent --------------------------------
printf 'agents:\n  - name: fake\n    address: 127.0.0.1\n    port: 22801\n' \
    >"$T/fake.yaml"
"$POKE_BIN" fake tcp://127.0.0.1:22801 junk 20 >"$T/fake.log" 2>&1 &
BG_PID=$!
wait_log 3 "listening" "$T/fake.log"
out=$("$HOPLAB" -i "$T/fake.yaml" --insecure agents 2>&1); rc=$?
bg_stop
assert_eq "fake agent with junk: the listing succeeds" 0 "$rc"
assert_match "fake agent: garbage logged and counted" \
    "agent fake \(127\.0\.0\.1:22801\): dropped a malformed message \(1 so far\): malformed: 100 bytes that do not decode" \
    "$out"
assert_match "fake agent: truncated envelope logged and counted" \
    "dropped a malformed message \(2 so far\): malformed: [0-9]+ bytes that do not decode" \
    "$out"
assert_match "fake agent: bare RoleStatus logged and counted" \
    "dropped a malformed message \(3 so far\): malformed: 24 bytes that decode as protobuf but not as a hoplab envelope" \
    "$out"
assert_match "fake agent: listed once it welcomed" "^fake .* PLAIN  *ok$" "$out"

"$POKE_BIN" fake tcp://127.0.0.1:22801 oversize 20 >"$T/fake.log" 2>&1 &
BG_PID=$!
wait_log 3 "listening" "$T/fake.log"
out=$("$HOPLAB" -i "$T/fake.yaml" --insecure agents 2>&1); rc=$?
bg_stop
assert_eq "fake agent sending 2 MiB: exit 1, no crash" 1 "$rc"
assert_match "fake agent sending 2 MiB: named as not answering" \
    "agent fake \(127\.0\.0\.1:22801\) did not answer within 3 s" "$out"

"$POKE_BIN" fake tcp://127.0.0.1:22801 v2 20 >"$T/fake.log" 2>&1 &
BG_PID=$!
wait_log 3 "listening" "$T/fake.log"
out=$("$HOPLAB" -i "$T/fake.yaml" --insecure agents 2>&1); rc=$?
bg_stop
assert_eq "fake agent of protocol 2: exit 1" 1 "$rc"
assert_match "fake agent of protocol 2: refused naming both versions" \
    "agent fake \(127\.0\.0\.1:22801\) refused: protocol version 2 from peer, this side speaks 1 \(this controller is hoplab 0\.1\.0, protocol 1\)" \
    "$out"

# --- 4. a controller whose Hello says version 2, against agent A -----------
printf 'agents:\n  - name: relay\n    address: 127.0.0.1\n    port: 22803\n' \
    >"$T/relay.yaml"
"$POKE_BIN" relay tcp://127.0.0.1:22803 "$A_EP" "$A_PUB" \
    "$S/keys/controller.key" 20 >"$T/relay.log" 2>&1 &
BG_PID=$!
wait_log 3 "listening" "$T/relay.log"
out=$("$HOPLAB" -i "$T/relay.yaml" --insecure agents 2>&1); rc=$?
bg_stop
assert_match "relay: the controller's Hello went out as version 2" \
    "hello rewritten to version 2" "$(cat "$T/relay.log")"
assert_eq "version 2 against agent A: exit 1" 1 "$rc"
assert_match "version 2: the controller prints A's refusal naming both" \
    "agent relay \(127\.0\.0\.1:22803\) refused: agent A \(hoplab 0\.1\.0\) speaks protocol version 1 and refuses this controller: protocol version 2 from peer, this side speaks 1" \
    "$out"
assert_match "version 2: agent A logs it naming both versions" \
    'protocol version 2 from peer, this side speaks 1 \(dropped, 6 so far\)' \
    "$(cat "$S/A.log")"

# --- 5. the counts in A's exit line ----------------------------------------
kill -TERM "$A_PID"
wait_log 5 "exiting: " "$S/A.log"
assert_match "agent A's exit line counts what it dropped and refused" \
    "exiting: 6 malformed and 1 unexpected messages dropped, [1-9][0-9]* controllers refused" \
    "$(cat "$S/A.log")"
finish
