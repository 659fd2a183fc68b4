/*
 * hoplab-gen: hoplab's traffic generator (docs/generator.md, "Command
 * line").  This file only parses and checks the command line into a
 * struct gen_job, installs the signal handlers and calls the chosen
 * mode's operations (mode.h) in turn; the exit status tells the agent
 * what went wrong (GEN_EXIT_*).
 *
 * Modes: l2 (l2.c), udp (udp.c), icmp (icmp.c; the three on send.h's
 * pacing loop) and tcp (tcp.c), picked by name from modes[] below, which also names the
 * checks each mode makes of the options.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "log.h"
#include "flowspec.h"
#include "mode.h"
#include "records.h"
#include "report.h"
#include "resultmsg.h"
#include "tcp.h"
#include "tune.h"
#include "udpio.h"

enum {
	OPT_DRAIN = 256, OPT_DST, OPT_EXPORT, OPT_FLOW, OPT_GATEWAY,
	OPT_INTERVAL, OPT_JSON, OPT_RECORDS, OPT_REPORT, OPT_ROLE_ID,
	OPT_RUN_ID, OPT_RX, OPT_SHOW, OPT_SRC, OPT_TSTAMP, OPT_TTL, OPT_TX,
	OPT_MODE, OPT_ROLE, OPT_LISTEN, OPT_WAIT, OPT_BYTES, OPT_DURATION,
	OPT_CPU, OPT_REALTIME, OPT_START_AT, OPT_STREAM_RECORDS, OPT_SPIN,
};

struct opts;

/* A mode and what it requires of the command line. */
struct mode_entry {
	const struct gen_mode *ops;
	int		 id;		/* GEN_MODE_*, in the configuration */
	void		(*check)(struct opts *o);
	int		 stream;	/* --stream-records allowed */
	int		 start_at;	/* --start-at allowed for a sender */
};

struct opts {
	struct gen_job	 job;		/* what the mode gets */
	const struct mode_entry *mode;	/* --mode */
	long long	 role_id;	/* -1: not given */
	int		 verbose;
	const char	*records;	/* --records FILE or NULL */
	const char	*export;	/* --export-records FILE or NULL */
	int		 nopts;		/* options given, for --export-records */
	const char	*dst;		/* --dst as given: IP or IP:PORT */
	const char	*src;		/* --src as given */
	const char	*listen;	/* --listen IP:PORT */
	int		 role_given;
	int		 ttl_given;
	int		 cpu;		/* --cpu N, or -1 */
	int		 rt_prio;	/* --realtime: SCHED_FIFO prio, or 0 */
	const char	*spin;		/* --spin as given, or NULL */
};

static void	check_l2(struct opts *);
static void	check_udp(struct opts *);
static void	check_tcp(struct opts *);
static void	check_icmp(struct opts *);

static const struct mode_entry modes[] = {
	{ .ops = &l2_mode, .id = GEN_MODE_L2, .check = check_l2,
	  .stream = 1, .start_at = 1 },
	{ .ops = &udp_mode, .id = GEN_MODE_UDP, .check = check_udp,
	  .start_at = 1 },
	{ .ops = &tcp_mode, .id = GEN_MODE_TCP, .check = check_tcp },
	{ .ops = &icmp_mode, .id = GEN_MODE_ICMP, .check = check_icmp,
	  .stream = 1, .start_at = 1 },
};

static volatile sig_atomic_t signals;

extern const char gen_usage_text[];	/* usage.c */

static void __attribute__((noreturn))
usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void
usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "hoplab-gen: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'hoplab-gen --help' for more information.\n");
	exit(GEN_EXIT_USAGE);
}

static void
on_signal(int sig)
{
	(void)sig;
	if (signals < 2)
		signals++;
}

static void
opt_ip(const char *name, const char *v, struct in_addr *a)
{
	if (inet_pton(AF_INET, v, a) != 1)
		usage_error("%s: expected an IPv4 address, got \"%s\"", name, v);
}

static void
opt_iface(const char *name, const char *v, char *dst)
{
	if (*v == '\0' || strlen(v) >= IF_NAMESIZE || strchr(v, '/') != NULL)
		usage_error("%s: expected an interface name of 1..%d "
		    "characters, got \"%s\"", name, IF_NAMESIZE - 1, v);
	strcpy(dst, v);
}

