/*
 * udpio: one ordinary AF_INET/SOCK_DGRAM socket per side of the udp mode.
 * The kernel routes, so the interfaces carry kernel addresses and
 * neighbours are the kernel's business.
 *
 * Each datagram's DSCP is set per packet with an IP_TOS control message
 * (ip_cmsg_send(), Linux 3.13 and later), so flows of any class share one
 * socket.  SO_TIMESTAMPING asks for software stamps, CLOCK_REALTIME: on
 * the sending socket SOF_TIMESTAMPING_TX_SOFTWARE (the driver's
 * skb_tx_timestamp(); the kernel returns a copy of the frame, link layer
 * header included, with the stamp on the error queue), on the receiving
 * socket SOF_TIMESTAMPING_RX_SOFTWARE (as the frame enters the stack).
 * The receiving socket also asks for each datagram's TTL (IP_RECVTTL,
 * the path check) and TOS (IP_RECVTOS), and reads in batches with
 * recvmmsg().
 *
 * Deliberately not here: connect() (an ICMP port unreachable would turn
 * into send errors while the receiver starts), IPv6, hardware stamps,
 * SOF_TIMESTAMPING_OPT_ID (matching stamps by the returned payload needs
 * no counter that a failed send could shift).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/errqueue.h>
#include <linux/net_tstamp.h>
#include <sys/socket.h>

#include "clock.h"
#include "udpio.h"

#define UDP_RCVBUF	(8 * 1024 * 1024)

int
udpio_parse_addr(const char *s, struct sockaddr_in *sa)
{
	char host[INET_ADDRSTRLEN];
	const char *colon = strrchr(s, ':');
	char *end;
	long port;

	if (colon == NULL || (size_t)(colon - s) >= sizeof(host))
		return -1;
	memcpy(host, s, (size_t)(colon - s));
	host[colon - s] = '\0';
	port = strtol(colon + 1, &end, 10);
	if (colon[1] < '0' || colon[1] > '9' || *end != '\0' || port < 1 ||
	    port > 65535)
		return -1;
	memset(sa, 0, sizeof(*sa));
	sa->sin_family = AF_INET;
	sa->sin_port = htons((uint16_t)port);
	return inet_pton(AF_INET, host, &sa->sin_addr) == 1 ? 0 : -1;
}

static int
udpio_tsopt(struct udpsock *u, int ts, char *err, size_t errlen)
{
	int flags = 0;

	if (ts & UDP_TS_RX)
		flags |= SOF_TIMESTAMPING_RX_SOFTWARE;
	if (ts & UDP_TS_TX)
		flags |= SOF_TIMESTAMPING_TX_SOFTWARE;
	if (flags == 0)
		return 0;
	flags |= SOF_TIMESTAMPING_SOFTWARE;
	if (setsockopt(u->fd, SOL_SOCKET, SO_TIMESTAMPING, &flags,
	    sizeof(flags)) == -1) {
		snprintf(err, errlen, "SO_TIMESTAMPING: %s (use --tstamp "
		    "user)", strerror(errno));
		return -1;
	}
	return 0;
}

static int
udpio_socket(struct udpsock *u, const struct sockaddr_in *bindto, int ts,
    const char *what, char *err, size_t errlen)
{
	char a[INET_ADDRSTRLEN];
	int rcvbuf = UDP_RCVBUF;

	u->fd = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	u->ts = ts;
	if (u->fd == -1) {
		snprintf(err, errlen, "UDP socket: %s", strerror(errno));
		return -1;
	}
	if (setsockopt(u->fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf,
	    sizeof(rcvbuf)) == -1)
		(void)setsockopt(u->fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf,
		    sizeof(rcvbuf));
	if (bind(u->fd, (const struct sockaddr *)bindto,
	    sizeof(*bindto)) == -1) {
		inet_ntop(AF_INET, &bindto->sin_addr, a, sizeof(a));
		snprintf(err, errlen, "%s %s:%u: bind: %s", what, a,
		    ntohs(bindto->sin_port), strerror(errno));
		goto fail;
	}
	if (udpio_tsopt(u, ts, err, errlen) == -1)
		goto fail;
	return 0;
fail:
	udpio_close(u);
	return -1;
}

int
udpio_open_send(struct udpsock *u, const struct sockaddr_in *src,
    const struct sockaddr_in *dst, int ts, char *err, size_t errlen)
{
	memset(u, 0, sizeof(*u));
	u->peer = *dst;
	return udpio_socket(u, src, ts, "--src", err, errlen);
}

int
udpio_open_recv(struct udpsock *u, const struct sockaddr_in *listen, int ts,
    char *err, size_t errlen)
{
	int one = 1;

	memset(u, 0, sizeof(*u));
	if (udpio_socket(u, listen, ts, "--listen", err, errlen) == -1)
		return -1;
	if (setsockopt(u->fd, IPPROTO_IP, IP_RECVTTL, &one,
	    sizeof(one)) == -1 || setsockopt(u->fd, IPPROTO_IP, IP_RECVTOS,
	    &one, sizeof(one)) == -1) {
		snprintf(err, errlen, "IP_RECVTTL/IP_RECVTOS: %s",
		    strerror(errno));
		udpio_close(u);
		return -1;
	}
	return 0;
}

void
udpio_close(struct udpsock *u)
{
	if (u->fd >= 0)
		close(u->fd);
	u->fd = -1;
}

int
udpio_send(struct udpsock *u, const void *buf, size_t len, int tos)
{
	union {
		char		buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr	align;
	} control;
	struct cmsghdr *c;
	struct msghdr mh;
	struct iovec iov;
	ssize_t n;

	memset(&mh, 0, sizeof(mh));
	memset(&control, 0, sizeof(control));
	iov.iov_base = (void *)buf;
	iov.iov_len = len;
	mh.msg_name = &u->peer;
	mh.msg_namelen = sizeof(u->peer);
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	mh.msg_control = control.buf;
	mh.msg_controllen = sizeof(control.buf);
	c = CMSG_FIRSTHDR(&mh);
	c->cmsg_level = IPPROTO_IP;
	c->cmsg_type = IP_TOS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &tos, sizeof(tos));
	n = sendmsg(u->fd, &mh, MSG_DONTWAIT);
	if (n == -1)
		return -1;
	if ((size_t)n != len) {
		errno = EMSGSIZE;
		return -1;
	}
	return 0;
}

/* Stamp, TTL and TOS of one received datagram's control messages. */
static void
udpio_cmsgs(struct msghdr *mh, struct udp_rx *r)
{
	struct timespec ts[3];
	struct cmsghdr *c;
	int v;

	r->rx_ns = 0;
	r->ttl = r->tos = -1;
	for (c = CMSG_FIRSTHDR(mh); c != NULL; c = CMSG_NXTHDR(mh, c)) {
		if (c->cmsg_level == SOL_SOCKET &&
		    c->cmsg_type == SCM_TIMESTAMPING &&
		    c->cmsg_len >= CMSG_LEN(sizeof(ts))) {
			memcpy(ts, CMSG_DATA(c), sizeof(ts));
			r->rx_ns = clock_ns_from_ts(&ts[0]);
		} else if (c->cmsg_level == IPPROTO_IP &&
		    c->cmsg_type == IP_TTL) {
			memcpy(&v, CMSG_DATA(c), sizeof(v));
			r->ttl = v;
		} else if (c->cmsg_level == IPPROTO_IP &&
		    c->cmsg_type == IP_TOS) {
			r->tos = *(const unsigned char *)CMSG_DATA(c);
		}
	}
}

