/*
 * dryrun: the run list of a plan and how long it should take, printed
 * before anything starts (docs/plans.md, "Dry run").
 *
 * The list is the runner's own (plan_point, plan_point_order): the same
 * order, the same numbering as the progress lines of `hoplab run`.  The
 * estimate adds, per run, the traffic time of its longest flow (count x
 * mean gap, or its duration when that ends it first, or alone for a tcp
 * flow) plus the generator's
 * drain and a fixed per-run overhead; and, whenever the variant changes
 * from one run to the next, the wiring of the lab, the routers' start
 * and the warm-up burst.  The constants are measured orders of magnitude
 * on the namespace lab, not promises: real machines over SSH or a
 * loaded host take longer.
 *
 * A topology plan (docs/plans.md "Topologies") is printed first as the
 * runner will build it: its hosts, each link with its /24 and the two
 * addresses, each host's routes with their metrics (written or
 * computed), and the path of each flow, from plantopo.h.  A router with
 * routing: rip or ospf says so on its host line, its routes are marked
 * "expected from PROTO" (what the daemon should converge to, not
 * installed), and each protocol's timers follow the hosts.
 *
 * Deliberately not done: contacting agents, reading the inventory,
 * estimating faults (their own time is inside the traffic time of the
 * run they belong to); an RFC 2544 plan gets an upper bound only.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "controller/plan/dryrun.h"
#include "controller/plan/planecmp.h"
#include "controller/plan/parse.h"
#include "controller/plan/plannat.h"
#include "controller/plan/plantx.h"
#include "controller/run/run.h"
#include "controller/plan/topo.h"

#define DRY_POINT_NS	(300 * NSEC_PER_MSEC)	/* start, results, sync */
#define DRY_LINKS_NS	(500 * NSEC_PER_MSEC)	/* link roles per run */
#define DRY_WIRE_NS	(2 * NSEC_PER_SEC)	/* rewire + routers up */
#define DRY_TOPO_RECV_NS (1 * NSEC_PER_SEC)	/* toporun: receivers' idle end */

/* The impaired links of variant V: their roles start with every run. */
static int
variant_has_links(const struct plan *p, const struct plan_variant *v)
{
	size_t i;

	for (i = 0; i < p->nimpairs; i++)
		if (plan_impair_in_variant(&p->impairs[i], v))
			return 1;
	return 0;
}

static void
print_secs(FILE *out, int64_t ns)
{
	int64_t s = (ns + NSEC_PER_SEC / 2) / NSEC_PER_SEC;

	if (s >= 3600)
		fprintf(out, "%lld h %02lld min", (long long)(s / 3600),
		    (long long)(s % 3600 / 60));
	else if (s >= 60)
		fprintf(out, "%lld min %02lld s", (long long)(s / 60),
		    (long long)(s % 60));
	else
		fprintf(out, "%.1f s", (double)ns / 1e9);
}

/*
 * variants_mode: concurrent: the cabling and each variant flow's path
 * and destination (docs/architecture.md "Exit ports").
 */
static void
dry_concurrent(const struct plan *plan, FILE *out)
{
	const struct plan_variant *v;
	char dst[16], path[PLAN_MAX_CHAIN * (PLAN_NAME_MAX + 4)];
	size_t i, j;

	fprintf(out, "variants concurrent: one generator run per point, a "
	    "flow per variant (namespace lab; otherwise the run says why "
	    "not)\n  cabling: gen:tx -> %s, each router's exit -> a switch "
	    "(lab: bridge rx) -> gen:rx\n", plan->chain[0]);
	for (i = 0; i < plan->nvariants; i++) {
		v = &plan->variants[i];
		path[0] = '\0';
		for (j = 0; j < v->nrouters; j++)
			snprintf(path + strlen(path), sizeof(path) -
			    strlen(path), "%s -> ", plan->chain[j]);
		topo_variant_dst(v->nrouters, dst, sizeof(dst));
		fprintf(out, "  variant %s: gen:tx -> %s%s:exit -> gen:rx, "
		    "dst %s, TTL %u\n", v->label, path,
		    plan->chain[v->nrouters - 1], dst,
		    topo_expected_ttl(v->nrouters));
	}
}