static long long
opt_num(const char *name, const char *v, long long min, long long max)
{
	long long x;
	char *end;

	errno = 0;
	x = strtoll(v, &end, 10);
	if (*v < '0' || *v > '9' || *end != '\0' || errno != 0 || x < min ||
	    x > max)
		usage_error("%s: expected %lld..%lld, got \"%s\"", name, min,
		    max, v);
	return x;
}

static void
opt_flow(struct gen_config *c, const char *v)
{
	char err[256];

	if (c->nflows >= FLOWSPEC_MAX_FLOWS)
		usage_error("--flow: at most %d flows", FLOWSPEC_MAX_FLOWS);
	if (flowspec_parse(v, c->nflows + 1, &c->flows[c->nflows], err,
	    sizeof(err)) == -1)
		usage_error("--flow \"%s\": %s", v, err);
	c->nflows++;
}

static void
opt_drain(struct gen_config *c, const char *v)
{
	char err[256];

	if (clock_parse_duration(v, &c->drain_ns, err, sizeof(err)) == -1)
		usage_error("--drain: %s", err);
	if (c->drain_ns > GEN_DRAIN_MAX)
		usage_error("--drain: expected 0..60s, got \"%s\"", v);
}

static void
opt_run_id(struct opts *o, const char *v)
{
	const char *p;

	if (*v == '\0' || strlen(v) >= RESULTMSG_RUN_ID_MAX)
		usage_error("--run-id: expected 1..%d characters, got \"%s\"",
		    RESULTMSG_RUN_ID_MAX - 1, v);
	for (p = v; *p != '\0'; p++)
		if (*p <= ' ' || *p > '~')
			usage_error("--run-id: expected printable characters "
			    "without blanks, got \"%s\"", v);
	o->job.run_id = v;
}

static void
opt_show(struct opts *o, const char *v)
{
	char buf[64], *tok, *save = NULL;

	if (strlen(v) >= sizeof(buf))
		usage_error("--show: expected intervals, pdf or all, got "
		    "\"%s\"", v);
	strcpy(buf, v);
	for (tok = strtok_r(buf, ",", &save); tok != NULL;
	    tok = strtok_r(NULL, ",", &save)) {
		if (strcmp(tok, "intervals") == 0)
			o->job.show |= REPORT_INTERVALS;
		else if (strcmp(tok, "pdf") == 0)
			o->job.show |= REPORT_PDF;
		else if (strcmp(tok, "all") == 0)
			o->job.show |= REPORT_INTERVALS | REPORT_PDF;
		else
			usage_error("--show: expected intervals, pdf or all "
			    "(comma-separated), got \"%s\"", tok);
	}
}

static void
opt_interval(struct gen_config *c, const char *v)
{
	char err[256];

	if (clock_parse_duration(v, &c->interval_ns, err, sizeof(err)) == -1)
		usage_error("--interval: %s", err);
	if (c->interval_ns < SERIES_WIDTH_MIN ||
	    c->interval_ns > SERIES_WIDTH_MAX)
		usage_error("--interval: expected 1ms..1h, got \"%s\"", v);
}

static int64_t
opt_duration(const char *name, const char *v, int64_t min, int64_t max)
{
	char err[256];
	int64_t ns;

	if (clock_parse_duration(v, &ns, err, sizeof(err)) == -1)
		usage_error("%s: %s", name, err);
	if (ns < min || ns > max)
		usage_error("%s: out of range, got \"%s\"", name, v);
	return ns;
}

static void
opt_mode(struct opts *o, const char *v)
{
	size_t i;

	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		if (strcmp(v, modes[i].ops->name) == 0) {
			o->mode = &modes[i];
			o->job.cfg.mode = modes[i].id;
			return;
		}
	usage_error("--mode: expected l2, udp, tcp or icmp, got \"%s\"", v);
}

static void
opt_role(struct opts *o, const char *v)
{
	if (strcmp(v, "send") == 0)
		o->job.cfg.role = GEN_ROLE_SEND;
	else if (strcmp(v, "recv") == 0)
		o->job.cfg.role = GEN_ROLE_RECV;
	else
		usage_error("--role: expected send or recv, got \"%s\"", v);
	o->role_given = 1;
}

