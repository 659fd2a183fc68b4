/*
 * hoplab-agent: options, checks and daemonizing; the work is in agent.c.
 *
 * Exit status: 0 after a clean stop (SIGTERM, SIGINT) or a successful -n,
 * 1 when the agent could not run (sockets, run folder, another agent on
 * the same run folder or spool), 2 for a bad option or value.
 *
 * The spool (--spool) must outlive the run folder: systemd removes its
 * RuntimeDirectory= at every stop, and /run is tmpfs.  Daemon mode keeps
 * it in a state folder under /var/lib; -d keeps RUNDIR/spool, which the
 * lab (deploy/lab.sh) and the tests rely on, unless --spool says where.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <libgen.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/un.h>

#include "agent/agent.h"
#include "agent/valid.h"
#include "log.h"

#define PROG	"hoplab-agent"

static void __attribute__((noreturn))
usage(int code)
{
	if (code != 0) {
		fprintf(stderr, "usage: " PROG " [-dhnv] [-a authorized] "
		    "[-b bindir] [-k keyfile] [-l addr[:port]]\n"
		    "       [-N name] [-r rundir] [--allow-exec] [--data dir]\n"
		    "       [--insecure [--insecure-on-network]] [--spool dir]\n"
		    "       " PROG " --help for the options\n");
		exit(code);
	}
	printf(
"usage: " PROG " [-dhnv] [-a authorized] [-b bindir] [-k keyfile]\n"
"       [-l addr[:port]] [-N name] [-r rundir] [--allow-exec] [--data dir]\n"
"       [--insecure [--insecure-on-network]] [--spool dir]\n"
"\n"
"The hoplab agent runs on every machine of a testbed.  It listens for the\n"
"controller on a ZeroMQ ROUTER socket, starts and supervises traffic\n"
"generators (hoplab-gen), configures the Linux kernel as a router with\n"
"iproute2, and forwards its children's results to the controller.  It\n"
"runs only hoplab's own programs and iproute2, with validated arguments,\n"
"and a plan's own commands only when started with --allow-exec.\n"
"Management traffic is CURVE-encrypted: the agent obeys only controllers\n"
"whose public key it holds (make keys with `hoplab keygen`).\n"
"\n"
"      --allow-exec       run the commands a plan's exec: section gives\n"
"                         (as this agent's user, root in the lab): any\n"
"                         controller whose key it holds can then run any\n"
"                         command here (default: exec roles are refused)\n"
"  -a, --authorized PATH  the controllers' public keys: a .pub file, or a\n"
"                         folder whose *.pub files are read\n"
"  -b, --bin-dir DIR      folder holding hoplab-gen\n"
"                         (default: the folder of this program)\n"
"      --data DIR         folder of the files a plan names (csv:NAME,\n"
"                         pcap-sizes:NAME, pcap-gaps:NAME, a link's delay\n"
"                         table): plain names of regular files in DIR, no\n"
"                         '/', no leading '.', no symbolic links, at most\n"
"                         64 MiB (default " AGENT_DATA_DEFAULT ")\n"
"  -d, --foreground       stay in the foreground, log to stderr only\n"
"                         (default: daemonize, log to RUNDIR/agent.log)\n"
"  -h, --help             print this help and exit\n"
"      --insecure         no CURVE: plain text, and any controller that\n"
"                         reaches the port is obeyed; only on a loopback\n"
"                         --listen address (127.0.0.0/8) unless with:\n"
"      --insecure-on-network\n"
"                         allow --insecure on a network address: every\n"
"                         host that reaches the port, a device under test\n"
"                         too, can then start roles and take this host's\n"
"                         data interfaces down\n"
"  -k, --key FILE         this agent's CURVE key pair (NAME.key, mode 0600)\n"
"  -l, --listen ADDR[:PORT]\n"
"                         IPv4 address and TCP port to listen on\n"
"                         (default 0.0.0.0:%d); the interface that holds\n"
"                         ADDR is the management one, which no request\n"
"                         may touch (with 0.0.0.0 none is known)\n"
"  -n, --check            check the options, print \"configuration OK\"\n"
"                         and exit\n"
"  -N, --name NAME        agent name shown to the controller: letters,\n"
"                         digits, '.', '_', '-' (default: the host name)\n"
"  -r, --run-dir DIR      folder for the children's socket, the pid file\n"
"                         and the role logs (default /run/hoplab/agent-NAME)\n"
"      --spool DIR        result batches kept until the controller has\n"
"                         acknowledged them, on persistent storage: an\n"
"                         absolute path, not the run folder, one agent\n"
"                         per spool (default /var/lib/hoplab/agent-NAME/\n"
"                         spool; with -d RUNDIR/spool, which is lost when\n"
"                         the run folder is: the systemd unit gives\n"
"                         /var/lib/hoplab-agent/spool)\n"
"  -v, --verbose          log more; twice for debug messages\n"
"\n"
"Signals: SIGTERM or SIGINT stops every role (SIGTERM, SIGKILL after 2 s)\n"
"and exits.  Exit status: 0 clean stop, 1 runtime failure, 2 bad usage.\n",
	    MSG_DEFAULT_PORT);
	exit(code);
}

static void __attribute__((noreturn, format(printf, 1, 2)))
bad(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, PROG ": ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	exit(2);
}

/* "ADDR", "ADDR:PORT" or ":PORT"; "*" means every address. */
static void
parse_listen(struct agent_conf *cf, const char *s)
{
	char a[INET_ADDRSTRLEN + 8];
	const char *colon = strrchr(s, ':');
	struct in_addr in;
	unsigned long port = MSG_DEFAULT_PORT;
	char *end;
	size_t n = colon != NULL ? (size_t)(colon - s) : strlen(s);

	if (n >= sizeof(a))
		bad("--listen %s: expected an IPv4 address[:port]", s);
	memcpy(a, s, n);
	a[n] = '\0';
	if (n == 0 || strcmp(a, "*") == 0)
		snprintf(a, sizeof(a), "0.0.0.0");
	if (inet_pton(AF_INET, a, &in) != 1)
		bad("--listen %s: \"%s\" is not an IPv4 address", s, a);
	if (colon != NULL) {
		errno = 0;
		port = strtoul(colon + 1, &end, 10);
		if (colon[1] == '\0' || *end != '\0' || port < 1 ||
		    port > 65535)
			bad("--listen %s: port expected 1..65535", s);
	}
	inet_ntop(AF_INET, &in, cf->addr, sizeof(cf->addr));
	cf->port = (unsigned)port;
}

