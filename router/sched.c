/*
 * sched: output queues, their schedulers and RED; see sched.h.
 *
 * The queue mechanics (rings, limits, counters) are common and inline in
 * sched.h; a scheduler only chooses which queue to serve (ops->pick):
 *
 * - fifo: everything is in queue 0; pick is 0.
 * - prio: pick is the highest set bit of the non-empty bitmap.
 * - drr:  Shreedhar and Varghese's DRR with the active list replaced by a
 *   scan over the 8 queues in order: the queue in service gets its quantum
 *   once per visit and sends head packets while its deficit covers them;
 *   an empty queue's deficit is reset to 0, so idle classes save nothing.
 *   With quanta at least the largest packet every visit sends at least one
 *   packet; smaller quanta still work, taking several rounds per packet.
 *
 * RED (Floyd and Jacobson 1993, section 4 "the RED algorithm"): on every
 * arrival avg <- (1 - wq) avg + wq q, or, when the queue is empty and
 * idle_pkt_ns is set, avg <- (1 - wq)^m avg with m = idle time /
 * idle_pkt_ns.  Between min_th and max_th: count++, p_b = max_p (avg -
 * min_th) / (max_th - min_th), p_a = p_b / (1 - count p_b), drop with
 * probability p_a and then count = 0.  This spaces drops uniformly: with
 * a steady avg the number of arrivals between drops is uniform on
 * 1 .. 1/p_b - 1, so the drop rate is about 2 p_b.  At or above max_th
 * every arrival is dropped.  Below min_th count = -1.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched.h"

/* ------------------------------------------------------------ schedulers */

static int
fifo_pick(struct sched *s)
{
	(void)s;
	return 0;
}

static int
prio_pick(struct sched *s)
{
	return 31 - __builtin_clz(s->nonempty);
}

static void
drr_next(struct sched *s)
{
	s->cur = (s->cur + 1) % SCHED_NCLASS;
	s->fresh = 1;
}

static int
drr_pick(struct sched *s)
{
	struct sched_queue	*q;
	uint32_t		 len;
	int			 qi;

	for (;;) {
		q = &s->q[s->cur];
		if (q->count == 0) {
			q->deficit = 0;
			drr_next(s);
			continue;
		}
		if (s->fresh) {
			q->deficit += q->conf.quantum;
			s->fresh = 0;
		}
		len = q->ring[q->head].len;
		if (len > q->deficit) {
			drr_next(s);
			continue;
		}
		q->deficit -= len;
		qi = s->cur;
		if (q->count == 1) {
			q->deficit = 0;
			drr_next(s);
		}
		return qi;
	}
}

const struct sched_ops sched_fifo = {
	.name = "fifo",
	.single_queue = 1,
	.pick = fifo_pick,
};

const struct sched_ops sched_prio = {
	.name = "prio",
	.pick = prio_pick,
};

const struct sched_ops sched_drr = {
	.name = "drr",
	.pick = drr_pick,
};

static const struct sched_ops *const all_ops[] = {
	&sched_fifo, &sched_prio, &sched_drr
};

const struct sched_ops *
sched_ops_find(const char *name)
{
	size_t	i;

	for (i = 0; i < sizeof(all_ops) / sizeof(all_ops[0]); i++)
		if (strcmp(all_ops[i]->name, name) == 0)
			return all_ops[i];
	return NULL;
}

/* ------------------------------------------------------------ RED */

/* Uniform in [0, 1) from xorshift64*. */
static double
rnd(struct sched *s)
{
	uint64_t	x = s->rng;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	s->rng = x;
	return (double)((x * 0x2545f4914f6cdd1dULL) >> 11) * 0x1p-53;
}

double
sched_red_prob(const struct sched_red *r, double avg)
{
	if (avg < r->min_th)
		return 0;
	if (avg >= r->max_th)
		return 1;
	return r->max_p * (avg - r->min_th) / (r->max_th - r->min_th);
}

static void
red_average(struct sched_queue *q, int64_t now)
{
	const struct sched_red	*r = &q->conf.red_conf;
	double			 m;

	if (q->count == 0 && r->idle_pkt_ns > 0 && q->idle_since != 0 &&
	    now > q->idle_since) {
		m = (double)(now - q->idle_since) / (double)r->idle_pkt_ns;
		q->avg *= pow(1 - r->wq, m);
		q->idle_since = now;	/* that idle time is accounted for */
	} else
		q->avg += r->wq * ((double)q->count - q->avg);
}

int
sched_red_arrival(struct sched *s, struct sched_queue *q, int64_t now)
{
	const struct sched_red	*r = &q->conf.red_conf;
	double			 pb, pa;

	red_average(q, now);
	if (q->avg < r->min_th) {
		q->red_count = -1;
		return -1;
	}
	if (q->avg >= r->max_th) {
		q->red_count = 0;
		return SCHED_DROP_RED_FORCED;
	}
	q->red_count++;
	pb = sched_red_prob(r, q->avg);
	pa = q->red_count * pb >= 1 ? 1 : pb / (1 - q->red_count * pb);
	if (rnd(s) < pa) {
		q->red_count = 0;
		return SCHED_DROP_RED;
	}
	return -1;
}

int
sched_red_set_avg(struct sched *s, unsigned q, double avg)
{
	if (q >= SCHED_NCLASS || avg < 0)
		return -1;
	s->q[q].avg = avg;
	return 0;
}

/* ------------------------------------------------------------ setup */

