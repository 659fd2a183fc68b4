/*
 * planflow: the flows: section of a plan (docs/plans.md, sections.h),
 * read by plansweep_read() for plan.c, after the sweep is known.
 *
 * A flow is a frame length (or a distribution of them, or "$frame" from
 * the sweep), an inter-departure time (or a distribution), a count and/or
 * a duration, a DSCP, a seed, and for on/off sources a burst size and a
 * pause.  preset: NAME (lib/preset.h) fills frame, idt, burst, off and
 * dscp for a real service from the same table hoplab-gen uses; keys the
 * flow gives override the preset's.  Errors name the file, line and key
 * like every plan error; a preset's own values are reported at the
 * preset: key.
 *
 * With bursts, idt_ns becomes the flow's mean gap ((B - 1) IDT + OFF) /
 * B, so that count x idt_ns stays the flow's length for whoever plans
 * time (the controller's deadlines), and the gap within a burst travels
 * in idt_dist ("const:121440ns" when constant).  duration: without count
 * derives a count bound (preset_duration_count()).
 *
 * dst: gives a flow its own destination address, which the generator
 * owns on its rx interface (it answers ARP for it), so flows to
 * different destinations cross the routers as different destinations and
 * are measured apart.  The lab's chain routes 198.18.100.0/24 to gen.rx
 * (docs/architecture.md), so dst must be in it: 198.18.100.2 (the
 * default, the generator's own) .. .254; .1 is the last router's.
 *
 * In a topology plan (plantopo.c) a flow goes from: one end host to:
 * another, along a path the loader checks (plantopo_path); its mode is
 * udp (the default: the same keys as l2) or tcp (one bulk transfer of a
 * duration: no frame, idt or count), or icmp: echo requests (ping) from
 * the from: host, idt apart, to the to: host's address or to dst:, any
 * address a route of the plan reaches (plantopo_path_addr: a router's
 * interface, a host's), frame being the Ethernet frame of each request
 * (ICMP message + 38 bytes); no preset or rate.
 *
 * In a chain plan a flow is l2 (the default) or icmp: echo requests
 * from the generator's own kernel address (topo.h TOPO_GEN_PING_IP),
 * run beside the l2 flows (at least one), to dst: (default the last
 * router's address, TOPO_PING_DEFAULT), which must be an address of a
 * router of the shortest variant (topo_router_owning).
 *
 * tx_io: send|ring and tx_stamp_every: N (plantx.c) choose how the
 * chain's generator sends its l2 frames, alike for every l2 flow.
 *
 * spin: DURATION|auto asks hoplab-gen's pacer to spin at least DURATION
 * (1us..100ms) before each of the flow's deadlines, for a user who pays
 * the CPU for fewer late departures (docs/generator.md "Pacing").
 *
 * replicas: N (1..64, or "$n" from the sweep) makes the flow stand for N
 * flows NAME.1 .. NAME.N, each its own entry of plan.flows (so each has
 * its own index, and with it its own ports wherever the runners give a
 * flow ports), the written name kept in their group; without the key the
 * flow is one, named as written.  The copies are made after every flow
 * is read (planreplica.c), so errors name the flow as written; at most
 * PLAN_MAX_FLOWS flows with the copies.  group: NAME puts the flow (all
 * its copies) in group NAME, whose flows flows_total.csv sums per run.
 *
 * Deliberately not here: udp and tcp in chain plans, l2 in topology
 * plans (each needs what the other kind of lab has: the chain's
 * generator owns its addresses in user space, without the kernel
 * address a socket needs; refused with a message).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>

#include "clock.h"
#include "datafile.h"
#include "dist.h"
#include "dscp.h"
#include "controller/plan/plan.h"
#include "controller/plan/plannat.h"
#include "controller/plan/plandl.h"
#include "controller/plan/planping.h"
#include "controller/plan/planreplica.h"
#include "controller/plan/plantx.h"
#include "controller/plan/sections.h"
#include "controller/plan/topo.h"
#include "preset.h"
#include "yamldoc.h"

#define COUNT_MAX	100000000LL
#define IDT_MIN_NS	(1 * NSEC_PER_USEC)
#define IDT_MAX_NS	(60 * NSEC_PER_SEC)
#define DURATION_MAX_NS	(86400 * NSEC_PER_SEC)
#define BURST_MAX	1000000
#define SPIN_MAX_NS	(100 * NSEC_PER_MSEC)	/* hoplab-gen's pace.h */

