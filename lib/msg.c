/*
 * msg: pack, send, receive and unpack management-plane messages.
 *
 * One ZeroMQ message is one protobuf-c hoplab.Envelope (proto/hoplab.proto)
 * in exactly one frame.  On ROUTER sockets the peer's routing id travels in
 * a frame of its own in front of it; msg_send() and msg_recv() add and strip
 * it when the caller passes an id.  Both never block (ZMQ_DONTWAIT): the
 * programs call them from a zmq_poll() loop.
 *
 * Receiving trusts nothing before it has checked, in this order: the frame
 * count (one body frame, extra frames are read and dropped), the size
 * (MSG_MAX_SIZE), the protobuf decoding, the protocol version (the error
 * names both versions) and that a body is set.  A message of another
 * type (a bare RoleStatus, say) may decode as an envelope whose field 1
 * looks like a version: one with neither sender nor body is malformed,
 * not a peer of another version, since every hoplab version keeps the
 * envelope's version (1), sender (3) and body.  A message that fails any
 * check is consumed whole and reported as malformed (-2), so one bad peer
 * cannot wedge a socket with half-read multipart messages; errno then says
 * which: EPROTONOSUPPORT for another protocol version (so that the caller
 * can answer with both versions), EBADMSG for everything else.
 *
 * It deliberately does not retry, queue or log: a send that would block
 * fails with EAGAIN and the caller decides.  No CURVE setup here either;
 * that belongs to whoever creates the socket.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zmq.h>

#include "msg.h"

/*
 * Fill ENV with the protocol version, SENDER (not copied: it must outlive
 * the send) and the next sequence number from *SEQ (1 for the first
 * message of a counter that starts at 0).  SEQ may be NULL for seq 0.
 */
void
msg_init(Hoplab__Envelope *env, const char *sender, uint64_t *seq)
{
	hoplab__envelope__init(env);
	env->version = HOPLAB_PROTO_VERSION;
	env->sender = (char *)(sender != NULL ? sender : "");
	env->seq = seq != NULL ? ++*seq : 0;
}

static void
msg_zerr(char *err, size_t errlen, const char *what)
{
	int e = errno;

	snprintf(err, errlen, "%s: %s", what, zmq_strerror(e));
	errno = e;
}

/*
 * Pack ENV into one frame and send it without blocking, preceded by the
 * routing id ID when ID is not NULL.  ENV stays the caller's.
 */
int
msg_send(void *sock, const void *id, size_t idlen,
    const Hoplab__Envelope *env, char *err, size_t errlen)
{
	zmq_msg_t m;
	size_t len;

	len = hoplab__envelope__get_packed_size(env);
	if (len > MSG_MAX_SIZE) {
		snprintf(err, errlen, "message of %zu bytes exceeds the "
		    "limit of %d bytes", len, MSG_MAX_SIZE);
		errno = EMSGSIZE;
		return -1;
	}
	if (zmq_msg_init_size(&m, len) == -1) {
		msg_zerr(err, errlen, "zmq_msg_init_size");
		return -1;
	}
	hoplab__envelope__pack(env, zmq_msg_data(&m));
	if (id != NULL &&
	    zmq_send(sock, id, idlen, ZMQ_SNDMORE | ZMQ_DONTWAIT) == -1) {
		msg_zerr(err, errlen, "send routing id");
		zmq_msg_close(&m);
		return -1;
	}
	if (zmq_msg_send(&m, sock, ZMQ_DONTWAIT) == -1) {
		msg_zerr(err, errlen, "send");
		zmq_msg_close(&m);
		return -1;
	}
	return 0;
}

/* Read and drop the remaining frames of a multipart message; their count. */
static int
msg_drain(void *sock)
{
	zmq_msg_t m;
	int more, n = 0;

	do {
		zmq_msg_init(&m);
		if (zmq_msg_recv(&m, sock, ZMQ_DONTWAIT) == -1) {
			zmq_msg_close(&m);
			break;
		}
		more = zmq_msg_more(&m);
		zmq_msg_close(&m);
		n++;
	} while (more);
	return n;
}

/* Read the routing-id frame into ID; 0, -1 (nothing read) or -2. */
static int
msg_recv_id(void *sock, uint8_t *id, size_t *idlen, char *err,
    size_t errlen)
{
	zmq_msg_t m;
	size_t len;
	int more;

	zmq_msg_init(&m);
	if (zmq_msg_recv(&m, sock, ZMQ_DONTWAIT) == -1) {
		msg_zerr(err, errlen, "recv");
		zmq_msg_close(&m);
		return -1;
	}
	len = zmq_msg_size(&m);
	more = zmq_msg_more(&m);
	if (len <= MSG_ID_MAX) {
		memcpy(id, zmq_msg_data(&m), len);
		*idlen = len;
	}
	zmq_msg_close(&m);
	if (!more) {
		snprintf(err, errlen, "malformed: routing id without a body");
		errno = EBADMSG;
		return -2;
	}
	if (len > MSG_ID_MAX) {
		msg_drain(sock);
		snprintf(err, errlen, "malformed: routing id of %zu bytes",
		    len);
		errno = EBADMSG;
		return -2;
	}
	return 0;
}

