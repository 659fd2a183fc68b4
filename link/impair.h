/*
 * impair: one direction's impairment model in hoplab-link, apart from any
 * packet I/O so that the unit tests drive it with made-up arrivals.
 *
 * For each arriving frame impair_frame() decides, in this order (the
 * order of Dummynet's pipe, with netem's per-packet decisions in front):
 *
 *   1. duplicate?   a second copy follows the original;
 *   2. per copy: lost?  random (netem's correlated Bernoulli) or
 *      Gilbert-Elliott (netem's gemodel, state updated per decision);
 *   3. corrupt?     one bit of one byte after the Ethernet header of the
 *      original is flipped (the frame stays deliverable; IPv4 or UDP
 *      checksums catch it, as they would an undetected link error);
 *   4. rate queue:  with a rate, a frame is admitted when fewer than
 *      `limit` frames (and `limit-bytes` bytes) are waiting for or in
 *      serialization, else tail-dropped; it finishes serializing at
 *      max(arrival, end of the previous frame) + (frame + overhead) * 8 /
 *      rate, the frame length including its FCS (RFC 2544 sizes);
 *   5. delay:       departure = end of serialization + delay + jitter * Z,
 *      Z a standard deviate of the distribution drawn from a (netem-
 *      correlated) uniform by its inverse distribution function; a
 *      negative result leaves at once (netem does the same) and is
 *      counted as clamped; with `reorder P`, one packet in `gap` may
 *      skip the delay with probability P (netem's reorder); with `fifo`,
 *      no frame leaves before one that arrived earlier (a real link).
 *
 * Times are absolute CLOCK_REALTIME nanoseconds.  Every random number
 * comes from one seeded xoshiro256** stream (lib/dist.h) per direction,
 * so a run with the same seed and the same arrivals makes the same
 * decisions.  Per-packet code: no allocation, no logging.
 */
#ifndef HOPLAB_LINK_IMPAIR_H
#define HOPLAB_LINK_IMPAIR_H

#include <stdint.h>

#include "dist.h"
#include "link/profile.h"
#include "truthfile.h"

enum impair_cor {
	IMP_COR_DELAY,
	IMP_COR_LOSS,
	IMP_COR_DUP,
	IMP_COR_CORRUPT,
	IMP_COR_REORDER,
	IMP_COR_N,
};

struct impair_copy {
	int64_t		dep_ns;		/* intended departure (if sent) */
	uint16_t	flags;		/* TRUTHFILE_F_* */
};

struct impair_res {
	unsigned	n;		/* copies: 1, or 2 when duplicated */
	struct impair_copy c[2];
	int		corrupt_off;	/* byte flipped in copy 0, or -1 */
	uint8_t		corrupt_mask;
};

struct impair_rq {			/* a frame in the rate queue */
	int64_t		fin_ns;		/* serialization ends */
	uint32_t	len;
};

struct impair_stats {
	uint64_t	lost, qdrop, dup, corrupt, reorder, clamped;
	uint64_t	rq_enq;
	uint32_t	rq_max;		/* deepest since the last snapshot */
};

struct impair {
	struct lprofile	prof;		/* owned (its table too) */
	struct dist_rng	rng;
	double		last[IMP_COR_N];	/* netem correlation state */
	int		ge_bad;		/* Gilbert-Elliott state */
	uint32_t	counter;	/* netem's reorder counter */
	int64_t		free_ns;	/* serializer free from */
	int64_t		last_dep;	/* for fifo */
	struct impair_rq *rq;		/* LPROF_LIMIT_MAX entries, a ring */
	unsigned	rq_head, rq_n;
	uint64_t	rq_bytes;
	struct impair_stats st;
};

/*
 * Set up M with no impairment (profile "none") and the random stream
 * seeded with SEED.  Returns 0, or -1 when out of memory.  Free with
 * impair_free().
 */
int	impair_init(struct impair *m, uint64_t seed);
void	impair_free(struct impair *m);
/*
 * Replace M's profile with *P (M takes it over, table and all; *P is
 * left empty).  The rate queue and the correlation state carry on; the
 * random stream restarts from P->seed when the profile names a seed.
 */
void	impair_set(struct impair *m, struct lprofile *p);
/*
 * Decide the fate of a frame arriving at ARR_NS (CLOCK_REALTIME ns) with
 * LEN bytes on the wire without FCS into *R.  Per packet.
 */
void	impair_frame(struct impair *m, int64_t arr_ns, uint32_t len,
	    struct impair_res *r);
/* The frames in the rate queue at NOW (popping the finished ones). */
unsigned impair_rq_depth(struct impair *m, int64_t now);

/* Pieces, exported for the unit tests. */
double	impair_quantile(const struct lprofile *p, double u);
int64_t	impair_delay(struct impair *m, uint16_t *flags);
int	impair_lose(struct impair *m);
double	impair_norm_inv(double u);

#endif
