/*
 * flowpaths: flow_paths.csv (see flowpaths.h).
 *
 * A flow's path is the one its primary routes give (plantopo_path_addr,
 * as the run's path check and the console's "udp H1 R1 R4 H2" use):
 * from its from: host to the host that has its target address.  Routing
 * daemons converge to the same shortest paths (toporouting.c keeps them
 * for the path checks).  For an icmp flow it is the requests' way; its
 * replies, whose TTL is measured, come back the way the routers send
 * them.  nat_source is the source address the flow arrives with when a
 * router on its path translates it (plannat.c, docs/nat.md): the path
 * check is by TTL, which NAT leaves alone, and this says what the far
 * end's captures show instead of the from: host's address.
 */
#include <limits.h>
#include <stdio.h>

#include "controller/plan/plannat.h"
#include "controller/plan/plantopo.h"
#include "controller/results/flowpaths.h"
#include "csv.h"

static const char *const cols[] = {
	"flow", "from", "to", "routers", "path", "nat_source",
};

/*
 * Flow F's hosts as "H1 R1 R4 H2" into BUF, its routers into *R, the
 * source a NAT on the way gives it into *NAT (NULL: none).
 */
static void
path_text(const struct plan *p, const struct plan_flow *f, char *buf,
    size_t len, size_t *r, const char **nat)
{
	const struct plantopo *t = &p->topo;
	size_t hops[PLANTOPO_MAX_HOSTS], n = 0, k, used = 0;
	int from = plantopo_host(t, f->from);
	const char *dst = plan_flow_target(p, f);
	char why[256];

	buf[0] = '\0';
	*r = 0;
	*nat = NULL;
	if (from < 0 || dst == NULL || plantopo_path_addr(t, (size_t)from,
	    dst, hops, PLANTOPO_MAX_HOSTS, &n, why, sizeof(why)) == -1 ||
	    n < 2)
		return;
	for (k = 0; k < n && used < len; k++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
		    k ? " " : "", t->hosts[hops[k]].name);
	*r = n - 2;
	*nat = plannat_source(t, hops, n, NULL);
}

int
flowpaths_write(const char *dir, const struct plan *plan, char *err,
    size_t errlen)
{
	char path[PATH_MAX + 32], hosts[PLANTOPO_MAX_HOSTS *
	    (PLANTOPO_NAME_MAX + 1)];
	const char *nat;
	struct csv *c;
	size_t i, r;

	if (plan->topo.nhosts == 0)
		return 0;		/* a chain: its variants say it */
	snprintf(path, sizeof(path), "%s/flow_paths.csv", dir);
	if ((c = csv_open(path, cols, sizeof(cols) / sizeof(cols[0]), err,
	    errlen)) == NULL)
		return -1;
	for (i = 0; i < plan->nflows; i++) {
		path_text(plan, &plan->flows[i], hosts, sizeof(hosts), &r,
		    &nat);
		csv_str(c, plan->flows[i].name);
		csv_str(c, plan->flows[i].from);
		csv_str(c, plan->flows[i].to);
		if (hosts[0] != '\0')
			csv_u64(c, r);
		else
			csv_str(c, NULL);
		csv_str(c, hosts);
		csv_str(c, nat);
		if (csv_end_row(c, err, errlen) == -1) {
			csv_close(c, NULL, 0);
			return -1;
		}
	}
	return csv_close(c, err, errlen);
}
