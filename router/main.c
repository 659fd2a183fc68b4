/*
 * hoplab-router: options only; router.c does the work.  See
 * docs/router.md for the configuration file and the control commands.
 */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "cpulist.h"
#include "log.h"
#include "msg.h"
#include "router/ctl.h"
#include "router/router.h"

static volatile sig_atomic_t quit;

static void
on_signal(int sig)
{
	(void)sig;
	quit = 1;
}

static void __attribute__((noreturn))
usage(int code)
{
	FILE *f = code == 0 ? stdout : stderr;

	fprintf(f,
"usage: hoplab-router [-hnVv] -c FILE [-s ENDPOINT] [--busy-poll MODE]\n"
"                     [--io packet|xdp] [--cpus LIST]\n"
"                     [--report ENDPOINT --role-id N --run-id S]\n"
"                     [--interval DURATION] [--batch-base N]\n"
"       hoplab-router -s ENDPOINT --ctl COMMAND\n"
"\n"
"  -c, --config FILE   configuration file (YAML, docs/router.md)\n"
"  -h, --help          this text\n"
"  -n, --check         check the configuration and its interfaces, print\n"
"                      \"configuration OK\" and exit\n"
"  -s, --control EP    ZeroMQ endpoint of the control socket (bound by the\n"
"                      router, connected to by --ctl)\n"
"  -V, --version       print the version and exit\n"
"  -v, --verbose       more log output (repeat for debug)\n"
"  --busy-poll MODE    spin on the rings after a frame instead of sleeping:\n"
"                      adaptive (default: up to 1ms, backs off when the\n"
"                      CPU is contended), off, or a fixed duration 0..1s\n"
"                      such as 50us; overrides io.busy_poll\n"
"  --io BACKEND        packet I/O: packet (AF_PACKET rings, default) or\n"
"                      xdp (AF_XDP sockets and the XDP fast path, or\n"
"                      libxdp's default program with io.fastpath off;\n"
"                      native mode, else skb); overrides io.backend\n"
"  --cpus LIST         run only on these CPUs, a list as taskset -c takes\n"
"                      it (1, 0,2-3): give a busy-polling router a core\n"
"                      of its own; overrides io.cpus\n"
"  --report EP         push counter reports to EP every --interval\n"
"  --role-id N         role id carried in reports\n"
"  --run-id S          run id carried in reports\n"
"  --interval D        report interval, 100ms..60s (default 1s)\n"
"  --batch-base N      number the reports from N + 1 (default 0), so a\n"
"                      router started again for the same role never\n"
"                      reuses the numbers its killed process sent\n"
"  --ctl COMMAND       send COMMAND to the router at -s and print the\n"
"                      answer: counters | reload | route add P via A |\n"
"                      route del P | iface NAME up | iface NAME down\n"
"\n"
"Exit status: 0 ok, 1 bad usage or configuration, 2 interface or socket\n"
"error, 3 a --ctl command was refused or not answered.\n");
	exit(code);
}

enum { OPT_REPORT = 256, OPT_ROLE, OPT_RUN, OPT_INTERVAL, OPT_CTL,
	OPT_BUSY, OPT_BATCH_BASE, OPT_IO, OPT_CPUS };