static const char *const flow_keys[] = {
	"name", "mode", "frame", "idt", "count", "dscp", "seed", "preset",
	"rate", "duration", "burst", "off", "dst", "spin", "bytes", "streams",
	"cc", "replicas", "group", "tx_io", "tx_stamp_every", "from", "to",
};
enum { F_NAME, F_MODE, F_FRAME, F_IDT, F_COUNT, F_DSCP, F_SEED, F_PRESET,
    F_RATE, F_DURATION, F_BURST, F_OFF, F_DST, F_SPIN, F_BYTES, F_STREAMS,
    F_CC, F_REPLICAS, F_GROUP, F_TX_IO, F_TX_STAMP, F_FROM, F_TO,
    F_NKEYS };

static const char *const dist_keys[] = { "dist", "value" };

/* The families of lib/dist.h, as a plan's dist: key names them. */
static const char *const plan_dists[] = {
	"uniform", "exp", "normal", "lognormal", "pareto", "cauchy", "gamma",
	"weibull", "csv", "pcap-sizes", "pcap-gaps",
};

/* The family NODE names, or NULL (with the error reported) if unknown. */
static const char *
check_dist(struct parse_ctx *c, yaml_node_t *node, const char *path)
{
	char got[64];
	size_t i;

	if (yamldoc_is(node, "const"))
		return "const";
	if (yamldoc_is(node, "exponential"))
		return "exp";
	for (i = 0; i < sizeof(plan_dists) / sizeof(plan_dists[0]); i++)
		if (yamldoc_is(node, plan_dists[i]))
			return plan_dists[i];
	yamldoc_got(node, got, sizeof(got));
	PERR(c, node, path, "expected const, uniform, exp, normal, lognormal, "
	    "pareto, cauchy, gamma, weibull, csv, pcap-sizes or pcap-gaps, "
	    "got %s", got);
	return NULL;
}

/*
 * A value that may be written as VALUE, as the text form NAME:PARAMS
 * (docs/generator.md) or as {dist: NAME, value: PARAMS}.  Replaces *NODE
 * and PATH by the value's; a distribution other than const goes to DIST
 * as "NAME:PARAMS" (DIST is "" otherwise).
 */
static int
unwrap_dist(struct parse_ctx *c, yaml_node_t **node, char *path, size_t len,
    char *dist, size_t dlen)
{
	yaml_node_t *v[2];
	char sub[YAMLDOC_PATH_MAX];
	const char *name = "const", *t;

	dist[0] = '\0';
	if ((*node)->type != YAML_MAPPING_NODE) {
		t = yamldoc_text(*node);
		if (t != NULL && strchr(t, ':') != NULL)
			snprintf(dist, dlen, "%s", t);
		return 0;
	}
	if (yamldoc_map_fields(c->yd, *node, path, dist_keys, 2, v, c->err,
	    c->errlen) == -1)
		return -1;
	yamldoc_path_key(sub, sizeof(sub), path, "dist");
	if (v[0] != NULL && (name = check_dist(c, v[0], sub)) == NULL)
		return -1;
	if (v[1] == NULL)
		return parse_missing(c, *node, path, "value");
	yamldoc_path_key(sub, sizeof(sub), path, "value");
	snprintf(path, len, "%s", sub);
	*node = v[1];
	t = yamldoc_text(*node);
	if (strcmp(name, "const") != 0)
		snprintf(dist, dlen, "%s:%s", name, t != NULL ? t : "");
	return 0;
}

/*
 * Check the distribution text DIST of a flow's frame (BYTES) or idt:
 * it must parse, and give sizes in 64..1518 or a mean in 1us..60s.  The
 * nominal value (mean, or location without one) goes to *NOMINAL.
 */
/*
 * A file distribution names a plain file of the plan's folder, which the
 * check reads here and the run ships to the generator's agent (or, too
 * big to ship, the agent reads from its data folder, hoplab-agent
 * --data): anything else the agent refuses (issue 17), so say so here.
 */
static int
check_dist_file(struct parse_ctx *c, yaml_node_t *node, const char *path,
    const char *dist)
{
	static char dir[256];	/* kept: dist_set_data_dir does not copy */
	const char *file = dist_file(dist);

	if (file == NULL)
		return 0;
	if (datafile_name_ok(file)) {	/* read from the plan's folder */
		plan_dir(c->p, dir, sizeof(dir));
		dist_set_data_dir(dir);
		return 0;
	}
	return PERR(c, node, path, "%s: the file is a plain name of the "
	    "plan's folder (no '/', not starting with '.'), which hoplab run "
	    "ships to the generator's agent", dist);
}

