/*
 * profile: parse and check hoplab-link's netem-style impairment profiles
 * (link/profile.h has the grammar, docs/link.md the meaning).
 *
 * The words and defaults follow iproute2's q_netem.c so that a netem line
 * moves over unchanged: an optional number after a keyword is recognised
 * by its first character (a digit, '.' or '-'), "gemodel P" alone means
 * R = 100 %, 1-H = 100 %, 1-K = 0 %, reorder without "gap" is gap 1 and
 * needs a delay.  Unlike tc, a time or a rate without its unit is
 * refused: tc would read "delay 5" as 5 microseconds, which nobody means.
 *
 * Setup-time code: it may allocate (a .dist table) and never logs.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datafile.h"
#include "link/profile.h"

#define MAXTOK	48

struct unit {
	const char	*name;
	double		mult;
};

static const struct unit time_units[] = {
	{ "s", 1e9 }, { "sec", 1e9 }, { "secs", 1e9 },
	{ "ms", 1e6 }, { "msec", 1e6 }, { "msecs", 1e6 },
	{ "us", 1e3 }, { "usec", 1e3 }, { "usecs", 1e3 },
	{ "ns", 1 }, { "nsec", 1 }, { "nsecs", 1 },
	{ NULL, 0 },
};

/* Bits per second per unit; "bps" is bytes per second, as in tc. */
static const struct unit rate_units[] = {
	{ "bit", 1 }, { "kbit", 1e3 }, { "mbit", 1e6 }, { "gbit", 1e9 },
	{ "tbit", 1e12 }, { "kibit", 1024.0 }, { "mibit", 1048576.0 },
	{ "gibit", 1073741824.0 }, { "tibit", 1099511627776.0 },
	{ "bps", 8 }, { "kbps", 8e3 }, { "mbps", 8e6 }, { "gbps", 8e9 },
	{ "tbps", 8e12 }, { "kibps", 8192.0 }, { "mibps", 8388608.0 },
	{ "gibps", 8589934592.0 }, { "tibps", 8796093022208.0 },
	{ NULL, 0 },
};

/* NUMBER followed by one of UNITS, case-insensitive; V the product. */
static int
num_unit(const char *s, const struct unit *units, double *v)
{
	char *end;
	double x;
	int i;

	errno = 0;
	x = strtod(s, &end);
	if (end == s || errno != 0 || !isfinite(x) || *end == '\0')
		return -1;
	for (i = 0; units[i].name != NULL; i++)
		if (strcasecmp(end, units[i].name) == 0) {
			*v = x * units[i].mult;
			return 0;
		}
	return -1;
}

int
lprofile_time(const char *s, int64_t *ns)
{
	double v;

	if (num_unit(s, time_units, &v) == -1 || v < -9e18 || v > 9e18)
		return -1;
	*ns = (int64_t)llround(v);
	return 0;
}

int
lprofile_rate(const char *s, uint64_t *bps)
{
	double v;

	if (num_unit(s, rate_units, &v) == -1 || v < 0 || v > 1.8e19)
		return -1;
	*bps = (uint64_t)llround(v);
	return 0;
}

int
lprofile_percent(const char *s, double *v)
{
	char *end;
	double x;

	errno = 0;
	x = strtod(s, &end);
	if (end == s || errno != 0 || !isfinite(x))
		return -1;
	if (*end == '%') {
		x /= 100.0;
		end++;
	}
	if (*end != '\0' || x < 0 || x > 1)
		return -1;
	*v = x;
	return 0;
}

/* ------------------------------------------------------------ parsing */

struct lex {
	char	*tok[64];
	int	n, i;
	char	*err;
	size_t	errlen;
};

static const char *
peek(struct lex *l)
{
	return l->i < l->n ? l->tok[l->i] : NULL;
}

/* Does the next word look like a number (tc's NEXT_IS_NUMBER)? */
static int
next_is_number(struct lex *l)
{
	const char *t = peek(l);

	return t != NULL && (isdigit((unsigned char)t[0]) || t[0] == '.' ||
	    t[0] == '-');
}