static const struct option longopts[] = {
	{ "batch-base", required_argument, NULL, OPT_BATCH_BASE },
	{ "busy-poll", required_argument, NULL, OPT_BUSY },
	{ "check", no_argument, NULL, 'n' },
	{ "io", required_argument, NULL, OPT_IO },
	{ "config", required_argument, NULL, 'c' },
	{ "cpus", required_argument, NULL, OPT_CPUS },
	{ "control", required_argument, NULL, 's' },
	{ "ctl", required_argument, NULL, OPT_CTL },
	{ "help", no_argument, NULL, 'h' },
	{ "interval", required_argument, NULL, OPT_INTERVAL },
	{ "report", required_argument, NULL, OPT_REPORT },
	{ "role-id", required_argument, NULL, OPT_ROLE },
	{ "run-id", required_argument, NULL, OPT_RUN },
	{ "verbose", no_argument, NULL, 'v' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

static int
check_only(const char *path)
{
	struct rconf *c;
	char err[512];

	if ((c = rconf_load(path, err, sizeof(err))) == NULL ||
	    rconf_check_host(c, err, sizeof(err)) == -1) {
		log_error("%s", err);
		rconf_free(c);
		return 1;
	}
	rconf_free(c);
	printf("configuration OK\n");
	return 0;
}

static void
parse_num(const char *opt, const char *s, uint32_t *v)
{
	char *end;
	unsigned long n = strtoul(s, &end, 10);

	if (*s == '\0' || *end != '\0' || n > UINT32_MAX) {
		log_error("%s: expected a number, got '%s'", opt, s);
		exit(1);
	}
	*v = (uint32_t)n;
}

/* What the command line asks for besides the router's options. */
struct cmdline {
	const char	*ctl;		/* --ctl COMMAND: be a client */
	int		 check;		/* -n: check the configuration */
	int		 verbose;	/* -v count */
};

/*
 * One of the options that take a value the router parses (the I/O and
 * timing options); 0, or -1 after saying what was expected.
 */
static int
value_option(int ch, const char *arg, struct router_opts *o)
{
	char err[128];

	switch (ch) {
	case OPT_BUSY:
		if (rconf_parse_busy(arg, &o->busy_adaptive, &o->busy_ns) ==
		    -1) {
			log_error("--busy-poll: expected adaptive, off or a "
			    "duration 0..1s such as 50us, got '%s'", arg);
			return -1;
		}
		o->busy_set = 1;
		return 0;
	case OPT_IO:
		if ((o->io_backend = rconf_parse_backend(arg)) == -1) {
			log_error("--io: expected packet or xdp, got '%s'", arg);
			return -1;
		}
		o->io_set = 1;
		return 0;
	case OPT_CPUS:
		if ((o->ncpus = cpulist_parse(arg, &o->cpus)) == -1) {
			log_error("--cpus: expected a CPU list such as 1 or "
			    "0,2-3, got '%s'", arg);
			return -1;
		}
		o->cpus_text = arg;
		return 0;
	default:	/* OPT_INTERVAL */
		if (clock_parse_duration(arg, &o->interval_ns, err,
		    sizeof(err)) == -1 || o->interval_ns < 100 * NSEC_PER_MSEC ||
		    o->interval_ns > 60 * NSEC_PER_SEC) {
			log_error("--interval: expected 100ms..60s, got '%s'",
			    arg);
			return -1;
		}
		return 0;
	}
}

/* Parse the command line into O and CL; exits on -h, -V and bad usage. */
static int
parse_args(int argc, char **argv, struct router_opts *o, struct cmdline *cl)
{
	uint32_t base;
	int ch;

	while ((ch = getopt_long(argc, argv, "c:hns:Vv", longopts, NULL)) !=
	    -1) {
		switch (ch) {
		case 'c': o->config = optarg; break;
		case 'h': usage(0);
		case 'n': cl->check = 1; break;
		case 's': o->control = optarg; break;
		case 'V': printf("hoplab-router %s\n", HOPLAB_VERSION); exit(0);
		case 'v': cl->verbose++; break;
		case OPT_REPORT: o->report = optarg; break;
		case OPT_ROLE: parse_num("--role-id", optarg, &o->role_id); break;
		case OPT_RUN: o->run_id = optarg; break;
		case OPT_CTL: cl->ctl = optarg; break;
		case OPT_BATCH_BASE:
			parse_num("--batch-base", optarg, &base);
			o->batch_base = base;
			break;
		case OPT_BUSY: case OPT_IO: case OPT_CPUS: case OPT_INTERVAL:
			if (value_option(ch, optarg, o) == -1)
				return -1;
			break;
		default: usage(1);
		}
	}
	if (optind != argc) {
		log_error("unexpected argument '%s'", argv[optind]);
		usage(1);
	}
	return 0;
}

int
main(int argc, char **argv)
{
	struct router_opts o = { .interval_ns = ROUTER_REPORT_DEF };
	struct cmdline cl = { NULL, 0, 0 };
	struct sigaction sa;

	log_init("hoplab-router", 0);
	if (parse_args(argc, argv, &o, &cl) == -1)
		return 1;
	log_init("hoplab-router", cl.verbose);
	if (cl.ctl != NULL) {
		if (o.control == NULL) {
			log_error("--ctl needs -s ENDPOINT");
			return 1;
		}
		return rctl_client(o.control, cl.ctl);
	}
	if (o.config == NULL) {
		log_error("-c FILE is required");
		usage(1);
	}
	if (cl.check)
		return check_only(o.config);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	return router_run(&o, &quit);
}