static int
check_dist_text(struct parse_ctx *c, yaml_node_t *node, const char *path,
    const char *dist, int bytes, double *nominal)
{
	char why[192];
	struct dist d;
	double m;
	int bad;

	if (check_dist_file(c, node, path, dist) == -1)
		return -1;
	if (dist_parse(&d, dist, bytes ? DIST_BYTES : DIST_TIME, 1, why,
	    sizeof(why)) == -1)
		return PERR(c, node, path, "%s", why);
	m = dist_mean(&d);
	if (!(m == m) || m > 1e300)	/* NaN or infinite: the location */
		m = d.p[d.ops->shape_first ? 1 : 0];
	bad = bytes ? dist_cdf(&d, FRAME_MAX + 0.5) -
	    dist_cdf(&d, FRAME_MIN - 0.5) <= 0 :
	    !(m >= IDT_MIN_NS && m <= IDT_MAX_NS);
	dist_free(&d);
	if (bad)
		return PERR(c, node, path, bytes ? "%s gives no size in "
		    "64..1518 (" FRAME_HINT ")" : "%s: expected a mean of "
		    "1us..60s", dist);
	*nominal = m;
	return 0;
}

static int
parse_frame(struct parse_ctx *c, yaml_node_t *node, const char *fpath,
    struct plan_flow *f)
{
	char path[YAMLDOC_PATH_MAX], got[64];
	long long v;

	double m;

	yamldoc_path_key(path, sizeof(path), fpath, "frame");
	if (unwrap_dist(c, &node, path, sizeof(path), f->frame_dist,
	    sizeof(f->frame_dist)) == -1)
		return -1;
	if (f->frame_dist[0] != '\0') {
		if (check_dist_text(c, node, path, f->frame_dist, 1, &m) == -1)
			return -1;
		f->frame = m < FRAME_MIN ? FRAME_MIN : m > FRAME_MAX ?
		    FRAME_MAX : (unsigned)(m + 0.5);
		return 0;
	}
	if (yamldoc_is(node, "$frame")) {
		if (c->p->nsweep_frames == 0)
			return PERR(c, node, path, "'$frame' needs sweep.frame "
			    "(add sweep: {frame: [64, 1518]} or give a fixed "
			    "frame length)");
		f->frame_from_sweep = 1;
		return 0;
	}
	if (yamldoc_text(node) != NULL && yamldoc_text(node)[0] == '$')
		return PERR(c, node, path, "expected a frame length or "
		    "$frame, got %s", yamldoc_got(node, got, sizeof(got)));
	if (yamldoc_int(c->yd, node, path, FRAME_MIN, FRAME_MAX, FRAME_HINT,
	    &v, c->err, c->errlen) == -1)
		return -1;
	f->frame = (unsigned)v;
	return 0;
}

static int
parse_idt(struct parse_ctx *c, yaml_node_t *node, const char *fpath,
    struct plan_flow *f)
{
	char path[YAMLDOC_PATH_MAX], got[64], s[64], cerr[128];

	double m;

	yamldoc_path_key(path, sizeof(path), fpath, "idt");
	if (unwrap_dist(c, &node, path, sizeof(path), f->idt_dist,
	    sizeof(f->idt_dist)) == -1)
		return -1;
	if (f->idt_dist[0] != '\0') {
		if (check_dist_text(c, node, path, f->idt_dist, 0, &m) == -1)
			return -1;
		f->idt_ns = (int64_t)(m + 0.5);
		return 0;
	}
	yamldoc_got(node, got, sizeof(got));
	if (node->type != YAML_SCALAR_NODE || yamldoc_str(c->yd, node, path,
	    "a duration", s, sizeof(s), c->err, c->errlen) == -1 ||
	    clock_parse_duration(s, &f->idt_ns, cerr, sizeof(cerr)) == -1)
		return PERR(c, node, path, "expected a duration with a unit "
		    "(ns, us, ms, s), such as 1ms, got %s", got);
	if (f->idt_ns < IDT_MIN_NS || f->idt_ns > IDT_MAX_NS)
		return PERR(c, node, path, "expected 1us..60s, got %s", got);
	return 0;
}

/*
 * mode: l2 (the default) or icmp in a chain plan; udp (the default), tcp
 * or icmp in a topology plan, from an end host.
 */
static int
parse_mode(struct parse_ctx *c, yaml_node_t *node, const char *fpath,
    struct plan_flow *f)
{
	char path[YAMLDOC_PATH_MAX], got[64];

