/*
 * impair: hoplab-link's per-direction impairment model (impair.h has the
 * order of the decisions, docs/link.md the user's view).
 *
 * The delay distributions are netem's, computed rather than read from
 * 16-bit tables: delay + jitter * Z with Z, for a uniform U on (0, 1):
 *
 *   uniform        2U - 1 (netem without a table: delay +- jitter)
 *   normal         the standard normal quantile of U
 *   pareto         (4/3) ((1 - U)^(-1/3) - 1.5): Pareto with shape 3,
 *                  minimum 1, centred and scaled as iproute2's pareto.c
 *   paretonormal   (normal + 3 pareto) / 4 of the same U, as iproute2's
 *                  paretonormal.c builds its table
 *   table          entry floor(U n) of a netem .dist table / 8192
 *
 * Drawing every Z from U by its inverse distribution function is what lets
 * netem's correlation (U' = (1 - rho) U + rho U_prev) apply to each of
 * them, as in netem.  netem's tables stop at about 4 (16-bit entries);
 * the computed tails here do not.
 *
 * Gilbert-Elliott: netem's loss_gilb_ell(): in the good state the frame
 * moves to bad with probability p and is lost with probability 1-k; in
 * the bad state it moves to good with probability r and is lost with
 * probability 1-h, both judged by the state the frame found.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pkt.h"
#include "link/impair.h"

int
impair_init(struct impair *m, uint64_t seed)
{
	char err[64];
	int k;

	memset(m, 0, sizeof(*m));
	if ((m->rq = calloc(LPROF_LIMIT_MAX, sizeof(*m->rq))) == NULL)
		return -1;
	lprofile_parse(&m->prof, "none", err, sizeof(err));
	dist_rng_seed(&m->rng, seed);
	for (k = 0; k < IMP_COR_N; k++)
		m->last[k] = dist_rng_unit(&m->rng);
	return 0;
}

void
impair_free(struct impair *m)
{
	lprofile_free(&m->prof);
	free(m->rq);
	m->rq = NULL;
}

void
impair_set(struct impair *m, struct lprofile *p)
{
	lprofile_free(&m->prof);
	m->prof = *p;
	p->table = NULL;
	p->ntable = 0;
	if (m->prof.seed != 0)
		dist_rng_seed(&m->rng, m->prof.seed);
	m->ge_bad = 0;
	m->counter = 0;
}

/* A uniform on (0, 1), correlated with the previous one of kind K. */
static inline double
cor_unit(struct impair *m, enum impair_cor k, double rho)
{
	double u = dist_rng_unit(&m->rng);

	if (rho > 0)
		u = (1 - rho) * u + rho * m->last[k];
	m->last[k] = u;
	return u;
}

/*
 * The standard normal quantile: Acklam's rational approximation (relative
 * error 1.2e-9) with one Halley step on erfc, good to double precision.
 */
double
impair_norm_inv(double u)
{
	static const double a[] = { -3.969683028665376e+01,
	    2.209460984245205e+02, -2.759285104469687e+02,
	    1.383577518672690e+02, -3.066479806614716e+01,
	    2.506628277459239e+00 };
	static const double b[] = { -5.447609879822406e+01,
	    1.615858368580409e+02, -1.556989798598866e+02,
	    6.680131188771972e+01, -1.328068155288572e+01 };
	static const double c[] = { -7.784894002430293e-03,
	    -3.223964580411365e-01, -2.400758277161838e+00,
	    -2.549732539343734e+00, 4.374664141464968e+00,
	    2.938163982698783e+00 };
	static const double d[] = { 7.784695709041462e-03,
	    3.224671290700398e-01, 2.445134137142996e+00,
	    3.754408661907416e+00 };
	double q, r, x, e, h;

	if (u <= 0)
		return -INFINITY;
	if (u >= 1)
		return INFINITY;
	if (u < 0.02425 || u > 1 - 0.02425) {
		q = sqrt(-2 * log(u < 0.5 ? u : 1 - u));
		x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) *
		    q + c[5]) / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) *
		    q + 1);
		if (u > 0.5)
			x = -x;
	} else {
		q = u - 0.5;
		r = q * q;
		x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) *
		    r + a[5]) * q / (((((b[0] * r + b[1]) * r + b[2]) * r +
		    b[3]) * r + b[4]) * r + 1);
	}
	e = 0.5 * erfc(-x / sqrt(2)) - u;
	h = e * sqrt(2 * M_PI) * exp(x * x / 2);
	return x - h / (1 + x * h / 2);
}

double
impair_quantile(const struct lprofile *p, double u)
{
	size_t i;

	switch (p->dist) {
	case LPROF_NORMAL:
		return impair_norm_inv(u);
	case LPROF_PARETO:
		return (4.0 / 3.0) * (pow(1 - u, -1.0 / 3.0) - 1.5);
	case LPROF_PARETONORMAL:
		return 0.25 * impair_norm_inv(u) + (pow(1 - u, -1.0 / 3.0) -
		    1.5);
	case LPROF_TABLE:
		i = (size_t)(u * (double)p->ntable);
		return p->table[i < p->ntable ? i : p->ntable - 1];
	case LPROF_UNIFORM:
	default:
		return 2 * u - 1;
	}
}

/* One delay sample in ns (>= 0); TRUTHFILE_F_CLAMPED into *FLAGS when cut. */
int64_t
impair_delay(struct impair *m, uint16_t *flags)
{
	const struct lprofile *p = &m->prof;
	double d;

	if (p->jitter_ns == 0)
		return p->delay_ns;
	d = (double)p->delay_ns + (double)p->jitter_ns *
	    impair_quantile(p, cor_unit(m, IMP_COR_DELAY, p->delay_corr));
	if (d < 0) {
		*flags |= TRUTHFILE_F_CLAMPED;
		m->st.clamped++;
		return 0;
	}
	if (d > 4 * (double)LPROF_DELAY_MAX)
		d = 4 * (double)LPROF_DELAY_MAX;
	return (int64_t)llround(d);
}

