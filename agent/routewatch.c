/*
 * routewatch: a kernel router's routing table over rtnetlink
 * (routewatch.h, rtnetlink(7)).
 *
 * One NETLINK_ROUTE socket per role, bound to RTNLGRP_IPV4_ROUTE so
 * that the kernel multicasts every IPv4 route change to it, and on the
 * same socket one RTM_GETROUTE dump request: its answers carry the
 * request's sequence number and are the table at the start (initial),
 * the notifications carry sequence 0 (or a sender's own: `ip route`'s).
 * Joining before asking means no change between the dump and the first
 * notification is missed; a change may then be seen twice (in the dump
 * and as a notification), which routes.csv shows as it came.
 *
 * Of each message only what RouteChange holds is read: rtm_family
 * AF_INET, rtm_type RTN_UNICAST, the table (RTA_TABLE when present,
 * else rtm_table) RT_TABLE_MAIN, the prefix (RTA_DST and rtm_dst_len;
 * none is the default route), RTA_GATEWAY, RTA_OIF (named with
 * if_indextoname when read, "ifN" when the interface is gone),
 * RTA_PRIORITY and rtm_protocol.  A multipath route (RTA_MULTIPATH, a
 * plan's topology.ecmp) has its next hops' gateways and interfaces joined
 * with '+' ("198.18.2.2+198.18.3.2", "R2+R2.2"), in the kernel's order,
 * at most ROUTEWATCH_HOPS.
 * Attributes are copied with memcpy, never cast.
 *
 * The socket is non-blocking and served by the agent's loop as data
 * arrives, so a change's time is the time it was read, within the
 * loop's latency.  Its receive buffer is raised (SO_RCVBUFFORCE when
 * root) so that a burst of a whole table does not overrun; an overrun
 * (ENOBUFS: the kernel dropped notifications) is counted, not fatal.
 *
 * Deliberately not here: IPv6, other tables, routes' other attributes
 * (scope, preferred source, flags), a new dump after an overrun.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include "agent/routewatch.h"
#include "clock.h"

#define RW_BUF		65536		/* one recv */
#define RW_RCVBUF	(4 << 20)	/* the socket's receive buffer */

struct routewatch {
	int	fd;
	uint32_t seq;			/* the dump's */
	int	dumped;			/* its NLMSG_DONE was read */
	uint64_t lost;			/* ENOBUFS seen */
	struct route_change ch[ROUTEWATCH_MAX];
	size_t	n;
	unsigned char buf[RW_BUF];
};

const char *
routewatch_proto_name(unsigned p, char *buf, size_t len)
{
	static const struct { unsigned p; const char *name; } names[] = {
		{ RTPROT_UNSPEC, "unspec" }, { RTPROT_REDIRECT, "redirect" },
		{ RTPROT_KERNEL, "kernel" }, { RTPROT_BOOT, "boot" },
		{ RTPROT_STATIC, "static" }, { 8, "gated" }, { 9, "ra" },
		{ 10, "mrt" }, { 11, "zebra" }, { 12, "bird" },
		{ 13, "dnrouted" }, { 14, "xorp" }, { 15, "ntk" },
		{ 16, "dhcp" }, { 17, "mrouted" }, { 18, "keepalived" },
		{ 42, "babel" }, { 186, "bgp" }, { 187, "isis" },
		{ 188, "ospf" }, { 189, "rip" }, { 192, "eigrp" },
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].p == p)
			return names[i].name;
	snprintf(buf, len, "%u", p);
	return buf;
}

/* The IPv4 address at P (4 bytes) as text into BUF. */
static void
addr_text(const unsigned char *p, char *buf, size_t len)
{
	struct in_addr a;

	memcpy(&a.s_addr, p, 4);
	if (inet_ntop(AF_INET, &a, buf, len) == NULL)
		buf[0] = '\0';
}

/* Interface IDX's name into BUF, "ifN" when there is none. */
static void
if_text(uint32_t idx, char *buf, size_t len)
{
	char ifn[IF_NAMESIZE];

	if (if_indextoname(idx, ifn) != NULL)
		snprintf(buf, len, "%s", ifn);
	else
		snprintf(buf, len, "if%u", idx);
}

/* Append "+S" (or S to an empty D) to D of LEN bytes, if it fits. */
static void
join(char *d, size_t len, const char *s)
{
	size_t n = strlen(d);

	if (n + 1 + strlen(s) < len)
		snprintf(d + n, len - n, "%s%s", n ? "+" : "", s);
}

/*
 * RTA_MULTIPATH's payload (P, LEN: struct rtnexthop each followed by its
 * own attributes, RTA_GATEWAY among them) into C's via and dev.
 */
