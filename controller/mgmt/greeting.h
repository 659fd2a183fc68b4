/*
 * greeting: ask an agent's management port which ZMTP security mechanism
 * it speaks ("CURVE" or "NULL"), by reading the greeting it sends, without
 * libzmq.
 *
 * Why: when a controller and an agent disagree on the mechanism, libzmq
 * reports ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL with MECHANISM_MISMATCH only
 * if the controller's side read the agent's whole greeting before the
 * agent closed the connection; when the agent read the controller's
 * greeting in one piece it closes before its own greeting is flushed, and
 * the controller sees nothing but disconnects, every retry alike.  The
 * monitor (peers.c) then asks here, once, so that the console can say
 * "agent B requires CURVE" instead of "did not answer".
 *
 * ZMTP 3.0 (RFC 23/ZMTP): the greeting is a 10-byte signature (0xFF, 8
 * bytes, 0x7F), the major and minor version, then the mechanism name in
 * 20 bytes padded with NULs.  A peer sends its version bytes after it has
 * read the other's signature and major version, so we send those 11 bytes
 * and read 32.  We then close: the agent sees a connection that ended
 * during its greeting, as after any failed handshake.
 */
#ifndef HOPLAB_GREETING_H
#define HOPLAB_GREETING_H

#include <stddef.h>

#define GREETING_MECH_MAX	21	/* 20 bytes and the NUL */

/*
 * Connect to HOST (an IPv4 literal or a host name) at PORT, read its ZMTP
 * greeting within TIMEOUT_MS and write its mechanism name ("CURVE",
 * "NULL", "PLAIN") into MECH (GREETING_MECH_MAX bytes).  0, or -1 with
 * ERR (no connection, no greeting in time, not ZMTP 3).
 */
int	greeting_mechanism(const char *host, unsigned port, int timeout_ms,
	    char *mech, char *err, size_t errlen);

#endif
