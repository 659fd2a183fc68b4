/*
 * deploy: install, update and remove the agent on real machines over ssh.
 *
 * A host is deployed in four steps, each one ssh or scp run by sshrun.c:
 *
 *   1. probe    ssh HOST sh -s -- probe PREFIX DEST...  < deploy/remote.sh
 *               arch, uid, systemd, cc/make, sha256 of each installed
 *               file, the agent's PID, and a fresh staging folder
 *   2. copy     scp of the files whose local sha256 differs from the
 *               installed one (none when nothing changed); when the
 *               target's `uname -m` differs from ours, or with
 *               --build-on-target, a source tarball instead, and
 *               `remote.sh build` runs make there
 *   3. install  remote.sh install: files into place (write + rename),
 *               a manifest of everything it made, then systemd
 *               (enable + restart when something changed) or, without
 *               systemd or with --prefix, the agent's own daemon mode
 *   4. hello    peers_connect() + loop_hello() to the agent, as
 *               `hoplab agents` does, timed
 *
 * What is installed under PREFIX (default /): usr/local/lib/hoplab/
 * (programs, MANIFEST), etc/systemd/system/hoplab-agent.service,
 * etc/hoplab/agent.env (the agent's options), etc/hoplab/agent.key and
 * etc/hoplab/controllers/controller.pub (CURVE, unless --insecure).
 * Undeploy runs remote.sh undeploy, which stops the agent and removes
 * what the manifest lists.
 *
 * With --deb FILE (debstep.c) the package `make deb` built replaces
 * steps 2 and 3's programs and unit: the .deb is copied when the target
 * does not have it installed (version and sha256), remote.sh install-deb
 * runs apt-get install on it and writes agent.env and the keys as above,
 * under / only; undeploy then also purges the package.
 *
 * Root is needed on the target: when the ssh user is not root, install
 * and undeploy run through `sudo -n`.
 *
 * Deliberately not done: hosts in parallel (one after the other, so the
 * output reads in order), installing the target's shared libraries
 * without --deb (libzmq, protobuf-c, libyaml, libpcap: the agent's -n
 * check names what is missing), password authentication.
 */
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "clock.h"
#include "controller/deploy/debstep.h"
#include "controller/deploy/deploy.h"
#include "inventory.h"
#include "keys.h"
#include "controller/deploy/lab.h"
#include "log.h"
#include "msg.h"
#include "controller/mgmt/peers.h"
#include "controller/deploy/deploystep.h"
#include "controller/deploy/sshrun.h"

/* The whole dopts, which deploystep.c shares; opaque to the caller. */
struct deploy {
	struct dopts	o;
};

const struct option deploy_longopts[] = {
	{ "allow-exec", no_argument, NULL, 'X' },	/* issue 14 */
	{ "build-on-target", no_argument, NULL, 'b' },
	{ "deb", required_argument, NULL, 'D' },
	{ "insecure", no_argument, NULL, 'I' },
	{ "insecure-on-network", no_argument, NULL, 'W' },
	{ "inventory", required_argument, NULL, 'i' },
	{ "keys", required_argument, NULL, 'k' },
	{ "prefix", required_argument, NULL, 'R' },
	{ "ssh-port", required_argument, NULL, 'P' },
	{ "ssh-key", required_argument, NULL, 's' },
	{ "timeout", required_argument, NULL, 't' },
	{ NULL, 0, NULL, 0 },
};

