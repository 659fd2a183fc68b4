/*
 * sched: the output queues of one interface and the scheduler that serves
 * them.
 *
 * One struct sched per output interface holds one queue per traffic class
 * (router/classify.h, 0..7), each with a limit in packets and in bytes.
 * A packet that does not fit is tail-dropped; a queue may instead, or
 * before that, use RED (Floyd and Jacobson, "Random Early Detection
 * gateways for congestion avoidance", 1993; RFC 2309/7567 recommend AQM):
 * an EWMA of the queue length in packets, no drop below min_th, drop
 * probability rising linearly to max_p at max_th, every arrival dropped
 * above max_th, with the "count" spacing of drops and the idle-time
 * correction of the paper.
 *
 * Schedulers are tables of function pointers (struct sched_ops):
 *   fifo  one queue (queue 0, with class 0's limits) in arrival order;
 *         the default, like the paper's Cisco router.
 *   prio  strict priority: the highest non-empty class is always served
 *         first (class 7 before 6 ... before 0); lower classes may starve.
 *   drr   deficit round robin (Shreedhar and Varghese, SIGCOMM 1995): each
 *         backlogged class gets its quantum in bytes per round, so classes
 *         share a saturated link in proportion to their quanta.
 *
 * Queue entries are opaque packet handles (struct sched_pkt) that the
 * caller owns: the queue stores copies of the handles in fixed rings
 * allocated by sched_new() and never looks at the packet.  Enqueue and
 * dequeue are inline, allocate nothing and count everything: per queue,
 * packets and bytes enqueued, dequeued, dropped by reason, depth now and
 * its maximum.
 *
 * Deliberately not here: shaping or rate limits (the interface's TX ring
 * paces us), hierarchical scheduling, ECN marking instead of RED drops,
 * byte-mode RED, and thread safety (one poll loop owns all of it).
 */
#ifndef HOPLAB_ROUTER_SCHED_H
#define HOPLAB_ROUTER_SCHED_H

#include <stddef.h>
#include <stdint.h>

#define SCHED_NCLASS	8

/* A queued packet: the caller's handle, copied in and out by value. */
struct sched_pkt {
	void		*pkt;		/* caller's packet (frame, ring slot) */
	uint32_t	 len;		/* bytes counted against limits and
					   quanta: the frame as sent, no FCS */
	uint8_t		 tc;		/* traffic class 0..7 (classify_tc) */
	int64_t		 rx_ns;		/* RX timestamp, for sojourn time */
};

/* Why a packet was not queued (or left a queue without being sent). */
enum sched_drop {
	SCHED_DROP_PKTS,		/* tail drop: packet limit reached */
	SCHED_DROP_BYTES,		/* tail drop: byte limit reached */
	SCHED_DROP_RED,			/* RED random early drop */
	SCHED_DROP_RED_FORCED,		/* RED: average at or above max_th */
	SCHED_DROP_FLUSH,		/* removed by sched_drain() */
	SCHED_NDROP
};

struct sched_red {
	uint32_t	min_th;		/* average queue, packets */
	uint32_t	max_th;		/* > min_th */
	double		max_p;		/* drop probability at max_th, (0, 1] */
	double		wq;		/* EWMA weight, (0, 1] */
	int64_t		idle_pkt_ns;	/* transmission time of a small packet
					   for the idle correction; 0 = off */
};

/* Configuration of one class's queue. */
struct sched_qconf {
	uint32_t	limit_pkts;	/* >= 1 */
	uint32_t	limit_bytes;	/* 0 = no byte limit */
	uint32_t	quantum;	/* drr: bytes per round, >= 1 */
	int		red;		/* non-zero: RED on this queue */
	struct sched_red red_conf;
};

struct sched;
struct sched_ops {
	const char	*name;		/* "fifo", "prio", "drr" */
	int		 single_queue;	/* every class goes to queue 0 */
	/*
	 * Choose the queue to serve next; called only when packets are
	 * queued, returns the index of a non-empty queue.  DRR keeps its
	 * deficits here.
	 */
	int		(*pick)(struct sched *s);
};

