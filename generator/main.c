/*
 * hoplab-gen: hoplab's traffic generator (docs/generator.md, "Command
 * line").  This file only parses the command line into a struct
 * gen_job (optcheck.c checks the options together), installs the signal
 * handlers and calls the chosen mode's operations (mode.h) in turn; the
 * exit status tells the agent what went wrong (GEN_EXIT_*).
 *
 * Modes: l2 (l2.c), udp (udp.c), icmp (icmp.c; the three on send.h's
 * pacing loop) and tcp (tcp.c), picked by name from modes[] below, which
 * also names the checks each mode makes of the options.
 */
#include <errno.h>
#include <getopt.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "dist.h"
#include "log.h"
#include "flowspec.h"
#include "mode.h"
#include "opts.h"
#include "records.h"
#include "report.h"
#include "resultmsg.h"
#include "tcp.h"
#include "tune.h"

enum {
	OPT_DRAIN = 256, OPT_DST, OPT_EXPORT, OPT_FLOW, OPT_GATEWAY,
	OPT_INTERVAL, OPT_JSON, OPT_RECORDS, OPT_REPORT, OPT_ROLE_ID,
	OPT_RUN_ID, OPT_RX, OPT_SHOW, OPT_SRC, OPT_TSTAMP, OPT_TTL, OPT_TX,
	OPT_MODE, OPT_ROLE, OPT_LISTEN, OPT_WAIT, OPT_BYTES, OPT_DURATION,
	OPT_CPU, OPT_CC, OPT_STREAMS, OPT_REALTIME, OPT_START_AT, OPT_STREAM_RECORDS, OPT_SPIN,
	OPT_DATA_DIR, OPT_TX_IO, OPT_TX_STAMP_EVERY,
};

static const struct mode_entry modes[] = {
	{ .ops = &l2_mode, .id = GEN_MODE_L2, .check = optcheck_l2,
	  .stream = 1, .start_at = 1 },
	{ .ops = &udp_mode, .id = GEN_MODE_UDP, .check = optcheck_udp,
	  .start_at = 1 },
	{ .ops = &tcp_mode, .id = GEN_MODE_TCP, .check = optcheck_tcp },
	{ .ops = &icmp_mode, .id = GEN_MODE_ICMP, .check = optcheck_icmp,
	  .stream = 1, .start_at = 1 },
};

static volatile sig_atomic_t signals;

extern const char gen_usage_text[];	/* usage.c */

static void
on_signal(int sig)
{
	(void)sig;
	if (signals < 2)
		signals++;
}