void
deploy_usage(FILE *f)
{
	fprintf(f,
"usage: hoplab deploy [-bh] [--allow-exec] [--deb file.deb] [-i inventory]\n"
"                     [-k keydir] [--prefix dir] [-P port] [-s keyfile]\n"
"                     [-t seconds] [-I --insecure-on-network]\n"
"                     [[user@]host ...]\n"
"       hoplab undeploy [-h] [-i inventory] [--prefix dir] [-P port]\n"
"                     [-s keyfile] [[user@]host ...]\n"
"\n"
"Install the agent on machines over ssh (OpenSSH client, batch mode):\n"
"copy the programs, the systemd unit and the CURVE keys (or install the\n"
"package of make deb with --deb), start the agent and wait for its hello.\n"
"Only files that changed are copied; a second deploy changes nothing.\n"
"undeploy stops the agent and removes all of it (the package too).\n"
"Hosts come from the command line and/or every agent of the inventory.\n"
"\n"
"      --allow-exec       start the agents with --allow-exec: they run a\n"
"                         plan's exec: commands, as root, for any\n"
"                         controller whose key they hold\n"
"  -b, --build-on-target  build the programs on the target with make (done\n"
"                         anyway when its `uname -m` differs from ours)\n"
"      --deb FILE         install hoplab's Debian package FILE (make deb)\n"
"                         with apt-get instead of copying the programs;\n"
"                         only when its version or sha256 differs from\n"
"                         what deploy installed there\n"
"  -h, --help             show this help\n"
"  -I, --insecure         agents without CURVE keys: plain text on the\n"
"                         network, any host that reaches the port obeyed\n"
"                         (a device under test too); only with\n"
"      --insecure-on-network\n"
"                         which takes that risk: the agents run with\n"
"                         --insecure --insecure-on-network\n"
"  -i, --inventory FILE   deploy to every agent of FILE (its address is\n"
"                         the ssh host, its name and port the agent's)\n"
"  -k, --keys DIR         folder of `hoplab keygen`: controller.key,\n"
"                         controller.pub, NAME.key for each agent\n"
"                         (default: the folder of the inventory's\n"
"                         controller_key)\n"
"      --prefix DIR       install under DIR instead of / (tests, staging);\n"
"                         the agent then runs in its own daemon mode\n"
"  -P, --ssh-port N       ssh port (default: ssh's, 22)\n"
"  -s, --ssh-key FILE     ssh identity to log in with (default: ssh's)\n"
"  -t, --timeout S        wait S seconds for the agent's hello (default 10)\n"
"\n"
"Host keys are accepted on first use and remembered in\n"
"$XDG_STATE_HOME/hoplab/known_hosts (~/.local/state/hoplab/known_hosts);\n"
"a changed host key is refused.  Exit status: 0 every host done, 1 a host\n"
"failed, 2 bad usage.\n");
}

/* mkdir -p with mode 0700 for the last component. */
static int
mkdirs(const char *dir)
{
	char p[PATH_MAX], *s;

	snprintf(p, sizeof(p), "%s", dir);
	for (s = p + 1; (s = strchr(s, '/')) != NULL; s++) {
		*s = '\0';
		if (mkdir(p, 0755) == -1 && errno != EEXIST)
			return -1;
		*s = '/';
	}
	return mkdir(p, 0700) == -1 && errno != EEXIST ? -1 : 0;
}

static int
known_hosts_path(struct sshrun_conf *c)
{
	const char *st = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
	char dir[PATH_MAX];

	if (st != NULL && *st == '/')
		snprintf(dir, sizeof(dir), "%s/hoplab", st);
	else if (home != NULL && *home == '/')
		snprintf(dir, sizeof(dir), "%s/.local/state/hoplab", home);
	else {
		log_error("deploy: neither XDG_STATE_HOME nor HOME is set; "
		    "cannot place hoplab's known_hosts");
		return -1;
	}
	if (mkdirs(dir) == -1) {
		log_error("deploy: %s: %s", dir, strerror(errno));
		return -1;
	}
	snprintf(c->known_hosts, sizeof(c->known_hosts), "%s/known_hosts",
	    dir);
	return 0;
}

static int
parse_uint(const char *opt, const char *s, unsigned lo, unsigned hi,
    unsigned *v)
{
	char *end;
	unsigned long n;

	errno = 0;
	n = strtoul(s, &end, 10);
	if (errno != 0 || *s == '\0' || *end != '\0' || n < lo || n > hi) {
		log_error("deploy: %s %s: expected a number %u..%u", opt, s,
		    lo, hi);
		return -1;
	}
	*v = (unsigned)n;
	return 0;
}