/*
 * --start-at NS: the CLOCK_REALTIME instant of the first packet, in
 * nanoseconds since the epoch, at most an hour ahead.
 */
static void
opt_start_at(struct gen_config *c, const char *v)
{
	long long now_s = (long long)(clock_real_ns() / NSEC_PER_SEC);

	c->start_at_ns = opt_num("--start-at", v, 1, INT64_MAX);
	if (c->start_at_ns / NSEC_PER_SEC > now_s + 3600)
		usage_error("--start-at: %s is more than an hour ahead "
		    "(CLOCK_REALTIME nanoseconds expected)", v);
}

static void
opt_tstamp(struct gen_config *c, const char *v)
{
	if (strcmp(v, "kernel") == 0)
		c->tstamp = GEN_TS_KERNEL;
	else if (strcmp(v, "user") == 0)
		c->tstamp = GEN_TS_USER;
	else
		usage_error("--tstamp: expected kernel or user, got \"%s\"", v);
}

static void
opt_report(struct opts *o, const char *v)
{
	if (strstr(v, "://") == NULL || strlen(v) > 255)
		usage_error("--report: expected a ZeroMQ endpoint such as "
		    "ipc:///path or tcp://host:port, got \"%s\"", v);
	o->job.report = v;
}

/* Options of the output: what is printed, written and reported. */
static int
parse_output(struct opts *o, int ch, const char *v)
{
	switch (ch) {
	case OPT_EXPORT:
		o->export = v;
		break;
	case OPT_INTERVAL:
		opt_interval(&o->job.cfg, v);
		break;
	case OPT_JSON:
		o->job.json = 1;
		break;
	case OPT_RECORDS:
		if (*v == '\0')
			usage_error("--records: expected a file name");
		o->records = v;
		break;
	case OPT_REPORT:
		opt_report(o, v);
		break;
	case OPT_ROLE_ID:
		o->role_id = opt_num("--role-id", v, 0, UINT32_MAX);
		break;
	case OPT_RUN_ID:
		opt_run_id(o, v);
		break;
	case OPT_SHOW:
		opt_show(o, v);
		break;
	case OPT_STREAM_RECORDS:
		o->job.stream = 1;
		break;
	default:
		return 0;
	}
	return 1;
}

/* Options of the mode and the sockets' addresses. */
static int
parse_mode(struct opts *o, int ch, const char *v)
{
	switch (ch) {
	case OPT_BYTES:
		o->job.tcp.bytes = (uint64_t)opt_num("--bytes", v, 1,
		    TCP_BYTES_MAX);
		break;
	case OPT_DST:
		o->dst = v;
		break;
	case OPT_DURATION:
		o->job.tcp.duration_ns = opt_duration("--duration", v,
		    NSEC_PER_MSEC, TCP_DURATION_MAX);
		break;
	case OPT_LISTEN:
		o->listen = v;
		break;
	case OPT_MODE:
		opt_mode(o, v);
		break;
	case OPT_ROLE:
		opt_role(o, v);
		break;
	case OPT_SRC:
		o->src = v;
		break;
	case OPT_WAIT:
		o->job.cfg.wait_ns = opt_duration("--wait", v, NSEC_PER_MSEC,
		    3600 * NSEC_PER_SEC);
		break;
	default:
		return 0;
	}
	return 1;
}

/* Options of the interfaces, the packets and the process. */
static int
parse_packets(struct opts *o, int ch, const char *v)
{
	struct gen_config *c = &o->job.cfg;

	switch (ch) {
	case OPT_CPU:
		o->cpu = (int)opt_num("--cpu", v, 0, CPU_SETSIZE - 1);
		break;
	case OPT_DRAIN:
		opt_drain(c, v);
		break;
	case OPT_FLOW:
		opt_flow(c, v);
		break;
	case OPT_GATEWAY:
		opt_ip("--gateway", v, &c->gateway);
		break;
	case OPT_REALTIME:
		o->rt_prio = v == NULL ? TUNE_RT_DEFAULT :
		    (int)opt_num("--realtime", v, 1, 99);
		break;
	case OPT_RX:
		opt_iface("--rx", v, c->rx);
		break;
	case OPT_SPIN:
		o->spin = v;
		break;
	case OPT_START_AT:
		opt_start_at(c, v);
		break;
	case OPT_TSTAMP:
		opt_tstamp(c, v);
		break;
	case OPT_TTL:
		c->ttl = opt_num("--ttl", v, 1, 255);
		o->ttl_given = 1;
		break;
	case OPT_TX:
		opt_iface("--tx", v, c->tx);
		break;
	default:
		return 0;
	}
	return 1;
}