/* A chain plan's ping role (runner.c), beside the l2 generator. */
static void
dry_ping(const struct plan *plan, FILE *out)
{
	size_t i;

	for (i = 0; i < plan->nflows; i++)
		if (strcmp(plan->flows[i].mode, "icmp") == 0) {
			fprintf(out, "ping: hoplab-gen --mode icmp on gen from "
			    "%s (a kernel address on gen:tx for the role) to "
			    "%s, beside the l2 generator\n", TOPO_GEN_PING_IP,
			    plan->flows[i].dst);
			return;
		}
}

/*
 * tx_io: ring (plantx.c): how the chain's one generator sends, for
 * every l2 flow alike; nothing with send, the default.
 */
static void
dry_tx_io(const struct plan *plan, FILE *out)
{
	size_t i;

	for (i = 0; i < plan->nflows; i++)
		if (strcmp(plan->flows[i].mode, "l2") == 0) {
			if (plantx_every(&plan->flows[i]) != 0)
				fprintf(out, "generator: hoplab-gen --tx-io "
				    "ring for the l2 flows, 1 frame in %u "
				    "kernel-stamped (ktx=1/%u)\n",
				    plantx_every(&plan->flows[i]),
				    plantx_every(&plan->flows[i]));
			return;
		}
}

static void
print_header(const struct plan *plan, FILE *out, size_t n)
{
	size_t k;
	int ping = !plan->topo.enabled && plan_has_mode(plan, "icmp");

	fprintf(out, "plan %s (%s): %zu run(s): %zu variant(s)", plan->name,
	    plan->path, n, plan->nvariants);
	for (k = 0; k < plan->nsweep; k++)
		fprintf(out, " x %zu %s", plan->sweep[k].nvals,
		    plan->sweep[k].name);
	fprintf(out, " x %u rep(s), ", plan->repeat);
	if (plan->order_random)
		fprintf(out, "random order (seed %llu)\n",
		    (unsigned long long)plan->order_seed);
	else if (plan->nvariants > 1 &&	/* plan_run_order() */
	    (plan->variants_mode == PLAN_VARIANTS_SEQUENTIAL || ping))
		fprintf(out, "variants sequential, interleaved (a rotation "
		    "per repetition, seed %llu)\n",
		    (unsigned long long)plan->order_seed);
	else if (plan->nvariants > 1 &&	/* runner.c conc_resolve() */
	    plan->variants_mode == PLAN_VARIANTS_DEFAULT)
		fprintf(out, "variants concurrent where the run allows it, "
		    "else sequential, interleaved (a rotation per "
		    "repetition, seed %llu)\n",
		    (unsigned long long)plan->order_seed);
	else
		fprintf(out, "in order\n");
	if (plan->variants_mode != PLAN_VARIANTS_SEQUENTIAL &&
	    plan->nvariants > 1 && !ping)
		dry_concurrent(plan, out);
	if (ping)
		dry_ping(plan, out);
	dry_tx_io(plan, out);
}

/*
 * Under a run's line, the flows that replicas: copies at that point:
 * "copies: probe x4 (probe.1 .. probe.4, 4 of 5 flows)".
 */
static void
dry_replicas(const struct plan *b, FILE *out)
{
	size_t i, j;

	for (i = 0; i < b->nflows; i = j) {
		for (j = i + 1; j < b->nflows && b->flows[i].group[0] != '\0' &&
		    b->flows[j].written == b->flows[i].written; j++)
			;
		if (b->flows[i].group[0] == '\0')
			continue;
		fprintf(out, "        copies: %s x%zu (%s .. %s, %zu of %zu "
		    "flows)\n", b->flows[i].group, j - i, b->flows[i].name,
		    b->flows[j - 1].name, j - i, b->nflows);
	}
}