/* An absolute path made of safe words, without "..", into BUF. */
static int
abs_path_opt(const char *opt, const char *s, char *buf, size_t len)
{
	if (s[0] != '/' || strstr(s, "..") != NULL || strlen(s) >= len ||
	    (strcmp(s, "/") != 0 && !sshrun_safe_word(s + 1))) {
		log_error("deploy: %s %s: expected an absolute path of "
		    "letters, digits and ._/:=+,-", opt, s);
		return -1;
	}
	snprintf(buf, len, "%s", s);
	return 0;
}

/* --keys DIR: the folder's absolute path. */
static int
keys_opt(struct dopts *o, const char *arg)
{
	if (realpath(arg, o->keydir) == NULL) {
		log_error("deploy: --keys %s: %s", arg, strerror(errno));
		return -1;
	}
	return 0;
}

/* --ssh-key FILE, which must be readable. */
static int
ssh_key_opt(struct dopts *o, const char *arg)
{
	snprintf(o->ssh.key, sizeof(o->ssh.key), "%s", arg);
	if (access(arg, R_OK) == -1) {
		log_error("deploy: --ssh-key %s: %s", arg, strerror(errno));
		return -1;
	}
	return 0;
}

int
deploy_option(struct deploy *d, int ch, const char *arg)
{
	struct dopts *o = &d->o;
	unsigned v;

	switch (ch) {
	case 'b':
		o->build = 1;
		return 0;
	case 'D':
		return debstep_option(o, arg);
	case 'X':
		o->allow_exec = 1;
		return 0;
	case 'I':
		o->insecure = 1;
		return 0;
	case 'W':
		o->insecure_net = 1;
		return 0;
	case 'i':
		o->inventory = arg;
		return 0;
	case 'k':
		return keys_opt(o, arg);
	case 'P':
		return parse_uint("--ssh-port", arg, 1, 65535, &o->ssh.port);
	case 'R':
		return abs_path_opt("--prefix", arg, o->prefix,
		    sizeof(o->prefix));
	case 's':
		return ssh_key_opt(o, arg);
	case 't':
		if (parse_uint("--timeout", arg, 1, 600, &v) == -1)
			return -1;
		o->timeout_s = (int)v;
		return 0;
	}
	return -1;
}

static void
say_done(const struct dopts *o, const struct dhost *h, int ncopied,
    const struct outcome *oc)
{
	char how[160], pkg[PATH_MAX + 128] = "";

	if (oc->systemd)
		snprintf(how, sizeof(how), "systemd unit hoplab-agent");
	else
		snprintf(how, sizeof(how), "no systemd%s: agent in daemon "
		    "mode, pid file %s/run/hoplab-agent/agent.pid",
		    dstep_root(o)[0] != '\0' ? " under --prefix" : " on the target",
		    dstep_root(o));
	if (oc->package[0] != '\0')
		snprintf(pkg, sizeof(pkg), "package hoplab %s installed from "
		    "%s; ", oc->package, o->deb.path);
	else if (o->deb.path[0] != '\0')
		snprintf(pkg, sizeof(pkg), "package hoplab %s already "
		    "installed; ", o->deb.version);
	if (oc->installed == 0 && oc->package[0] == '\0' &&
	    strcmp(oc->agent, "running") == 0)
		printf("host %s: unchanged%s, agent answered in %.2f s\n",
		    h->t.spec, o->deb.path[0] != '\0' ? " (package hoplab "
		    "already installed)" : "", oc->hello_s);
	else
		printf("host %s: deployed %s (%s%d file%s copied, %d "
		    "installed; %s, pid %ld), agent answered in %.2f s\n",
		    h->t.spec, oc->version, pkg, ncopied, ncopied == 1 ? "" :
		    "s", oc->installed, how, oc->pid, oc->hello_s);
	fflush(stdout);
}