static void
parse_one(struct opts *o, int ch, const char *v)
{
	if (ch != OPT_EXPORT)
		o->nopts++;
	if (!parse_output(o, ch, v) && !parse_mode(o, ch, v))
		(void)parse_packets(o, ch, v);
}

/* Mode l2: two interfaces, three addresses, flows. */
static void
check_l2(struct opts *o)
{
	struct gen_config *c = &o->job.cfg;

	if (o->role_given || o->listen != NULL || c->wait_ns != 0)
		usage_error("%s: only for --mode udp or tcp", o->role_given ?
		    "--role" : o->listen != NULL ? "--listen" : "--wait");
	if (o->job.tcp.bytes || o->job.tcp.duration_ns)
		usage_error("%s: only for --mode tcp", o->job.tcp.bytes ?
		    "--bytes" : "--duration (flows take duration=)");
	if (c->tx[0] == '\0')
		usage_error("--tx: missing (the sending interface)");
	if (c->rx[0] == '\0')
		usage_error("--rx: missing (the receiving interface)");
	if (strcmp(c->tx, c->rx) == 0)
		usage_error("--rx: must differ from --tx, got \"%s\" for both",
		    c->rx);
	if (o->src == NULL)
		usage_error("--src: missing");
	opt_ip("--src", o->src, &c->src);
	if (o->dst == NULL)
		usage_error("--dst: missing");
	opt_ip("--dst", o->dst, &c->dst);
	if (c->src.s_addr == INADDR_ANY)
		usage_error("--src: missing or 0.0.0.0");
	if (c->dst.s_addr == INADDR_ANY)
		usage_error("--dst: missing or 0.0.0.0");
	if (c->gateway.s_addr == INADDR_ANY)
		usage_error("--gateway: missing or 0.0.0.0");
	for (size_t i = 0; i < c->nflows; i++)
		if (c->flows[i].dst.s_addr == c->src.s_addr)
			usage_error("--flow %s: dst=%s is --src, owned on --tx",
			    c->flows[i].name, o->src);
	if (c->nflows == 0)
		usage_error("--flow: at least one is required");
}

/* --src IP or IP:PORT for a udp or tcp sender. */
static void
opt_src_port(struct opts *o, struct sockaddr_in *sa)
{
	memset(sa, 0, sizeof(*sa));
	sa->sin_family = AF_INET;
	if (o->src == NULL)
		return;
	if (strchr(o->src, ':') != NULL) {
		if (udpio_parse_addr(o->src, sa) == -1)
			usage_error("--src: expected IP or IP:PORT, got \"%s\"",
			    o->src);
	} else
		opt_ip("--src", o->src, &sa->sin_addr);
}

/* Modes udp and tcp: a role, an address, no interfaces. */
static void
check_sock(struct opts *o)
{
	struct gen_config *c = &o->job.cfg;
	const char *m = o->mode->ops->name;
	size_t i;

	if (!o->role_given)
		usage_error("--role: missing (send or recv) for --mode %s", m);
	if (c->tx[0] || c->rx[0] || c->gateway.s_addr != INADDR_ANY)
		usage_error("%s: only for --mode l2 (in mode %s the kernel "
		    "routes)", c->tx[0] ? "--tx" : c->rx[0] ? "--rx" :
		    "--gateway", m);
	if (c->role == GEN_ROLE_SEND) {
		if (o->dst == NULL || udpio_parse_addr(o->dst, &c->peer) == -1)
			usage_error("--dst: expected IP:PORT for --mode %s "
			    "--role send, got \"%s\"", m, o->dst ? o->dst :
			    "(nothing)");
		if (o->listen != NULL || c->wait_ns != 0)
			usage_error("%s: only for --role recv", o->listen ?
			    "--listen" : "--wait");
		opt_src_port(o, &c->bind);
	} else {
		if (o->listen == NULL ||
		    udpio_parse_addr(o->listen, &c->peer) == -1)
			usage_error("--listen: expected IP:PORT for --mode %s "
			    "--role recv, got \"%s\"", m, o->listen ?
			    o->listen : "(nothing)");
		if (o->dst != NULL || o->src != NULL)
			usage_error("%s: only for --role send", o->dst ?
			    "--dst" : "--src");
	}
	if (o->ttl_given)
		usage_error("--ttl: only for --mode l2");
	for (i = 0; i < c->nflows; i++)
		if (c->flows[i].dport != FLOWSPEC_DPORT_DEFAULT ||
		    c->flows[i].sport != FLOWSPEC_SPORT_DEFAULT ||
		    c->flows[i].dst.s_addr != INADDR_ANY)
			usage_error("--flow %s: dport=, sport= and dst= are for mode "
			    "l2; in mode udp every flow goes to --dst from "
			    "one socket", c->flows[i].name);
}

