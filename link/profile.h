/*
 * profile: one direction's impairment profile for hoplab-link, written in
 * the words of Linux netem (tc-netem(8)) so that a netem line moves over
 * unchanged, plus a few words of our own.  docs/link.md is the reference;
 * the grammar, keywords in any order:
 *
 *   delay TIME [JITTER [CORR%]] [distribution NAME]
 *   loss [random] P% [CORR%]
 *   loss gemodel P% [R% [1-H% [1-K%]]]
 *   duplicate P% [CORR%]     corrupt P% [CORR%]
 *   reorder P% [CORR%] [gap N]
 *   rate RATE [OVERHEAD]     limit PACKETS     limit-bytes BYTES
 *   seed N   fifo   nonip impair|pass|drop   oversize drop|pass
 *   runt pass|drop
 *
 * NAME is uniform (the default, netem's "no table"), normal, pareto,
 * paretonormal (netem's tables, computed exactly here) or a netem .dist
 * table file (a path containing '/').  A percentage is written with '%'
 * or as a fraction 0..1 (as tc does); times carry a unit (s sec ms msec
 * us usec ns); rates as tc (bit kbit mbit gbit tbit, bps kbps mbps gbps
 * tbps = bytes per second, SI multiples).  An empty profile (or "none")
 * passes every frame unchanged, at once.
 *
 * Parsing checks every value against its range and refuses with the
 * keyword, the value and the range allowed.  Deliberately absent:
 * netem's 4-state loss model, ECN marking, slot, cell sizes of rate.
 */
#ifndef HOPLAB_LINK_PROFILE_H
#define HOPLAB_LINK_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#define LPROF_TEXT_MAX		512
#define LPROF_DELAY_MAX		(60 * 1000000000LL)	/* 60 s */
#define LPROF_LIMIT_MAX		65536			/* packets */
#define LPROF_LIMIT_DEF		1000
#define LPROF_RATE_MIN		8ULL			/* bit/s */
#define LPROF_RATE_MAX		400000000000ULL		/* 400 Gbit/s */
#define LPROF_TABLE_MAX		65536			/* .dist entries */
#define LPROF_DIST_SCALE	8192.0			/* netem's scale */

enum lprof_dist {
	LPROF_UNIFORM,		/* delay +- jitter, uniform (netem default) */
	LPROF_NORMAL,
	LPROF_PARETO,
	LPROF_PARETONORMAL,
	LPROF_TABLE,		/* a netem .dist file */
};

enum lprof_loss {
	LPROF_LOSS_NONE,
	LPROF_LOSS_RANDOM,	/* Bernoulli, netem-correlated */
	LPROF_LOSS_GE,		/* Gilbert-Elliott (netem gemodel) */
};

enum lprof_policy {
	LPROF_IMPAIR,		/* through the impairments like IPv4 */
	LPROF_PASS,		/* forwarded at once, unimpaired */
	LPROF_DROP,		/* dropped and counted */
};

struct lprofile {
	int64_t		delay_ns;
	int64_t		jitter_ns;
	double		delay_corr;	/* 0..1 */
	enum lprof_dist	dist;
	double		*table;		/* LPROF_TABLE: standard deviates,
					   owned */
	size_t		ntable;
	enum lprof_loss	loss;
	double		loss_p, loss_corr;
	double		ge_p;		/* good -> bad per packet */
	double		ge_r;		/* bad -> good per packet */
	double		ge_loss_bad;	/* 1-h: loss probability in bad */
	double		ge_loss_good;	/* 1-k: loss probability in good */
	double		dup_p, dup_corr;
	double		corrupt_p, corrupt_corr;
	double		reorder_p, reorder_corr;
	uint32_t	gap;		/* reorder gap (1 when reorder set) */
	uint64_t	rate_bps;	/* 0: no rate limit */
	int32_t		overhead;	/* bytes added to each frame's length */
	uint32_t	limit;		/* packets in the rate queue */
	uint64_t	limit_bytes;	/* 0: no byte limit */
	uint64_t	seed;		/* 0: not given (the direction's own) */
	int		fifo;		/* jitter may not reorder */
	enum lprof_policy nonip, oversize, runt;
	char		text[LPROF_TEXT_MAX];	/* as written */
};

/*
 * Parse the profile text S into *P (which is overwritten; free it with
 * lprofile_free()).  Reads a .dist table file when one is named.  Returns
 * 0, or -1 with a message naming the keyword, the value and what is
 * allowed in ERR (and *P holds nothing to free).
 */
int	lprofile_parse(struct lprofile *p, const char *s, char *err,
	    size_t errlen);
void	lprofile_free(struct lprofile *p);
/*
 * From now on a delay table ("distribution NAME", not one of the four
 * shapes) is a plain file NAME of folder DIR (lib/datafile.h); NULL:
 * a path with a '/'.  Either way it is opened by datafile_open's rules.
 * DIR is kept, not copied (hoplab-link --data-dir, from the agent).
 */
void	lprofile_set_data_dir(const char *dir);
/* True when the profile does nothing to IPv4 frames. */
int	lprofile_is_null(const struct lprofile *p);
/*
 * Serialization time in ns of a frame of FRAME bytes including its FCS
 * at P's rate (plus the overhead); 0 without a rate.
 */
int64_t	lprofile_tx_time(const struct lprofile *p, uint32_t frame);
/* Parse "10ms", "1.5s", "250usec" (tc's time words); 0 or -1. */
int	lprofile_time(const char *s, int64_t *ns);
/* Parse "0.1%" or "0.001" into 0..1; 0 or -1 (also when out of 0..1). */
int	lprofile_percent(const char *s, double *v);
/* Parse "100mbit", "1.5gbit", "125kbps" into bit/s; 0 or -1. */
int	lprofile_rate(const char *s, uint64_t *bps);
/*
 * A one-line description of P's parameters as parsed (units normalised),
 * into BUF; returns BUF.
 */
char	*lprofile_describe(const struct lprofile *p, char *buf, size_t len);

#endif