static int
deploy_host(const struct dopts *o, const struct dhost *h,
    const struct local common[IT_N])
{
	struct local loc[IT_N];
	struct outcome oc;
	struct probe pr;
	struct utsname un;
	char msg[2048], pub[KEYS_Z85_LEN + 1] = "";
	int built = 0, ncopied = 0, debcopied = 0;

	memcpy(loc, common, sizeof(loc));
	memset(&oc, 0, sizeof(oc));
	memset(&pr, 0, sizeof(pr));
	uname(&un);
	if ((!o->insecure && dstep_key(o, h, &loc[IT_KEY], pub, msg,
	    sizeof(msg)) == -1) || dstep_env(o, h, &loc[IT_ENV]) == -1)
		goto fail;
	if (dstep_probe(o, h, &pr, msg, sizeof(msg)) == -1)
		goto fail;
	if (o->deb.path[0] == '\0' && pr.debmanifest) {
		snprintf(msg, sizeof(msg), "hoplab was deployed here as a "
		    "package (/etc/hoplab/MANIFEST): deploy with --deb, or "
		    "hoplab undeploy first");
		goto fail;
	}
	if (o->deb.path[0] != '\0') {
		if (debstep_target(o, &pr, msg, sizeof(msg)) == -1 ||
		    debstep_copy(o, h, &pr, &debcopied, msg, sizeof(msg)) == -1)
			goto fail;
	} else if (o->build || strcmp(pr.arch, un.machine) != 0) {
		if (strcmp(pr.arch, un.machine) != 0)
			printf("host %s: architecture differs (%s, here %s); "
			    "building on target\n", h->t.spec, pr.arch,
			    un.machine);
		else
			printf("host %s: building on target\n", h->t.spec);
		fflush(stdout);
		if (dstep_build(o, h, &pr, loc, msg, sizeof(msg)) == -1)
			goto fail;
		built = 1;
	}
	if (dstep_copy(o, h, &pr, loc, built, &ncopied, msg, sizeof(msg)) ==
	    -1 || dstep_install(o, h, &pr, loc, &oc, msg, sizeof(msg)) == -1)
		goto fail;
	pr.stage[0] = '\0';		/* install removed it */
	if (dstep_hello(o, h, pub, &oc, msg, sizeof(msg)) == -1)
		goto fail;
	say_done(o, h, ncopied + debcopied, &oc);
	return 0;
fail:
	dstep_cleanup(o, h, &pr);
	printf("host %s: %s\n", h->t.spec, msg);
	fflush(stdout);
	return -1;
}

/* KEPT is "FOLDER N": the spool that still holds N results. */
static void
say_kept(char *kept)
{
	char *n = strrchr(kept, ' ');

	if (n == NULL)
		return;
	*n++ = '\0';
	printf("; kept the spool folder %s (%s entr%s no controller "
	    "collected: hoplab attach, or remove it)", kept, n,
	    strcmp(n, "1") == 0 ? "y" : "ies");
}

static int
undeploy_host(const struct dopts *o, const struct dhost *h)
{
	const char *w[] = { "undeploy", o->prefix, NULL };
	char out[OUT_MAX], msg[2048], v[64], kept[PATH_MAX + 32];
	int sudo = strcmp(h->t.user, "") != 0 && strcmp(h->t.user, "root") != 0;

	if (dstep_remote(o, h, sudo, w, SSH_TIMEOUT_S, out, sizeof(out), msg,
	    sizeof(msg)) == -1) {
		printf("host %s: %s\n", h->t.spec, msg);
		return -1;
	}
	if (dstep_field(out, "nothing", v, sizeof(v)) == 0 ||
	    strstr(out, "nothing\n") == out)
		printf("host %s: nothing installed\n", h->t.spec);
	else {
		printf("host %s: undeployed", h->t.spec);
		if (dstep_field(out, "stopped", v, sizeof(v)) == 0)
			printf(": agent pid %s stopped", v);
		if (dstep_field(out, "purged", v, sizeof(v)) == 0)
			printf(", package hoplab %s purged", v);
		if (dstep_field(out, "removed", v, sizeof(v)) == 0)
			printf(", %s files and folders removed", v);
		if (dstep_field(out, "kept", kept, sizeof(kept)) == 0)
			say_kept(kept);
		printf("\n");
	}
	fflush(stdout);
	return 0;
}

