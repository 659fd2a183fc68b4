/*
 * msg: the only module that packs and unpacks management-plane messages.
 *
 * One ZeroMQ message carries one protobuf-c Envelope (proto/hoplab.proto).
 * On ROUTER sockets the peer's routing id comes first as its own frame.
 * Receiving checks size (MSG_MAX_SIZE), decodes, and checks the protocol
 * version before the caller sees anything; a message that fails is
 * consumed and reported as malformed, never half-trusted.
 */
#ifndef HOPLAB_MSG_H
#define HOPLAB_MSG_H

#include <stddef.h>
#include <stdint.h>

#include "proto/hoplab.pb-c.h"

#define HOPLAB_PROTO_VERSION	1
#define HOPLAB_VERSION		"0.1.0"
#define MSG_MAX_SIZE		(1 << 20)	/* bytes, also ZMQ_MAXMSGSIZE */
#define MSG_ID_MAX		256		/* ZeroMQ routing ids are <= 255 */
#define MSG_DEFAULT_PORT	7700

/* Prepare ENV: version, sender, and the next value of *SEQ. */
void	msg_init(Hoplab__Envelope *env, const char *sender, uint64_t *seq);
/*
 * Pack ENV and send it on SOCK; when ID is not NULL it is sent first as the
 * routing-id frame (ROUTER sockets).  Non-blocking: returns 0, or -1 with
 * the reason in ERR (e.g. peer unreachable, EAGAIN).
 */
int	msg_send(void *sock, const void *id, size_t idlen,
	    const Hoplab__Envelope *env, char *err, size_t errlen);
/*
 * Receive one message from SOCK without blocking.  With ID not NULL the
 * first frame is read as the routing id into ID (MSG_ID_MAX bytes) and
 * *IDLEN.  Returns 0 and *ENV (free with msg_free()); -1 when nothing could
 * be read (ERR has the zmq error; EAGAIN means nothing waiting); -2 when a
 * message arrived but was malformed or of another protocol version (ERR
 * says which, and names both versions when they differ; errno is
 * EPROTONOSUPPORT for the version, EBADMSG for the rest).
 */
int	msg_recv(void *sock, uint8_t *id, size_t *idlen, Hoplab__Envelope **env,
	    char *err, size_t errlen);
void	msg_free(Hoplab__Envelope *env);
/* "hello", "start_role", ... for logs; "unknown" for anything else. */
const char *msg_body_name(int body_case);
/* Apply hoplab's socket options (max message size, linger 1 s). */
int	msg_sockopts(void *sock, char *err, size_t errlen);

#endif