extern const struct sched_ops sched_fifo, sched_prio, sched_drr;

struct sched_conf {
	const struct sched_ops *ops;	/* &sched_fifo, ... */
	struct sched_qconf q[SCHED_NCLASS];
	uint64_t	seed;		/* RED's random generator */
};

/* Counters of one queue; sched_stats() copies them out. */
struct sched_qstats {
	uint64_t	enq_pkts, enq_bytes;
	uint64_t	deq_pkts, deq_bytes;
	uint64_t	drop_pkts[SCHED_NDROP];
	uint64_t	drop_bytes[SCHED_NDROP];
	uint32_t	depth_pkts, depth_bytes;	/* now */
	uint32_t	max_pkts, max_bytes;	/* since start or last reset */
	double		red_avg;		/* RED average, packets */
};

/* ------------------------------------------------------------ internals
 * Visible only so that enqueue and dequeue can be inline; callers use the
 * functions and never touch these fields.
 */
struct sched_queue {
	struct sched_pkt *ring;		/* cap entries */
	uint32_t	 mask;		/* cap - 1, cap a power of two */
	uint32_t	 head;		/* index of the oldest entry */
	uint32_t	 count;		/* entries queued */
	uint32_t	 bytes;		/* their len summed */
	struct sched_qconf conf;
	int64_t		 deficit;	/* drr */
	double		 avg;		/* RED average queue, packets */
	int64_t		 red_count;	/* RED: arrivals since last drop, -1 */
	int64_t		 idle_since;	/* RED: when it went empty, 0 = busy */
	struct sched_qstats st;
};

struct sched {
	const struct sched_ops *ops;
	struct sched_queue q[SCHED_NCLASS];
	uint32_t	 nonempty;	/* bit i: queue i has packets */
	uint32_t	 pkts;		/* over all queues */
	uint64_t	 bytes;
	int		 cur;		/* drr: queue in service */
	int		 fresh;		/* drr: cur not yet given its quantum */
	uint64_t	 rng;		/* RED: xorshift64* state */
};

/* RED: decide for one arrival to Q at NOW; out of line (sched.c). */
int	sched_red_arrival(struct sched *s, struct sched_queue *q, int64_t now);

/* ------------------------------------------------------------ interface */

/*
 * Defaults: fifo; every class 1000 packets, no byte limit, quantum 1514
 * bytes, RED off with min_th 15, max_th 45, max_p 0.1, wq 0.002,
 * idle_pkt_ns 0 (the parameters Floyd recommends); seed 1.
 */
void	sched_conf_default(struct sched_conf *conf);
/*
 * Check CONF; returns 0, or -1 with a message in ERR such as
 * "class 3: quantum 0: must be at least 1".
 */
int	sched_conf_check(const struct sched_conf *conf, char *err,
	    size_t errlen);
/* The scheduler called NAME ("fifo", "prio", "drr"), or NULL. */
const struct sched_ops *sched_ops_find(const char *name);

/*
 * Queues for one output interface, rings sized for the packet limits.
 * Returns NULL with a message in ERR (bad config, out of memory).
 * Setup-time; the caller frees it with sched_free().
 */
struct sched *sched_new(const struct sched_conf *conf, char *err,
	    size_t errlen);
/*
 * Free S (NULL is fine).  Packets still queued are forgotten, not freed:
 * call sched_drain() first if their handles hold anything.
 */
void	sched_free(struct sched *s);
/*
 * Remove every queued packet, calling FN(handle, ARG) for each so the
 * caller can release it; counted as SCHED_DROP_FLUSH.  For an interface
 * going down and before sched_free().
 */
void	sched_drain(struct sched *s,
	    void (*fn)(const struct sched_pkt *p, void *arg), void *arg);
/* Number of queues in use: 1 for fifo, SCHED_NCLASS otherwise. */
unsigned sched_nqueues(const struct sched *s);
/*
 * Copy the counters of queue Q (0 .. SCHED_NCLASS-1) into OUT; with
 * RESET_MAX, restart the depth maxima from the current depth (so each
 * reporting interval sees its own maximum).  Returns 0, or -1 for a bad Q.
 */
