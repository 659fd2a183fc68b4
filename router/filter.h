/*
 * filter: an ordered list of permit/deny rules applied to every forwarded
 * packet, as an ACL on a router's input: the first rule that matches
 * decides, and when none does, the list's default action does.
 *
 * A rule matches on any combination of: input interface, source prefix,
 * destination prefix, IP protocol, source and destination port ranges and
 * a set of DSCP values.  A field left at its "any" value matches every
 * packet.  A rule with a port range narrower than 0-65535 only matches
 * packets that carry ports (TCP, UDP, UDP-Lite, SCTP, and only the first
 * fragment): a later fragment or an ICMP packet never matches it.
 *
 * Each rule, and the default, counts the packets and bytes it decided.
 * Matching is a linear scan (cost grows with the number of rules: tens
 * are fine, thousands are not) and is inline, allocating nothing.
 *
 * Addresses and ports are in HOST byte order.
 *
 * Deliberately not here: stateful matching (connection tracking), TCP
 * flags, rules on the output interface, NAT, logging of matches, and
 * any compilation of the rule list into a decision tree.
 */
#ifndef HOPLAB_ROUTER_FILTER_H
#define HOPLAB_ROUTER_FILTER_H

#include <stddef.h>
#include <stdint.h>

enum filter_action {
	FILTER_PERMIT = 0,
	FILTER_DENY = 1
};

#define FILTER_ANY_IF		(-1)
#define FILTER_ANY_PROTO	(-1)
#define FILTER_ANY_DSCP		UINT64_MAX

struct filter_rule {
	int		 in_if;		/* input interface index, or ANY_IF */
	uint32_t	 src, dst;	/* prefixes, host order, host bits 0 */
	uint8_t		 src_len;	/* 0..32; 0 matches any source */
	uint8_t		 dst_len;
	int		 proto;		/* 0..255, or FILTER_ANY_PROTO */
	uint16_t	 sport_lo, sport_hi;	/* inclusive; 0-65535 = any */
	uint16_t	 dport_lo, dport_hi;
	uint64_t	 dscp;		/* bit d set: DSCP d matches */
	enum filter_action action;
};

/* What filter_match() looks at in a packet; the caller fills it. */
struct filter_key {
	int		 in_if;		/* input interface index */
	uint32_t	 src, dst;	/* host order */
	uint16_t	 sport, dport;	/* valid when has_ports */
	uint8_t		 proto;
	uint8_t		 dscp;		/* 0..63 */
	uint8_t		 has_ports;	/* TCP/UDP/UDP-Lite/SCTP, first frag */
	uint32_t	 len;		/* bytes, for the byte counters */
};

struct filter_hits {
	uint64_t	 pkts;
	uint64_t	 bytes;
};

/* ------------------------------------------------------------ internals
 * Visible only so that filter_match() can be inline.
 */
struct filter {
	struct filter_rule *rules;	/* in order, nrules */
	struct filter_hits *hits;	/* one per rule */
	size_t		 nrules, cap;
	enum filter_action defact;
	struct filter_hits defhits;	/* packets no rule matched */
};

/* ------------------------------------------------------------ interface */

/* A rule that matches everything, with ACTION; fill in what to match. */
void	filter_rule_any(struct filter_rule *r, enum filter_action action);
/*
 * Check R; returns 0, or -1 with a message in ERR such as
 * "source 198.18.1.1/24: host bits set" or "sport range 90-80 is empty".
 */
int	filter_rule_check(const struct filter_rule *r, char *err,
	    size_t errlen);

/* An empty list with DEFACT.  NULL with errno ENOMEM.  Setup-time. */
struct filter *filter_new(enum filter_action defact);
void	filter_free(struct filter *f);		/* NULL is fine */
/*
 * Append a copy of R as the last rule (its counters start at 0).
 * Returns 0, or -1 with a message in ERR (invalid rule, no memory).
 * Control path, between bursts.
 */
int	filter_add(struct filter *f, const struct filter_rule *r, char *err,
	    size_t errlen);
/* Remove every rule and zero every counter (config reload). */
void	filter_clear(struct filter *f);
void	filter_set_default(struct filter *f, enum filter_action defact);
size_t	filter_count(const struct filter *f);
/*
 * Copy rule I (0-based, in match order) and its counters out; either
 * pointer may be NULL.  Returns 0, or -1 if there is no rule I.
 */
int	filter_get(const struct filter *f, size_t i, struct filter_rule *r,
	    struct filter_hits *hits);
/* The counters of the default action. */
struct filter_hits filter_default_hits(const struct filter *f);
/*
 * Format R like the config would say it ("deny in 2 src 198.18.0.0/16
 * proto 17 dport 53-53 dscp 46") into BUF; returns BUF.
 */
char	*filter_rule_str(const struct filter_rule *r, char *buf,
	    size_t buflen);

/* Does rule R match key K?  1 or 0.  Per packet. */
static inline int
filter_rule_match(const struct filter_rule *r, const struct filter_key *k)
{
	uint32_t	m;

	if (r->in_if != FILTER_ANY_IF && r->in_if != k->in_if)
		return 0;
	if (r->proto != FILTER_ANY_PROTO && r->proto != k->proto)
		return 0;
	if ((r->dscp >> (k->dscp & 63) & 1) == 0)
		return 0;
	m = r->src_len == 0 ? 0 : ~0U << (32 - r->src_len);
	if ((k->src & m) != r->src)
		return 0;
	m = r->dst_len == 0 ? 0 : ~0U << (32 - r->dst_len);
	if ((k->dst & m) != r->dst)
		return 0;
	if (r->sport_lo == 0 && r->sport_hi == 0xffff &&
	    r->dport_lo == 0 && r->dport_hi == 0xffff)
		return 1;
	if (!k->has_ports)
		return 0;
	return k->sport >= r->sport_lo && k->sport <= r->sport_hi &&
	    k->dport >= r->dport_lo && k->dport <= r->dport_hi;
}

/*
 * The action for packet K: the first matching rule's, or the default.
 * Counts the packet and K->len bytes against the rule that decided; if
 * RULE is not NULL, writes its index there (-1 for the default).
 * Per packet.
 */
static inline enum filter_action
filter_match(struct filter *f, const struct filter_key *k, long *rule)
{
	size_t	i;

	for (i = 0; i < f->nrules; i++) {
		if (filter_rule_match(&f->rules[i], k)) {
			f->hits[i].pkts++;
			f->hits[i].bytes += k->len;
			if (rule != NULL)
				*rule = (long)i;
			return f->rules[i].action;
		}
	}
	f->defhits.pkts++;
	f->defhits.bytes += k->len;
	if (rule != NULL)
		*rule = -1;
	return f->defact;
}

#endif