	yamldoc_path_key(path, sizeof(path), fpath, "mode");
	yamldoc_got(node, got, sizeof(got));
	if (c->p->topo.enabled) {
		snprintf(f->mode, sizeof(f->mode), "udp");
		if (node == NULL || yamldoc_is(node, "udp"))
			return 0;
		if (yamldoc_is(node, "tcp") || yamldoc_is(node, "icmp")) {
			snprintf(f->mode, sizeof(f->mode), "%s",
			    yamldoc_text(node));
			return 0;
		}
		if (yamldoc_is(node, "l2"))
			return PERR(c, node, path, "l2 is not available in a "
			    "topology plan (it needs the chain's two-interface "
			    "generator); use udp, tcp or icmp");
		return PERR(c, node, path, "expected udp, tcp or icmp, got %s",
		    got);
	}
	snprintf(f->mode, sizeof(f->mode), "l2");
	if (node == NULL || yamldoc_is(node, "l2"))
		return 0;
	if (yamldoc_is(node, "icmp")) {
		snprintf(f->mode, sizeof(f->mode), "icmp");
		return 0;
	}
	if (yamldoc_is(node, "udp") || yamldoc_is(node, "tcp"))
		return PERR(c, node, path, "%s is not available yet (only l2 "
		    "or icmp)", got);
	return PERR(c, node, path, "expected l2 or icmp, got %s", got);
}

static int
parse_dscp(struct parse_ctx *c, yaml_node_t *node, const char *fpath,
    struct plan_flow *f)
{
	char path[YAMLDOC_PATH_MAX], got[64];

	f->dscp = 0;
	if (node == NULL)
		return 0;
	yamldoc_path_key(path, sizeof(path), fpath, "dscp");
	if (yamldoc_text(node) == NULL ||
	    dscp_parse(yamldoc_text(node), &f->dscp) == -1)
		return PERR(c, node, path, "expected BE, EF, AF11..AF43, "
		    "CS0..CS7 or 0..63, got %s",
		    yamldoc_got(node, got, sizeof(got)));
	return 0;
}

static int
flow_name(struct parse_ctx *c, yaml_node_t *node, const char *fpath, size_t i)
{
	struct plan_flow *f = &c->p->flows[i];
	char path[YAMLDOC_PATH_MAX];
	size_t j;

	yamldoc_path_key(path, sizeof(path), fpath, "name");
	if (parse_name(c, node, path, f->name, sizeof(f->name)) == -1)
		return -1;
	for (j = 0; j < i; j++)
		if (strcmp(c->p->flows[j].name, f->name) == 0)
			return PERR(c, node, path, "'%s' is already the name "
			    "of flows[%zu] (line %d)", f->name, j,
			    c->p->flows[j].line);
	return 0;
}

/*
 * A preset's value TEXT for a key the flow does not set: parsed as if
 * written in the plan, errors pointing at the preset (NODE, PATH).
 */
static int
preset_value(struct parse_ctx *c, yaml_node_t *node, const char *path,
    const char *key, const char *text, struct plan_flow *f)
{
	char cerr[128];
	double m;

	if (strcmp(key, "frame") == 0 && strchr(text, ':') == NULL) {
		f->frame = (unsigned)atoi(text);
		return 0;
	}
	if (strcmp(key, "frame") == 0) {
		snprintf(f->frame_dist, sizeof(f->frame_dist), "%s", text);
		if (check_dist_text(c, node, path, text, 1, &m) == -1)
			return -1;
		f->frame = m < FRAME_MIN ? FRAME_MIN : m > FRAME_MAX ?
		    FRAME_MAX : (unsigned)(m + 0.5);
		return 0;
	}
	/* idt */
	if (strchr(text, ':') == NULL)
		return clock_parse_duration(text, &f->idt_ns, cerr,
		    sizeof(cerr)) == -1 ? PERR(c, node, path, "%s", cerr) : 0;
	snprintf(f->idt_dist, sizeof(f->idt_dist), "%s", text);
	if (check_dist_text(c, node, path, text, 0, &m) == -1)
		return -1;
	f->idt_ns = (int64_t)(m + 0.5);
	return 0;
}

/* preset: NAME and rate: R, expanded into *PF (PF->name NULL: none). */
static int
parse_preset(struct parse_ctx *c, yaml_node_t **v, const char *fpath,
    struct plan_flow *f, struct preset_flow *pf)
{
	char path[YAMLDOC_PATH_MAX], got[64], why[192];
	const char *t;