/* An absolute path (the agent chdirs to / when it daemonizes). */
static void
path_opt(char *dst, size_t len, const char *arg)
{
	char *abs = realpath(arg, NULL);

	if (abs == NULL)
		bad("%s: %s", arg, strerror(errno));
	if (strlen(abs) >= len)
		bad("%s: path too long", arg);
	snprintf(dst, len, "%s", abs);
	free(abs);
}

static void
default_bindir(struct agent_conf *cf)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0)
		bad("cannot read /proc/self/exe: %s; use --bin-dir",
		    strerror(errno));
	exe[n] = '\0';
	snprintf(cf->bindir, sizeof(cf->bindir), "%s", dirname(exe));
}

/* True for an address of 127.0.0.0/8 (IPv4 literal). */
static int
is_loopback(const char *addr)
{
	struct in_addr in;

	return inet_pton(AF_INET, addr, &in) == 1 &&
	    (ntohl(in.s_addr) >> 24) == 127;
}

/*
 * CURVE needs both key options; --insecure excludes them, and is for
 * loopback only unless --insecure-on-network says the user takes the
 * risk (issue 17).
 */
static void
check_keys(const struct agent_conf *cf)
{
	struct keypair kp;
	char err[512], auth[1][KEYS_Z85_LEN + 1];

	if (cf->insecure_net && !cf->insecure)
		bad("--insecure-on-network goes with --insecure");
	if (cf->insecure) {
		if (cf->keyfile[0] != '\0' || cf->authfile[0] != '\0')
			bad("--insecure cannot be combined with --key or "
			    "--authorized");
		if (!is_loopback(cf->addr) && !cf->insecure_net)
			bad("--insecure on %s, not a loopback address: any host "
			    "that reaches port %u could start roles and take "
			    "interfaces down; listen on 127.0.0.1, use CURVE, "
			    "or add --insecure-on-network to take that risk",
			    cf->addr, cf->port);
		return;
	}
	if (cf->keyfile[0] == '\0' || cf->authfile[0] == '\0')
		bad("CURVE needs --key FILE and --authorized PATH (make them "
		    "with `hoplab keygen`); --insecure runs in plain text");
	if (keys_load(cf->keyfile, 1, &kp, err, sizeof(err)) == -1)
		bad("--key: %s", err);
	if (keys_load_public(cf->authfile, auth, 1, err, sizeof(err)) == -1)
		bad("--authorized: %s", err);
}