/*
 * Under a run's line, each group: at that point, named at its first
 * flow: "group: devs sums 10 flows (dev1 .. dev10)" (flows_total.csv).
 */
static void
dry_groups(const struct plan *b, FILE *out)
{
	const char *g;
	size_t i, j, n, last;

	for (i = 0; i < b->nflows; i++) {
		g = b->flows[i].flowgroup;
		for (j = 0; g[0] != '\0' && j < i &&
		    strcmp(b->flows[j].flowgroup, g) != 0; j++)
			;
		if (g[0] == '\0' || j < i)	/* none, or not its first */
			continue;
		for (n = 0, last = j = i; j < b->nflows; j++)
			if (strcmp(b->flows[j].flowgroup, g) == 0) {
				n++;
				last = j;
			}
		fprintf(out, "        group: %s sums %zu flow%s (%s%s%s)\n", g,
		    n, n == 1 ? "" : "s", b->flows[i].name, n == 1 ? "" :
		    " .. ", n == 1 ? "" : b->flows[last].name);
	}
}

/* One run: bind it, print its line, add its time to *TOTAL. */
static int
dry_point(const struct plan *plan, const size_t *order, size_t i,
    size_t *prev, int64_t *total, int64_t *wiring, FILE *out, char *err,
    size_t errlen)
{
	const struct plan_variant *v;
	struct plan_point pt;
	struct plan *b;
	char label[256];
	int64_t ns;

	plan_point(plan, order, i, &pt);
	v = &plan->variants[pt.variant];
	if ((b = plan_bind(plan, &pt, err, errlen)) == NULL)
		return -1;
	ns = parse_traffic_ns(b) + GEN_DRAIN_NS + DRY_POINT_NS;
	if (variant_has_links(b, v))
		ns += DRY_LINKS_NS;
	if (plan->topo.enabled)		/* cabled and configured every run */
		ns += DRY_WIRE_NS + DRY_TOPO_RECV_NS;
	else if (pt.variant != *prev) {	/* rewire, routers, warm-up */
		*wiring += DRY_WIRE_NS + GEN_DRAIN_NS + WARMUP_PACKETS *
		    b->flows[0].idt_ns;
		*prev = pt.variant;
	}
	plan_point_label(plan, &pt, label, sizeof(label));
	fprintf(out, "%6zu  %-16s %-40s %4u %8.1f s\n", i + 1, v->label,
	    label[0] ? label : "-", pt.rep, (double)ns / 1e9);
	dry_replicas(b, out);
	dry_groups(b, out);
	*total += ns;
	plan_free(b);
	return 0;
}

/* A time of topology.routing:, or the protocol's default DEF_S. */
static void
print_timer(FILE *out, const char *name, int64_t ns, int def_s)
{
	if (ns != 0)
		fprintf(out, " %s %.3gs", name, (double)ns / NSEC_PER_SEC);
	else
		fprintf(out, " %s %ds (default)", name, def_s);
}

