/*
 * genrole: the generator role kind: a StartRole's GenParams become the
 * argv of hoplab-gen, which runs as the role's child (role_spawn) and
 * ends by itself once its flows are sent: its end is its final result
 * batch, and batches after a stop hold partial results (not kept).
 *
 * Every field is checked before it reaches a command line (agent/
 * gencheck.c, apart since it grew to half of this file): interfaces must
 * exist in this host (if_nametoindex), addresses must be IPv4 literals
 * (inet_pton), frames 64..1518 bytes including the FCS (RFC 2544), counts
 * 1..100000000, inter-departure times 1 us..60 s, at most 64 flows, names
 * and run ids from a small alphabet.  The argv follows the command-line
 * contract in docs/architecture.md:
 *
 *   BINDIR/hoplab-gen --tx IF --rx IF --src IP --dst IP --gateway IP
 *       --flow frame=F,count=C,idt=D[,dscp=N][,id=N][,name=S][,dport=N]
 *       [,sport=N][,seed=N][,burst=B,off=O][,duration=D]
 *       [,preset=P[,rate=Rbps]][,dst=IP][,spin=D] ... [--drain D] [--ttl N]
 *       [--start-at NS] [--stream-records] [--tx-io send|ring]
 *       [--tx-stamp-every N]
 *
 * frame and idt are the FlowSpec's frame_dist / idt_dist when set (a
 * distribution in hoplab-gen's text form, docs/generator.md, checked
 * against a small alphabet here and parsed by hoplab-gen), else the
 * constant frame / interval_ns.  A flow from a preset arrives expanded
 * (frame, idt, burst, off, dscp set); preset= and rate= only label it.
 *       --report ipc://RUNDIR/children.sock --role-id N --run-id S
 *
 * Modes "udp" and "tcp" (docs/generator.md) run one end each:
 *
 *   hoplab-gen --mode udp|tcp --role send --dst PEER [--src BIND]
 *       [--flow ...] (udp) | [--bytes N] [--duration D] (tcp)
 *   hoplab-gen --mode udp|tcp --role recv --listen PEER [--wait D]
 *       [--flow ...] [--drain D] (udp)
 *
 * with PEER an IPv4 literal and a port, BIND an IPv4 literal with an
 * optional port; interfaces are the kernel's business there and are not
 * checked.  Mode "icmp" (ping) is one process, no role:
 *
 *   hoplab-gen --mode icmp --dst PEER [--src BIND] --flow ... [--drain D]
 *       [--ttl N] [--start-at NS] [--stream-records]
 *
 * with PEER and BIND IPv4 literals without a port.  From the chain's
 * generator (GenParams.icmp_addr, docs/generator.md "Ping from the
 * chain's generator"), whose tx interface has no kernel address, the
 * agent first adds icmp_addr to tx_iface and a route to 198.18.0.0/15
 * via gateway_ip from it (ip addr / ip route replace), so that the raw
 * socket has a source and a way; BIND is that address.  It removes both
 * when the role is forgotten (its end, a failed start, the agent
 * quitting), with `ip addr del`.
 *
 * hoplab-gen gets --data-dir first: the folder its csv:, pcap-sizes: and
 * pcap-gaps: files are read from, the role's own (RUNDIR/gen/ROLE-XXXXXX,
 * rolefiles.c) when the StartRole ships them, else the agent's --data
 * folder; file names are plain names either way (issue 17).
 *
 * No shell ever sees these strings; the alphabet checks are there so that
 * a value cannot smuggle a second key into a comma-separated --flow value.
 * The generator itself re-checks what it parses.
 */
#include <arpa/inet.h>
#include <inttypes.h>
#include <limits.h>
#include <net/if.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/gencheck.h"
#include "agent/genrole.h"
#include "agent/rolefiles.h"
#include "agent/iproute.h"
#include "agent/valid.h"
#include "clock.h"
#include "log.h"


/* Append one printf-formatted argument to GA; -1 when it does not fit. */
static int __attribute__((format(printf, 2, 3)))
argv_add(struct gen_argv *ga, const char *fmt, ...)
{
	va_list ap;
	size_t room = sizeof(ga->buf) - ga->used;
	int n;

	if (ga->argc >= GENROLE_ARGV_MAX - 1)
		return -1;
	va_start(ap, fmt);
	n = vsnprintf(ga->buf + ga->used, room, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= room)
		return -1;
	ga->argv[ga->argc++] = ga->buf + ga->used;
	ga->argv[ga->argc] = NULL;
	ga->used += (size_t)n + 1;
	return 0;
}

/* Append the option OPT and its value VAL, in that order. */
static int
argv_pair(struct gen_argv *ga, const char *opt, const char *val)
{
	if (argv_add(ga, "%s", opt) == -1 || argv_add(ga, "%s", val) == -1)
		return -1;
	return 0;
}