/* ------------------------------------------------------------ the command */

/* Hosts from the inventory (every agent) and then from the command line. */
static struct dhost *
collect_hosts(struct dopts *o, int argc, char **argv, size_t *nh)
{
	struct inventory *inv = NULL;
	struct dhost *hs;
	char err[1024];
	size_t n = 0, i, max = (size_t)argc + INV_MAX_AGENTS;

	if ((hs = calloc(max, sizeof(*hs))) == NULL)
		return NULL;
	if (o->inventory != NULL) {
		if ((inv = inventory_load(o->inventory, err, sizeof(err))) ==
		    NULL) {
			log_error("%s", err);
			free(hs);
			return NULL;
		}
		if (o->keydir[0] == '\0' && inv->controller_key[0] != '\0') {
			snprintf(err, sizeof(err), "%s", inv->controller_key);
			snprintf(o->keydir, sizeof(o->keydir), "%s",
			    dirname(err));
		}
		for (i = 0; i < inv->nagents; i++, n++) {
			const struct inv_agent *a = &inv->agents[i];

			if (sshrun_parse_target(a->address, &hs[n].t, err,
			    sizeof(err)) == -1)
				goto bad;
			snprintf(hs[n].name, sizeof(hs[n].name), "%s", a->name);
			snprintf(hs[n].address, sizeof(hs[n].address), "%s",
			    a->address);
			snprintf(hs[n].pubkey, sizeof(hs[n].pubkey), "%s",
			    a->public_key);
			hs[n].port = a->port;
		}
	}
	for (i = 0; i < (size_t)argc; i++, n++) {
		if (argv[i][0] == '-' || sshrun_parse_target(argv[i],
		    &hs[n].t, err, sizeof(err)) == -1)
			goto bad;
		snprintf(hs[n].name, sizeof(hs[n].name), "%s", hs[n].t.host);
		snprintf(hs[n].address, sizeof(hs[n].address), "%s",
		    hs[n].t.host);
		hs[n].port = MSG_DEFAULT_PORT;
	}
	inventory_free(inv);
	*nh = n;
	return hs;
bad:
	log_error("deploy: %s", argv[i][0] == '-' ? "options go before the "
	    "hosts" : err);
	inventory_free(inv);
	free(hs);
	return NULL;
}

static int
check_keys(const struct dopts *o)
{
	char path[PATH_MAX + 32];

	if (o->insecure && !o->insecure_net) {
		log_error("deploy: --insecure makes agents that obey any host "
		    "reaching their port, a device under test too, and that "
		    "agents refuse on a network address; add "
		    "--insecure-on-network to take that risk");
		return -1;
	}
	if (o->insecure)
		return 0;
	if (o->keydir[0] == '\0') {
		log_error("deploy: no CURVE keys: give -k DIR (made by hoplab "
		    "keygen) or an inventory with controller_key, or deploy "
		    "with --insecure for plain-text agents");
		return -1;
	}
	snprintf(path, sizeof(path), "%s/controller.pub", o->keydir);
	if (access(path, R_OK) == -1) {
		log_error("deploy: %s: %s (make keys with hoplab keygen)", path,
		    strerror(errno));
		return -1;
	}
	return 0;
}

static void
remove_tmp(const struct dopts *o)
{
	static const char *const names[] = { "agent.env", "agent.key",
	    "src.tar.gz", "hoplab.deb", NULL };
	char path[PATH_MAX + 32];
	int i;

	if (o->tmp[0] == '\0')
		return;
	for (i = 0; names[i] != NULL; i++) {
		snprintf(path, sizeof(path), "%s/%s", o->tmp, names[i]);
		unlink(path);
	}
	rmdir(o->tmp);
}

