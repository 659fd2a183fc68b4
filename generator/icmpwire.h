/*
 * icmpwire: the ICMP echo messages of hoplab-gen's icmp mode (icmp.c),
 * built and parsed (icmpwire.c).  An echo request is the 8-byte ICMP
 * header (type 8, code 0, checksum, identifier, sequence number, RFC
 * 792) followed by the probe header (lib/probe.h: magic, flow id, the
 * full sequence number and the send time) and zeros up to the flow's
 * frame length: ICMP message = frame - 38 bytes (14 Ethernet + 20 IPv4 +
 * 4 FCS), so a 64-byte frame carries the 8-byte header and 18 bytes of
 * probe, as a udp probe does.
 */
#ifndef HOPLAB_GEN_ICMPWIRE_H
#define HOPLAB_GEN_ICMPWIRE_H

#include <stddef.h>
#include <stdint.h>
#include <netinet/in.h>

#include "probe.h"

#define ICMPWIRE_ECHOREPLY	0
#define ICMPWIRE_UNREACH	3
#define ICMPWIRE_ECHO		8
#define ICMPWIRE_TIMEX		11
#define ICMPWIRE_HDR		8	/* type, code, csum, id, seq */
/* Frame incl. FCS = ICMP message + 20 + 14 + 4. */
#define ICMPWIRE_FRAME_OVERHEAD	38

/* What a received IPv4 datagram was, for the icmp mode. */
#define ICMPWIRE_REPLY		1	/* an echo reply with our probe */
#define ICMPWIRE_ERROR		2	/* unreachable or time exceeded about
					   an echo request */
#define ICMPWIRE_OTHER		0	/* anything else, not ours */

struct icmpwire_msg {
	int		kind;		/* ICMPWIRE_REPLY, _ERROR, _OTHER */
	uint8_t		type;		/* ICMP type and code */
	uint8_t		code;
	uint16_t	ident;		/* the echo's identifier and */
	uint16_t	seq;		/* 16-bit sequence number (an error:
					   of the request it quotes) */
	struct probe	probe;		/* REPLY: the payload's probe */
	unsigned	ttl;		/* of the datagram that arrived */
	struct in_addr	src;		/* who sent it */
	size_t		len;		/* its IPv4 total length */
};

/*
 * Write an echo request of LEN bytes (ICMPWIRE_HDR + PROBE_LEN .. 1480)
 * into BUF: identifier IDENT, sequence SEQ16, probe P, zeros after it,
 * the RFC 1071 checksum over all of it.  Returns LEN, or -1 when LEN is
 * out of range.
 */
int	icmpwire_echo(uint8_t *buf, size_t len, uint16_t ident, uint16_t seq16,
	    const struct probe *p);
/*
 * Parse the IPv4 datagram of LEN bytes a raw ICMP socket returned (IPv4
 * header included) into *M.  Returns 0 (M->kind says what it was), or -1
 * when it is truncated, not IPv4/ICMP, or its ICMP checksum is wrong.
 * An error message counts only when it quotes an ICMP echo request; a
 * reply only when its payload starts with a probe header.
 */
int	icmpwire_parse(const uint8_t *ip, size_t len, struct icmpwire_msg *m);

#endif