	memset(pf, 0, sizeof(*pf));
	if (v[F_PRESET] == NULL && v[F_RATE] == NULL)
		return 0;
	yamldoc_path_key(path, sizeof(path), fpath, "rate");
	if (v[F_PRESET] == NULL)
		return PERR(c, v[F_RATE], path, "only with preset: (set idt "
		    "for a rate of your own)");
	if (v[F_RATE] != NULL && ((t = yamldoc_text(v[F_RATE])) == NULL ||
	    preset_parse_rate(t, &f->rate_bps) == -1))
		return PERR(c, v[F_RATE], path, "expected a bit rate such as "
		    "4 (Mbit/s), 500k, 1.5M or 1G, got %s",
		    yamldoc_got(v[F_RATE], got, sizeof(got)));
	yamldoc_path_key(path, sizeof(path), fpath, "preset");
	if ((t = yamldoc_text(v[F_PRESET])) == NULL ||
	    preset_expand(t, f->rate_bps, pf, why, sizeof(why)) == -1)
		return PERR(c, v[F_PRESET], path, "%s", t == NULL ?
		    "expected a preset name" : why);
	snprintf(f->preset, sizeof(f->preset), "%s", pf->name);
	f->rate_bps = pf->rate_bps;
	return 0;
}

/*
 * burst (packets, a mean of 1..BURST_MAX) or off (a duration, a mean of
 * 0..60s): written as a value, NAME:PARAMS or {dist:, value:}, or the
 * preset's TEXT when NODE is NULL.  *MEAN gets the nominal value.
 */
static int
parse_onoff(struct parse_ctx *c, yaml_node_t *node, yaml_node_t *pnode,
    const char *fpath, const char *key, const char *text, char *out,
    size_t outlen, double *mean)
{
	char path[YAMLDOC_PATH_MAX], why[192];
	int bytes = strcmp(key, "burst") == 0;
	struct dist d;
	double lo = bytes ? 1 : 0, hi = bytes ? BURST_MAX : IDT_MAX_NS;

	yamldoc_path_key(path, sizeof(path), fpath, node ? key : "preset");
	if (node != NULL) {
		if (unwrap_dist(c, &node, path, sizeof(path), out, outlen) == -1)
			return -1;
		if (out[0] == '\0' && yamldoc_text(node) != NULL)
			snprintf(out, outlen, "%s", yamldoc_text(node));
	} else {
		node = pnode;
		snprintf(out, outlen, "%s", text);
	}
	if (check_dist_file(c, node, path, out) == -1)
		return -1;
	if (dist_parse(&d, out, bytes ? DIST_BYTES : DIST_TIME, 1, why,
	    sizeof(why)) == -1)
		return PERR(c, node, path, "%s: %s", key, why);
	*mean = dist_mean(&d);
	if (!(*mean == *mean) || *mean > 1e300)
		*mean = d.p[d.ops->shape_first ? 1 : 0];
	dist_free(&d);
	if (!(*mean >= lo && *mean <= hi))
		return PERR(c, node, path, bytes ? "%s: expected a mean of "
		    "1..1000000 packets" : "%s: expected a mean of 0..60s",
		    out);
	return 0;
}

/* frame, idt, burst and off: the flow's own or its preset's. */
static int
parse_model(struct parse_ctx *c, yaml_node_t **v, yaml_node_t *node,
    const char *fpath, struct plan_flow *f, const struct preset_flow *pf)
{
	char path[YAMLDOC_PATH_MAX];
	double burst = 0, off = 0, gap;

	yamldoc_path_key(path, sizeof(path), fpath, "preset");
	if (v[F_FRAME] != NULL ? parse_frame(c, v[F_FRAME], fpath, f) :
	    pf->name == NULL ? parse_missing(c, node, fpath, "frame") :
	    preset_value(c, v[F_PRESET], path, "frame", pf->frame, f))
		return -1;
	if (v[F_IDT] != NULL ? parse_idt(c, v[F_IDT], fpath, f) :
	    pf->name == NULL ? parse_missing(c, node, fpath, "idt") :
	    preset_value(c, v[F_PRESET], path, "idt", pf->idt, f))
		return -1;
	if ((v[F_BURST] != NULL || (pf->name && pf->burst[0])) &&
	    parse_onoff(c, v[F_BURST], v[F_PRESET], fpath, "burst",
	    pf->burst, f->burst_dist, sizeof(f->burst_dist), &burst) == -1)
		return -1;
	if ((v[F_OFF] != NULL || (pf->name && pf->off[0])) &&
	    parse_onoff(c, v[F_OFF], v[F_PRESET], fpath, "off", pf->off,
	    f->off_dist, sizeof(f->off_dist), &off) == -1)
		return -1;
	if (!f->burst_dist[0] != !f->off_dist[0])
		return parse_missing(c, node, fpath, f->burst_dist[0] ? "off" :
		    "burst");
	if (!f->burst_dist[0])
		return 0;
	/* idt_ns becomes the mean gap; the gap within a burst is idt_dist. */
	if (f->idt_dist[0] == '\0')
		snprintf(f->idt_dist, sizeof(f->idt_dist), "const:%lldns",
		    (long long)f->idt_ns);
	gap = preset_mean_gap((double)f->idt_ns, burst, off);
	f->idt_ns = gap < 1 ? 1 : (int64_t)(gap + 0.5);
	return 0;
}

