/*
 * link: the internals shared by hoplab-link's modules.
 *
 *   main.c      options only
 *   link.c      setup, the single loop: receive, impair, hold, release
 *   ctl.c       the control socket, scheduled profile changes, reports,
 *               on lib/ctlsock (ctl.h)
 *   dir.c       a direction's profile: install, change, record (dir.h)
 *   profile.c   netem-style profiles        impair.c  the model
 *   depq.c      departures, on heap.c       truth.c   the truth file
 *   wait.c      sleeping until a departure, CPU and scheduling settings
 *   busy.h      when to keep polling the rings after a frame
 *
 * Interface a and interface b; direction 0 ("a-b") takes frames received
 * on a out of b, direction 1 ("b-a") the reverse.  Frames are copied out
 * of the receive ring into packet buffers from a fixed pool, held in a
 * per-direction departure queue (depq.h) keyed by their departure time
 * (CLOCK_MONOTONIC, converted from the CLOCK_REALTIME arrival stamps by
 * an offset taken at start), and written into the other interface's
 * transmit ring when due.
 */
#ifndef HOPLAB_LINK_LINK_H
#define HOPLAB_LINK_LINK_H

#include <signal.h>
#include <stdio.h>
#include <stdint.h>

#include "ctlsock.h"
#include "pktio.h"
#include "stats.h"
#include "link/busy.h"
#include "link/depq.h"
#include "link/impair.h"
#include "link/truth.h"

/*
 * Frames taken from a receive ring per pass, all released to the kernel
 * together and sent with one send() per port: a backlog (the link was
 * preempted, or traffic outran it) drains in passes of this many.
 */
#define LINK_BURST		PKTIO_BURST_MAX
#define LINK_PBUF		2048		/* bytes of frame per buffer */
#define LINK_POOL_DEF		16384
#define LINK_POOL_MIN		256
#define LINK_POOL_MAX		262144
#define LINK_REPORT_DEF		(1000 * 1000000LL)
#define LINK_LEAD_DEF		(200 * 1000LL)	/* spin this long before */
#define LINK_SPIN_MAX_DEF	(2000 * 1000LL)	/* and at most this long */
#define LINK_BUSY_MAX_DEF	(2000 * 1000LL)	/* adaptive poll ceiling */
#define LINK_BUSY_LIMIT		(1000 * 1000000LL) /* --busy-poll <= 1 s */
#define LINK_SCHED_MAX		32
#define LINK_ERR_BUCKETS	12

/* A frame held by the emulator. */
struct lpkt {
	struct lpkt	*next;		/* free list */
	int64_t		arr_ns;		/* kernel RX stamp, CLOCK_REALTIME */
	int64_t		dep_ns;		/* intended departure, REALTIME */
	uint32_t	index;
	uint32_t	seq;
	uint16_t	flow;
	uint16_t	len;
	uint16_t	flags;
	uint8_t		dir;
	uint8_t		kind;
	uint8_t		data[LINK_PBUF];
};

/* Counters of one direction, cumulative. */
struct ldir_stats {
	uint64_t	rx_pkts, rx_bytes;
	uint64_t	tx_pkts, tx_bytes;
	uint64_t	kind_drop[6];	/* by policy, per truth kind */
	uint64_t	passed;		/* by policy */
	uint64_t	pool_drop, tx_drop, late;
	uint64_t	err_bucket[LINK_ERR_BUCKETS];
	int64_t		err_max;
};

struct ldir {
	const char	*name;		/* "a-b", "b-a" */
	unsigned	in, out;	/* interface indices */
	struct impair	m;
	struct depq	q;		/* departures (depq.h) */
	uint32_t	next_index;
	uint32_t	max_index;	/* highest index sent so far */
	int		sent_any;
	struct ldir_stats st;
	struct hist	*err_total;	/* release - intended, whole run */
	struct hist	*err_ival;	/* the same, this report interval */
	struct hist	*delay_ival;	/* actual - arrival, interval */
	struct welford	err_w;		/* release error, whole run */
	struct welford	err_wi;		/* the same, this interval */
	struct welford	delay_wi;	/* added delay, this interval */
	uint32_t	profile_changes;
};

struct link_opts {
	const char	*ifname[2];	/* -a, -b */
	const char	*profile[2];	/* --ab, --ba */
	const char	*truth;		/* -t FILE or NULL */
	const char	*control;	/* -s endpoint or NULL */
	const char	*report;	/* --report endpoint or NULL */
	uint32_t	role_id;
	const char	*run_id;
	int64_t		interval_ns;
	const char	*rx_ring;	/* "v2" (default) or "v3" */
	int		tx_path;	/* PKTIO_TX_COPY (default) or _RING */
	unsigned	pool;
	int64_t		lead_ns;
	int64_t		spin_max_ns;	/* the lead never exceeds this */
	int		busy_adaptive;	/* --busy-poll adaptive[=MAX] */
	int64_t		busy_ns;	/* its ceiling, or the fixed budget */
	int		timerfd;	/* sleep on a timerfd, not ppoll's */
	int		cpu;		/* --cpu, or -1 */
	int		rt_prio;	/* SCHED_FIFO priority, or 0 */
	uint64_t	seed;
};

/* A profile change waiting for its time. */
struct lsched {
	int		used;
	int		dir;
	int64_t		at_ns;		/* CLOCK_REALTIME */
	struct lprofile	prof;
};

struct link {
	const struct link_opts *o;
	struct pktio	*io[2];
	unsigned	mtu[2];
	struct ldir	d[2];
	struct lpkt	*pool;
	struct lpkt	*freelist;
	unsigned	nfree;
	struct truth	*truth;
	int64_t		off;		/* CLOCK_REALTIME - CLOCK_MONOTONIC */
	uint64_t	ord;
	int64_t		start_ns;
	int64_t		late_est;	/* timer wakeup lateness, ns */
	struct lbusy	busy;		/* polling after frames (busy.h) */
	int		tfd;		/* --timer timerfd, or -1 */
	volatile sig_atomic_t *stop;
	struct lpkt	*txq[2][PKTIO_BURST_MAX];	/* sent, unflushed */
	unsigned	ntx[2];
	struct lsched	sched[LINK_SCHED_MAX];
	/* ctl.c */
	struct ctlsock	cs;		/* control REP and report PUSH */
	uint64_t	seq, batch_seq;
	int64_t		next_report;
	char		hostname[64];
};

/* link.c */
int	link_run(const struct link_opts *o, volatile sig_atomic_t *stop);

#endif
