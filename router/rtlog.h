/*
 * rtlog: what hoplab-router's FIB holds, by whom, and every change of it
 * since the last report (RouterCounters.route_changes, routes.csv).  The
 * FIB itself (fib.h) knows only prefixes and next-hop indices; this is
 * the same table seen by the control path: next hop, interface, metric
 * and source (connected, static, rip) of each route, plus the list of
 * changes, each with its CLOCK_REALTIME time.
 *
 * router.c records every fib_add/fib_del here; ctl.c takes the changes
 * with rtlog_take() for each report and walks the table for the first
 * one (initial) and for `--ctl counters`.  Linear arrays: lab tables.
 * The change list keeps at most RTLOG_CHANGES_MAX entries between two
 * reports; more are counted in dropped and lost.
 */
#ifndef HOPLAB_ROUTER_RTLOG_H
#define HOPLAB_ROUTER_RTLOG_H

#include <stddef.h>
#include <stdint.h>

#define RTLOG_CHANGES_MAX	65536

enum rtlog_proto {
	RTLOG_CONNECTED,
	RTLOG_STATIC,
	RTLOG_RIP,
};

struct rtlog_route {
	uint32_t	prefix;		/* host order */
	unsigned	plen;
	uint32_t	via;		/* 0: directly connected */
	unsigned	port;		/* interface index */
	unsigned	metric;		/* RIP's; 0 for the others */
	enum rtlog_proto proto;
};

struct rtlog_change {
	int64_t		time_ns;	/* CLOCK_REALTIME */
	int		removed;
	struct rtlog_route r;
};

struct rtlog {
	struct rtlog_route *cur;	/* the table now */
	size_t		ncur, capcur;
	struct rtlog_change *ch;	/* since the last rtlog_take() */
	size_t		nch, capch;
	uint64_t	dropped;	/* changes lost: the list was full */
};

/* R is installed (added, or replacing PREFIX/PLEN's route) at NOW. */
void	rtlog_set(struct rtlog *l, const struct rtlog_route *r, int64_t now);
/* PREFIX/PLEN was removed at NOW (nothing if it is not there). */
void	rtlog_del(struct rtlog *l, uint32_t prefix, unsigned plen,
	    int64_t now);
/* Every route removed at NOW (the FIB was flushed). */
void	rtlog_clear(struct rtlog *l, int64_t now);
/* The route of PREFIX/PLEN now, or NULL. */
const struct rtlog_route *rtlog_get(const struct rtlog *l, uint32_t prefix,
	    unsigned plen);
/* The changes since the last call: *N of them, valid until the next
 * change; the list is empty afterwards. */
const struct rtlog_change *rtlog_take(struct rtlog *l, size_t *n);
/* "connected", "static", "rip" */
const char *rtlog_proto_name(enum rtlog_proto p);
void	rtlog_free(struct rtlog *l);

#endif