void
sched_conf_default(struct sched_conf *conf)
{
	unsigned	i;

	memset(conf, 0, sizeof(*conf));
	conf->ops = &sched_fifo;
	conf->seed = 1;
	for (i = 0; i < SCHED_NCLASS; i++) {
		conf->q[i].limit_pkts = 1000;
		conf->q[i].quantum = 1514;
		conf->q[i].red_conf.min_th = 15;
		conf->q[i].red_conf.max_th = 45;
		conf->q[i].red_conf.max_p = 0.1;
		conf->q[i].red_conf.wq = 0.002;
	}
}

#define LIMIT_PKTS_MAX	(1U << 24)

static int
qconf_check(const struct sched_qconf *q, unsigned i, char *err,
    size_t errlen)
{
	const struct sched_red	*r = &q->red_conf;

	if (q->limit_pkts < 1 || q->limit_pkts > LIMIT_PKTS_MAX)
		snprintf(err, errlen, "class %u: packet limit %u: must be "
		    "1 to %u", i, q->limit_pkts, LIMIT_PKTS_MAX);
	else if (q->quantum < 1)
		snprintf(err, errlen, "class %u: quantum 0: must be at "
		    "least 1", i);
	else if (q->red && r->max_th <= r->min_th)
		snprintf(err, errlen, "class %u: RED max_th %u: must be "
		    "above min_th %u", i, r->max_th, r->min_th);
	else if (q->red && !(r->max_p > 0 && r->max_p <= 1))
		snprintf(err, errlen, "class %u: RED max_p %g: must be in "
		    "(0, 1]", i, r->max_p);
	else if (q->red && !(r->wq > 0 && r->wq <= 1))
		snprintf(err, errlen, "class %u: RED weight %g: must be in "
		    "(0, 1]", i, r->wq);
	else if (q->red && r->idle_pkt_ns < 0)
		snprintf(err, errlen, "class %u: RED idle_pkt_ns %lld: must "
		    "not be negative", i, (long long)r->idle_pkt_ns);
	else
		return 0;
	return -1;
}

int
sched_conf_check(const struct sched_conf *conf, char *err, size_t errlen)
{
	unsigned	i;

	if (conf->ops == NULL || conf->ops->pick == NULL) {
		snprintf(err, errlen, "no scheduler");
		return -1;
	}
	for (i = 0; i < SCHED_NCLASS; i++)
		if (qconf_check(&conf->q[i], i, err, errlen) == -1)
			return -1;
	return 0;
}

static uint32_t
pow2_at_least(uint32_t n)
{
	uint32_t	c = 1;

	while (c < n)
		c <<= 1;
	return c;
}

struct sched *
sched_new(const struct sched_conf *conf, char *err, size_t errlen)
{
	struct sched	*s;
	uint32_t	 cap;
	unsigned	 i, n;

	if (sched_conf_check(conf, err, errlen) == -1)
		return NULL;
	if ((s = calloc(1, sizeof(*s))) == NULL)
		goto nomem;
	s->ops = conf->ops;
	s->fresh = 1;
	s->rng = conf->seed != 0 ? conf->seed : 1;
	n = conf->ops->single_queue ? 1 : SCHED_NCLASS;
	for (i = 0; i < SCHED_NCLASS; i++) {
		s->q[i].conf = conf->q[i];
		s->q[i].red_count = -1;
		if (i >= n)
			continue;
		cap = pow2_at_least(conf->q[i].limit_pkts);
		s->q[i].ring = calloc(cap, sizeof(struct sched_pkt));
		if (s->q[i].ring == NULL)
			goto nomem;
		s->q[i].mask = cap - 1;
	}
	return s;
nomem:
	sched_free(s);
	snprintf(err, errlen, "out of memory for queues");
	return NULL;
}

void
sched_free(struct sched *s)
{
	unsigned	i;

	if (s == NULL)
		return;
	for (i = 0; i < SCHED_NCLASS; i++)
		free(s->q[i].ring);
	free(s);
}

void
sched_drain(struct sched *s, void (*fn)(const struct sched_pkt *p,
    void *arg), void *arg)
{
	struct sched_queue	*q;
	struct sched_pkt	*p;
	unsigned		 i;

	for (i = 0; i < SCHED_NCLASS; i++) {
		q = &s->q[i];
		while (q->count > 0) {
			p = &q->ring[q->head];
			q->st.drop_pkts[SCHED_DROP_FLUSH]++;
			q->st.drop_bytes[SCHED_DROP_FLUSH] += p->len;
			if (fn != NULL)
				fn(p, arg);
			q->head = (q->head + 1) & q->mask;
			q->count--;
		}
		q->bytes = 0;
		q->deficit = 0;
	}
	s->nonempty = 0;
	s->pkts = 0;
	s->bytes = 0;
}

unsigned
sched_nqueues(const struct sched *s)
{
	return s->ops->single_queue ? 1 : SCHED_NCLASS;
}

int
sched_stats(struct sched *s, unsigned q, struct sched_qstats *out,
    int reset_max)
{
	struct sched_queue	*qq;

	if (q >= SCHED_NCLASS)
		return -1;
	qq = &s->q[q];
	*out = qq->st;
	out->depth_pkts = qq->count;
	out->depth_bytes = qq->bytes;
	out->red_avg = qq->avg;
	if (reset_max) {
		qq->st.max_pkts = qq->count;
		qq->st.max_bytes = qq->bytes;
	}
	return 0;
}