static int
setup(struct dopts *o, int argc, char **argv, struct dhost **hs, size_t *nh)
{
	const char *tmpdir = getenv("TMPDIR");

	if (lab_home(o->home, sizeof(o->home)) == -1) {
		log_error("deploy: cannot find hoplab's folder; set HOPLAB_HOME");
		return EXIT_FAIL;
	}
	if ((*hs = collect_hosts(o, argc, argv, nh)) == NULL)
		return EXIT_USAGE;
	if (*nh == 0) {
		log_error("deploy: no hosts: name [user@]host ... or give -i "
		    "INVENTORY");
		deploy_usage(stderr);
		return EXIT_USAGE;
	}
	if (known_hosts_path(&o->ssh) == -1)
		return EXIT_FAIL;
	snprintf(o->tmp, sizeof(o->tmp), "%s/hoplab-deploy.XXXXXX",
	    tmpdir != NULL && *tmpdir == '/' ? tmpdir : "/tmp");
	if (mkdtemp(o->tmp) == NULL) {
		log_error("deploy: mkdtemp %s: %s", o->tmp, strerror(errno));
		o->tmp[0] = '\0';
		return EXIT_FAIL;
	}
	return 0;
}

struct deploy *
deploy_new(void)
{
	struct deploy *d;

	if ((d = calloc(1, sizeof(*d))) == NULL)
		return NULL;
	d->o.timeout_s = 10;
	snprintf(d->o.prefix, sizeof(d->o.prefix), "/");
	return d;
}

void
deploy_free(struct deploy *d)
{
	free(d);
}

/*
 * --deb goes with deploy alone (undeploy finds the package in deploy's
 * manifest), under / and without building; then the .deb is read.
 */
static int
deb_usage(struct dopts *o, int undeploy, const struct dhost *hs, size_t nh)
{
	char who[400];

	if (undeploy) {
		log_error("undeploy: no --deb: it purges the package when "
		    "deploy --deb installed it");
		return -1;
	}
	if (strcmp(o->prefix, "/") != 0 || o->build) {
		log_error("deploy: --deb installs the package under / with "
		    "apt-get: not with --%s", o->build ? "build-on-target" :
		    "prefix");
		return -1;
	}
	if (nh == 1)
		snprintf(who, sizeof(who), "host %s", hs[0].t.spec);
	else
		snprintf(who, sizeof(who), "the %zu hosts", nh);
	return debstep_local(o, who);
}

/* Deploy or undeploy (NAME) each of the NH hosts HS; the exit status. */
static int
each_host(struct dopts *o, const char *name, struct dhost *hs, size_t nh)
{
	struct local common[IT_N];
	size_t i, nfail = 0;
	int undeploy = strcmp(name, "undeploy") == 0;

	if (!undeploy && check_keys(o) == -1)
		return EXIT_USAGE;
	if (o->deb.path[0] != '\0' && deb_usage(o, undeploy, hs, nh) == -1)
		return EXIT_USAGE;
	if (!undeploy && dstep_locals(o, common) == -1)
		return EXIT_FAIL;
	for (i = 0; i < nh && !*o->stop; i++) {
		if ((undeploy ? undeploy_host(o, &hs[i]) :
		    deploy_host(o, &hs[i], common)) == -1)
			nfail++;
	}
	if (*o->stop)
		log_error("%s: interrupted after %zu of %zu hosts", name, i,
		    nh);
	if (nfail > 0)
		log_error("%s: %zu of %zu hosts failed", name, nfail, nh);
	return nfail == 0 && !*o->stop ? 0 : EXIT_FAIL;
}

int
deploy_run(struct deploy *d, int undeploy, const struct deploy_env *env,
    int nhosts, char **hosts)
{
	struct dopts *o = &d->o;
	struct dhost *hs = NULL;
	size_t nh = 0;
	int rc;

	if (o->inventory == NULL)
		o->inventory = env->inventory;
	o->insecure |= env->insecure;
	o->verbose = env->verbose;
	o->stop = env->stop;
	if ((rc = setup(o, nhosts, hosts, &hs, &nh)) == 0)
		rc = each_host(o, undeploy ? "undeploy" : "deploy", hs, nh);
	remove_tmp(o);
	free(hs);
	return rc;
}
