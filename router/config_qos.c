/*
 * config_qos: the `qos` and `filters` sections of hoplab-router's
 * configuration (docs/router.md), turned into router/sched.h,
 * router/classify.h and router/filter.h settings, for config.c
 * (config_qos.h); same error style (file:line: key: message).  Calls
 * down only: config_value.c for prefixes, the router's modules for
 * their checks, lib/.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "yamldoc.h"
#include "dscp.h"
#include "router/config_qos.h"

struct qctx {
	struct yamldoc	*yd;
	struct rconf	*c;
	char		*err;
	size_t		errlen;
};

#define QERR(x, node, path, ...) \
	yamldoc_err((x)->yd, (node), (path), (x)->err, (x)->errlen, __VA_ARGS__)

static int
get_ll(struct qctx *x, yaml_node_t *n, const char *path, long long lo,
    long long hi, long long *v)
{
	return yamldoc_int(x->yd, n, path, lo, hi, NULL, v, x->err, x->errlen);
}

static int
get_double(struct qctx *x, yaml_node_t *n, const char *path, double lo,
    double hi, double *v)
{
	const char *s = yamldoc_text(n);
	char *end, got[64];

	if (s == NULL || *s == '\0' || (*v = strtod(s, &end), *end != '\0') ||
	    !(*v > lo && *v <= hi))
		return QERR(x, n, path, "expected a number in (%g, %g], got %s",
		    lo, hi, yamldoc_got(n, got, sizeof(got)));
	return 0;
}

static int
get_dscp(struct qctx *x, yaml_node_t *n, const char *path, unsigned *d)
{
	char got[64];
	const char *s = yamldoc_text(n);

	if (s == NULL || dscp_parse(s, d) == -1)
		return QERR(x, n, path, "expected a DSCP (0..63, BE, EF, "
		    "AF11..AF43, CS0..CS7), got %s",
		    yamldoc_got(n, got, sizeof(got)));
	return 0;
}

static int
parse_map(struct qctx *x, yaml_node_t *n)
{
	yaml_node_pair_t *pr;
	yaml_node_t *k, *v;
	char p[YAMLDOC_PATH_MAX];
	unsigned d;
	long long tc;

	if (n->type != YAML_MAPPING_NODE)
		return QERR(x, n, "qos.map", "expected a mapping DSCP: class");
	for (pr = n->data.mapping.pairs.start; pr < n->data.mapping.pairs.top;
	    pr++) {
		k = yaml_document_get_node(&x->yd->doc, pr->key);
		v = yaml_document_get_node(&x->yd->doc, pr->value);
		yamldoc_path_key(p, sizeof(p), "qos.map",
		    yamldoc_text(k) != NULL ? yamldoc_text(k) : "?");
		if (get_dscp(x, k, p, &d) == -1 ||
		    get_ll(x, v, p, 0, CLASSIFY_NCLASS - 1, &tc) == -1)
			return -1;
		classify_map_set(&x->c->cmap, d, (unsigned)tc);
	}
	return 0;
}

static int
parse_red(struct qctx *x, yaml_node_t *n, const char *path,
    struct sched_qconf *q)
{
	static const char *const keys[] = { "min", "max", "p", "weight" };
	yaml_node_t *v[4];
	char p[YAMLDOC_PATH_MAX];
	long long l;

	if (yamldoc_map_fields(x->yd, n, path, keys, 4, v, x->err,
	    x->errlen) == -1)
		return -1;
	q->red = 1;
	yamldoc_path_key(p, sizeof(p), path, "min");
	if (v[0] != NULL && get_ll(x, v[0], p, 1, 100000, &l) == -1)
		return -1;
	if (v[0] != NULL)
		q->red_conf.min_th = (uint32_t)l;
	yamldoc_path_key(p, sizeof(p), path, "max");
	if (v[1] != NULL && get_ll(x, v[1], p, 2, 100000, &l) == -1)
		return -1;
	if (v[1] != NULL)
		q->red_conf.max_th = (uint32_t)l;
	yamldoc_path_key(p, sizeof(p), path, "p");
	if (v[2] != NULL && get_double(x, v[2], p, 0, 1,
	    &q->red_conf.max_p) == -1)
		return -1;
	yamldoc_path_key(p, sizeof(p), path, "weight");
	if (v[3] != NULL && get_double(x, v[3], p, 0, 1,
	    &q->red_conf.wq) == -1)
		return -1;
	if (q->red_conf.max_th <= q->red_conf.min_th)
		return QERR(x, n, path, "max (%u) must be above min (%u)",
		    q->red_conf.max_th, q->red_conf.min_th);
	return 0;
}

static int
parse_queue(struct qctx *x, yaml_node_t *n, const char *path)
{
	static const char *const keys[] = { "class", "packets", "bytes",
	    "weight", "red" };
	yaml_node_t *v[5];
	char p[YAMLDOC_PATH_MAX];
	struct sched_qconf *q;
	long long l;

	if (yamldoc_map_fields(x->yd, n, path, keys, 5, v, x->err,
	    x->errlen) == -1)
		return -1;
	yamldoc_path_key(p, sizeof(p), path, "class");
	if (v[0] == NULL)
		return QERR(x, n, p, "required key is missing");
	if (get_ll(x, v[0], p, 0, SCHED_NCLASS - 1, &l) == -1)
		return -1;
	q = &x->c->sched.q[l];
	yamldoc_path_key(p, sizeof(p), path, "packets");
	if (v[1] != NULL && get_ll(x, v[1], p, 1, 65536, &l) == -1)
		return -1;
	if (v[1] != NULL)
		q->limit_pkts = (uint32_t)l;
	yamldoc_path_key(p, sizeof(p), path, "bytes");
	if (v[2] != NULL && get_ll(x, v[2], p, 0, 100000000, &l) == -1)
		return -1;
	if (v[2] != NULL)
		q->limit_bytes = (uint32_t)l;
	yamldoc_path_key(p, sizeof(p), path, "weight");
	if (v[3] != NULL && get_ll(x, v[3], p, 1, 1000, &l) == -1)
		return -1;
	if (v[3] != NULL)
		q->quantum = (uint32_t)l * 1514;
	yamldoc_path_key(p, sizeof(p), path, "red");
	if (v[4] != NULL && parse_red(x, v[4], p, q) == -1)
		return -1;
	return 0;
}

int
rconf_parse_qos(struct yamldoc *yd, yaml_node_t *n, struct rconf *c,
    char *err, size_t errlen)
{
	static const char *const keys[] = { "scheduler", "map", "queues" };
	struct qctx x = { yd, c, err, errlen };
	yaml_node_t *v[3];
	char p[YAMLDOC_PATH_MAX], got[64], e[200];
	int k, i;

	if (yamldoc_map_fields(yd, n, "qos", keys, 3, v, err, errlen) == -1)
		return -1;
	if (v[0] != NULL) {
		const char *s = yamldoc_text(v[0]);

		if (s == NULL || (c->sched.ops = sched_ops_find(s)) == NULL)
			return QERR(&x, v[0], "qos.scheduler", "expected fifo, "
			    "prio or drr, got %s",
			    yamldoc_got(v[0], got, sizeof(got)));
	}
	if (v[1] != NULL && parse_map(&x, v[1]) == -1)
		return -1;
	if (v[2] != NULL) {
		if ((k = yamldoc_seq(yd, v[2], "qos.queues", 1, SCHED_NCLASS,
		    err, errlen)) == -1)
			return -1;
		for (i = 0; i < k; i++) {
			yamldoc_path_index(p, sizeof(p), "qos.queues",
			    (size_t)i);
			if (parse_queue(&x, yamldoc_item(yd, v[2], (size_t)i),
			    p) == -1)
				return -1;
		}
	}
	if (sched_conf_check(&c->sched, e, sizeof(e)) == -1)
		return QERR(&x, n, "qos", "%s", e);
	return 0;
}

static int
parse_ports(struct qctx *x, yaml_node_t *n, const char *path, uint16_t *lo,
    uint16_t *hi)
{
	const char *s = yamldoc_text(n);
	char buf[32], *dash, got[64];
	long long a, b;

	if (s == NULL || strlen(s) >= sizeof(buf))
		goto bad;
	strcpy(buf, s);
	if ((dash = strchr(buf, '-')) != NULL)
		*dash++ = '\0';
	if (yamldoc_parse_ll(buf, &a) == -1 || a < 0 || a > 65535)
		goto bad;
	b = a;
	if (dash != NULL && (yamldoc_parse_ll(dash, &b) == -1 || b < a ||
	    b > 65535))
		goto bad;
	*lo = (uint16_t)a;
	*hi = (uint16_t)b;
	return 0;
bad:
	return QERR(x, n, path, "expected a port 0..65535 or a range such "
	    "as 1024-2047, got %s", yamldoc_got(n, got, sizeof(got)));
}

static int
parse_proto(struct qctx *x, yaml_node_t *n, const char *path, int *proto)
{
	const char *s = yamldoc_text(n);
	long long l;
	char got[64];

	if (s != NULL && strcasecmp(s, "icmp") == 0)
		*proto = 1;
	else if (s != NULL && strcasecmp(s, "tcp") == 0)
		*proto = 6;
	else if (s != NULL && strcasecmp(s, "udp") == 0)
		*proto = 17;
	else if (s != NULL && yamldoc_parse_ll(s, &l) == 0 && l >= 0 &&
	    l <= 255)
		*proto = (int)l;
	else
		return QERR(x, n, path, "expected icmp, tcp, udp or 0..255, "
		    "got %s", yamldoc_got(n, got, sizeof(got)));
	return 0;
}

static int
parse_dscps(struct qctx *x, yaml_node_t *n, const char *path, uint64_t *set)
{
	char p[YAMLDOC_PATH_MAX];
	unsigned d;
	int k, i;

	*set = 0;
	if (n->type == YAML_SCALAR_NODE) {
		if (get_dscp(x, n, path, &d) == -1)
			return -1;
		*set = 1ULL << d;
		return 0;
	}
	if ((k = yamldoc_seq(x->yd, n, path, 1, 64, x->err, x->errlen)) == -1)
		return -1;
	for (i = 0; i < k; i++) {
		yamldoc_path_index(p, sizeof(p), path, (size_t)i);
		if (get_dscp(x, yamldoc_item(x->yd, n, (size_t)i), p, &d) == -1)
			return -1;
		*set |= 1ULL << d;
	}
	return 0;
}

static int
parse_addr_field(struct qctx *x, yaml_node_t *n, const char *path,
    uint32_t *p, uint8_t *len)
{
	unsigned l;
	char got[64];
	const char *s = yamldoc_text(n);

	if (s == NULL || rconf_parse_prefix(s, 1, p, &l) == -1)
		return QERR(x, n, path, "expected an IPv4 prefix without host "
		    "bits such as 198.18.0.0/16, got %s",
		    yamldoc_got(n, got, sizeof(got)));
	*len = (uint8_t)l;
	return 0;
}

static int
parse_rule_fields(struct qctx *x, yaml_node_t **v, const char *path,
    struct filter_rule *r)
{
	char p[YAMLDOC_PATH_MAX], got[64];
	size_t j;

	if (v[1] != NULL) {
		yamldoc_path_key(p, sizeof(p), path, "in");
		for (j = 0; j < x->c->nifs; j++)
			if (yamldoc_is(v[1], x->c->ifs[j].name))
				break;
		if (j == x->c->nifs)
			return QERR(x, v[1], p, "no interface %s in this "
			    "configuration", yamldoc_got(v[1], got,
			    sizeof(got)));
		r->in_if = (int)j;
	}
	yamldoc_path_key(p, sizeof(p), path, "src");
	if (v[2] != NULL && parse_addr_field(x, v[2], p, &r->src,
	    &r->src_len) == -1)
		return -1;
	yamldoc_path_key(p, sizeof(p), path, "dst");
	if (v[3] != NULL && parse_addr_field(x, v[3], p, &r->dst,
	    &r->dst_len) == -1)
		return -1;
	yamldoc_path_key(p, sizeof(p), path, "proto");
	if (v[4] != NULL && parse_proto(x, v[4], p, &r->proto) == -1)
		return -1;
	yamldoc_path_key(p, sizeof(p), path, "sport");
	if (v[5] != NULL && parse_ports(x, v[5], p, &r->sport_lo,
	    &r->sport_hi) == -1)
		return -1;
	yamldoc_path_key(p, sizeof(p), path, "dport");
	if (v[6] != NULL && parse_ports(x, v[6], p, &r->dport_lo,
	    &r->dport_hi) == -1)
		return -1;
	yamldoc_path_key(p, sizeof(p), path, "dscp");
	if (v[7] != NULL && parse_dscps(x, v[7], p, &r->dscp) == -1)
		return -1;
	return 0;
}

static int
parse_rule(struct qctx *x, yaml_node_t *n, const char *path,
    struct filter_rule *r)
{
	static const char *const keys[] = { "action", "in", "src", "dst",
	    "proto", "sport", "dport", "dscp" };
	yaml_node_t *v[8];
	char p[YAMLDOC_PATH_MAX], got[64], e[200];

	if (yamldoc_map_fields(x->yd, n, path, keys, 8, v, x->err,
	    x->errlen) == -1)
		return -1;
	yamldoc_path_key(p, sizeof(p), path, "action");
	if (v[0] == NULL)
		return QERR(x, n, p, "required key is missing");
	if (!yamldoc_is(v[0], "permit") && !yamldoc_is(v[0], "deny"))
		return QERR(x, v[0], p, "expected permit or deny, got %s",
		    yamldoc_got(v[0], got, sizeof(got)));
	filter_rule_any(r, yamldoc_is(v[0], "deny") ? FILTER_DENY :
	    FILTER_PERMIT);
	if (parse_rule_fields(x, v, path, r) == -1)
		return -1;
	if (filter_rule_check(r, e, sizeof(e)) == -1)
		return QERR(x, n, path, "%s", e);
	return 0;
}

int
rconf_parse_filters(struct yamldoc *yd, yaml_node_t *n, struct rconf *c,
    char *err, size_t errlen)
{
	static const char *const keys[] = { "default", "rules" };
	struct qctx x = { yd, c, err, errlen };
	yaml_node_t *v[2];
	char p[YAMLDOC_PATH_MAX], got[64];
	int k, i;

	if (yamldoc_map_fields(yd, n, "filters", keys, 2, v, err,
	    errlen) == -1)
		return -1;
	if (v[0] != NULL) {
		if (!yamldoc_is(v[0], "permit") && !yamldoc_is(v[0], "deny"))
			return QERR(&x, v[0], "filters.default", "expected "
			    "permit or deny, got %s",
			    yamldoc_got(v[0], got, sizeof(got)));
		c->filter_default = yamldoc_is(v[0], "deny") ? FILTER_DENY :
		    FILTER_PERMIT;
	}
	if (v[1] == NULL)
		return 0;
	if ((k = yamldoc_seq(yd, v[1], "filters.rules", 0, RCONF_FILTER_MAX,
	    err, errlen)) == -1)
		return -1;
	for (i = 0; i < k; i++) {
		yamldoc_path_index(p, sizeof(p), "filters.rules", (size_t)i);
		if (parse_rule(&x, yamldoc_item(yd, v[1], (size_t)i), p,
		    &c->filters[i]) == -1)
			return -1;
	}
	c->nfilters = (size_t)k;
	return 0;
}
