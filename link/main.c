/*
 * hoplab-link: options only; link.c does the work.  See docs/link.md for
 * the profiles, the truth file and the control commands.
 */
#include <getopt.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "log.h"
#include "msg.h"
#include "truthfile.h"
#include "link/ctl.h"
#include "link/link.h"

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
"usage: hoplab-link [-hnVv] -a IFACE -b IFACE [--ab PROFILE] [--ba PROFILE]\n"
"                   [-t FILE] [--seed N] [-s ENDPOINT]\n"
"                   [--report ENDPOINT --role-id N --run-id S]\n"
"                   [--interval DURATION] [--rx-ring v2|v3] [--pool N]\n"
"                   [--tx-path copy|ring]\n"
"                   [--busy-poll adaptive[=MAX]|off|DURATION]\n"
"                   [--lead DURATION] [--spin-max DURATION]\n"
"                   [--timer ppoll|timerfd] [--cpu N] [--realtime[=PRIO]]\n"
"                   [--data-dir DIR]\n"
"       hoplab-link -s ENDPOINT --ctl COMMAND\n"
"       hoplab-link --export-truth FILE\n"
"\n"
"A transparent two-port link emulator: frames received on -a leave by -b\n"
"(direction a-b) and the reverse (b-a), unchanged, impaired as each\n"
"direction's profile says (netem words, docs/link.md):\n"
"  delay TIME [JITTER [CORR%%]] [distribution uniform|normal|pareto|\n"
"        paretonormal|/path/table.dist|NAME (--data-dir)]   fifo\n"
"  loss [random] P%% [CORR%%] | loss gemodel P%% [R%% [1-H%% [1-K%%]]]\n"
"  duplicate P%% [CORR%%]  corrupt P%% [CORR%%]  reorder P%% [CORR%%] [gap N]\n"
"  rate RATE [OVERHEAD]  limit PACKETS  limit-bytes BYTES  seed N\n"
"  nonip impair|pass|drop  oversize drop|pass  runt pass|drop\n"
"\n"
"  -a, --iface-a IF    interface a\n"
"  --ab PROFILE        profile of direction a-b (default: none)\n"
"  -b, --iface-b IF    interface b\n"
"  --ba PROFILE        profile of direction b-a (default: none)\n"
"  --busy-poll MODE    keep polling the receive rings after a frame instead\n"
"                      of sleeping (a sleeping link adds its wake-up to\n"
"                      every frame): adaptive (default, up to 2ms: poll\n"
"                      for twice the usual gap when frames come at most\n"
"                      MAX apart, less while polling does not keep the\n"
"                      link on the CPU), adaptive=MAX (MAX 10us..1s), off,\n"
"                      or a fixed DURATION 0..1s after each frame; while\n"
"                      frames come within the budget it costs a core\n"
"  --cpu N             run on CPU N only (sched_setaffinity)\n"
"  --data-dir DIR      a delay table is a plain file NAME of DIR (no '/',\n"
"                      not starting with '.'), as the agent starts the\n"
"                      link; either way a table must be a regular file\n"
"                      of at most 64 MiB, not a symbolic link\n"
"  --ctl COMMAND       send COMMAND to the link at -s and print the answer:\n"
"                      counters | set a-b|b-a PROFILE |\n"
"                      at +DURATION|@UNIXSECONDS set a-b|b-a PROFILE\n"
"  --export-truth FILE write truth file FILE as CSV on stdout and exit\n"
"  -h, --help          this text\n"
"  --interval D        report interval, 100ms..60s (default 1s)\n"
"  --lead D            stop sleeping this long before a departure and\n"
"                      spin, 0..10ms (default 200us)\n"
"  -n, --check         check the profiles, print \"configuration OK\", exit\n"
"  --pool N            packet buffers, %d..%d (default %d)\n"
"  --realtime[=PRIO]   SCHED_FIFO at PRIO 1..99 (default 10) and\n"
"                      mlockall: fewer late releases, but while frames\n"
"                      are held the link owns a core\n"
"  --report EP         push counter reports to EP every --interval\n"
"  --role-id N         role id carried in reports\n"
"  --run-id S          run id carried in reports\n"
"  --rx-ring v2|v3     receive ring (default v2: no batching delay)\n"
"  -s, --control EP    ZeroMQ endpoint of the control socket (bound by the\n"
"                      link, connected to by --ctl)\n"
"  --seed N            seeds direction a-b with 2N, b-a with 2N+1\n"
"                      (default 1; a profile's own seed wins)\n"
"  --spin-max D        spin at most this long before a departure when\n"
"                      the timer is late, 0..10ms (default 2ms); with\n"
"                      --lead 0 and --spin-max 0 the link never spins\n"
"  -t, --truth FILE    write the truth file (a record per frame)\n"
"  --timer ppoll|timerfd  sleep in ppoll's timeout (default) or on a\n"
"                      timerfd armed at the absolute time\n"
"  --tx-path copy|ring how the kernel builds each sent frame: copy (default)\n"
"                      copies it into the buffer it sends, ring attaches\n"
"                      the transmit ring's page, which veth must copy\n"
"                      again (copy carries more frames a second on veth)\n"
"  -V, --version       print the version and exit\n"
"  -v, --verbose       more log output (repeat for debug)\n"
"\n"
"Exit status: 0 ok, 1 bad usage or profile, 2 interface, file or socket\n"
"error, 3 a --ctl command was refused or not answered.\n",
	    LINK_POOL_MIN, LINK_POOL_MAX, LINK_POOL_DEF);
	exit(code);
}