/*
 * count and duration: at least one (without either, count is reported
 * missing); duration alone derives a count bound.
 */
/* duration: 1ms..24h, into f->duration_ns. */
static int
parse_duration(struct parse_ctx *c, yaml_node_t *node, const char *fpath,
    struct plan_flow *f)
{
	char path[YAMLDOC_PATH_MAX], got[64], s[64], cerr[128];

	yamldoc_path_key(path, sizeof(path), fpath, "duration");
	yamldoc_got(node, got, sizeof(got));
	if (yamldoc_str(c->yd, node, path, "a duration", s, sizeof(s), c->err,
	    c->errlen) == -1 || clock_parse_duration(s, &f->duration_ns, cerr,
	    sizeof(cerr)) == -1 || f->duration_ns < NSEC_PER_MSEC ||
	    f->duration_ns > DURATION_MAX_NS)
		return PERR(c, node, path, "expected a duration of 1ms..24h "
		    "with its unit, got %s", got);
	return 0;
}

static int
parse_bounds(struct parse_ctx *c, yaml_node_t **v, yaml_node_t *node,
    const char *fpath, struct plan_flow *f)
{
	char path[YAMLDOC_PATH_MAX];
	long long n;

	if (v[F_COUNT] == NULL && v[F_DURATION] == NULL)
		return parse_missing(c, node, fpath, "count");
	if (v[F_DURATION] != NULL) {
		if (parse_duration(c, v[F_DURATION], fpath, f) == -1)
			return -1;
		f->count = preset_duration_count(f->duration_ns,
		    (double)f->idt_ns, COUNT_MAX);
	}
	if (v[F_COUNT] == NULL)
		return 0;
	yamldoc_path_key(path, sizeof(path), fpath, "count");
	if (yamldoc_int(c->yd, v[F_COUNT], path, 1, COUNT_MAX, NULL, &n,
	    c->err, c->errlen) == -1)
		return -1;
	f->count = (uint64_t)n;
	return 0;
}

/* dst: an address of 198.18.100.2..254 (PLAN_DST_NET), or the default. */
static int
parse_dst(struct parse_ctx *c, yaml_node_t *node, const char *fpath,
    struct plan_flow *f)
{
	char path[YAMLDOC_PATH_MAX], got[64];
	struct in_addr a;
	uint32_t h;

	f->dst[0] = '\0';
	yamldoc_path_key(path, sizeof(path), fpath, "dst");
	if (!c->p->topo.enabled && strcmp(f->mode, "icmp") == 0)
		return planping_dst_chain(c, node, path, f);
	if (node == NULL)
		return 0;
	if (c->p->topo.enabled && strcmp(f->mode, "icmp") == 0)
		return planping_dst_topo(c, node, path, f);
	if (c->p->topo.enabled)
		return PERR(c, node, path, "only in a chain plan or for an icmp "
		    "flow (a topology plan's udp or tcp flow goes to the "
		    "address of its to: host)");
	if (yamldoc_text(node) == NULL ||
	    inet_pton(AF_INET, yamldoc_text(node), &a) != 1 ||
	    ((h = ntohl(a.s_addr)) & 0xffffff00U) != PLAN_DST_NET ||
	    (h & 0xff) < 2 || (h & 0xff) > 254)
		return PERR(c, node, path, "expected an IPv4 address in "
		    "198.18.100.2..198.18.100.254 (the subnet the lab's chain "
		    "routes to the generator's rx), got %s",
		    yamldoc_got(node, got, sizeof(got)));
	inet_ntop(AF_INET, &a, f->dst, sizeof(f->dst));
	return 0;
}

/* spin: auto (0, the default) or a duration of 1us..100ms. */
static int
parse_spin(struct parse_ctx *c, yaml_node_t *node, const char *fpath,
    struct plan_flow *f)
{
	char path[YAMLDOC_PATH_MAX], got[64], cerr[128];
	const char *t;

	f->spin_ns = 0;
	if (node == NULL || yamldoc_is(node, "auto"))
		return 0;
	yamldoc_path_key(path, sizeof(path), fpath, "spin");
	if ((t = yamldoc_text(node)) == NULL || node->type !=
	    YAML_SCALAR_NODE || clock_parse_duration(t, &f->spin_ns, cerr,
	    sizeof(cerr)) == -1 || f->spin_ns < NSEC_PER_USEC ||
	    f->spin_ns > SPIN_MAX_NS)
		return PERR(c, node, path, "expected auto or a duration of "
		    "1us..100ms with its unit (the least spin before each "
		    "deadline), got %s", yamldoc_got(node, got, sizeof(got)));
	return 0;
}

