/*
 * linkstats: the kernel's counters of this host's interfaces, read over
 * rtnetlink (linkstats.c): one RTM_GETLINK dump, IFLA_STATS64 of each
 * interface asked for.  A leaf of the agent: the kernel router role
 * (linuxrouter.c) reads its interfaces with it every report interval.
 */
#ifndef HOPLAB_AGENT_LINKSTATS_H
#define HOPLAB_AGENT_LINKSTATS_H

#include <net/if.h>
#include <stddef.h>
#include <stdint.h>

/* One interface: its name in, the kernel's counters out. */
struct linkstats {
	char	 name[IF_NAMESIZE];	/* in: the interface */
	int	 found;			/* out: the dump had it */
	int	 up;			/* IFF_UP and IFF_LOWER_UP (carrier) */
	uint64_t rx_packets, rx_bytes, tx_packets, tx_bytes;
	uint64_t rx_dropped, tx_dropped, rx_errors, tx_errors;
};

/*
 * Fill the N entries of LS (their names set, found 0) from one dump of
 * this host's links.  0 (an interface not there stays found 0), or -1
 * with ERR when the socket or the dump failed.
 */
int	linkstats_read(struct linkstats *ls, size_t n, char *err,
	    size_t errlen);
/*
 * Take the netlink messages in BUF (LEN bytes, one recv of a dump of
 * sequence SEQ): each RTM_NEWLINK whose IFLA_IFNAME is one of LS's
 * names fills that entry.  1 when the dump's NLMSG_DONE was among them,
 * 0 when more is to come, -1 with ERR for an NLMSG_ERROR or a message
 * that does not fit in BUF.
 */
int	linkstats_parse(const void *buf, size_t len, uint32_t seq,
	    struct linkstats *ls, size_t n, char *err, size_t errlen);

#endif