int	sched_stats(struct sched *s, unsigned q, struct sched_qstats *out,
	    int reset_max);
/* RED's base drop probability p_b for average AVG (0 below min_th). */
double	sched_red_prob(const struct sched_red *r, double avg);
/* Set queue Q's RED average (tests, diagnostics).  0 or -1. */
int	sched_red_set_avg(struct sched *s, unsigned q, double avg);

/* Packets and bytes queued over all queues. */
static inline uint32_t
sched_backlog(const struct sched *s)
{
	return s->pkts;
}

static inline uint64_t
sched_backlog_bytes(const struct sched *s)
{
	return s->bytes;
}

/*
 * Queue a copy of the handle P by P->tc.  Returns 0, or -1 when the packet
 * is dropped (RED, then the packet limit, then the byte limit are
 * checked), with the reason in *WHY if WHY is not NULL; the drop is
 * counted in the queue, and the packet stays the caller's to release.
 * P->rx_ns serves as "now" for RED's idle correction.  Per packet.
 */
static inline int
sched_enqueue(struct sched *s, const struct sched_pkt *p,
    enum sched_drop *why)
{
	unsigned		 qi = s->ops->single_queue ? 0 : (p->tc & 7);
	struct sched_queue	*q = &s->q[qi];
	int			 d = -1;

	if (q->conf.red)
		d = sched_red_arrival(s, q, p->rx_ns);
	if (d < 0 && q->count >= q->conf.limit_pkts)
		d = SCHED_DROP_PKTS;
	if (d < 0 && q->conf.limit_bytes != 0 &&
	    (uint64_t)q->bytes + p->len > q->conf.limit_bytes)
		d = SCHED_DROP_BYTES;
	if (d >= 0) {
		q->st.drop_pkts[d]++;
		q->st.drop_bytes[d] += p->len;
		if (why != NULL)
			*why = (enum sched_drop)d;
		return -1;
	}
	q->ring[(q->head + q->count) & q->mask] = *p;
	q->count++;
	q->bytes += p->len;
	q->idle_since = 0;
	q->st.enq_pkts++;
	q->st.enq_bytes += p->len;
	if (q->count > q->st.max_pkts)
		q->st.max_pkts = q->count;
	if (q->bytes > q->st.max_bytes)
		q->st.max_bytes = q->bytes;
	s->nonempty |= 1U << qi;
	s->pkts++;
	s->bytes += p->len;
	return 0;
}

/*
 * Take the next packet to send, as the scheduler decides, into *OUT.
 * NOW_NS (CLOCK_REALTIME, as rx_ns) marks when a queue went idle, for
 * RED.  Returns 0, or -1 when nothing is queued.  The handle is the
 * caller's again.  Per packet.
 */
static inline int
sched_dequeue(struct sched *s, struct sched_pkt *out, int64_t now_ns)
{
	struct sched_queue	*q;
	int			 qi;

	if (s->pkts == 0)
		return -1;
	qi = s->ops->pick(s);
	q = &s->q[qi];
	*out = q->ring[q->head];
	q->head = (q->head + 1) & q->mask;
	q->count--;
	q->bytes -= out->len;
	q->st.deq_pkts++;
	q->st.deq_bytes += out->len;
	if (q->count == 0) {
		s->nonempty &= ~(1U << qi);
		q->idle_since = now_ns;
	}
	s->pkts--;
	s->bytes -= out->len;
	return 0;
}

/* Dequeue up to N packets into OUT; returns how many.  Per burst. */
static inline unsigned
sched_dequeue_burst(struct sched *s, struct sched_pkt *out, unsigned n,
    int64_t now_ns)
{
	unsigned	i;

	for (i = 0; i < n; i++)
		if (sched_dequeue(s, &out[i], now_ns) != 0)
			break;
	return i;
}

#endif