/* Write NS as the shortest exact duration: "1s", "250us", "1500ns". */
static void
fmt_duration(uint64_t ns, char *buf, size_t len)
{
	if (ns % 1000000000ULL == 0)
		snprintf(buf, len, "%" PRIu64 "s", ns / UINT64_C(1000000000));
	else if (ns % 1000000ULL == 0)
		snprintf(buf, len, "%" PRIu64 "ms", ns / UINT64_C(1000000));
	else if (ns % 1000ULL == 0)
		snprintf(buf, len, "%" PRIu64 "us", ns / UINT64_C(1000));
	else
		snprintf(buf, len, "%" PRIu64 "ns", ns);
}

/* A --flow value being built; FULL once something did not fit. */
struct spec {
	char	buf[1024];
	size_t	n;
	int	full;
};

static void __attribute__((format(printf, 2, 3)))
spec_add(struct spec *sp, const char *fmt, ...)
{
	va_list ap;
	int r;

	if (sp->full)
		return;
	va_start(ap, fmt);
	r = vsnprintf(sp->buf + sp->n, sizeof(sp->buf) - sp->n, fmt, ap);
	va_end(ap);
	if (r < 0 || (size_t)r >= sizeof(sp->buf) - sp->n)
		sp->full = 1;
	else
		sp->n += (size_t)r;
}

/* "--flow" "frame=..,count=..,idt=..[,...]" for flow F. */
static int
add_flow(struct gen_argv *ga, const Hoplab__FlowSpec *f)
{
	struct spec sp = { .n = 0, .full = 0 };
	char idt[32], frame[16], d[32];

	fmt_duration(f->interval_ns, idt, sizeof(idt));
	snprintf(frame, sizeof(frame), "%" PRIu32, f->frame);
	spec_add(&sp, "frame=%s,count=%" PRIu64 ",idt=%s,dscp=%" PRIu32,
	    f->frame_dist[0] ? f->frame_dist : frame, f->count,
	    f->idt_dist[0] ? f->idt_dist : idt, f->dscp);
	if (f->seed != 0)
		spec_add(&sp, ",seed=%" PRIu64, f->seed);
	if (f->flow_id != 0)
		spec_add(&sp, ",id=%" PRIu32, f->flow_id);
	if (f->name[0] != '\0')
		spec_add(&sp, ",name=%s", f->name);
	if (f->dst_port != 0)
		spec_add(&sp, ",dport=%" PRIu32, f->dst_port);
	if (f->src_port != 0)
		spec_add(&sp, ",sport=%" PRIu32, f->src_port);
	if (f->burst_dist[0] != '\0')
		spec_add(&sp, ",burst=%s,off=%s", f->burst_dist, f->off_dist);
	if (f->duration_ns != 0) {
		fmt_duration(f->duration_ns, d, sizeof(d));
		spec_add(&sp, ",duration=%s", d);
	}
	if (f->preset[0] != '\0')
		spec_add(&sp, ",preset=%s", f->preset);
	if (f->preset[0] != '\0' && f->rate_bps > 0)
		spec_add(&sp, ",rate=%.0fbps", f->rate_bps);
	if (f->dst_ip[0] != '\0')
		spec_add(&sp, ",dst=%s", f->dst_ip);
	if (f->spin_ns != 0) {
		fmt_duration(f->spin_ns, d, sizeof(d));
		spec_add(&sp, ",spin=%s", d);
	}
	if (f->start_offset_ns != 0) {
		fmt_duration(f->start_offset_ns, d, sizeof(d));
		spec_add(&sp, ",offset=%s", d);
	}
	if (sp.full)
		return -1;
	return argv_pair(ga, "--flow", sp.buf);
}

static int sock_args(struct gen_argv *, const Hoplab__GenParams *);
static int icmp_args(struct gen_argv *, const Hoplab__GenParams *);
static int l2_args(struct gen_argv *, const Hoplab__GenParams *);

int
genrole_argv(const char *bindir, const char *datadir, const char *endpoint,
    const Hoplab__StartRole *sr, struct gen_argv *ga, char *err,
    size_t errlen)
{
	const Hoplab__GenParams *gp = sr->gen;
	char d[32];
	int rc = 0;

	if (gencheck_params(sr, gp, err, errlen) == -1)
		return -1;
	ga->argc = 0;
	ga->used = 0;
	rc |= argv_add(ga, "%s/hoplab-gen", bindir);
	rc |= argv_pair(ga, "--data-dir", datadir);	/* before the flows */
	if (strcmp(gp->mode, "udp") == 0 || strcmp(gp->mode, "tcp") == 0)
		rc |= sock_args(ga, gp);
	else if (strcmp(gp->mode, "icmp") == 0)
		rc |= icmp_args(ga, gp);
	else
		rc |= l2_args(ga, gp);
	rc |= argv_pair(ga, "--report", endpoint);
	snprintf(d, sizeof(d), "%" PRIu32, sr->role_id);
	rc |= argv_pair(ga, "--role-id", d);
	rc |= argv_pair(ga, "--run-id", sr->run_id);
	if (rc != 0) {
		snprintf(err, errlen, "hoplab-gen command line too long");
		return -1;
	}
	return 0;
}

