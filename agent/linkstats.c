/*
 * linkstats: interface counters from rtnetlink (linkstats.h).
 *
 * One RTM_GETLINK request with NLM_F_DUMP on a NETLINK_ROUTE socket of
 * the agent's own network namespace (in the lab, the router's), then
 * the RTM_NEWLINK answers until NLMSG_DONE.  Of each answer only the
 * interface's flags, IFLA_IFNAME and IFLA_STATS64 (struct
 * rtnl_link_stats64, rtnetlink(7)) are read: the first eight counters,
 * which every kernel since 2.6.35 has; attributes are copied with
 * memcpy, never cast, since a u64 in an attribute is only 4-aligned.
 * The socket lives for one read: a second a role, no state between.
 *
 * Deliberately not here: sysfs (one file per counter and interface),
 * the other counters of rtnl_link_stats64 (fifo, frame, carrier ...),
 * IFLA_STATS (32-bit, wraps), interfaces of other namespaces.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include "agent/linkstats.h"

#ifndef IFF_LOWER_UP		/* <linux/if.h>, which clashes with <net/if.h> */
#define IFF_LOWER_UP	0x10000
#endif

#define LS_BUF		32768	/* one recv of a dump */
#define LS_TIMEOUT_S	2	/* a kernel that does not answer */
#define LS_STATS_MIN	(8 * sizeof(uint64_t))	/* the counters we read */

/* The entry of LS named NAME (LEN bytes, maybe without NUL), or NULL. */
static struct linkstats *
entry_of(struct linkstats *ls, size_t n, const char *name, size_t len)
{
	size_t i;

	while (len > 0 && name[len - 1] == '\0')
		len--;
	for (i = 0; i < n; i++)
		if (strlen(ls[i].name) == len &&
		    memcmp(ls[i].name, name, len) == 0)
			return &ls[i];
	return NULL;
}

/* IFLA_STATS64's first eight counters into E. */
static void
take_stats(struct linkstats *e, const unsigned char *p)
{
	uint64_t v[8];

	memcpy(v, p, sizeof(v));
	e->rx_packets = v[0];
	e->tx_packets = v[1];
	e->rx_bytes = v[2];
	e->tx_bytes = v[3];
	e->rx_errors = v[4];
	e->tx_errors = v[5];
	e->rx_dropped = v[6];
	e->tx_dropped = v[7];
}

/* One RTM_NEWLINK (its payload P, LEN bytes) into LS. */
static void
take_link(const unsigned char *p, size_t len, struct linkstats *ls, size_t n)
{
	struct ifinfomsg ifi;
	const unsigned char *stats = NULL, *name = NULL;
	size_t off = NLMSG_ALIGN(sizeof(ifi)), namelen = 0;
	struct linkstats *e;
	struct rtattr ra;

	if (len < sizeof(ifi))
		return;
	memcpy(&ifi, p, sizeof(ifi));
	while (off + sizeof(ra) <= len) {
		memcpy(&ra, p + off, sizeof(ra));
		if (ra.rta_len < sizeof(ra) || off + ra.rta_len > len)
			break;
		if (ra.rta_type == IFLA_IFNAME) {
			name = p + off + RTA_LENGTH(0);
			namelen = ra.rta_len - RTA_LENGTH(0);
		} else if (ra.rta_type == IFLA_STATS64 &&
		    ra.rta_len - RTA_LENGTH(0) >= LS_STATS_MIN)
			stats = p + off + RTA_LENGTH(0);
		off += RTA_ALIGN(ra.rta_len);
	}
	if (name == NULL || (e = entry_of(ls, n, (const char *)name,
	    namelen)) == NULL)
		return;
	e->found = 1;
	e->up = (ifi.ifi_flags & IFF_UP) && (ifi.ifi_flags & IFF_LOWER_UP);
	if (stats != NULL)
		take_stats(e, stats);
}

int
linkstats_parse(const void *buf, size_t len, uint32_t seq,
    struct linkstats *ls, size_t n, char *err, size_t errlen)
{
	const unsigned char *p = buf;
	struct nlmsghdr h;
	struct nlmsgerr ne;
	size_t off = 0;

	while (off + sizeof(h) <= len) {
		memcpy(&h, p + off, sizeof(h));
		if (h.nlmsg_len < sizeof(h) || off + h.nlmsg_len > len) {
			snprintf(err, errlen, "netlink: a message of %u bytes "
			    "in %zu left", h.nlmsg_len, len - off);
			return -1;
		}
		if (h.nlmsg_seq != seq) {
			off += NLMSG_ALIGN(h.nlmsg_len);
			continue;	/* not our dump's */
		}
		if (h.nlmsg_type == NLMSG_DONE)
			return 1;
		if (h.nlmsg_type == NLMSG_ERROR) {
			memset(&ne, 0, sizeof(ne));
			memcpy(&ne, p + off + NLMSG_HDRLEN, h.nlmsg_len -
			    NLMSG_HDRLEN < sizeof(ne) ? h.nlmsg_len -
			    NLMSG_HDRLEN : sizeof(ne));
			snprintf(err, errlen, "netlink: RTM_GETLINK: %s",
			    strerror(ne.error < 0 ? -ne.error : EPROTO));
			return -1;
		}
		if (h.nlmsg_type == RTM_NEWLINK)
			take_link(p + off + NLMSG_HDRLEN, h.nlmsg_len -
			    NLMSG_HDRLEN, ls, n);
		off += NLMSG_ALIGN(h.nlmsg_len);
	}
	return 0;
}

/* The dump request, sequence SEQ, on FD. */
static int
ask(int fd, uint32_t seq, char *err, size_t errlen)
{
	struct {
		struct nlmsghdr	h;
		struct ifinfomsg i;
	} req;
	struct sockaddr_nl sa;

	memset(&req, 0, sizeof(req));
	req.h.nlmsg_len = NLMSG_LENGTH(sizeof(req.i));
	req.h.nlmsg_type = RTM_GETLINK;
	req.h.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	req.h.nlmsg_seq = seq;
	req.i.ifi_family = AF_UNSPEC;
	memset(&sa, 0, sizeof(sa));
	sa.nl_family = AF_NETLINK;
	if (sendto(fd, &req, req.h.nlmsg_len, 0, (struct sockaddr *)&sa,
	    sizeof(sa)) == -1) {
		snprintf(err, errlen, "netlink: send RTM_GETLINK: %s",
		    strerror(errno));
		return -1;
	}
	return 0;
}

int
linkstats_read(struct linkstats *ls, size_t n, char *err, size_t errlen)
{
	static unsigned char buf[LS_BUF];
	struct timeval tv = { .tv_sec = LS_TIMEOUT_S };
	uint32_t seq = (uint32_t)getpid() ^ 0x6b637472;
	ssize_t got;
	size_t i;
	int fd, rc = 0;

	for (i = 0; i < n; i++)
		ls[i].found = 0;
	if ((fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC,
	    NETLINK_ROUTE)) == -1) {
		snprintf(err, errlen, "netlink socket: %s", strerror(errno));
		return -1;
	}
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (ask(fd, seq, err, errlen) == -1)
		rc = -1;
	while (rc == 0) {
		if ((got = recv(fd, buf, sizeof(buf), 0)) <= 0) {
			snprintf(err, errlen, "netlink: RTM_GETLINK dump: %s",
			    got == 0 ? "closed" : strerror(errno));
			rc = -1;
			break;
		}
		rc = linkstats_parse(buf, (size_t)got, seq, ls, n, err,
		    errlen);
	}
	close(fd);
	return rc == -1 ? -1 : 0;
}