/* from: or to: (KEY) of a topology plan's flow: an end host, into *H. */
static int
flow_end(struct parse_ctx *c, yaml_node_t *node, const char *fpath,
    const char *key, char *name, int *h)
{
	const struct plantopo *t = &c->p->topo;
	char path[YAMLDOC_PATH_MAX], got[64], ends[256];

	yamldoc_path_key(path, sizeof(path), fpath, key);
	yamldoc_got(node, got, sizeof(got));
	if (yamldoc_str(c->yd, node, path, "an end host", name,
	    PLANTOPO_NAME_MAX, c->err, c->errlen) == -1)
		return -1;
	if (!c->topo_ok)	/* the hosts are not all known */
		return 0;
	plantopo_names(t, PLANTOPO_END, ends, sizeof(ends));
	if ((*h = plantopo_host(t, name)) == -1)
		return PERR(c, node, path, "expected an end host of "
		    "topology.hosts (%s), got %s", ends, got);
	if (t->hosts[*h].kind != PLANTOPO_END)
		return PERR(c, node, path, "%s is a %s (expected an end "
		    "host: %s)", name, t->hosts[*h].kind == PLANTOPO_SWITCH ?
		    "switch" : "router", ends);
	return 0;
}

/*
 * from: and to: of a flow: two end hosts in a topology plan, with a path
 * between them (plantopo_path); refused in a chain plan.
 */
static int
parse_ends(struct parse_ctx *c, yaml_node_t **v, yaml_node_t *node,
    const char *fpath, struct plan_flow *f)
{
	const struct plantopo *t = &c->p->topo;
	size_t hops[PLANTOPO_MAX_HOSTS], n;
	char path[YAMLDOC_PATH_MAX], why[128];
	int rc = 0;

	f->from_host = f->to_host = -1;
	if (!t->enabled)	/* from, to: unknown keys (parse_flow) */
		return 0;
	if (v[F_FROM] == NULL)
		rc = parse_missing(c, node, fpath, "from");
	else if (flow_end(c, v[F_FROM], fpath, "from", f->from,
	    &f->from_host) == -1)
		rc = -1;
	if (strcmp(f->mode, "icmp") == 0 && v[F_DST] != NULL) {
		yamldoc_path_key(path, sizeof(path), fpath, "to");
		if (v[F_TO] != NULL)
			return PERR(c, v[F_TO], path, "give an icmp flow to: "
			    "(an end host) or dst: (any address), not both");
		return rc;	/* parse_dst checks the path */
	}
	if (v[F_TO] == NULL)
		rc = parse_missing(c, node, fpath, "to");
	else if (flow_end(c, v[F_TO], fpath, "to", f->to, &f->to_host) == -1)
		rc = -1;
	if (rc == -1 || !c->topo_ok)
		return rc;
	yamldoc_path_key(path, sizeof(path), fpath, "to");
	if (f->from_host == f->to_host)
		return PERR(c, v[F_TO], path, "the flow starts at %s already "
		    "(expected another end host)", f->to);
	if (plantopo_path(t, (size_t)f->from_host, (size_t)f->to_host, hops,
	    PLANTOPO_MAX_HOSTS, &n, why, sizeof(why)) == -1)
		return PERR(c, node, fpath, "no path from %s to %s: %s",
		    f->from, f->to, why);
	return plannat_flow(c, node, fpath, f, hops, n);
}

/*
 * A tcp flow (topology plans): one bulk transfer for duration:, measured
 * for throughput, or a download of bytes: (plandl.c) within duration:
 * (PLAN_TCP_LIMIT_NS without it); frame, idt, count and the rest do not
 * apply (frame, idt_ns and count stay 0).
 */