static void
check_udp(struct opts *o)
{
	struct gen_config *c = &o->job.cfg;

	check_sock(o);
	if (o->job.tcp.bytes || o->job.tcp.duration_ns)
		usage_error("%s: only for --mode tcp", o->job.tcp.bytes ?
		    "--bytes" : "--duration (flows take duration=)");
	if (c->role == GEN_ROLE_SEND && c->nflows == 0)
		usage_error("--flow: at least one is required");
	if (c->role == GEN_ROLE_SEND && o->records != NULL)
		usage_error("--records: only for --role recv in mode udp "
		    "(the receiver knows both stamps)");
	if (c->role == GEN_ROLE_RECV && o->records != NULL && c->nflows == 0)
		usage_error("--records: give the receiver the sender's --flow "
		    "options too (the file names its flows)");
	if (c->role == GEN_ROLE_RECV) {
		c->dynamic = c->nflows == 0;
		if (c->wait_ns == 0)
			c->wait_ns = GEN_WAIT_DEFAULT;
	}
}

static void
check_tcp(struct opts *o)
{
	struct gen_config *c = &o->job.cfg;
	struct tcp_config *t = &o->job.tcp;

	check_sock(o);
	if (c->nflows > 0 || o->records != NULL || o->job.show != 0)
		usage_error("%s: not for --mode tcp (a bulk transfer)",
		    c->nflows > 0 ? "--flow" : o->records ? "--records" :
		    "--show");
	if (c->role == GEN_ROLE_SEND && !t->bytes && !t->duration_ns)
		usage_error("--bytes or --duration: one is required for "
		    "--mode tcp --role send");
	if (c->role == GEN_ROLE_RECV && (t->bytes || t->duration_ns))
		usage_error("%s: only for --role send (the receiver takes "
		    "what comes)", t->bytes ? "--bytes" : "--duration");
	t->role = c->role;
	t->peer = c->peer;
	t->bind = c->bind;
	t->interval_ns = c->interval_ns > 0 ? c->interval_ns :
	    SERIES_WIDTH_DEFAULT;
	t->wait_ns = c->wait_ns > 0 ? c->wait_ns : GEN_WAIT_DEFAULT;
	t->dscp = 0;
}

/*
 * Mode icmp: echo requests to --dst IP from --src IP (or the kernel's
 * source), flows without ports or dst=, no interfaces, no role.
 */