/* The options of mode udp or tcp. */
static int
sock_args(struct gen_argv *ga, const Hoplab__GenParams *gp)
{
	int send = strcmp(gp->role, "send") == 0, rc = 0;
	char d[32];
	size_t i;

	rc |= argv_pair(ga, "--mode", gp->mode);
	rc |= argv_pair(ga, "--role", gp->role);
	rc |= argv_pair(ga, send ? "--dst" : "--listen", gp->peer);
	if (gp->bind[0] != '\0')
		rc |= argv_pair(ga, "--src", gp->bind);
	for (i = 0; i < gp->n_flows; i++)
		rc |= add_flow(ga, gp->flows[i]);
	if (!send && gp->wait_ns != 0) {
		fmt_duration(gp->wait_ns, d, sizeof(d));
		rc |= argv_pair(ga, "--wait", d);
	}
	if (!send && gp->drain_ns != 0 && strcmp(gp->mode, "udp") == 0) {
		fmt_duration(gp->drain_ns, d, sizeof(d));
		rc |= argv_pair(ga, "--drain", d);
	}
	if (gp->tcp_bytes != 0) {
		snprintf(d, sizeof(d), "%" PRIu64, gp->tcp_bytes);
		rc |= argv_pair(ga, "--bytes", d);
	}
	if (gp->tcp_duration_ns != 0) {
		fmt_duration(gp->tcp_duration_ns, d, sizeof(d));
		rc |= argv_pair(ga, "--duration", d);
	}
	if (gp->tcp_streams > 1) {
		snprintf(d, sizeof(d), "%u", gp->tcp_streams);
		rc |= argv_pair(ga, "--streams", d);
	}
	if (gp->tcp_cc[0] != '\0')
		rc |= argv_pair(ga, "--cc", gp->tcp_cc);
	if (gp->start_at_ns != 0) {
		snprintf(d, sizeof(d), "%" PRId64, gp->start_at_ns);
		rc |= argv_pair(ga, "--start-at", d);
	}
	return rc;
}

/* Modes l2 and icmp: after the flows, drain, TTL, start, records. */
static int
tail_args(struct gen_argv *ga, const Hoplab__GenParams *gp)
{
	char d[32];
	int rc = 0;

	if (gp->drain_ns != 0) {
		fmt_duration(gp->drain_ns, d, sizeof(d));
		rc |= argv_pair(ga, "--drain", d);
	}
	if (gp->ttl != 0) {
		snprintf(d, sizeof(d), "%" PRIu32, gp->ttl);
		rc |= argv_pair(ga, "--ttl", d);
	}
	if (gp->start_at_ns != 0) {
		snprintf(d, sizeof(d), "%" PRId64, gp->start_at_ns);
		rc |= argv_pair(ga, "--start-at", d);
	}
	if (gp->records)
		rc |= argv_add(ga, "--stream-records");
	return rc;
}

/* The options of mode icmp. */
static int
icmp_args(struct gen_argv *ga, const Hoplab__GenParams *gp)
{
	size_t i;
	int rc = 0;

	rc |= argv_pair(ga, "--mode", "icmp");
	rc |= argv_pair(ga, "--dst", gp->peer);
	if (gp->bind[0] != '\0')
		rc |= argv_pair(ga, "--src", gp->bind);
	for (i = 0; i < gp->n_flows; i++)
		rc |= add_flow(ga, gp->flows[i]);
	return rc | tail_args(ga, gp);
}

/* The options of mode l2. */
static int
l2_args(struct gen_argv *ga, const Hoplab__GenParams *gp)
{
	char d[16];
	size_t i;
	int rc = 0;

	rc |= argv_pair(ga, "--tx", gp->tx_iface);
	rc |= argv_pair(ga, "--rx", gp->rx_iface);
	rc |= argv_pair(ga, "--src", gp->src_ip);
	rc |= argv_pair(ga, "--dst", gp->dst_ip);
	rc |= argv_pair(ga, "--gateway", gp->gateway_ip);
	for (i = 0; i < gp->n_flows; i++)
		rc |= add_flow(ga, gp->flows[i]);
	if (gp->tx_io[0] != '\0')
		rc |= argv_pair(ga, "--tx-io", gp->tx_io);
	if (gp->tx_stamp_every != 0) {
		snprintf(d, sizeof(d), "%" PRIu32, gp->tx_stamp_every);
		rc |= argv_pair(ga, "--tx-stamp-every", d);
	}
	return rc | tail_args(ga, gp);
}