/* The timers of each protocol some router runs (planrouting.c). */
static void
dry_routing(const struct plantopo *t, FILE *out)
{
	const struct plantopo_timers *tm = &t->timers;
	int rip = 0, ospf = 0, bfd = 0;
	size_t h;

	for (h = 0; h < t->nhosts; h++) {
		if (!plantopo_dynamic(t, h))
			continue;
		rip |= t->hosts[h].routing == PLANTOPO_RIP;
		ospf |= t->hosts[h].routing == PLANTOPO_OSPF;
		bfd |= t->hosts[h].impl == PLAN_ROUTER_LINUX;
	}
	if (rip) {
		fprintf(out, "  routing rip:");
		print_timer(out, "update", tm->rip_update_ns, 30);
		print_timer(out, "timeout", tm->rip_timeout_ns, 180);
		print_timer(out, "garbage", tm->rip_garbage_ns, 120);
		if (tm->rip_auth)
			fprintf(out, ", auth hmac-sha256 key_id %u",
			    tm->rip_key_id);
		fprintf(out, "\n");
	}
	if (ospf) {
		fprintf(out, "  routing ospf:");
		print_timer(out, "hello", tm->ospf_hello_ns, 10);
		print_timer(out, "dead", tm->ospf_dead_ns, 40);
		fprintf(out, " (area 0, cost 10 per link)\n");
	}
	if (bfd && tm->bfd_interval_ns != 0)
		fprintf(out, "  routing bfd: interval %.3gms multiplier %u "
		    "(linux routers)\n", (double)tm->bfd_interval_ns /
		    NSEC_PER_MSEC, tm->bfd_multiplier ? tm->bfd_multiplier : 3);
}

/* Switch S: its subnet and its ports, the hosts on it, in link order. */
static void
dry_switch(const struct plantopo *t, size_t s, FILE *out)
{
	size_t l, n = 0;
	int se;

	for (l = 0; l < t->nlinks; l++) {
		if ((se = plantopo_switch_end(t, l)) == -1 ||
		    t->links[l].end[se].host != s)
			continue;
		if (n++ == 0)
			fprintf(out, "  host  %-12s switch (bridge)  "
			    "198.18.%u.0/24, ports", t->hosts[s].name,
			    t->links[l].net);
		fprintf(out, " %s %s", t->links[l].end[se].iface,
		    t->links[l].end[!se].ip);
	}
	fprintf(out, "\n");
}

/* The hosts and links of a topology plan. */
static void
dry_hosts_links(const struct plantopo *t, FILE *out)
{
	const struct plantopo_link *l;
	const char *ip;
	size_t i;

	fprintf(out, "topology: %zu host(s), %zu link(s), %zu route(s)\n",
	    t->nhosts, t->nlinks, t->nroutes);
	for (i = 0; i < t->nhosts; i++) {
		ip = plantopo_host_ip(t, i);
		if (t->hosts[i].kind == PLANTOPO_SWITCH)
			dry_switch(t, i, out);
		else if (t->hosts[i].kind == PLANTOPO_END)
			fprintf(out, "  host  %-12s end host         %s\n",
			    t->hosts[i].name, ip != NULL ? ip : "-");
		else if (plantopo_dynamic(t, i))
			fprintf(out, "  host  %-12s router (%s, %s)\n",
			    t->hosts[i].name,
			    plan_router_impl_name(t->hosts[i].impl),
			    plantopo_routing_name(t->hosts[i].routing));
		else
			fprintf(out, "  host  %-12s router (%s)\n",
			    t->hosts[i].name,
			    plan_router_impl_name(t->hosts[i].impl));
	}
	dry_routing(t, out);
	plannat_dry(t, out);
	for (i = 0; i < t->nlinks; i++) {
		l = &t->links[i];
		fprintf(out, "  link  %-25s 198.18.%u.0/24  %s %s (dev %s), "
		    "%s %s (dev %s)\n", l->name, l->net,
		    t->hosts[l->end[0].host].name, l->end[0].ip[0] ?
		    l->end[0].ip : "port", l->end[0].iface,
		    t->hosts[l->end[1].host].name, l->end[1].ip[0] ?
		    l->end[1].ip : "port", l->end[1].iface);
	}
}