enum { OPT_AB = 256, OPT_BA, OPT_BUSY, OPT_CPU, OPT_CTL, OPT_DATA, OPT_EXPORT, OPT_INTERVAL,
    OPT_LEAD, OPT_POOL, OPT_REALTIME, OPT_REPORT, OPT_ROLE, OPT_RUN,
    OPT_RXRING, OPT_SEED, OPT_SPINMAX, OPT_TIMER, OPT_TXPATH };

static const struct option longopts[] = {
	{ "ab", required_argument, NULL, OPT_AB },
	{ "ba", required_argument, NULL, OPT_BA },
	{ "busy-poll", required_argument, NULL, OPT_BUSY },
	{ "check", no_argument, NULL, 'n' },
	{ "control", required_argument, NULL, 's' },
	{ "cpu", required_argument, NULL, OPT_CPU },
	{ "ctl", required_argument, NULL, OPT_CTL },
	{ "data-dir", required_argument, NULL, OPT_DATA },
	{ "export-truth", required_argument, NULL, OPT_EXPORT },
	{ "help", no_argument, NULL, 'h' },
	{ "iface-a", required_argument, NULL, 'a' },
	{ "iface-b", required_argument, NULL, 'b' },
	{ "interval", required_argument, NULL, OPT_INTERVAL },
	{ "lead", required_argument, NULL, OPT_LEAD },
	{ "pool", required_argument, NULL, OPT_POOL },
	{ "realtime", optional_argument, NULL, OPT_REALTIME },
	{ "report", required_argument, NULL, OPT_REPORT },
	{ "role-id", required_argument, NULL, OPT_ROLE },
	{ "run-id", required_argument, NULL, OPT_RUN },
	{ "rx-ring", required_argument, NULL, OPT_RXRING },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "spin-max", required_argument, NULL, OPT_SPINMAX },
	{ "timer", required_argument, NULL, OPT_TIMER },
	{ "truth", required_argument, NULL, 't' },
	{ "tx-path", required_argument, NULL, OPT_TXPATH },
	{ "verbose", no_argument, NULL, 'v' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

static uint64_t
parse_num(const char *opt, const char *s, uint64_t min, uint64_t max)
{
	char *end;
	unsigned long long n = strtoull(s, &end, 10);

	if (*s == '\0' || *s == '-' || *end != '\0' || n < min || n > max) {
		log_error("%s: expected a number %llu..%llu, got '%s'", opt,
		    (unsigned long long)min, (unsigned long long)max, s);
		exit(1);
	}
	return n;
}

static int64_t
parse_dur(const char *opt, const char *s, int64_t min, int64_t max,
    const char *range)
{
	char err[128];
	int64_t v;

	if (clock_parse_duration(s, &v, err, sizeof(err)) == -1 || v < min ||
	    v > max) {
		log_error("%s: expected %s, got '%s'", opt, range, s);
		exit(1);
	}
	return v;
}

/* Both profiles parse; 0, or 1 with the message logged. */
static int
check_profiles(const struct link_opts *o)
{
	struct lprofile p;
	char err[512];
	int i;

	for (i = 0; i < 2; i++) {
		if (o->profile[i] == NULL)
			continue;
		if (lprofile_parse(&p, o->profile[i], err, sizeof(err)) == -1) {
			log_error("--%s: %s", i == 0 ? "ab" : "ba", err);
			return 1;
		}
		lprofile_free(&p);
	}
	return 0;
}

static int
export_truth(const char *path)
{
	char err[512];

	if (truthfile_export_csv(path, stdout, err, sizeof(err)) < 0) {
		log_error("%s", err);
		return 2;
	}
	return fflush(stdout) == 0 ? 0 : 2;
}

/* --busy-poll adaptive[=MAX]|off|DURATION; exits on anything else. */
static void
busy_option(struct link_opts *o, const char *arg)
{
	char err[128];
	int64_t v = LINK_BUSY_MAX_DEF, min = 0;
	int ok = 1;

	o->busy_adaptive = strncmp(arg, "adaptive", 8) == 0;
	if (o->busy_adaptive && arg[8] == '=') {
		min = LBUSY_MIN_NS;
		ok = clock_parse_duration(arg + 9, &v, err, sizeof(err)) == 0;
	} else if (o->busy_adaptive)
		ok = arg[8] == '\0';
	else if (strcmp(arg, "off") == 0 || strcmp(arg, "0") == 0)
		v = 0;
	else
		ok = clock_parse_duration(arg, &v, err, sizeof(err)) == 0;
	if (!ok || v < min || v > LINK_BUSY_LIMIT) {
		log_error("--busy-poll: expected adaptive, adaptive=MAX "
		    "(10us..1s), off or a duration 0..1s, got '%s'", arg);
		exit(1);
	}
	o->busy_ns = v;
}

/*
 * --rx-ring, --tx-path and --timer: one of two words each; exits on
 * anything else.
 */
static void
word_option(struct link_opts *o, int ch, const char *arg)
{
	if (ch == OPT_TXPATH) {
		if (strcmp(arg, "copy") != 0 && strcmp(arg, "ring") != 0) {
			log_error("--tx-path: expected copy or ring, got '%s'",
			    arg);
			exit(1);
		}
		o->tx_path = strcmp(arg, "copy") == 0 ? PKTIO_TX_COPY :
		    PKTIO_TX_RING;
		return;
	}
	if (ch == OPT_RXRING) {
		if (strcmp(arg, "v2") != 0 && strcmp(arg, "v3") != 0) {
			log_error("--rx-ring: expected v2 or v3, got '%s'", arg);
			exit(1);
		}
		o->rx_ring = arg;
		return;
	}
	if (strcmp(arg, "ppoll") != 0 && strcmp(arg, "timerfd") != 0) {
		log_error("--timer: expected ppoll or timerfd, got '%s'", arg);
		exit(1);
	}
	o->timerfd = strcmp(arg, "timerfd") == 0;
}

/* The options with a number or a duration, each within its range. */
static void
number_option(struct link_opts *o, int ch, const char *arg)
{
	switch (ch) {
	case OPT_CPU:
		o->cpu = (int)parse_num("--cpu", arg, 0, CPU_SETSIZE - 1);
		break;
	case OPT_INTERVAL:
		o->interval_ns = parse_dur("--interval", arg,
		    100 * NSEC_PER_MSEC, 60 * NSEC_PER_SEC, "100ms..60s");
		break;
	case OPT_LEAD:
		o->lead_ns = parse_dur("--lead", arg, 0, 10 * NSEC_PER_MSEC,
		    "0us..10ms");
		break;
	case OPT_POOL:
		o->pool = (unsigned)parse_num("--pool", arg, LINK_POOL_MIN,
		    LINK_POOL_MAX);
		break;
	case OPT_REALTIME:
		o->rt_prio = arg == NULL ? 10 :
		    (int)parse_num("--realtime", arg, 1, 99);
		break;
	case OPT_ROLE:
		o->role_id = (uint32_t)parse_num("--role-id", arg, 0,
		    UINT32_MAX);
		break;
	case OPT_SEED:
		o->seed = parse_num("--seed", arg, 0, UINT64_MAX / 2 - 1);
		break;
	default:	/* OPT_SPINMAX */
		o->spin_max_ns = parse_dur("--spin-max", arg, 0,
		    10 * NSEC_PER_MSEC, "0us..10ms");
		break;
	}
}

static void
parse_opt(struct link_opts *o, int ch, int *check, int *verbose,
    const char **ctl, const char **export)
{
	switch (ch) {
	case 'a': o->ifname[0] = optarg; break;
	case 'b': o->ifname[1] = optarg; break;
	case 'h': usage(0);
	case 'n': *check = 1; break;
	case 's': o->control = optarg; break;
	case 't': o->truth = optarg; break;
	case 'V': printf("hoplab-link %s\n", HOPLAB_VERSION); exit(0);
	case 'v': (*verbose)++; break;
	case OPT_AB: o->profile[0] = optarg; break;
	case OPT_BA: o->profile[1] = optarg; break;
	case OPT_BUSY: busy_option(o, optarg); break;
	case OPT_CTL: *ctl = optarg; break;
	case OPT_DATA: lprofile_set_data_dir(optarg); break;
	case OPT_EXPORT: *export = optarg; break;
	case OPT_REPORT: o->report = optarg; break;
	case OPT_RUN: o->run_id = optarg; break;
	case OPT_RXRING: case OPT_TIMER: case OPT_TXPATH:
		word_option(o, ch, optarg);
		break;
	case OPT_CPU: case OPT_INTERVAL: case OPT_LEAD: case OPT_POOL:
	case OPT_REALTIME: case OPT_ROLE: case OPT_SEED: case OPT_SPINMAX:
		number_option(o, ch, optarg);
		break;
	default: usage(1);
	}
}

int
main(int argc, char **argv)
{
	struct link_opts o = { .interval_ns = LINK_REPORT_DEF, .rx_ring = "v2",
	    .pool = LINK_POOL_DEF, .lead_ns = LINK_LEAD_DEF,
	    .spin_max_ns = LINK_SPIN_MAX_DEF, .busy_adaptive = 1,
	    .busy_ns = LINK_BUSY_MAX_DEF, .cpu = -1, .seed = 1,
	    .tx_path = PKTIO_TX_COPY };
	struct sigaction sa;
	const char *ctl = NULL, *export = NULL;
	int ch, check = 0, verbose = 0;

	log_init("hoplab-link", 0);
	while ((ch = getopt_long(argc, argv, "a:b:hns:t:Vv", longopts,
	    NULL)) != -1)
		parse_opt(&o, ch, &check, &verbose, &ctl, &export);
	log_init("hoplab-link", verbose);
	if (optind != argc) {
		log_error("unexpected argument '%s'", argv[optind]);
		usage(1);
	}
	if (export != NULL)
		return export_truth(export);
	if (ctl != NULL) {
		if (o.control == NULL) {
			log_error("--ctl needs -s ENDPOINT");
			return 1;
		}
		return lctl_client(o.control, ctl);
	}
	if (check_profiles(&o) != 0)
		return 1;
	if (check) {
		printf("configuration OK\n");
		return 0;
	}
	if (o.ifname[0] == NULL || o.ifname[1] == NULL) {
		log_error("-a IFACE and -b IFACE are required");
		usage(1);
	}
	if (strcmp(o.ifname[0], o.ifname[1]) == 0) {
		log_error("-a and -b name the same interface '%s'",
		    o.ifname[0]);
		return 1;
	}
	if (o.report != NULL && (o.run_id == NULL)) {
		log_error("--report needs --run-id (and --role-id)");
		return 1;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	return link_run(&o, &quit);
}