static const char *
need(struct lex *l, const char *kw, const char *what)
{
	if (l->i >= l->n) {
		snprintf(l->err, l->errlen, "%s: expected %s after it", kw,
		    what);
		return NULL;
	}
	return l->tok[l->i++];
}

static int
pct(struct lex *l, const char *kw, double *v)
{
	const char *t = need(l, kw, "a percentage (0.1%)");

	if (t == NULL)
		return -1;
	if (lprofile_percent(t, v) == -1) {
		snprintf(l->err, l->errlen, "%s %s: expected a percentage "
		    "0..100%% (0.1%%) or a fraction 0..1", kw, t);
		return -1;
	}
	return 0;
}

/* An optional correlation after a probability. */
static int
opt_pct(struct lex *l, const char *kw, double *v)
{
	return next_is_number(l) ? pct(l, kw, v) : 0;
}

static int
duration(struct lex *l, const char *kw, int64_t *ns)
{
	const char *t = need(l, kw, "a time (5ms)");

	if (t == NULL)
		return -1;
	if (lprofile_time(t, ns) == -1 || *ns < 0 || *ns > LPROF_DELAY_MAX) {
		snprintf(l->err, l->errlen, "%s %s: expected a time 0..60s "
		    "with its unit (5ms, 250us, 1.5s)", kw, t);
		return -1;
	}
	return 0;
}

/* An integer MIN..MAX. */
static int
integer(struct lex *l, const char *kw, long long min, long long max,
    long long *v)
{
	const char *t = need(l, kw, "a number");
	char *end;

	if (t == NULL)
		return -1;
	errno = 0;
	*v = strtoll(t, &end, 10);
	if (*t == '\0' || *end != '\0' || errno != 0 || *v < min ||
	    *v > max) {
		snprintf(l->err, l->errlen, "%s %s: expected a whole number "
		    "%lld..%lld", kw, t, min, max);
		return -1;
	}
	return 0;
}

/* The folder delay tables are read from (lprofile_set_data_dir). */
static const char *data_dir;

void
lprofile_set_data_dir(const char *dir)
{
	data_dir = dir;
}

/*
 * A netem .dist table NAME (lib/datafile.h's rules).  A bad line is
 * named by its number, never quoted (issue 17).
 */
static int
read_table(struct lprofile *p, const char *name, char *err, size_t errlen)
{
	char line[1024], path[4096 + DATAFILE_NAME_MAX], why[512], *s, *end;
	long long bytes = 0;
	FILE *f;
	long v;
	int n = 0;

	if ((f = datafile_open(data_dir, name, path, sizeof(path), why,
	    sizeof(why))) == NULL) {
		snprintf(err, errlen, "distribution %s", why);
		return -1;
	}
	if ((p->table = calloc(LPROF_TABLE_MAX, sizeof(double))) == NULL) {
		fclose(f);
		snprintf(err, errlen, "distribution %s: out of memory", path);
		return -1;
	}
	while (fgets(line, sizeof(line), f) != NULL) {
		n++;
		if ((bytes += (long long)strlen(line)) > DATAFILE_MAX) {
			snprintf(err, errlen, "distribution %s: grew beyond "
			    "%lld bytes while read", path, DATAFILE_MAX);
			goto bad;
		}
		if ((s = strchr(line, '#')) != NULL)
			*s = '\0';
		for (s = line;; s = end) {
			v = strtol(s, &end, 10);
			if (end == s)
				break;
			if (p->ntable == LPROF_TABLE_MAX || v < -32768 ||
			    v > 32767) {
				snprintf(err, errlen, "distribution %s:%d: more "
				    "than %d values or one outside "
				    "-32768..32767", path, n, LPROF_TABLE_MAX);
				goto bad;
			}
			p->table[p->ntable++] = (double)v / LPROF_DIST_SCALE;
		}
		while (isspace((unsigned char)*s))
			s++;
		if (*s != '\0') {
			snprintf(err, errlen, "distribution %s:%d: not a netem "
			    "table (whole numbers only)", path, n);
			goto bad;
		}
	}
	fclose(f);
	if (p->ntable < 2) {
		snprintf(err, errlen, "distribution %s: fewer than 2 values",
		    path);
		lprofile_free(p);
		return -1;
	}
	return 0;
bad:
	fclose(f);
	lprofile_free(p);
	return -1;
}