/* Decode one body frame and check version and body; 0 or -2. */
static int
msg_decode(zmq_msg_t *m, Hoplab__Envelope **envp, char *err, size_t errlen)
{
	Hoplab__Envelope *env;
	size_t len = zmq_msg_size(m);

	errno = EBADMSG;
	if (len > MSG_MAX_SIZE) {
		snprintf(err, errlen, "malformed: message of %zu bytes "
		    "exceeds the limit of %d bytes", len, MSG_MAX_SIZE);
		return -2;
	}
	env = hoplab__envelope__unpack(NULL, len, zmq_msg_data(m));
	if (env == NULL) {
		snprintf(err, errlen, "malformed: %zu bytes that do not "
		    "decode as a hoplab envelope", len);
		errno = EBADMSG;
		return -2;
	}
	if (env->version != HOPLAB_PROTO_VERSION &&
	    env->body_case == HOPLAB__ENVELOPE__BODY__NOT_SET &&
	    env->sender[0] == '\0') {
		/* Another message type whose field 1 reads as a version. */
		snprintf(err, errlen, "malformed: %zu bytes that decode as "
		    "protobuf but not as a hoplab envelope (no sender, no "
		    "body)", len);
		msg_free(env);
		errno = EBADMSG;
		return -2;
	}
	if (env->version != HOPLAB_PROTO_VERSION) {
		snprintf(err, errlen, "protocol version %" PRIu32 " from "
		    "peer, this side speaks %d", env->version,
		    HOPLAB_PROTO_VERSION);
		msg_free(env);
		errno = EPROTONOSUPPORT;
		return -2;
	}
	if (env->body_case == HOPLAB__ENVELOPE__BODY__NOT_SET) {
		snprintf(err, errlen, "malformed: envelope from \"%.64s\" "
		    "without a body this side knows", env->sender);
		msg_free(env);
		errno = EBADMSG;
		return -2;
	}
	*envp = env;
	return 0;
}

/*
 * Receive one message without blocking.  See msg.h for the return values;
 * on 0 the caller owns *ENV and frees it with msg_free().
 */
int
msg_recv(void *sock, uint8_t *id, size_t *idlen, Hoplab__Envelope **env,
    char *err, size_t errlen)
{
	zmq_msg_t m;
	int extra, rc;

	*env = NULL;
	if (id != NULL) {
		rc = msg_recv_id(sock, id, idlen, err, errlen);
		if (rc != 0)
			return rc;
	}
	zmq_msg_init(&m);
	if (zmq_msg_recv(&m, sock, ZMQ_DONTWAIT) == -1) {
		msg_zerr(err, errlen, "recv");
		zmq_msg_close(&m);
		return -1;
	}
	if (zmq_msg_more(&m)) {
		extra = msg_drain(sock);
		zmq_msg_close(&m);
		snprintf(err, errlen, "malformed: %d extra frame%s after the "
		    "body", extra, extra == 1 ? "" : "s");
		errno = EBADMSG;
		return -2;
	}
	rc = msg_decode(&m, env, err, errlen);
	zmq_msg_close(&m);
	return rc;
}

/* Free an envelope that msg_recv() returned; NULL does nothing. */
void
msg_free(Hoplab__Envelope *env)
{
	if (env != NULL)
		hoplab__envelope__free_unpacked(env, NULL);
}

const char *
msg_body_name(int body_case)
{
	switch (body_case) {
	case HOPLAB__ENVELOPE__BODY_HELLO:
		return "hello";
	case HOPLAB__ENVELOPE__BODY_WELCOME:
		return "welcome";
	case HOPLAB__ENVELOPE__BODY_HEARTBEAT:
		return "heartbeat";
	case HOPLAB__ENVELOPE__BODY_START_ROLE:
		return "start_role";
	case HOPLAB__ENVELOPE__BODY_STOP_ROLE:
		return "stop_role";
	case HOPLAB__ENVELOPE__BODY_ROLE_STATUS:
		return "role_status";
	case HOPLAB__ENVELOPE__BODY_RESULT_BATCH:
		return "result_batch";
	case HOPLAB__ENVELOPE__BODY_ACK:
		return "ack";
	case HOPLAB__ENVELOPE__BODY_ERROR:
		return "error";
	case HOPLAB__ENVELOPE__BODY_ROUTER_CONTROL:
		return "router_control";
	case HOPLAB__ENVELOPE__BODY_ROUTER_CONTROL_REPLY:
		return "router_control_reply";
	case HOPLAB__ENVELOPE__BODY_LINK_CONTROL:
		return "link_control";
	case HOPLAB__ENVELOPE__BODY_LINK_CONTROL_REPLY:
		return "link_control_reply";
	case HOPLAB__ENVELOPE__BODY_FAULT:
		return "fault";
	case HOPLAB__ENVELOPE__BODY_FAULT_ACK:
		return "fault_ack";
	case HOPLAB__ENVELOPE__BODY_FILE_CHUNK:
		return "file_chunk";
	case HOPLAB__ENVELOPE__BODY_FILE_ACK:
		return "file_ack";
	case HOPLAB__ENVELOPE__BODY_CAPTURE_REPORT:
		return "capture_report";
	case HOPLAB__ENVELOPE__BODY_HOST_QUERY:
		return "host_query";
	case HOPLAB__ENVELOPE__BODY_HOST_REPORT:
		return "host_report";
	default:
		return "unknown";
	}
}

/*
 * Apply hoplab's options to a fresh socket: ZMQ_MAXMSGSIZE so that a peer
 * cannot make us allocate more than MSG_MAX_SIZE (libzmq then drops that
 * connection), and ZMQ_LINGER of 1 s so that closing never hangs.
 */
int
msg_sockopts(void *sock, char *err, size_t errlen)
{
	int64_t maxsz = MSG_MAX_SIZE;
	int linger = 1000;

	if (zmq_setsockopt(sock, ZMQ_MAXMSGSIZE, &maxsz,
	    sizeof(maxsz)) == -1) {
		msg_zerr(err, errlen, "ZMQ_MAXMSGSIZE");
		return -1;
	}
	if (zmq_setsockopt(sock, ZMQ_LINGER, &linger, sizeof(linger)) == -1) {
		msg_zerr(err, errlen, "ZMQ_LINGER");
		return -1;
	}
	return 0;
}
