/*
 * config_rip: read the `rip` section of hoplab-router's configuration
 * (config_rip.h), same error style as config.c.
 */
#include <stdio.h>
#include <string.h>

#include "clock.h"
#include "yamldoc.h"
#include "router/config.h"
#include "router/config_rip.h"

#define RERR(yd, node, path, ...) \
	yamldoc_err((yd), (node), (path), err, errlen, __VA_ARGS__)

void
rconf_rip_default(struct rconf_rip *r)
{
	memset(r, 0, sizeof(*r));
	r->update_ns = 30 * NSEC_PER_SEC;
	r->timeout_ns = 180 * NSEC_PER_SEC;
	r->garbage_ns = 120 * NSEC_PER_SEC;
}

int
rconf_yaml_dur(struct yamldoc *yd, yaml_node_t *n, const char *path,
    int64_t lo, int64_t hi, const char *range, int64_t *ns, char *err,
    size_t errlen)
{
	char buf[32], e[128], got[64];

	if (n == NULL)
		return 0;
	if (yamldoc_str(yd, n, path, "a duration", buf, sizeof(buf), err,
	    errlen) == -1)
		return -1;
	if (clock_parse_duration(buf, ns, e, sizeof(e)) == -1 || *ns < lo ||
	    *ns > hi)
		return RERR(yd, n, path, "expected a duration %s, got %s",
		    range, yamldoc_got(n, got, sizeof(got)));
	return 0;
}

/* rip.interfaces: names of interfaces: each once. */
static int
get_ifaces(struct yamldoc *yd, yaml_node_t *n, struct rconf *c, char *err,
    size_t errlen)
{
	char p[YAMLDOC_PATH_MAX], name[RCONF_IFNAME_MAX];
	yaml_node_t *it;
	int k, i;
	size_t j;

	if ((k = yamldoc_seq(yd, n, "rip.interfaces", 0, RCONF_IF_MAX, err,
	    errlen)) == -1)
		return -1;
	c->rip.active = 0;
	for (i = 0; i < k; i++) {
		yamldoc_path_index(p, sizeof(p), "rip.interfaces", (size_t)i);
		it = yamldoc_item(yd, n, (size_t)i);
		if (yamldoc_str(yd, it, p, "an interface name", name,
		    sizeof(name), err, errlen) == -1)
			return -1;
		for (j = 0; j < c->nifs; j++)
			if (strcmp(c->ifs[j].name, name) == 0)
				break;
		if (j == c->nifs)
			return RERR(yd, it, p, "'%s' is not one of interfaces",
			    name);
		if (c->rip.active & (1U << j))
			return RERR(yd, it, p, "'%s' is listed twice", name);
		c->rip.active |= 1U << j;
	}
	return 0;
}

/* rip.auth: {key_id, secret}: HMAC-SHA256 (RFC 4822). */
static int
get_auth(struct yamldoc *yd, yaml_node_t *n, struct rconf_rip *r, char *err,
    size_t errlen)
{
	static const char *const keys[] = { "key_id", "secret" };
	yaml_node_t *v[2];
	long long id;
	size_t i, len;

	if (yamldoc_map_fields(yd, n, "rip.auth", keys, 2, v, err,
	    errlen) == -1)
		return -1;
	if (v[0] == NULL || v[1] == NULL)
		return RERR(yd, n, v[0] == NULL ? "rip.auth.key_id" :
		    "rip.auth.secret", "required key is missing");
	if (yamldoc_int(yd, v[0], "rip.auth.key_id", 0, 255, NULL, &id, err,
	    errlen) == -1)
		return -1;
	if (yamldoc_str(yd, v[1], "rip.auth.secret", "a secret", r->secret,
	    sizeof(r->secret), err, errlen) == -1)
		return -1;
	len = strlen(r->secret);
	for (i = 0; i < len; i++)
		if (r->secret[i] < 0x21 || r->secret[i] > 0x7e)
			break;
	if (len == 0 || i < len)
		return RERR(yd, v[1], "rip.auth.secret", "expected 1..32 "
		    "printable ASCII characters without spaces");
	r->key_id = (unsigned)id;
	r->auth = 1;
	return 0;
}

int
rconf_parse_rip(struct yamldoc *yd, yaml_node_t *n, struct rconf *c,
    char *err, size_t errlen)
{
	static const char *const keys[] = { "interfaces", "update", "timeout",
	    "garbage", "auth" };
	struct rconf_rip *r = &c->rip;
	yaml_node_t *v[5];

	if (yamldoc_map_fields(yd, n, "rip", keys, 5, v, err, errlen) == -1)
		return -1;
	r->enabled = 1;
	r->line = yamldoc_line(n);
	r->active = c->nifs >= 32 ? ~0U : (1U << c->nifs) - 1;
	if (v[0] != NULL && get_ifaces(yd, v[0], c, err, errlen) == -1)
		return -1;
	if (rconf_yaml_dur(yd, v[1], "rip.update", NSEC_PER_SEC / 10,
	    300 * NSEC_PER_SEC, "100ms..5m", &r->update_ns, err,
	    errlen) == -1 ||
	    rconf_yaml_dur(yd, v[2], "rip.timeout", NSEC_PER_SEC / 10,
	    3600 * NSEC_PER_SEC, "100ms..1h", &r->timeout_ns, err,
	    errlen) == -1 ||
	    rconf_yaml_dur(yd, v[3], "rip.garbage", NSEC_PER_SEC / 10,
	    3600 * NSEC_PER_SEC, "100ms..1h", &r->garbage_ns, err,
	    errlen) == -1)
		return -1;
	if (r->timeout_ns <= r->update_ns)
		return RERR(yd, v[2] != NULL ? v[2] : n, "rip.timeout",
		    "must be longer than rip.update (RFC 2453: 180s for 30s)");
	if (v[4] != NULL && get_auth(yd, v[4], r, err, errlen) == -1)
		return -1;
	return 0;
}