static void
check_icmp(struct opts *o)
{
	struct gen_config *c = &o->job.cfg;
	size_t i;

	if (o->role_given || o->listen != NULL || c->wait_ns != 0)
		usage_error("%s: not for --mode icmp (one process sends the "
		    "requests and reads the replies)", o->role_given ?
		    "--role" : o->listen != NULL ? "--listen" : "--wait");
	if (o->job.tcp.bytes || o->job.tcp.duration_ns)
		usage_error("%s: only for --mode tcp", o->job.tcp.bytes ?
		    "--bytes" : "--duration (flows take duration=)");
	if (c->tx[0] || c->rx[0] || c->gateway.s_addr != INADDR_ANY)
		usage_error("%s: only for --mode l2 (in mode icmp the kernel "
		    "routes)", c->tx[0] ? "--tx" : c->rx[0] ? "--rx" :
		    "--gateway");
	if (o->dst == NULL)
		usage_error("--dst: missing (the address to ping)");
	opt_ip("--dst", o->dst, &c->peer.sin_addr);
	if (c->peer.sin_addr.s_addr == INADDR_ANY)
		usage_error("--dst: 0.0.0.0 is no destination");
	c->peer.sin_family = AF_INET;
	memset(&c->bind, 0, sizeof(c->bind));
	c->bind.sin_family = AF_INET;
	if (o->src != NULL)
		opt_ip("--src", o->src, &c->bind.sin_addr);
	c->role = GEN_ROLE_SEND;
	if (c->nflows == 0)
		usage_error("--flow: at least one is required");
	for (i = 0; i < c->nflows; i++)
		if (c->flows[i].dport != FLOWSPEC_DPORT_DEFAULT ||
		    c->flows[i].sport != FLOWSPEC_SPORT_DEFAULT ||
		    c->flows[i].dst.s_addr != INADDR_ANY)
			usage_error("--flow %s: dport=, sport= and dst= are for "
			    "mode l2; in mode icmp every flow pings --dst",
			    c->flows[i].name);
}

/* --spin: the spin of every flow without spin= of its own (senders). */
static void
opt_spin(struct opts *o)
{
	struct gen_config *c = &o->job.cfg;
	char err[192];
	int64_t ns;
	size_t i;

	if (o->spin == NULL)
		return;
	if (c->mode == GEN_MODE_TCP || c->role == GEN_ROLE_RECV)
		usage_error("--spin: only for senders (mode l2, or udp --role "
		    "send): it paces the sends");
	if (flowspec_parse_spin(o->spin, &ns, err, sizeof(err)) == -1)
		usage_error("--spin: %s", err);
	for (i = 0; i < c->nflows; i++)
		if (!c->flows[i].spin_given)
			c->flows[i].spin_ns = ns;
}

/* Options that only make sense together. */
static void
check_opts(struct opts *o)
{
	struct gen_config *c = &o->job.cfg;
	char err[256];

	o->mode->check(o);
	opt_spin(o);
	if (c->nflows > 0 &&
	    flowspec_check_set(c->flows, c->nflows, err, sizeof(err)) == -1)
		usage_error("--flow: %s", err);
	if (o->job.report != NULL && (o->role_id < 0 || o->job.run_id == NULL))
		usage_error("--report: needs --role-id and --run-id");
	if (o->job.report == NULL && (o->role_id >= 0 || o->job.run_id != NULL))
		usage_error("%s: only meaningful with --report",
		    o->role_id >= 0 ? "--role-id" : "--run-id");
	if (o->job.stream && (o->job.report == NULL || !o->mode->stream))
		usage_error("--stream-records: only with --report in mode l2 "
		    "or icmp");
	/* l2 takes no --role: its role is GEN_ROLE_SEND. */
	if (c->start_at_ns != 0 && !(o->mode->start_at &&
	    c->role == GEN_ROLE_SEND))
		usage_error("--start-at: only in mode l2 and for udp senders");
	o->job.role_id = (unsigned)o->role_id;
}

static const struct option longopts[] = {
	{ "bytes", required_argument, NULL, OPT_BYTES },
	{ "cpu", required_argument, NULL, OPT_CPU },
	{ "drain", required_argument, NULL, OPT_DRAIN },
	{ "dst", required_argument, NULL, OPT_DST },
	{ "duration", required_argument, NULL, OPT_DURATION },
	{ "export-records", required_argument, NULL, OPT_EXPORT },
	{ "flow", required_argument, NULL, OPT_FLOW },
	{ "gateway", required_argument, NULL, OPT_GATEWAY },
	{ "help", no_argument, NULL, 'h' },
	{ "interval", required_argument, NULL, OPT_INTERVAL },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "listen", required_argument, NULL, OPT_LISTEN },
	{ "mode", required_argument, NULL, OPT_MODE },
	{ "realtime", optional_argument, NULL, OPT_REALTIME },
	{ "records", required_argument, NULL, OPT_RECORDS },
	{ "report", required_argument, NULL, OPT_REPORT },
	{ "role", required_argument, NULL, OPT_ROLE },
	{ "role-id", required_argument, NULL, OPT_ROLE_ID },
	{ "run-id", required_argument, NULL, OPT_RUN_ID },
	{ "rx", required_argument, NULL, OPT_RX },
	{ "show", required_argument, NULL, OPT_SHOW },
	{ "spin", required_argument, NULL, OPT_SPIN },
	{ "src", required_argument, NULL, OPT_SRC },
	{ "start-at", required_argument, NULL, OPT_START_AT },
	{ "stream-records", no_argument, NULL, OPT_STREAM_RECORDS },
	{ "tstamp", required_argument, NULL, OPT_TSTAMP },
	{ "ttl", required_argument, NULL, OPT_TTL },
	{ "tx", required_argument, NULL, OPT_TX },
	{ "verbose", no_argument, NULL, 'v' },
	{ "wait", required_argument, NULL, OPT_WAIT },
	{ NULL, 0, NULL, 0 },
};

