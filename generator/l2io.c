/*
 * l2io: the generator's packet I/O and its ARP (RFC 826).
 *
 * Each test interface gets one AF_PACKET SOCK_RAW socket.  It is created
 * with protocol 0, so it receives nothing until bind() names both the
 * interface and ETH_P_ALL; a socket created with ETH_P_ALL would briefly
 * see every interface's traffic.  PACKET_IGNORE_OUTGOING keeps our own
 * sends out of the receive queue (frames marked PACKET_OUTGOING are also
 * skipped by hand, for kernels older than 4.20).  SO_TIMESTAMPING asks
 * the kernel for CLOCK_REALTIME software stamps: on the receive interface
 * of every frame as it arrives (SCM_TIMESTAMPING control message), on the
 * sending interface of every frame as the driver takes it
 * (skb_tx_timestamp), returned with a copy of the frame on the socket's
 * error queue (l2io_recv_txstamp, or l2io_recv_txstamps: up to 64 of
 * them with one recvmmsg(), which is what keeps up at high rates).
 *
 * The generator owns one IPv4 address per interface in user space: it
 * answers ARP requests for it with the interface's MAC, and learns the
 * gateway's MAC from its ARP reply (or its request).  The kernel has no
 * address on these interfaces, so it neither answers nor delivers test
 * packets itself.
 *
 * The receive interface does not use this socket but lib/pktio's
 * memory-mapped ring (rx.c); the sending interface sends with one send()
 * per frame, which is what gives every frame its own kernel transmit
 * stamp.  Deliberately not here: hardware stamps
 * (SIOCSHWTSTAMP; a NIC's clock is not CLOCK_REALTIME), an ARP cache (one gateway suffices),
 * gratuitous ARP and address conflict detection (RFC 5227).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/errqueue.h>
#include <linux/if_packet.h>
#include <linux/net_tstamp.h>
#include <net/ethernet.h>
#include <net/if_arp.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#include "clock.h"
#include "pkt.h"
#include "l2io.h"

#ifndef PACKET_IGNORE_OUTGOING
#define PACKET_IGNORE_OUTGOING	23
#endif

#define L2_RCVBUF	(4 * 1024 * 1024)

/* Interface index, MAC and up state of L->name. */
static int
l2io_query(struct l2if *l, char *err, size_t errlen)
{
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	memcpy(ifr.ifr_name, l->name, sizeof(ifr.ifr_name));
	if (ioctl(l->fd, SIOCGIFINDEX, &ifr) == -1) {
		snprintf(err, errlen, "interface %s: %s", l->name,
		    strerror(errno));
		return -1;
	}
	l->ifindex = ifr.ifr_ifindex;
	if (ioctl(l->fd, SIOCGIFHWADDR, &ifr) == -1) {
		snprintf(err, errlen, "interface %s: cannot read its MAC: %s",
		    l->name, strerror(errno));
		return -1;
	}
	if (ifr.ifr_hwaddr.sa_family != ARPHRD_ETHER) {
		snprintf(err, errlen, "interface %s is not Ethernet", l->name);
		return -1;
	}
	memcpy(l->mac, ifr.ifr_hwaddr.sa_data, 6);
	if (ioctl(l->fd, SIOCGIFFLAGS, &ifr) == -1) {
		snprintf(err, errlen, "interface %s: %s", l->name,
		    strerror(errno));
		return -1;
	}
	if ((ifr.ifr_flags & IFF_UP) == 0) {
		snprintf(err, errlen, "interface %s is down", l->name);
		return -1;
	}
	return 0;
}

static int
l2io_options(struct l2if *l, int ts, char *err, size_t errlen)
{
	int one = 1, rcvbuf = L2_RCVBUF, flags = 0;

	/* Best effort: older kernels lack it, l2io_recv() filters too. */
	(void)setsockopt(l->fd, SOL_PACKET, PACKET_IGNORE_OUTGOING, &one,
	    sizeof(one));
	if (setsockopt(l->fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf,
	    sizeof(rcvbuf)) == -1)
		(void)setsockopt(l->fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf,
		    sizeof(rcvbuf));
	if (ts & L2_TS_RX)
		flags |= SOF_TIMESTAMPING_RX_SOFTWARE;
	if (ts & L2_TS_TX)
		flags |= SOF_TIMESTAMPING_TX_SOFTWARE;
	if (flags != 0)
		flags |= SOF_TIMESTAMPING_SOFTWARE;
	if (flags != 0 && setsockopt(l->fd, SOL_SOCKET, SO_TIMESTAMPING,
	    &flags, sizeof(flags)) == -1) {
		snprintf(err, errlen, "interface %s: SO_TIMESTAMPING: %s "
		    "(use --tstamp user)", l->name, strerror(errno));
		return -1;
	}
	return 0;
}