static int
kw_delay(struct lex *l, struct lprofile *p)
{
	const char *t;

	if (duration(l, "delay", &p->delay_ns) == -1)
		return -1;
	if (next_is_number(l) && duration(l, "delay jitter",
	    &p->jitter_ns) == -1)
		return -1;
	if (next_is_number(l) && pct(l, "delay correlation",
	    &p->delay_corr) == -1)
		return -1;
	if ((t = peek(l)) != NULL && strcmp(t, "distribution") == 0) {
		l->i++;
		if ((t = need(l, "distribution", "a name")) == NULL)
			return -1;
		if (strcmp(t, "uniform") == 0)
			p->dist = LPROF_UNIFORM;
		else if (strcmp(t, "normal") == 0)
			p->dist = LPROF_NORMAL;
		else if (strcmp(t, "pareto") == 0)
			p->dist = LPROF_PARETO;
		else if (strcmp(t, "paretonormal") == 0)
			p->dist = LPROF_PARETONORMAL;
		else if (data_dir != NULL || strchr(t, '/') != NULL) {
			p->dist = LPROF_TABLE;
			return read_table(p, t, l->err, l->errlen);
		} else {
			snprintf(l->err, l->errlen, "distribution %s: expected "
			    "uniform, normal, pareto, paretonormal or the path "
			    "of a netem .dist table (with a '/')", t);
			return -1;
		}
	}
	return 0;
}

static int
kw_loss(struct lex *l, struct lprofile *p)
{
	const char *t = peek(l);

	if (t != NULL && strcmp(t, "state") == 0) {
		snprintf(l->err, l->errlen, "loss state: netem's 4-state model "
		    "is not supported (use random or gemodel)");
		return -1;
	}
	if (t != NULL && strcmp(t, "gemodel") == 0) {
		l->i++;
		p->loss = LPROF_LOSS_GE;
		p->ge_r = 1.0;
		p->ge_loss_bad = 1.0;
		p->ge_loss_good = 0.0;
		if (pct(l, "loss gemodel p", &p->ge_p) == -1)
			return -1;
		if (next_is_number(l) && pct(l, "loss gemodel r",
		    &p->ge_r) == -1)
			return -1;
		if (next_is_number(l) && pct(l, "loss gemodel 1-h",
		    &p->ge_loss_bad) == -1)
			return -1;
		if (next_is_number(l) && pct(l, "loss gemodel 1-k",
		    &p->ge_loss_good) == -1)
			return -1;
		return 0;
	}
	if (t != NULL && strcmp(t, "random") == 0)
		l->i++;
	p->loss = LPROF_LOSS_RANDOM;
	if (pct(l, "loss", &p->loss_p) == -1 || opt_pct(l,
	    "loss correlation", &p->loss_corr) == -1)
		return -1;
	return 0;
}

static int
kw_rate(struct lex *l, struct lprofile *p)
{
	const char *t = need(l, "rate", "a rate (100mbit)");
	long long v;

	if (t == NULL)
		return -1;
	if (lprofile_rate(t, &p->rate_bps) == -1 || p->rate_bps <
	    LPROF_RATE_MIN || p->rate_bps > LPROF_RATE_MAX) {
		snprintf(l->err, l->errlen, "rate %s: expected 8bit..400gbit "
		    "with its unit (100mbit, 1gbit, 125kbps = bytes/s)", t);
		return -1;
	}
	if (next_is_number(l)) {
		if (integer(l, "rate overhead", -64, 4096, &v) == -1)
			return -1;
		p->overhead = (int32_t)v;
	}
	if (next_is_number(l)) {
		snprintf(l->err, l->errlen, "rate %s: cell sizes are not "
		    "supported (only RATE [OVERHEAD])", t);
		return -1;
	}
	return 0;
}

