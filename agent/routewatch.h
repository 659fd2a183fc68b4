/*
 * routewatch: the routing table of a kernel router's host as it changes
 * (routewatch.c).  A NETLINK_ROUTE socket in the agent's namespace (the
 * router's) joined to RTNLGRP_IPV4_ROUTE, an RTM_GETROUTE dump at the
 * start (the table as it was: initial), then every RTM_NEWROUTE and
 * RTM_DELROUTE of the main table, unicast, IPv4, each stamped with
 * CLOCK_REALTIME as it is read.  The kernel router role (linuxrouter.c)
 * opens one per role, hands its descriptor to the agent's loop
 * (role_ops.poll_fd) and sends what was read in its batches'
 * ResultBatch.routes.  A leaf of the agent.
 */
#ifndef HOPLAB_AGENT_ROUTEWATCH_H
#define HOPLAB_AGENT_ROUTEWATCH_H

#include <net/if.h>
#include <netinet/in.h>
#include <stddef.h>
#include <stdint.h>

#define ROUTEWATCH_FLUSH	512	/* changes held: send them now */
#define ROUTEWATCH_MAX		2048	/* changes held at most */
#define ROUTEWATCH_HOPS		8	/* a multipath route's next hops kept */

/* One route added, replaced or removed (RouteChange's fields). */
struct route_change {
	int64_t	time_ns;		/* CLOCK_REALTIME when read */
	int	removed;		/* RTM_DELROUTE */
	int	initial;		/* from the start's dump */
	char	prefix[INET_ADDRSTRLEN + 3];	/* "198.18.6.0/24" */
	/* RTA_GATEWAY, "" if none; a multipath route's "A+B+..." */
	char	via[ROUTEWATCH_HOPS * INET_ADDRSTRLEN];
	/* RTA_OIF's name, "if7" if gone; a multipath route's "X+Y+..." */
	char	dev[ROUTEWATCH_HOPS * (IF_NAMESIZE + 8)];
	uint32_t metric;		/* RTA_PRIORITY */
	char	proto[16];		/* "kernel", "boot", "bird", ... */
};

struct routewatch;

/*
 * Open the socket, join the group and ask for the dump.  NULL with ERR.
 * Free with routewatch_free().
 */
struct routewatch *routewatch_open(char *err, size_t errlen);
void	routewatch_free(struct routewatch *rw);
/* The socket, for the loop's poll (readable: call routewatch_read). */
int	routewatch_fd(const struct routewatch *rw);
/*
 * Read what the socket holds without blocking, until it is empty or
 * ROUTEWATCH_FLUSH changes are held (the caller sends them and calls
 * again).  0, or -1 with ERR when the socket failed (changes the kernel
 * dropped, ENOBUFS, are counted in routewatch_lost(), not an error).
 */
int	routewatch_read(struct routewatch *rw, char *err, size_t errlen);
/* The changes held, oldest first (*N of them); valid until the clear. */
const struct route_change *routewatch_changes(const struct routewatch *rw,
	    size_t *n);
void	routewatch_clear(struct routewatch *rw);
/* 1 once the start's dump has ended. */
int	routewatch_dumped(const struct routewatch *rw);
/* Times the kernel said it dropped notifications (socket overrun). */
uint64_t routewatch_lost(const struct routewatch *rw);

/*
 * Take the netlink messages in BUF (LEN bytes, one recv): every route
 * message of the main table, unicast, IPv4, becomes a change at TIME_NS
 * (initial when its sequence is DUMP_SEQ, the dump's) appended to OUT,
 * which holds *N of MAX; others are skipped.  *DONE is set to 1 when the
 * dump's NLMSG_DONE is among them.  0, or -1 with ERR for an
 * NLMSG_ERROR, a message cut short or OUT full.
 */
int	routewatch_parse(const void *buf, size_t len, uint32_t dump_seq,
	    int64_t time_ns, struct route_change *out, size_t max, size_t *n,
	    int *done, char *err, size_t errlen);
/* rtm_protocol P as a word: "kernel", "boot", "static", "bird", ... */
const char *routewatch_proto_name(unsigned p, char *buf, size_t len);

#endif