#define UDP_CTL_SPACE	(CMSG_SPACE(sizeof(struct timespec) * 3) + \
			    CMSG_SPACE(sizeof(int)) * 2 + 64)

int
udpio_recv(struct udpsock *u, struct udp_rx *rx, int max)
{
	static union {
		char		buf[UDP_BATCH][UDP_CTL_SPACE];
		struct cmsghdr	align;
	} control;
	struct mmsghdr mm[UDP_BATCH];
	struct iovec iov[UDP_BATCH];
	int i, n;

	if (max > UDP_BATCH)
		max = UDP_BATCH;
	memset(mm, 0, sizeof(mm[0]) * (size_t)max);
	for (i = 0; i < max; i++) {
		iov[i].iov_base = rx[i].buf;
		iov[i].iov_len = sizeof(rx[i].buf);
		mm[i].msg_hdr.msg_iov = &iov[i];
		mm[i].msg_hdr.msg_iovlen = 1;
		mm[i].msg_hdr.msg_name = &rx[i].from;
		mm[i].msg_hdr.msg_namelen = sizeof(rx[i].from);
		mm[i].msg_hdr.msg_control = control.buf[i];
		mm[i].msg_hdr.msg_controllen = UDP_CTL_SPACE;
	}
	do
		n = recvmmsg(u->fd, mm, (unsigned)max, MSG_DONTWAIT, NULL);
	while (n == -1 && errno == EINTR);
	if (n == -1)
		return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -1;
	for (i = 0; i < n; i++) {
		rx[i].len = mm[i].msg_len;
		udpio_cmsgs(&mm[i].msg_hdr, &rx[i]);
	}
	return n;
}