static int
kw_policy(struct lex *l, const char *kw, enum lprof_policy *pol,
    int impair_ok)
{
	const char *t = need(l, kw, "pass or drop");

	if (t == NULL)
		return -1;
	if (strcmp(t, "pass") == 0)
		*pol = LPROF_PASS;
	else if (strcmp(t, "drop") == 0)
		*pol = LPROF_DROP;
	else if (impair_ok && strcmp(t, "impair") == 0)
		*pol = LPROF_IMPAIR;
	else {
		snprintf(l->err, l->errlen, "%s %s: expected %s", kw, t,
		    impair_ok ? "impair, pass or drop" : "pass or drop");
		return -1;
	}
	return 0;
}

/* One keyword and its arguments. */
static int
keyword(struct lex *l, struct lprofile *p)
{
	const char *kw = l->tok[l->i++];
	long long v;

	if (strcmp(kw, "delay") == 0)
		return kw_delay(l, p);
	if (strcmp(kw, "loss") == 0 || strcmp(kw, "drop") == 0)
		return kw_loss(l, p);
	if (strcmp(kw, "duplicate") == 0)
		return pct(l, kw, &p->dup_p) == -1 ? -1 :
		    opt_pct(l, "duplicate correlation", &p->dup_corr);
	if (strcmp(kw, "corrupt") == 0)
		return pct(l, kw, &p->corrupt_p) == -1 ? -1 :
		    opt_pct(l, "corrupt correlation", &p->corrupt_corr);
	if (strcmp(kw, "reorder") == 0)
		return pct(l, kw, &p->reorder_p) == -1 ? -1 :
		    opt_pct(l, "reorder correlation", &p->reorder_corr);
	if (strcmp(kw, "gap") == 0) {
		if (integer(l, kw, 1, 1000000000, &v) == -1)
			return -1;
		p->gap = (uint32_t)v;
		return 0;
	}
	if (strcmp(kw, "rate") == 0)
		return kw_rate(l, p);
	if (strcmp(kw, "limit") == 0) {
		if (integer(l, kw, 1, LPROF_LIMIT_MAX, &v) == -1)
			return -1;
		p->limit = (uint32_t)v;
		return 0;
	}
	if (strcmp(kw, "limit-bytes") == 0) {
		if (integer(l, kw, 64, 1LL << 40, &v) == -1)
			return -1;
		p->limit_bytes = (uint64_t)v;
		return 0;
	}
	if (strcmp(kw, "seed") == 0) {
		if (integer(l, kw, 1, INT64_MAX, &v) == -1)
			return -1;
		p->seed = (uint64_t)v;
		return 0;
	}
	if (strcmp(kw, "fifo") == 0) {
		p->fifo = 1;
		return 0;
	}
	if (strcmp(kw, "nonip") == 0)
		return kw_policy(l, kw, &p->nonip, 1);
	if (strcmp(kw, "oversize") == 0)
		return kw_policy(l, kw, &p->oversize, 0);
	if (strcmp(kw, "runt") == 0)
		return kw_policy(l, kw, &p->runt, 0);
	snprintf(l->err, l->errlen, "unknown keyword '%s' (expected delay, "
	    "loss, duplicate, corrupt, reorder, gap, rate, limit, limit-bytes, "
	    "seed, fifo, nonip, oversize, runt)", kw);
	return -1;
}

/* Checks between keywords, after all of them are read. */
static int
check(struct lprofile *p, char *err, size_t errlen)
{
	if (p->reorder_p > 0 && p->delay_ns == 0) {
		snprintf(err, errlen, "reorder: needs a delay (packets are "
		    "reordered by sending some of them without it)");
		return -1;
	}
	if (p->gap > 0 && p->reorder_p == 0) {
		snprintf(err, errlen, "gap %u: needs reorder", p->gap);
		return -1;
	}
	if (p->reorder_p > 0 && p->gap == 0)
		p->gap = 1;
	if (p->loss == LPROF_LOSS_GE && p->ge_p > 0 && p->ge_r == 0) {
		snprintf(err, errlen, "loss gemodel r 0%%: the bad state "
		    "would never end; expected r > 0%%");
		return -1;
	}
	return 0;
}