/* Is the next frame lost?  Advances the loss model by one frame. */
int
impair_lose(struct impair *m)
{
	const struct lprofile *p = &m->prof;
	int lost;

	switch (p->loss) {
	case LPROF_LOSS_RANDOM:
		return cor_unit(m, IMP_COR_LOSS, p->loss_corr) < p->loss_p;
	case LPROF_LOSS_GE:
		if (!m->ge_bad) {
			if (dist_rng_unit(&m->rng) < p->ge_p)
				m->ge_bad = 1;
			lost = dist_rng_unit(&m->rng) < p->ge_loss_good;
		} else {
			if (dist_rng_unit(&m->rng) < p->ge_r)
				m->ge_bad = 0;
			lost = dist_rng_unit(&m->rng) < p->ge_loss_bad;
		}
		return lost;
	case LPROF_LOSS_NONE:
	default:
		return 0;
	}
}

unsigned
impair_rq_depth(struct impair *m, int64_t now)
{
	while (m->rq_n > 0 && m->rq[m->rq_head].fin_ns <= now) {
		m->rq_bytes -= m->rq[m->rq_head].len;
		m->rq_head = (m->rq_head + 1) % LPROF_LIMIT_MAX;
		m->rq_n--;
	}
	return m->rq_n;
}

/* Through the rate queue: the end of serialization, or -1 (tail drop). */
static inline int64_t
rate_queue(struct impair *m, int64_t arr, uint32_t len)
{
	const struct lprofile *p = &m->prof;
	int64_t start, fin;

	if (p->rate_bps == 0)
		return arr;
	impair_rq_depth(m, arr);
	if (m->rq_n >= p->limit || (p->limit_bytes > 0 &&
	    m->rq_bytes + len > p->limit_bytes)) {
		m->st.qdrop++;
		return -1;
	}
	start = arr > m->free_ns ? arr : m->free_ns;
	fin = start + lprofile_tx_time(p, len + PKT_FCS_LEN);
	m->free_ns = fin;
	m->rq[(m->rq_head + m->rq_n) % LPROF_LIMIT_MAX].fin_ns = fin;
	m->rq[(m->rq_head + m->rq_n) % LPROF_LIMIT_MAX].len = len;
	m->rq_n++;
	m->rq_bytes += len;
	m->st.rq_enq++;
	if (m->rq_n > m->st.rq_max)
		m->st.rq_max = m->rq_n;
	return fin;
}

/* Departure of one admitted copy that finished serializing at FIN. */
static inline int64_t
departure(struct impair *m, int64_t fin, uint16_t *flags)
{
	const struct lprofile *p = &m->prof;
	int64_t dep;

	if (p->reorder_p > 0 && m->counter + 1 >= p->gap &&
	    cor_unit(m, IMP_COR_REORDER, p->reorder_corr) < p->reorder_p) {
		m->counter = 0;
		m->st.reorder++;
		*flags |= TRUTHFILE_F_REORDER;
		return fin;
	}
	m->counter++;
	dep = fin + impair_delay(m, flags);
	if (p->fifo) {
		if (dep < m->last_dep)
			dep = m->last_dep;
		m->last_dep = dep;
	}
	return dep;
}

void
impair_frame(struct impair *m, int64_t arr_ns, uint32_t len,
    struct impair_res *r)
{
	const struct lprofile *p = &m->prof;
	struct impair_copy *c;
	int64_t fin;
	unsigned k;

	r->n = 1;
	r->corrupt_off = -1;
	r->c[0].flags = 0;
	if (p->dup_p > 0 && cor_unit(m, IMP_COR_DUP, p->dup_corr) <
	    p->dup_p) {
		r->n = 2;
		r->c[0].flags = TRUTHFILE_F_DUPED;
		r->c[1].flags = TRUTHFILE_F_DUP;
		m->st.dup++;
	}
	if (p->corrupt_p > 0 && len > PKT_ETH_LEN && cor_unit(m,
	    IMP_COR_CORRUPT, p->corrupt_corr) < p->corrupt_p) {
		r->corrupt_off = PKT_ETH_LEN + (int)(dist_rng_next(&m->rng) %
		    (len - PKT_ETH_LEN));
		r->corrupt_mask = (uint8_t)(1u << (dist_rng_next(&m->rng) % 8));
		r->c[0].flags |= TRUTHFILE_F_CORRUPT;
	}
	for (k = 0; k < r->n; k++) {
		c = &r->c[k];
		c->dep_ns = 0;
		if (impair_lose(m)) {
			c->flags |= TRUTHFILE_F_LOST;
			m->st.lost++;
			continue;
		}
		if ((fin = rate_queue(m, arr_ns, len)) < 0) {
			c->flags |= TRUTHFILE_F_QDROP;
			continue;
		}
		c->dep_ns = departure(m, fin, &c->flags);
		if (c->dep_ns > arr_ns)
			c->flags |= TRUTHFILE_F_DELAYED;
	}
	if (r->corrupt_off >= 0 &&
	    (r->c[0].flags & (TRUTHFILE_F_LOST | TRUTHFILE_F_QDROP))) {
		r->corrupt_off = -1;	/* nothing left to corrupt */
		r->c[0].flags &= (uint16_t)~TRUTHFILE_F_CORRUPT;
	} else if (r->corrupt_off >= 0)
		m->st.corrupt++;
}