static void
opt_iface(const char *name, const char *v, char *dst)
{
	if (*v == '\0' || strlen(v) >= IF_NAMESIZE || strchr(v, '/') != NULL)
		opts_usage_error("%s: expected an interface name of 1..%d "
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
		opts_usage_error("%s: expected %lld..%lld, got \"%s\"", name, min,
		    max, v);
	return x;
}

static void
opt_flow(struct gen_config *c, const char *v)
{
	char err[256];

	if (c->nflows >= FLOWSPEC_MAX_FLOWS)
		opts_usage_error("--flow: at most %d flows", FLOWSPEC_MAX_FLOWS);
	if (flowspec_parse(v, c->nflows + 1, &c->flows[c->nflows], err,
	    sizeof(err)) == -1)
		opts_usage_error("--flow \"%s\": %s", v, err);
	c->nflows++;
}

static void
opt_drain(struct gen_config *c, const char *v)
{
	char err[256];

	if (clock_parse_duration(v, &c->drain_ns, err, sizeof(err)) == -1)
		opts_usage_error("--drain: %s", err);
	if (c->drain_ns > GEN_DRAIN_MAX)
		opts_usage_error("--drain: expected 0..60s, got \"%s\"", v);
}

static void
opt_run_id(struct opts *o, const char *v)
{
	const char *p;

	if (*v == '\0' || strlen(v) >= RESULTMSG_RUN_ID_MAX)
		opts_usage_error("--run-id: expected 1..%d characters, got \"%s\"",
		    RESULTMSG_RUN_ID_MAX - 1, v);
	for (p = v; *p != '\0'; p++)
		if (*p <= ' ' || *p > '~')
			opts_usage_error("--run-id: expected printable characters "
			    "without blanks, got \"%s\"", v);
	o->job.run_id = v;
}

static void
opt_show(struct opts *o, const char *v)
{
	char buf[64], *tok, *save = NULL;

	if (strlen(v) >= sizeof(buf))
		opts_usage_error("--show: expected intervals, pdf or all, got "
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
			opts_usage_error("--show: expected intervals, pdf or all "
			    "(comma-separated), got \"%s\"", tok);
	}
}

static void
opt_interval(struct gen_config *c, const char *v)
{
	char err[256];

	if (clock_parse_duration(v, &c->interval_ns, err, sizeof(err)) == -1)
		opts_usage_error("--interval: %s", err);
	if (c->interval_ns < SERIES_WIDTH_MIN ||
	    c->interval_ns > SERIES_WIDTH_MAX)
		opts_usage_error("--interval: expected 1ms..1h, got \"%s\"", v);
}

static int64_t
opt_duration(const char *name, const char *v, int64_t min, int64_t max)
{
	char err[256];
	int64_t ns;

	if (clock_parse_duration(v, &ns, err, sizeof(err)) == -1)
		opts_usage_error("%s: %s", name, err);
	if (ns < min || ns > max)
		opts_usage_error("%s: out of range, got \"%s\"", name, v);
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
	opts_usage_error("--mode: expected l2, udp, tcp or icmp, got \"%s\"", v);
}

static void
opt_role(struct opts *o, const char *v)
{
	if (strcmp(v, "send") == 0)
		o->job.cfg.role = GEN_ROLE_SEND;
	else if (strcmp(v, "recv") == 0)
		o->job.cfg.role = GEN_ROLE_RECV;
	else
		opts_usage_error("--role: expected send or recv, got \"%s\"", v);
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
		opts_usage_error("--start-at: %s is more than an hour ahead "
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
		opts_usage_error("--tstamp: expected kernel or user, got \"%s\"", v);
}

/* --tx-io send|ring: how mode l2 hands its frames to the kernel. */
static void
opt_tx_io(struct gen_config *c, const char *v)
{
	if (strcmp(v, "send") == 0)
		c->tx_io = GEN_TX_SEND;
	else if (strcmp(v, "ring") == 0)
		c->tx_io = GEN_TX_RING;
	else
		opts_usage_error("--tx-io: expected send or ring, got \"%s\"",
		    v);
}

static void
opt_report(struct opts *o, const char *v)
{
	if (strstr(v, "://") == NULL || strlen(v) > 255)
		opts_usage_error("--report: expected a ZeroMQ endpoint such as "
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
			opts_usage_error("--records: expected a file name");
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

/* --cc NAME: a kernel congestion control's name, [a-z0-9_]{1,15}. */
static void
opt_cc(struct opts *o, const char *v)
{
	size_t n = strlen(v);

	if (n == 0 || n >= TCP_CC_MAX || strspn(v,
	    "abcdefghijklmnopqrstuvwxyz0123456789_") != n)
		opts_usage_error("--cc: expected a congestion control's name "
		    "(1..15 of a-z, 0-9, _) such as cubic or reno, got \"%s\"",
		    v);
	memcpy(o->job.tcp.cc, v, n + 1);
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
	case OPT_CC:
		opt_cc(o, v);
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
	case OPT_STREAMS:
		o->job.tcp.streams = (unsigned)opt_num("--streams", v, 1,
		    TCP_STREAMS_MAX);
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
		opts_ip("--gateway", v, &c->gateway);
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
	case OPT_TX_IO:
		opt_tx_io(c, v);
		o->tx_io_given = 1;
		break;
	case OPT_TX_STAMP_EVERY:
		c->tx_stamp_every = (unsigned)opt_num("--tx-stamp-every", v, 1,
		    GEN_TX_STAMP_MAX);
		break;
	default:
		return 0;
	}
	return 1;
}

/*
 * --data-dir DIR: csv:, pcap-sizes: and pcap-gaps: name plain files of
 * DIR (lib/datafile.h), as the agent starts us.  The flows read their
 * files as they are parsed, so it must come before the first --flow.
 */
static void
opt_data_dir(struct opts *o, const char *v)
{
	if (o->job.cfg.nflows > 0)
		opts_usage_error("--data-dir: give it before the first --flow");
	if (*v == '\0')
		opts_usage_error("--data-dir: needs a folder");
	dist_set_data_dir(v);
}

static void
parse_one(struct opts *o, int ch, const char *v)
{
	if (ch != OPT_EXPORT)
		o->nopts++;
	if (ch == OPT_DATA_DIR) {
		opt_data_dir(o, v);
		return;
	}
	if (!parse_output(o, ch, v) && !parse_mode(o, ch, v))
		(void)parse_packets(o, ch, v);
}

static const struct option longopts[] = {
	{ "bytes", required_argument, NULL, OPT_BYTES },
	{ "cc", required_argument, NULL, OPT_CC },
	{ "cpu", required_argument, NULL, OPT_CPU },
	{ "data-dir", required_argument, NULL, OPT_DATA_DIR },
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
	{ "streams", required_argument, NULL, OPT_STREAMS },
	{ "tstamp", required_argument, NULL, OPT_TSTAMP },
	{ "ttl", required_argument, NULL, OPT_TTL },
	{ "tx", required_argument, NULL, OPT_TX },
	{ "tx-io", required_argument, NULL, OPT_TX_IO },
	{ "tx-stamp-every", required_argument, NULL, OPT_TX_STAMP_EVERY },
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
			opts_usage_error("%s: needs a value", argv[optind - 1]);
		else if (ch == '?')
			opts_usage_error("unknown option \"%s\"", argv[optind - 1]);
		else
			parse_one(o, ch, optarg);
	}
	if (optind < argc)
		opts_usage_error("unexpected argument \"%s\"", argv[optind]);
	if (o->export != NULL && o->nopts > 0)
		opts_usage_error("--export-records: takes no other options");
	if (o->export == NULL)
		optcheck_all(o);
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
		opts_usage_error("%s", err);
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