int
lprofile_parse(struct lprofile *p, const char *s, char *err, size_t errlen)
{
	struct lex l;
	char buf[LPROF_TEXT_MAX], *save = NULL, *t;

	memset(p, 0, sizeof(*p));
	p->limit = LPROF_LIMIT_DEF;
	p->nonip = LPROF_IMPAIR;
	p->oversize = LPROF_DROP;
	p->runt = LPROF_PASS;
	if (strlen(s) >= sizeof(buf)) {
		snprintf(err, errlen, "profile longer than %d characters",
		    LPROF_TEXT_MAX - 1);
		return -1;
	}
	snprintf(p->text, sizeof(p->text), "%s", s);
	snprintf(buf, sizeof(buf), "%s", s);
	memset(&l, 0, sizeof(l));
	l.err = err;
	l.errlen = errlen;
	for (t = strtok_r(buf, " \t\n", &save); t != NULL;
	    t = strtok_r(NULL, " \t\n", &save)) {
		if (l.n == (int)(sizeof(l.tok) / sizeof(l.tok[0]))) {
			snprintf(err, errlen, "profile has more than %d words",
			    l.n);
			return -1;
		}
		l.tok[l.n++] = t;
	}
	if (l.n == 1 && strcmp(l.tok[0], "none") == 0)
		return 0;
	while (l.i < l.n)
		if (keyword(&l, p) == -1) {
			lprofile_free(p);
			return -1;
		}
	if (check(p, err, errlen) == -1) {
		lprofile_free(p);
		return -1;
	}
	return 0;
}

void
lprofile_free(struct lprofile *p)
{
	free(p->table);
	p->table = NULL;
	p->ntable = 0;
}

int
lprofile_is_null(const struct lprofile *p)
{
	return p->delay_ns == 0 && p->jitter_ns == 0 &&
	    p->loss == LPROF_LOSS_NONE && p->dup_p == 0 &&
	    p->corrupt_p == 0 && p->reorder_p == 0 && p->rate_bps == 0;
}

int64_t
lprofile_tx_time(const struct lprofile *p, uint32_t frame)
{
	int64_t bytes = (int64_t)frame + p->overhead;

	if (p->rate_bps == 0 || bytes <= 0)
		return 0;
	/* bytes * 8e9 / rate, rounded, without overflow below 1 GB */
	return (int64_t)(((__int128)bytes * 8 * 1000000000LL +
	    (__int128)(p->rate_bps / 2)) / (__int128)p->rate_bps);
}

static const char *
dist_name(enum lprof_dist d)
{
	static const char *names[] = { "uniform", "normal", "pareto",
	    "paretonormal", "table" };

	return names[d];
}

char *
lprofile_describe(const struct lprofile *p, char *buf, size_t len)
{
	size_t n = 0;

#define ADD(...) do { if (n < len) n += (size_t)snprintf(buf + n, \
	len - n, __VA_ARGS__); } while (0)
	buf[0] = '\0';
	ADD("delay %.3fms", p->delay_ns / 1e6);
	if (p->jitter_ns > 0)
		ADD(" jitter %.3fms corr %g%% %s%s", p->jitter_ns / 1e6,
		    p->delay_corr * 100, dist_name(p->dist),
		    p->fifo ? " fifo" : "");
	if (p->loss == LPROF_LOSS_RANDOM)
		ADD(", loss %g%% corr %g%%", p->loss_p * 100,
		    p->loss_corr * 100);
	else if (p->loss == LPROF_LOSS_GE)
		ADD(", loss gemodel p %g%% r %g%% 1-h %g%% 1-k %g%%",
		    p->ge_p * 100, p->ge_r * 100, p->ge_loss_bad * 100,
		    p->ge_loss_good * 100);
	if (p->dup_p > 0)
		ADD(", duplicate %g%%", p->dup_p * 100);
	if (p->corrupt_p > 0)
		ADD(", corrupt %g%%", p->corrupt_p * 100);
	if (p->reorder_p > 0)
		ADD(", reorder %g%% gap %u", p->reorder_p * 100, p->gap);
	if (p->rate_bps > 0)
		ADD(", rate %" PRIu64 "bit/s overhead %d, limit %u packets",
		    p->rate_bps, p->overhead, p->limit);
	if (p->limit_bytes > 0)
		ADD(" %" PRIu64 " bytes", p->limit_bytes);
#undef ADD
	return buf;
}