static void
take_multipath(const unsigned char *p, size_t len, struct route_change *c)
{
	char gw[INET_ADDRSTRLEN], dev[IF_NAMESIZE + 8];
	struct rtnexthop nh;
	struct rtattr ra;
	size_t off = 0, a, end, k = 0;

	c->via[0] = c->dev[0] = '\0';
	while (off + sizeof(nh) <= len && k++ < ROUTEWATCH_HOPS) {
		memcpy(&nh, p + off, sizeof(nh));
		if (nh.rtnh_len < sizeof(nh) || off + nh.rtnh_len > len)
			break;
		gw[0] = '\0';
		end = off + nh.rtnh_len;
		for (a = off + RTNH_LENGTH(0); a + sizeof(ra) <= end;
		    a += RTA_ALIGN(ra.rta_len)) {
			memcpy(&ra, p + a, sizeof(ra));
			if (ra.rta_len < sizeof(ra) || a + ra.rta_len > end)
				break;
			if (ra.rta_type == RTA_GATEWAY &&
			    ra.rta_len >= RTA_LENGTH(4))
				addr_text(p + a + RTA_LENGTH(0), gw, sizeof(gw));
		}
		if_text((uint32_t)nh.rtnh_ifindex, dev, sizeof(dev));
		join(c->via, sizeof(c->via), gw);
		join(c->dev, sizeof(c->dev), dev);
		off += RTNH_ALIGN(nh.rtnh_len);
	}
}

/* The attributes of one route message into C; its table into *TABLE. */
static void
take_attrs(const unsigned char *p, size_t len, size_t off,
    struct route_change *c, uint32_t *table, const struct rtmsg *rtm)
{
	char dst[INET_ADDRSTRLEN] = "0.0.0.0";
	struct rtattr ra;
	uint32_t v;
	size_t plen;

	while (off + sizeof(ra) <= len) {
		memcpy(&ra, p + off, sizeof(ra));
		if (ra.rta_len < sizeof(ra) || off + ra.rta_len > len)
			break;
		plen = ra.rta_len - RTA_LENGTH(0);
		if (plen >= 4) {
			memcpy(&v, p + off + RTA_LENGTH(0), 4);
			switch (ra.rta_type) {
			case RTA_DST:
				addr_text(p + off + RTA_LENGTH(0), dst,
				    sizeof(dst));
				break;
			case RTA_GATEWAY:
				addr_text(p + off + RTA_LENGTH(0), c->via,
				    sizeof(c->via));
				break;
			case RTA_OIF:
				if_text(v, c->dev, sizeof(c->dev));
				break;
			case RTA_MULTIPATH:
				take_multipath(p + off + RTA_LENGTH(0), plen,
				    c);
				break;
			case RTA_PRIORITY:
				c->metric = v;
				break;
			case RTA_TABLE:
				*table = v;
				break;
			}
		}
		off += RTA_ALIGN(ra.rta_len);
	}
	snprintf(c->prefix, sizeof(c->prefix), "%s/%u", dst,
	    rtm->rtm_dst_len);
}

/*
 * One RTM_NEWROUTE or RTM_DELROUTE (header H, payload at P) into C.
 * 1 when it is a route routes.csv keeps, 0 when not.
 */
static int
take_route(const struct nlmsghdr *h, const unsigned char *p, size_t len,
    struct route_change *c)
{
	struct rtmsg rtm;
	const char *name;
	uint32_t table;

	if (len < sizeof(rtm))
		return 0;
	memcpy(&rtm, p, sizeof(rtm));
	if (rtm.rtm_family != AF_INET || rtm.rtm_type != RTN_UNICAST)
		return 0;
	memset(c, 0, sizeof(*c));
	table = rtm.rtm_table;
	take_attrs(p, len, NLMSG_ALIGN(sizeof(rtm)), c, &table, &rtm);
	if (table != RT_TABLE_MAIN)
		return 0;
	c->removed = h->nlmsg_type == RTM_DELROUTE;
	name = routewatch_proto_name(rtm.rtm_protocol, c->proto,
	    sizeof(c->proto));
	if (name != c->proto)
		snprintf(c->proto, sizeof(c->proto), "%s", name);
	return 1;
}

/* The errno of an NLMSG_ERROR at P (LEN bytes of payload). */
static int
nl_error(const unsigned char *p, size_t len)
{
	struct nlmsgerr ne;

	memset(&ne, 0, sizeof(ne));
	memcpy(&ne, p, len < sizeof(ne) ? len : sizeof(ne));
	return ne.error < 0 ? -ne.error : EPROTO;
}