/*
 * What a generator role leaves to undo when it is forgotten (r->priv):
 * the kernel address an icmp role added, the folder of shipped files.
 */
struct gen_priv {
	char	iface[IF_NAMESIZE];	/* icmp_addr's, "" none */
	char	cidr[32];
	char	dir[PATH_MAX];		/* rolefiles_write's, "" none */
};

/* R's gen_priv, made on first use; NULL with ERR. */
static struct gen_priv *
gen_priv(struct role *r, char *err, size_t errlen)
{
	if (r->priv == NULL && (r->priv = calloc(1,
	    sizeof(struct gen_priv))) == NULL)
		snprintf(err, errlen, "generator role: out of memory");
	return r->priv;
}

/* Add GP's icmp_addr to tx_iface and the route from it; R->priv. */
static int
icmp_addr_add(struct role *r, const Hoplab__GenParams *gp, char *err,
    size_t errlen)
{
	struct gen_priv *a;
	char *add[] = { "ip", "addr", "replace", gp->icmp_addr, "dev",
	    gp->tx_iface, NULL };
	char *route[] = { "ip", "route", "replace", "198.18.0.0/15", "via",
	    gp->gateway_ip, "dev", gp->tx_iface, "src", gp->bind, NULL };

	if ((a = gen_priv(r, err, errlen)) == NULL)
		return -1;
	/* removed by genrole_forget, also on failure */
	snprintf(a->iface, sizeof(a->iface), "%s", gp->tx_iface);
	snprintf(a->cidr, sizeof(a->cidr), "%s", gp->icmp_addr);
	if (iproute_run(add, err, errlen) == -1 ||
	    iproute_run(route, err, errlen) == -1)
		return -1;
	log_info("role %u: added %s to %s for ping", r->id, a->cidr, a->iface);
	return 0;
}

/*
 * The role is over: remove the kernel address it added and the files it
 * was shipped, if any.
 */
static void
genrole_forget(struct role *r)
{
	struct gen_priv *a = r->priv;
	char err[256];
	char *del[] = { "ip", "addr", "del", NULL, "dev", NULL, NULL };

	if (a == NULL)
		return;
	rolefiles_remove(a->dir);
	if (a->cidr[0] != '\0') {
		del[3] = a->cidr;
		del[5] = a->iface;
		if (iproute_run(del, err, sizeof(err)) == -1)
			log_warn("role %u: %s", r->id, err);
		else
			log_info("role %u: removed %s from %s", r->id, a->cidr,
			    a->iface);
	}
	role_forget_priv(r);
}

/*
 * The folder hoplab-gen reads its files from: the role's own, with the
 * files SR ships written into it, or the agent's data folder.
 */
static const char *
data_dir(struct role *r, const Hoplab__StartRole *sr, char *err,
    size_t errlen)
{
	struct gen_priv *p;

	if (rolefiles_check(sr->gen, err, errlen) == -1)
		return NULL;
	if (sr->gen->n_files == 0)
		return r->ctx->datadir;
	if ((p = gen_priv(r, err, errlen)) == NULL ||
	    rolefiles_write(r->ctx->rundir, r->id, sr->gen, p->dir,
	    sizeof(p->dir), err, errlen) == -1)
		return NULL;
	log_info("role %u: %zu file%s shipped into %s", r->id,
	    sr->gen->n_files, sr->gen->n_files == 1 ? "" : "s", p->dir);
	return p->dir;
}

/* Start hoplab-gen as role R from SR->gen; 0 or -1 with ERR. */
int
genrole_start(struct role *r, const Hoplab__StartRole *sr, char *err,
    size_t errlen)
{
	struct gen_argv ga;
	char logpath[PATH_MAX + 32];
	const char *dir;

	if ((dir = data_dir(r, sr, err, errlen)) == NULL ||
	    genrole_argv(r->ctx->bindir, dir, r->ctx->endpoint, sr, &ga, err,
	    errlen) == -1)
		return -1;
	if (sr->gen->icmp_addr[0] != '\0' && strcmp(sr->gen->mode,
	    "icmp") == 0 && icmp_addr_add(r, sr->gen, err, errlen) == -1)
		return -1;
	if (role_spawn(r, ga.argv[0], ga.argv, 0, err, errlen) == -1)
		return -1;
	role_log_path(r, logpath, sizeof(logpath));
	log_info("role %u: started %s as pid %d, output in %s", r->id,
	    ga.argv[0], (int)r->pid, logpath);
	return 0;
}

const struct role_ops genrole_ops = {
	.name = "generator",
	.start = genrole_start,
	.stop = role_terminate,
	.forget = genrole_forget,
	.supervised = 1,
	.partial_after_stop = 1,
};