static int
parse_tcp(struct parse_ctx *c, yaml_node_t **v, yaml_node_t *node,
    const char *fpath, struct plan_flow *f)
{
	static const int bad[] = { F_FRAME, F_IDT, F_COUNT, F_DSCP, F_SEED,
	    F_PRESET, F_RATE, F_BURST, F_OFF, F_DST, F_SPIN };
	char path[YAMLDOC_PATH_MAX];
	size_t i;
	int rc = 0;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (v[bad[i]] == NULL)
			continue;
		yamldoc_path_key(path, sizeof(path), fpath, flow_keys[bad[i]]);
		rc = PERR(c, v[bad[i]], path, "not for a tcp flow (one bulk "
		    "transfer as fast as TCP goes: give its duration or its "
		    "bytes)");
	}
	if (plandl_parse(c, v[F_BYTES], v[F_STREAMS], v[F_CC], fpath,
	    f) == -1)
		rc = -1;
	if (v[F_DURATION] == NULL && v[F_BYTES] == NULL)
		return parse_missing(c, node, fpath, "duration");
	f->duration_ns = PLAN_TCP_LIMIT_NS;	/* a download's default limit */
	if (v[F_DURATION] != NULL && parse_duration(c, v[F_DURATION], fpath,
	    f) == -1)
		return -1;
	return rc;
}

static int
parse_flow(struct parse_ctx *c, yaml_node_t *node, const char *fpath, size_t i)
{
	struct plan_flow *f = &c->p->flows[i];
	struct preset_flow pf;
	yaml_node_t *v[F_NKEYS] = { NULL };
	char path[YAMLDOC_PATH_MAX];
	long long n;

	/* from: and to: are keys of topology plans only (the last two). */
	if (yamldoc_map_fields(c->yd, node, fpath, flow_keys,
	    c->p->topo.enabled ? F_NKEYS : F_FROM, v, c->err,
	    c->errlen) == -1)
		return -1;
	f->line = (int)yamldoc_line(node);
	if (v[F_NAME] == NULL)
		return parse_missing(c, node, fpath, "name");
	f->written = i;
	if (flow_name(c, v[F_NAME], fpath, i) == -1 ||
	    planreplica_parse(c, v[F_REPLICAS], fpath, f) == -1 ||
	    planreplica_group(c, v[F_GROUP], fpath, f) == -1 ||
	    parse_mode(c, v[F_MODE], fpath, f) == -1 ||
	    plantx_parse(c, v[F_TX_IO], v[F_TX_STAMP], fpath, f) == -1 ||
	    parse_ends(c, v, node, fpath, f) == -1)
		return -1;
	if (strcmp(f->mode, "tcp") == 0)
		return parse_tcp(c, v, node, fpath, f);
	if (plandl_refuse(c, v[F_BYTES], v[F_STREAMS], v[F_CC], fpath,
	    f) == -1)
		return -1;
	if (strcmp(f->mode, "icmp") == 0 && (v[F_PRESET] || v[F_RATE])) {
		yamldoc_path_key(path, sizeof(path), fpath, v[F_PRESET] ?
		    "preset" : "rate");
		return PERR(c, v[F_PRESET] ? v[F_PRESET] : v[F_RATE], path,
		    "not for an icmp flow (echo requests: give frame, idt and "
		    "count or duration)");
	}
	if (parse_preset(c, v, fpath, f, &pf) == -1 ||
	    parse_model(c, v, node, fpath, f, &pf) == -1 ||
	    parse_bounds(c, v, node, fpath, f) == -1 ||
	    parse_dst(c, v[F_DST], fpath, f) == -1 ||
	    parse_spin(c, v[F_SPIN], fpath, f) == -1)
		return -1;
	if (v[F_SEED] != NULL) {
		yamldoc_path_key(path, sizeof(path), fpath, "seed");
		if (yamldoc_int(c->yd, v[F_SEED], path, 1, INT64_MAX,
		    "0 is the default: the flow id", &n, c->err,
		    c->errlen) == -1)
			return -1;
		f->seed = (uint64_t)n;
	}
	if (v[F_DSCP] == NULL && pf.name != NULL)
		return dscp_parse(pf.dscp, &f->dscp);
	return parse_dscp(c, v[F_DSCP], fpath, f);
}

int
planflow_parse(struct parse_ctx *c, yaml_node_t *node)
{
	char path[YAMLDOC_PATH_MAX];
	int n, i, rc = 0;

	if (node == NULL)	/* missing: plan.c said so */
		return 0;
	if ((n = yamldoc_seq(c->yd, node, "flows", 1, PLAN_MAX_FLOWS, c->err,
	    c->errlen)) == -1)
		return -1;
	for (i = 0; i < n; i++) {	/* every flow, even after an error */
		yamldoc_path_index(path, sizeof(path), "flows", i);
		if (parse_flow(c, yamldoc_item(c->yd, node, i), path, i) == -1)
			rc = -1;
	}
	c->p->nflows = n;
	if (rc == 0)
		rc = plantx_agree(c, node, (size_t)n);
	if (rc == 0)
		rc = planreplica_expand(c, node, (size_t)n);
	if (rc == 0 && !c->p->topo.enabled)
		rc = planping_chain_flows(c, node);
	return rc;
}