/* Each host's routes, then each flow's path. */
static void
dry_routes_paths(const struct plan *plan, FILE *out)
{
	const struct plantopo *t = &plan->topo;
	const struct plantopo_route *r;
	size_t i, h, hops[PLANTOPO_MAX_HOSTS], n, k;
	const char *nat;
	char why[128];

	for (h = 0; h < t->nhosts; h++)
		for (i = 0; i < t->nroutes; i++) {
			r = &t->routes[i];
			if (r->host != h)
				continue;
			fprintf(out, "  route %-12s %-18s via %-15s dev %-12s "
			    "metric %u", t->hosts[h].name, r->prefix, r->via,
			    r->iface, r->metric);
			for (k = 0; k < r->necmp; k++)
				fprintf(out, "%s via %s dev %s", k ? "," :
				    " (multipath, hashed per flow on L4: also",
				    r->ecmp_via[k], r->ecmp_iface[k]);
			if (r->necmp > 0)
				fprintf(out, ")");
			if (r->line > 0)
				fprintf(out, " (line %d)", r->line);
			if (plantopo_dynamic(t, h))
				fprintf(out, " (expected from %s)",
				    plantopo_routing_name(t->hosts[h].routing));
			else if (t->hosts[h].kind == PLANTOPO_ROUTER &&
			    t->hosts[h].impl == PLAN_ROUTER_EXTERNAL)
				fprintf(out, " (external: not installed, "
				    "configure it there)");
			fprintf(out, "\n");
		}
	for (i = 0; i < plan->nimpairs; i++)
		fprintf(out, "  impair %-11s forward \"%s\", reverse \"%s\" "
		    "(wire host w-%s)\n", plan->impairs[i].link,
		    plan->impairs[i].forward[0] ? plan->impairs[i].forward :
		    "none", plan->impairs[i].reverse[0] ?
		    plan->impairs[i].reverse : "none", plan->impairs[i].link);
	for (i = 0; plan->capture.enabled && i < plan->capture.nifaces; i++)
		fprintf(out, "  capture %s:%s\n", plan->capture.host[i],
		    plan->capture.iface[i]);
	for (i = 0; i < plan->nflows; i++) {
		fprintf(out, "  flow  %-12s %-4s ", plan->flows[i].name,
		    plan->flows[i].mode);
		if (plantopo_path_addr(t, (size_t)plan->flows[i].from_host,
		    plan_flow_target(plan, &plan->flows[i]), hops,
		    PLANTOPO_MAX_HOSTS, &n, why, sizeof(why)) == -1) {
			fprintf(out, "no path: %s\n", why);
			continue;
		}
		for (k = 0; k < n; k++)
			fprintf(out, "%s%s", k ? " -> " : "",
			    t->hosts[hops[k]].name);
		if ((nat = plannat_source(t, hops, n, &k)) != NULL)
			fprintf(out, " (%s translates the source to %s)",
			    t->hosts[k].name, nat);
		if (plan->flows[i].tcp_bytes > 0)
			fprintf(out, "  (download of %llu bytes over %u "
			    "stream(s), cc %s, limit %.1f s)",
			    (unsigned long long)plan->flows[i].tcp_bytes,
			    plan->flows[i].tcp_streams,
			    plan->flows[i].tcp_cc[0] ? plan->flows[i].tcp_cc :
			    "the kernel's", plan->flows[i].duration_ns / 1e9);
		if (plan->flows[i].flowgroup[0] != '\0')
			fprintf(out, "  (group %s)", plan->flows[i].flowgroup);
		fprintf(out, "\n");
		if (t->ecmp)	/* each path the hashing may choose */
			planecmp_print_paths(t,
			    (size_t)plan->flows[i].from_host,
			    plan_flow_target(plan, &plan->flows[i]),
			    "        ", out);
	}
}

/*
 * A plan with rfc2544: (controller/run/rfc2544.c): per variant and frame
 * size, at most 1 + ceil(log2(1 / resolution)) throughput trials, one
 * latency trial, 10 loss trials and 1 + ceil(log2(max_rate x trial))
 * back-to-back bursts, each counted as a whole trial + drain + overhead.
 */