/* The defaults: mode l2, no --role-id, no --cpu. */
static void
opts_init(struct opts *o)
{
	memset(o, 0, sizeof(*o));
	o->mode = &modes[0];
	o->role_id = -1;
	o->cpu = -1;
	o->job.cfg.mode = modes[0].id;
	o->job.cfg.drain_ns = GEN_DRAIN_DEFAULT;
	o->job.cfg.ttl = GEN_TTL_DEFAULT;
}

static void
parse_args(int argc, char **argv, struct opts *o)
{
	int ch;

	opts_init(o);
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":hv", longopts, NULL)) != -1) {
		if (ch == 'h') {
			fputs(gen_usage_text, stdout);
			exit(0);
		} else if (ch == 'v')
			o->verbose++;
		else if (ch == ':')
			usage_error("%s: needs a value", argv[optind - 1]);
		else if (ch == '?')
			usage_error("unknown option \"%s\"", argv[optind - 1]);
		else
			parse_one(o, ch, optarg);
	}
	if (optind < argc)
		usage_error("unexpected argument \"%s\"", argv[optind]);
	if (o->export != NULL && o->nopts > 0)
		usage_error("--export-records: takes no other options");
	if (o->export == NULL)
		check_opts(o);
}

static void
install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;	/* no SA_RESTART: ppoll returns */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/* --export-records FILE: the records as CSV on stdout, nothing else. */
static int
export_records(const char *path)
{
	char err[512];

	if (rec_export_csv(path, stdout, err, sizeof(err)) == -1)
		log_fatal(GEN_EXIT_USAGE, "--export-records: %s", err);
	return fflush(stdout) == 0 ? 0 : GEN_EXIT_IFACE;
}

/*
 * Before the run: the records file (a wrong name is a usage error), the
 * signal handlers, the CPU and scheduling of --cpu and --realtime.
 */
static void
prepare(struct opts *o)
{
	struct gen_config *c = &o->job.cfg;
	char err[512], err2[512];

	if (o->records != NULL && (o->job.rec = recw_open(o->records,
	    c->flows, c->nflows, err, sizeof(err))) == NULL)
		usage_error("%s", err);
	install_signals();
	if (tune_apply(o->cpu, o->rt_prio, err, sizeof(err)) == -1) {
		(void)recw_close(o->job.rec, "none", err2, sizeof(err2));
		log_fatal(GEN_EXIT_IFACE, "%s", err);
	}
}

/*
 * Run job J through mode M's operations: open, resolve, run, print,
 * report, close.  Returns the exit status: the first failure's, a run
 * that failed still printing and reporting what it measured.
 */
static int
run_mode(const struct gen_mode *m, struct gen_job *j)
{
	int rc, rc2;

	if ((rc = m->open(j)) != 0 || (m->resolve != NULL &&
	    (rc = m->resolve(j, &signals)) != 0)) {
		m->close(j);
		return rc;
	}
	rc = m->run(j, &signals);
	m->print(j, stdout);
	if (j->report != NULL && (rc2 = m->report(j)) != 0 && rc == 0)
		rc = rc2;
	m->close(j);
	return rc;
}

int
main(int argc, char **argv)
{
	struct opts o;

	parse_args(argc, argv, &o);
	log_init("hoplab-gen", o.verbose);
	if (o.export != NULL)
		return export_records(o.export);
	prepare(&o);
	return run_mode(o.mode->ops, &o.job);
}
