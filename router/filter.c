/*
 * filter: the rule list's setup side; matching is inline in filter.h.
 *
 * Rules live in one array in match order with a parallel array of
 * counters, grown by doubling on filter_add() (control path only).
 * filter_rule_check() refuses what would never match or what is ambiguous
 * in a config: host bits set beyond a prefix length, empty port ranges, a
 * protocol above 255, an empty DSCP set.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filter.h"

static uint32_t
mask_of(unsigned len)
{
	return len == 0 ? 0 : ~0U << (32 - len);
}

void
filter_rule_any(struct filter_rule *r, enum filter_action action)
{
	memset(r, 0, sizeof(*r));
	r->in_if = FILTER_ANY_IF;
	r->proto = FILTER_ANY_PROTO;
	r->sport_hi = 0xffff;
	r->dport_hi = 0xffff;
	r->dscp = FILTER_ANY_DSCP;
	r->action = action;
}

static const char *
ipstr(uint32_t a, char *buf)
{
	struct in_addr	in;

	in.s_addr = htonl(a);
	return inet_ntop(AF_INET, &in, buf, INET_ADDRSTRLEN);
}

static int
check_prefix(const char *what, uint32_t p, unsigned len, char *err,
    size_t errlen)
{
	char	b[INET_ADDRSTRLEN];

	if (len > 32) {
		snprintf(err, errlen, "%s prefix length %u: must be 0 to 32",
		    what, len);
		return -1;
	}
	if ((p & ~mask_of(len)) != 0) {
		snprintf(err, errlen, "%s %s/%u: host bits set", what,
		    ipstr(p, b), len);
		return -1;
	}
	return 0;
}

int
filter_rule_check(const struct filter_rule *r, char *err, size_t errlen)
{
	if (check_prefix("source", r->src, r->src_len, err, errlen) == -1 ||
	    check_prefix("destination", r->dst, r->dst_len, err,
	    errlen) == -1)
		return -1;
	if (r->sport_lo > r->sport_hi)
		snprintf(err, errlen, "sport range %u-%u is empty",
		    r->sport_lo, r->sport_hi);
	else if (r->dport_lo > r->dport_hi)
		snprintf(err, errlen, "dport range %u-%u is empty",
		    r->dport_lo, r->dport_hi);
	else if (r->proto != FILTER_ANY_PROTO &&
	    (r->proto < 0 || r->proto > 255))
		snprintf(err, errlen, "protocol %d: must be 0 to 255",
		    r->proto);
	else if (r->in_if < FILTER_ANY_IF)
		snprintf(err, errlen, "input interface %d: invalid", r->in_if);
	else if (r->dscp == 0)
		snprintf(err, errlen, "empty DSCP set: the rule never matches");
	else if (r->action != FILTER_PERMIT && r->action != FILTER_DENY)
		snprintf(err, errlen, "action %d: must be permit or deny",
		    (int)r->action);
	else
		return 0;
	return -1;
}

struct filter *
filter_new(enum filter_action defact)
{
	struct filter	*f;

	if ((f = calloc(1, sizeof(*f))) == NULL)
		return NULL;
	f->defact = defact;
	return f;
}

void
filter_free(struct filter *f)
{
	if (f == NULL)
		return;
	free(f->rules);
	free(f->hits);
	free(f);
}

static int
grow(struct filter *f)
{
	struct filter_rule	*r;
	struct filter_hits	*h;
	size_t			 cap = f->cap < 16 ? 16 : f->cap * 2;

	if ((r = realloc(f->rules, cap * sizeof(*r))) == NULL)
		return -1;
	f->rules = r;
	if ((h = realloc(f->hits, cap * sizeof(*h))) == NULL)
		return -1;
	f->hits = h;
	f->cap = cap;
	return 0;
}

int
filter_add(struct filter *f, const struct filter_rule *r, char *err,
    size_t errlen)
{
	if (filter_rule_check(r, err, errlen) == -1) {
		errno = EINVAL;
		return -1;
	}
	if (f->nrules == f->cap && grow(f) == -1) {
		snprintf(err, errlen, "out of memory for filter rules");
		errno = ENOMEM;
		return -1;
	}
	f->rules[f->nrules] = *r;
	memset(&f->hits[f->nrules], 0, sizeof(f->hits[0]));
	f->nrules++;
	return 0;
}

void
filter_clear(struct filter *f)
{
	f->nrules = 0;
	memset(&f->defhits, 0, sizeof(f->defhits));
}

void
filter_set_default(struct filter *f, enum filter_action defact)
{
	f->defact = defact;
}

size_t
filter_count(const struct filter *f)
{
	return f->nrules;
}

int
filter_get(const struct filter *f, size_t i, struct filter_rule *r,
    struct filter_hits *hits)
{
	if (i >= f->nrules)
		return -1;
	if (r != NULL)
		*r = f->rules[i];
	if (hits != NULL)
		*hits = f->hits[i];
	return 0;
}

struct filter_hits
filter_default_hits(const struct filter *f)
{
	return f->defhits;
}

/* Append the DSCP set: a single value, "any", or a list "0,10,46". */
static void
dscp_str(uint64_t set, char *buf, size_t buflen)
{
	size_t		off;
	unsigned	d;

	off = strlen(buf);
	if (set == FILTER_ANY_DSCP || off >= buflen)
		return;
	off += snprintf(buf + off, buflen - off, " dscp ");
	for (d = 0; d < 64 && off < buflen; d++)
		if (set >> d & 1)
			off += snprintf(buf + off, buflen - off, "%s%u",
			    buf[off - 1] == ' ' ? "" : ",", d);
}

char *
filter_rule_str(const struct filter_rule *r, char *buf, size_t buflen)
{
	char	a[INET_ADDRSTRLEN];
	size_t	off;

	off = (size_t)snprintf(buf, buflen, "%s",
	    r->action == FILTER_DENY ? "deny" : "permit");
#define ADD(...) do {							\
	if (off < buflen)						\
		off += (size_t)snprintf(buf + off, buflen - off, __VA_ARGS__); \
} while (0)
	if (r->in_if != FILTER_ANY_IF)
		ADD(" in %d", r->in_if);
	if (r->src_len != 0)
		ADD(" src %s/%u", ipstr(r->src, a), r->src_len);
	if (r->dst_len != 0)
		ADD(" dst %s/%u", ipstr(r->dst, a), r->dst_len);
	if (r->proto != FILTER_ANY_PROTO)
		ADD(" proto %d", r->proto);
	if (r->sport_lo != 0 || r->sport_hi != 0xffff)
		ADD(" sport %u-%u", r->sport_lo, r->sport_hi);
	if (r->dport_lo != 0 || r->dport_hi != 0xffff)
		ADD(" dport %u-%u", r->dport_lo, r->dport_hi);
#undef ADD
	dscp_str(r->dscp, buf, buflen);
	return buf;
}