static void
dry_rfc2544(const struct plan *plan, FILE *out)
{
	const struct plan_rfc2544 *rfc = &plan->rfc;
	unsigned n = 0;
	int64_t per, total;

	if (rfc->tests & PLAN_RFC_THROUGHPUT)
		n += 1 + (unsigned)ceil(log2(1 / rfc->resolution) - 1e-9);
	if (rfc->tests & PLAN_RFC_LATENCY)
		n += 1;
	if (rfc->tests & PLAN_RFC_LOSS)
		n += 10;
	if (rfc->tests & PLAN_RFC_B2B)
		n += 1 + (unsigned)ceil(log2(fmax(1, rfc->max_rate *
		    rfc->trial_ns / 1e9)) - 1e-9);
	per = rfc->trial_ns + GEN_DRAIN_NS + DRY_POINT_NS;
	total = (int64_t)(n * rfc->nframes * plan->nvariants) * per +
	    (int64_t)plan->nvariants * (DRY_WIRE_NS + GEN_DRAIN_NS +
	    WARMUP_PACKETS * plan->flows[0].idt_ns);
	fprintf(out, "plan %s (%s): RFC 2544 on %zu variant(s) x %zu frame "
	    "size(s), at most %u trial(s) of %.1f s each\nestimate: at most ",
	    plan->name, plan->path, plan->nvariants, rfc->nframes, n,
	    rfc->trial_ns / 1e9);
	print_secs(out, total);
	fprintf(out, "\n");
}

/* The total of N runs: TOTAL traffic and runs, WIRING the changes. */
static void
print_estimate(const struct plan *plan, FILE *out, size_t n, int64_t total,
    int64_t wiring)
{
	fprintf(out, "estimate: ");
	print_secs(out, total + wiring);
	if (plan->topo.enabled) {
		fprintf(out, " for %zu run(s) (per run: traffic + %.1f s "
		    "drain + %.0f s cabling and routers + %.0f s for the "
		    "receivers to end + %.1f s overhead)\n", n,
		    GEN_DRAIN_NS / 1e9, DRY_WIRE_NS / 1e9,
		    DRY_TOPO_RECV_NS / 1e9, DRY_POINT_NS / 1e9);
		if (plan_has_download(plan))
			fprintf(out, "  (a download's traffic time is its "
			    "limit, duration: or 600 s: it ends as soon as its "
			    "bytes arrived, bytes x 8 / the path's rate)\n");
		return;
	}
	fprintf(out, " for %zu run(s) (runs ", n);
	print_secs(out, total);
	fprintf(out, ", variant changes ");
	print_secs(out, wiring);
	fprintf(out, "; per run: traffic + %.1f s drain + %.1f s overhead "
	    "(+ %.1f s with impaired links); per variant change: %.0f s "
	    "wiring + warm-up of %d packets + %.1f s drain)\n",
	    GEN_DRAIN_NS / 1e9, DRY_POINT_NS / 1e9, DRY_LINKS_NS / 1e9,
	    DRY_WIRE_NS / 1e9, WARMUP_PACKETS, GEN_DRAIN_NS / 1e9);
}

int
dryrun_print(const struct plan *plan, FILE *out, char *err, size_t errlen)
{
	size_t n = plan_npoints(plan), i, prev = (size_t)-1;
	size_t *order = plan_run_order(plan);
	int64_t total = 0, wiring = 0;
	int rc = 0;

	if (plan->rfc.enabled) {
		free(order);
		dry_rfc2544(plan, out);
		return 0;
	}
	if (PLAN_RUN_ORDERED(plan) && order == NULL) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	print_header(plan, out, n);
	if (plan->topo.enabled) {
		dry_hosts_links(&plan->topo, out);
		dry_routes_paths(plan, out);
	}
	fprintf(out, "%6s  %-16s %-40s %4s %10s\n", "run", "variant",
	    "sweep", "rep", "estimate");
	for (i = 0; rc == 0 && i < n; i++)
		rc = dry_point(plan, order, i, &prev, &total, &wiring, out,
		    err, errlen);
	free(order);
	if (rc == -1)
		return -1;
	print_estimate(plan, out, n, total, wiring);
	return 0;
}