int
l2io_open(struct l2if *l, const char *name, struct in_addr own, int ts,
    char *err, size_t errlen)
{
	struct sockaddr_ll sll;

	memset(l, 0, sizeof(*l));
	l->fd = -1;
	l->own = own;
	if (strlen(name) >= sizeof(l->name)) {
		snprintf(err, errlen, "interface name \"%s\" is too long", name);
		return -1;
	}
	strcpy(l->name, name);
	l->fd = socket(AF_PACKET, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (l->fd == -1) {
		snprintf(err, errlen, "interface %s: AF_PACKET socket: %s%s",
		    name, strerror(errno), errno == EPERM ?
		    " (needs root or CAP_NET_RAW: run it with sudo)" : "");
		return -1;
	}
	if (l2io_query(l, err, errlen) == -1 ||
	    l2io_options(l, ts, err, errlen) == -1)
		goto fail;
	memset(&sll, 0, sizeof(sll));
	sll.sll_family = AF_PACKET;
	sll.sll_protocol = htons(ETH_P_ALL);
	sll.sll_ifindex = l->ifindex;
	if (bind(l->fd, (struct sockaddr *)&sll, sizeof(sll)) == -1) {
		snprintf(err, errlen, "interface %s: bind: %s", name,
		    strerror(errno));
		goto fail;
	}
	return 0;
fail:
	l2io_close(l);
	return -1;
}

void
l2io_close(struct l2if *l)
{
	if (l->fd != -1)
		close(l->fd);
	l->fd = -1;
}

int
l2io_send(struct l2if *l, const void *buf, size_t len)
{
	ssize_t n;

	n = send(l->fd, buf, len, MSG_DONTWAIT);
	if (n == -1)
		return -1;
	if ((size_t)n != len) {
		errno = EMSGSIZE;
		return -1;
	}
	return 0;
}

int
l2io_send_batch(struct l2if *l, const void *const *bufs, const size_t *lens,
    unsigned n)
{
	struct mmsghdr mm[L2_TXS_BATCH];
	struct iovec iov[L2_TXS_BATCH];
	unsigned i;
	int r;

	if (n > L2_TXS_BATCH)
		n = L2_TXS_BATCH;
	memset(mm, 0, sizeof(mm[0]) * n);
	for (i = 0; i < n; i++) {
		iov[i].iov_base = (void *)bufs[i];
		iov[i].iov_len = lens[i];
		mm[i].msg_hdr.msg_iov = &iov[i];
		mm[i].msg_hdr.msg_iovlen = 1;
	}
	do
		r = sendmmsg(l->fd, mm, n, MSG_DONTWAIT);
	while (r == -1 && errno == EINTR);
	return r;
}

/* The software stamp of an SCM_TIMESTAMPING (or SCM_TIMESTAMPNS) cmsg. */
static int64_t
cmsg_stamp_ns(struct msghdr *mh)
{
	struct cmsghdr *c;
	struct timespec ts[3];

	for (c = CMSG_FIRSTHDR(mh); c != NULL; c = CMSG_NXTHDR(mh, c)) {
		if (c->cmsg_level != SOL_SOCKET)
			continue;
		if ((c->cmsg_type == SCM_TIMESTAMPING &&
		    c->cmsg_len >= CMSG_LEN(sizeof(ts))) ||
		    (c->cmsg_type == SCM_TIMESTAMPNS &&
		    c->cmsg_len >= CMSG_LEN(sizeof(ts[0])))) {
			memcpy(ts, CMSG_DATA(c), sizeof(ts[0]));
			return clock_ns_from_ts(&ts[0]);
		}
	}
	return 0;
}

ssize_t
l2io_recv(struct l2if *l, uint8_t *buf, size_t len, int64_t *rx_ns)
{
	union {
		char		buf[CMSG_SPACE(sizeof(struct timespec) * 3) * 2];
		struct cmsghdr	align;
	} control;
	struct sockaddr_ll from;
	struct iovec iov;
	struct msghdr mh;
	ssize_t n;

	for (;;) {
		memset(&mh, 0, sizeof(mh));
		iov.iov_base = buf;
		iov.iov_len = len;
		mh.msg_name = &from;
		mh.msg_namelen = sizeof(from);
		mh.msg_iov = &iov;
		mh.msg_iovlen = 1;
		mh.msg_control = control.buf;
		mh.msg_controllen = sizeof(control.buf);
		n = recvmsg(l->fd, &mh, MSG_DONTWAIT);
		if (n == -1) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return 0;
			return -1;
		}
		if (from.sll_pkttype == PACKET_OUTGOING)
			continue;
		*rx_ns = cmsg_stamp_ns(&mh);
		return n;
	}
}