int
routewatch_parse(const void *buf, size_t len, uint32_t dump_seq,
    int64_t time_ns, struct route_change *out, size_t max, size_t *n,
    int *done, char *err, size_t errlen)
{
	const unsigned char *p = buf;
	struct nlmsghdr h;
	size_t off = 0;
	int e;

	while (off + sizeof(h) <= len) {
		memcpy(&h, p + off, sizeof(h));
		if (h.nlmsg_len < sizeof(h) || off + h.nlmsg_len > len) {
			snprintf(err, errlen, "netlink: a message of %u bytes "
			    "in %zu left", h.nlmsg_len, len - off);
			return -1;
		}
		if (h.nlmsg_type == NLMSG_DONE && h.nlmsg_seq == dump_seq)
			*done = 1;
		else if (h.nlmsg_type == NLMSG_ERROR &&
		    (e = nl_error(p + off + NLMSG_HDRLEN, h.nlmsg_len -
		    NLMSG_HDRLEN)) != 0) {
			snprintf(err, errlen, "netlink: RTM_GETROUTE: %s",
			    strerror(e));
			return -1;
		} else if (h.nlmsg_type == RTM_NEWROUTE ||
		    h.nlmsg_type == RTM_DELROUTE) {
			if (*n == max) {
				snprintf(err, errlen, "route changes: more "
				    "than %zu held", max);
				return -1;
			}
			if (take_route(&h, p + off + NLMSG_HDRLEN,
			    h.nlmsg_len - NLMSG_HDRLEN, &out[*n])) {
				out[*n].time_ns = time_ns;
				out[*n].initial = dump_seq != 0 &&
				    h.nlmsg_seq == dump_seq;
				(*n)++;
			}
		}
		off += NLMSG_ALIGN(h.nlmsg_len);
	}
	return 0;
}

/* The dump request on RW's socket. */
static int
ask_dump(struct routewatch *rw, char *err, size_t errlen)
{
	struct {
		struct nlmsghdr	h;
		struct rtmsg	r;
	} req;
	struct sockaddr_nl sa;

	memset(&req, 0, sizeof(req));
	req.h.nlmsg_len = NLMSG_LENGTH(sizeof(req.r));
	req.h.nlmsg_type = RTM_GETROUTE;
	req.h.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	req.h.nlmsg_seq = rw->seq;
	req.r.rtm_family = AF_INET;
	memset(&sa, 0, sizeof(sa));
	sa.nl_family = AF_NETLINK;
	if (sendto(rw->fd, &req, req.h.nlmsg_len, 0, (struct sockaddr *)&sa,
	    sizeof(sa)) == -1) {
		snprintf(err, errlen, "netlink: send RTM_GETROUTE: %s",
		    strerror(errno));
		return -1;
	}
	return 0;
}

struct routewatch *
routewatch_open(char *err, size_t errlen)
{
	struct routewatch *rw = calloc(1, sizeof(*rw));
	struct sockaddr_nl sa;
	int sz = RW_RCVBUF;

	if (rw == NULL) {
		snprintf(err, errlen, "route watch: out of memory");
		return NULL;
	}
	rw->seq = (uint32_t)clock_mono_ns() | 1;	/* never 0 */
	if ((rw->fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC |
	    SOCK_NONBLOCK, NETLINK_ROUTE)) == -1) {
		snprintf(err, errlen, "netlink socket: %s", strerror(errno));
		free(rw);
		return NULL;
	}
	if (setsockopt(rw->fd, SOL_SOCKET, SO_RCVBUFFORCE, &sz,
	    sizeof(sz)) == -1)
		setsockopt(rw->fd, SOL_SOCKET, SO_RCVBUF, &sz, sizeof(sz));
	memset(&sa, 0, sizeof(sa));
	sa.nl_family = AF_NETLINK;
	sa.nl_groups = 1U << (RTNLGRP_IPV4_ROUTE - 1);
	if (bind(rw->fd, (struct sockaddr *)&sa, sizeof(sa)) == -1) {
		snprintf(err, errlen, "netlink: join RTNLGRP_IPV4_ROUTE: %s",
		    strerror(errno));
		routewatch_free(rw);
		return NULL;
	}
	if (ask_dump(rw, err, errlen) == -1) {
		routewatch_free(rw);
		return NULL;
	}
	return rw;
}

void
routewatch_free(struct routewatch *rw)
{
	if (rw == NULL)
		return;
	if (rw->fd >= 0)
		close(rw->fd);
	free(rw);
}

int
routewatch_fd(const struct routewatch *rw)
{
	return rw->fd;
}

int
routewatch_read(struct routewatch *rw, char *err, size_t errlen)
{
	ssize_t got;

	while (rw->n < ROUTEWATCH_FLUSH) {
		got = recv(rw->fd, rw->buf, sizeof(rw->buf), MSG_DONTWAIT);
		if (got == -1 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return 0;
		if (got == -1 && errno == EINTR)
			continue;
		if (got == -1 && errno == ENOBUFS) {
			rw->lost++;
			continue;
		}
		if (got <= 0) {
			snprintf(err, errlen, "netlink: route changes: %s",
			    got == 0 ? "closed" : strerror(errno));
			return -1;
		}
		if (routewatch_parse(rw->buf, (size_t)got, rw->seq,
		    clock_real_ns(), rw->ch, ROUTEWATCH_MAX, &rw->n,
		    &rw->dumped, err, errlen) == -1)
			return -1;
	}
	return 0;
}

const struct route_change *
routewatch_changes(const struct routewatch *rw, size_t *n)
{
	*n = rw->n;
	return rw->ch;
}

void
routewatch_clear(struct routewatch *rw)
{
	rw->n = 0;
}

int
routewatch_dumped(const struct routewatch *rw)
{
	return rw->dumped;
}

uint64_t
routewatch_lost(const struct routewatch *rw)
{
	return rw->lost;
}
