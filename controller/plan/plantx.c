/*
 * plantx: tx_io: send|ring and tx_stamp_every: N of an l2 flow, for
 * planflow.c (docs/plans.md "tx_io: the transmit ring").  They become
 * hoplab-gen's --tx-io and --tx-stamp-every (docs/generator.md "Transmit
 * ring"): with ring, frames leave from a PACKET_TX_RING in batches and
 * only packets 0, N, 2N ... of every flow get a kernel transmit stamp.
 *
 * Both are options of the hoplab-gen process, not of a flow, and a
 * chain plan runs every l2 flow (every variant's, with variants_mode:
 * concurrent; the warm-up and RFC 2544 trials too) in one generator, so
 * the l2 flows must agree: a flow that differs from the first l2 flow is
 * refused at its line, naming that flow.  A flow without the keys runs
 * with send, so one flow with ring asks for it on each of them.
 *
 * Deliberately not here: the keys on udp, tcp or icmp flows (they send
 * through sockets; hoplab-gen takes --tx-io in mode l2 only) and sweep
 * values ("$name": one process, one value per run would be the only
 * use, and nobody asked).
 */
#include <stdio.h>
#include <string.h>

#include "controller/plan/plan.h"
#include "controller/plan/plantx.h"
#include "yamldoc.h"

/* tx_io: send or ring; only on an l2 flow. */
static int
parse_io(struct parse_ctx *c, yaml_node_t *node, const char *fpath,
    struct plan_flow *f)
{
	char path[YAMLDOC_PATH_MAX], got[64];

	yamldoc_path_key(path, sizeof(path), fpath, "tx_io");
	yamldoc_got(node, got, sizeof(got));
	if (strcmp(f->mode, "l2") != 0)
		return PERR(c, node, path, "%s: only for an l2 flow (hoplab-gen "
		    "--tx-io is mode l2's; %s flows send through sockets)",
		    got, f->mode);
	if (!yamldoc_is(node, "send") && !yamldoc_is(node, "ring"))
		return PERR(c, node, path, "expected send or ring, got %s",
		    got);
	snprintf(f->tx_io, sizeof(f->tx_io), "%s", yamldoc_text(node));
	return 0;
}

int
plantx_parse(struct parse_ctx *c, yaml_node_t *io, yaml_node_t *every,
    const char *fpath, struct plan_flow *f)
{
	char path[YAMLDOC_PATH_MAX], got[64];
	long long n;

	f->tx_io[0] = '\0';
	f->tx_stamp_every = 0;
	if (io != NULL && parse_io(c, io, fpath, f) == -1)
		return -1;
	if (every == NULL)
		return 0;
	yamldoc_path_key(path, sizeof(path), fpath, "tx_stamp_every");
	yamldoc_got(every, got, sizeof(got));
	if (strcmp(f->mode, "l2") != 0)
		return PERR(c, every, path, "%s: only for an l2 flow with "
		    "tx_io: ring (%s flows send through sockets)", got,
		    f->mode);
	if (yamldoc_int(c->yd, every, path, 1, PLANTX_STAMP_MAX, "1 frame in "
	    "N kernel-stamped", &n, c->err, c->errlen) == -1)
		return -1;
	if (strcmp(f->tx_io, "ring") != 0)
		return PERR(c, every, path, "%s: only with tx_io: ring (with "
		    "send every frame has its kernel stamp)", got);
	f->tx_stamp_every = (unsigned)n;
	return 0;
}

const char *
plantx_io(const struct plan_flow *f)
{
	return f->tx_io[0] != '\0' ? f->tx_io : "send";
}

unsigned
plantx_every(const struct plan_flow *f)
{
	if (strcmp(plantx_io(f), "ring") != 0)
		return 0;
	return f->tx_stamp_every ? f->tx_stamp_every : PLANTX_STAMP_DEFAULT;
}

/*
 * The flow written as item I of NODE runs with FV where the first l2
 * flow A has AV: reported at its KEY, or at the flow without the key.
 */
static int
disagree(struct parse_ctx *c, yaml_node_t *node, size_t i,
    const struct plan_flow *a, const char *key, const char *fv,
    const char *av)
{
	yaml_node_t *m = yamldoc_item(c->yd, node, i), *k;
	char fpath[YAMLDOC_PATH_MAX], path[YAMLDOC_PATH_MAX];

	yamldoc_path_index(fpath, sizeof(fpath), "flows", i);
	yamldoc_path_key(path, sizeof(path), fpath, key);
	k = yamldoc_map_key(c->yd, m, key);
	return PERR(c, k != NULL ? k : m, path, "%s%s: the l2 flows run in "
	    "one hoplab-gen, whose --%s is one for all; flows[%zu] (%s, line "
	    "%d) has %s", fv, k != NULL ? "" : " (not given)",
	    strcmp(key, "tx_io") == 0 ? "tx-io" : "tx-stamp-every",
	    a->written, a->name, a->line, av);
}

int
plantx_agree(struct parse_ctx *c, yaml_node_t *node, size_t n)
{
	const struct plan_flow *a = NULL, *f;
	char fv[16], av[16];
	size_t i;
	int rc = 0;

	for (i = 0; i < n; i++) {
		f = &c->p->flows[i];
		if (strcmp(f->mode, "l2") != 0)
			continue;
		if (a == NULL) {
			a = f;
			continue;
		}
		if (strcmp(plantx_io(f), plantx_io(a)) != 0) {
			rc = disagree(c, node, i, a, "tx_io", plantx_io(f),
			    plantx_io(a));
			continue;
		}
		if (plantx_every(f) == plantx_every(a))
			continue;
		snprintf(fv, sizeof(fv), "%u", plantx_every(f));
		snprintf(av, sizeof(av), "%u", plantx_every(a));
		rc = disagree(c, node, i, a, "tx_stamp_every", fv, av);
	}
	return rc;
}