/* The UDP payload inside a frame the error queue returned; 0: none. */
static size_t
udpio_payload_of(const uint8_t *b, size_t n, const uint8_t **payload)
{
	size_t ip = 0, ihl, udp;

	if (n >= 14 && b[12] == 0x08 && b[13] == 0x00 && (b[14] >> 4) == 4)
		ip = 14;		/* Ethernet */
	else if (n < 1 || (b[0] >> 4) != 4)
		return 0;		/* neither Ethernet nor bare IPv4 */
	if (n < ip + 20 || b[ip + 9] != IPPROTO_UDP)
		return 0;
	ihl = (size_t)(b[ip] & 0x0f) * 4;
	udp = ip + ihl;
	if (ihl < 20 || n < udp + 8)
		return 0;
	*payload = b + udp + 8;
	return n - udp - 8;
}

int
udpio_recv_txstamp(struct udpsock *u, uint8_t *buf, size_t len,
    int64_t *tx_ns, const uint8_t **payload, size_t *plen)
{
	union {
		char		buf[CMSG_SPACE(sizeof(struct timespec) * 3) +
				    CMSG_SPACE(sizeof(struct sock_extended_err) +
				    sizeof(struct sockaddr_in)) + 64];
		struct cmsghdr	align;
	} control;
	struct timespec ts[3];
	struct cmsghdr *c;
	struct msghdr mh;
	struct iovec iov;
	ssize_t n;

	do {
		memset(&mh, 0, sizeof(mh));
		iov.iov_base = buf;
		iov.iov_len = len;
		mh.msg_iov = &iov;
		mh.msg_iovlen = 1;
		mh.msg_control = control.buf;
		mh.msg_controllen = sizeof(control.buf);
		n = recvmsg(u->fd, &mh, MSG_ERRQUEUE | MSG_DONTWAIT);
	} while (n == -1 && errno == EINTR);
	if (n == -1)
		return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -1;
	*tx_ns = 0;
	for (c = CMSG_FIRSTHDR(&mh); c != NULL; c = CMSG_NXTHDR(&mh, c))
		if (c->cmsg_level == SOL_SOCKET &&
		    c->cmsg_type == SCM_TIMESTAMPING &&
		    c->cmsg_len >= CMSG_LEN(sizeof(ts))) {
			memcpy(ts, CMSG_DATA(c), sizeof(ts));
			*tx_ns = clock_ns_from_ts(&ts[0]);
		}
	*plen = udpio_payload_of(buf, (size_t)n, payload);
	return 1;
}