ssize_t
l2io_recv_txstamp(struct l2if *l, uint8_t *buf, size_t len, int64_t *tx_ns)
{
	union {
		char		buf[CMSG_SPACE(sizeof(struct timespec) * 3) +
				    CMSG_SPACE(sizeof(struct sock_extended_err) +
				    sizeof(struct sockaddr_ll))];
		struct cmsghdr	align;
	} control;
	struct iovec iov;
	struct msghdr mh;
	ssize_t n;

	for (;;) {
		memset(&mh, 0, sizeof(mh));
		iov.iov_base = buf;
		iov.iov_len = len;
		mh.msg_iov = &iov;
		mh.msg_iovlen = 1;
		mh.msg_control = control.buf;
		mh.msg_controllen = sizeof(control.buf);
		n = recvmsg(l->fd, &mh, MSG_ERRQUEUE | MSG_DONTWAIT);
		if (n == -1) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return 0;
			return -1;
		}
		*tx_ns = cmsg_stamp_ns(&mh);
		return n;
	}
}

int
l2io_recv_txstamps(struct l2if *l, struct l2_txstamp *out, unsigned max)
{
	union ctl {
		char		buf[CMSG_SPACE(sizeof(struct timespec) * 3) +
				    CMSG_SPACE(sizeof(struct sock_extended_err) +
				    sizeof(struct sockaddr_ll))];
		struct cmsghdr	align;
	} control[L2_TXS_BATCH];
	struct mmsghdr mm[L2_TXS_BATCH];
	struct iovec iov[L2_TXS_BATCH];
	unsigned i;
	int n;

	if (max > L2_TXS_BATCH)
		max = L2_TXS_BATCH;
	memset(mm, 0, sizeof(mm[0]) * max);
	for (i = 0; i < max; i++) {
		iov[i].iov_base = out[i].buf;
		iov[i].iov_len = sizeof(out[i].buf);
		mm[i].msg_hdr.msg_iov = &iov[i];
		mm[i].msg_hdr.msg_iovlen = 1;
		mm[i].msg_hdr.msg_control = control[i].buf;
		mm[i].msg_hdr.msg_controllen = sizeof(control[i].buf);
	}
	do
		n = recvmmsg(l->fd, mm, max, MSG_ERRQUEUE | MSG_DONTWAIT,
		    NULL);
	while (n == -1 && errno == EINTR);
	if (n == -1)
		return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -1;
	for (i = 0; i < (unsigned)n; i++) {
		out[i].len = mm[i].msg_len < sizeof(out[i].buf) ?
		    mm[i].msg_len : sizeof(out[i].buf);
		out[i].tx_ns = cmsg_stamp_ns(&mm[i].msg_hdr);
	}
	return n;
}

static int
l2io_arp_reply(struct l2if *l, const struct pkt_arp *req)
{
	struct pkt_arp a;
	uint8_t frame[64];
	int n;

	memset(&a, 0, sizeof(a));
	a.op = PKT_ARP_REPLY;
	memcpy(a.sha, l->mac, 6);
	a.spa = l->own;
	memcpy(a.tha, req->sha, 6);
	a.tpa = req->spa;
	if ((n = pkt_build_arp(frame, sizeof(frame), &a)) == -1)
		return -1;
	if (l2io_send(l, frame, n) == -1)
		return -1;
	l->arp_replies++;
	return 0;
}

int
l2io_arp_input(struct l2if *l, const uint8_t *frame, size_t len,
    const struct in_addr *want, uint8_t mac[6], int *got)
{
	struct pkt_arp a;

	if (pkt_parse_arp(frame, len, &a) == -1)
		return 0;
	if (a.op == PKT_ARP_REQUEST && a.tpa.s_addr == l->own.s_addr)
		(void)l2io_arp_reply(l, &a);
	if (want != NULL && want->s_addr != INADDR_ANY &&
	    a.spa.s_addr == want->s_addr) {
		memcpy(mac, a.sha, 6);
		*got = 1;
	}
	return 1;
}

int
l2io_arp_request(struct l2if *l, struct in_addr target)
{
	struct pkt_arp a;
	uint8_t frame[64];
	int n;

	memset(&a, 0, sizeof(a));
	a.op = PKT_ARP_REQUEST;
	memcpy(a.sha, l->mac, 6);
	a.spa = l->own;
	a.tpa = target;
	if ((n = pkt_build_arp(frame, sizeof(frame), &a)) == -1)
		return -1;
	return l2io_send(l, frame, n);
}