/* LEN of PATH without its trailing slashes ("/" stays 1). */
static size_t
trimmed(const char *path)
{
	size_t n = strlen(path);

	while (n > 1 && path[n - 1] == '/')
		n--;
	return n;
}

/* Whether A and B name one folder: by name, or by inode if both exist. */
static int
same_dir(const char *a, const char *b)
{
	struct stat sa, sb;
	size_t n = trimmed(a);

	if (n == trimmed(b) && strncmp(a, b, n) == 0)
		return 1;
	return stat(a, &sa) == 0 && stat(b, &sb) == 0 &&
	    sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/*
 * --spool: the default by mode (see the top of the file), then an
 * absolute path that is not the run folder, whose batches would be
 * lost with it and whose sockets the spool would have to step over.
 */
static void
check_spool(struct agent_conf *cf)
{
	if (cf->spooldir[0] == '\0') {
		if (cf->foreground)
			snprintf(cf->spooldir, sizeof(cf->spooldir),
			    "%.*s/spool", (int)(sizeof(cf->spooldir) - 8),
			    cf->rundir);
		else
			snprintf(cf->spooldir, sizeof(cf->spooldir),
			    "/var/lib/hoplab/agent-%s/spool", cf->name);
	}
	if (cf->spooldir[0] != '/')
		bad("--spool %s: expected an absolute path", cf->spooldir);
	if (strlen(cf->spooldir) + 64 + SPOOL_RUNID_MAX >= PATH_MAX)
		bad("--spool %s: path too long", cf->spooldir);
	if (same_dir(cf->spooldir, cf->rundir))
		bad("--spool %s is the run folder (-r %s): the spool must "
		    "outlive it; give a folder on persistent storage",
		    cf->spooldir, cf->rundir);
}

static void
check_conf(struct agent_conf *cf, const char *bindir)
{
	struct sockaddr_un sun;
	char path[PATH_MAX + 16];
	struct stat st;

	if (cf->name[0] == '\0') {
		if (gethostname(cf->name, sizeof(cf->name) - 1) == -1)
			bad("no --name and no host name: %s", strerror(errno));
	}
	if (!valid_token(cf->name, AGENT_NAME_MAX) ||
	    strchr(cf->name, ':') != NULL)
		bad("--name \"%s\": expected 1..63 letters, digits, '.', "
		    "'_', '-'", cf->name);
	if (bindir == NULL)
		default_bindir(cf);
	else if (realpath(bindir, cf->bindir) == NULL)
		bad("--bin-dir %s: %s", bindir, strerror(errno));
	if (stat(cf->bindir, &st) == -1 || !S_ISDIR(st.st_mode))
		bad("--bin-dir %s: not a folder", cf->bindir);
	snprintf(path, sizeof(path), "%s/hoplab-gen", cf->bindir);
	if (access(path, X_OK) == -1)
		fprintf(stderr, PROG ": warning: %s: %s; generator roles "
		    "will fail\n", path, strerror(errno));
	if (cf->rundir[0] == '\0')
		snprintf(cf->rundir, sizeof(cf->rundir),
		    "/run/hoplab/agent-%s", cf->name);
	if (cf->datadir[0] == '\0')
		snprintf(cf->datadir, sizeof(cf->datadir), "%s",
		    AGENT_DATA_DEFAULT);
	check_keys(cf);
	if (cf->rundir[0] != '/')
		bad("--run-dir %s: expected an absolute path", cf->rundir);
	check_spool(cf);
	if (strlen(cf->rundir) + sizeof("/children.sock") >
	    sizeof(sun.sun_path))
		bad("--run-dir %s: too long for a unix socket path (at most "
		    "%zu characters)", cf->rundir, sizeof(sun.sun_path) -
		    sizeof("/children.sock"));
}

/* mkdir -p DIR: parents 0755, DIR itself 0700. */
static int
mkdirs(const char *dir)
{
	char p[PATH_MAX];
	char *s;

	snprintf(p, sizeof(p), "%s", dir);
	for (s = p + 1; (s = strchr(s, '/')) != NULL; s++) {
		*s = '\0';
		if (mkdir(p, 0755) == -1 && errno != EEXIST)
			return -1;
		*s = '/';
	}
	if (mkdir(p, 0700) == -1 && errno != EEXIST)
		return -1;
	return 0;
}

/* Refuse a second agent on the same run folder; write our pid. */
/*
 * Whether PID is a live hoplab-agent: kill(pid, 0) alone also succeeds
 * for a zombie or for an unrelated process that reused the number.
 */
static int
agent_alive(long pid)
{
	char path[64], buf[512], *p;
	FILE *f;
	int alive = 0;

	if (kill((pid_t)pid, 0) == -1)
		return 0;
	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	if ((f = fopen(path, "r")) == NULL)
		return 0;
	/* "PID (comm) STATE ...": comm may hold spaces, so find the last ')'. */
	if (fgets(buf, sizeof(buf), f) != NULL &&
	    (p = strrchr(buf, ')')) != NULL && p[1] == ' ' && p[2] != 'Z' &&
	    strstr(buf, "(hoplab-agent)") != NULL)
		alive = 1;
	fclose(f);
	return alive;
}

static int
pidfile(const struct agent_conf *cf, char *path, size_t len)
{
	FILE *f;
	long pid;

	snprintf(path, len, "%s/agent.pid", cf->rundir);
	if ((f = fopen(path, "r")) != NULL) {
		if (fscanf(f, "%ld", &pid) == 1 && pid > 0 &&
		    pid != (long)getpid() && agent_alive(pid)) {
			fclose(f);
			log_error("another agent runs on %s as pid %ld",
			    cf->rundir, pid);
			return -1;
		}
		fclose(f);
	}
	if ((f = fopen(path, "w")) == NULL) {
		log_error("%s: %s", path, strerror(errno));
		return -1;
	}
	fprintf(f, "%ld\n", (long)getpid());
	fclose(f);
	return 0;
}

static int
run(const struct agent_conf *cf)
{
	char pidpath[PATH_MAX + 16], logpath[PATH_MAX + 16];
	int rc;

	if (mkdirs(cf->rundir) == -1) {
		log_error("run folder %s: %s", cf->rundir, strerror(errno));
		return 1;
	}
	if (mkdirs(cf->spooldir) == -1) {
		log_error("spool %s: %s", cf->spooldir, strerror(errno));
		return 1;
	}
	if (same_dir(cf->spooldir, cf->rundir)) {
		log_error("spool %s is the run folder %s", cf->spooldir,
		    cf->rundir);
		return 1;
	}
	if (!cf->foreground) {
		snprintf(logpath, sizeof(logpath), "%s/agent.log", cf->rundir);
		if (log_set_file(logpath) == -1) {
			log_error("%s: %s", logpath, strerror(errno));
			return 1;
		}
		if (daemon(0, 0) == -1) {
			log_error("daemon: %s", strerror(errno));
			return 1;
		}
	}
	if (pidfile(cf, pidpath, sizeof(pidpath)) == -1)
		return 1;
	if (strcmp(cf->addr, "0.0.0.0") == 0)
		log_warn("listening on every address: no interface is known "
		    "as the management one, so none is protected from a "
		    "plan's faults and roles; give -l ADDR");
	rc = agent_run(cf);
	unlink(pidpath);
	return rc;
}

static const struct option longopts[] = {
	{ "allow-exec",	no_argument,		NULL, 'X' },
	{ "authorized",	required_argument,	NULL, 'a' },
	{ "bin-dir",	required_argument,	NULL, 'b' },
	{ "data",	required_argument,	NULL, 'D' },
	{ "foreground",	no_argument,		NULL, 'd' },
	{ "help",	no_argument,		NULL, 'h' },
	{ "insecure",	no_argument,		NULL, 'I' },
	{ "insecure-on-network", no_argument,	NULL, 'W' },
	{ "key",	required_argument,	NULL, 'k' },
	{ "listen",	required_argument,	NULL, 'l' },
	{ "check",	no_argument,		NULL, 'n' },
	{ "name",	required_argument,	NULL, 'N' },
	{ "run-dir",	required_argument,	NULL, 'r' },
	{ "spool",	required_argument,	NULL, 'S' },
	{ "verbose",	no_argument,		NULL, 'v' },
	{ NULL,		0,			NULL, 0 },
};

/* Copy ARG into DST of LEN bytes; -1 when it does not fit. */
static int
copy_opt(char *dst, size_t len, const char *arg)
{
	if (strlen(arg) >= len)
		return -1;
	snprintf(dst, len, "%s", arg);
	return 0;
}

/*
 * The options into CF; *BINDIR is -b as given, *CHECK set by -n.
 * Exits with usage on a bad option.
 */
static void
parse_opts(int argc, char *argv[], struct agent_conf *cf,
    const char **bindir, int *check)
{
	int ch;

	while ((ch = getopt_long(argc, argv, "a:b:dhk:l:nN:r:v", longopts,
	    NULL)) != -1) {
		switch (ch) {
		case 'a':
			path_opt(cf->authfile, sizeof(cf->authfile), optarg);
			break;
		case 'b':
			*bindir = optarg;
			break;
		case 'd':
			cf->foreground = 1;
			break;
		case 'h':
			usage(0);
		case 'I':
			cf->insecure = 1;
			break;
		case 'W':
			cf->insecure_net = 1;
			break;
		case 'D':
			if (optarg[0] != '/' || copy_opt(cf->datadir,
			    sizeof(cf->datadir), optarg) == -1)
				bad("--data %s: expected an absolute path",
				    optarg);
			break;
		case 'X':
			cf->allow_exec = 1;
			break;
		case 'k':
			path_opt(cf->keyfile, sizeof(cf->keyfile), optarg);
			break;
		case 'l':
			parse_listen(cf, optarg);
			break;
		case 'n':
			*check = 1;
			break;
		case 'N':
			if (copy_opt(cf->name, sizeof(cf->name), optarg) == -1)
				bad("--name: at most %zu characters",
				    sizeof(cf->name) - 1);
			break;
		case 'r':
			if (copy_opt(cf->rundir, sizeof(cf->rundir),
			    optarg) == -1)
				bad("--run-dir: path too long");
			break;
		case 'S':
			if (copy_opt(cf->spooldir, sizeof(cf->spooldir),
			    optarg) == -1)
				bad("--spool: path too long");
			break;
		case 'v':
			cf->verbose++;
			break;
		default:
			usage(2);
		}
	}
	if (optind != argc)
		bad("unexpected argument \"%s\" (see --help)", argv[optind]);
}

int
main(int argc, char *argv[])
{
	struct agent_conf cf;
	const char *bindir = NULL;
	int check = 0;

	memset(&cf, 0, sizeof(cf));
	snprintf(cf.addr, sizeof(cf.addr), "0.0.0.0");
	cf.port = MSG_DEFAULT_PORT;
	parse_opts(argc, argv, &cf, &bindir, &check);
	check_conf(&cf, bindir);
	if (check) {
		printf("configuration OK\n");
		return 0;
	}
	log_init(PROG, cf.verbose);
	return run(&cf);
}
