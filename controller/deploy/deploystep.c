/*
 * deploystep: one host's deployment steps (see deploystep.h and the
 * design comment of deploy.c).  Local files are hashed with sha256sum and
 * compared with the sha256 that remote.sh reports for the installed ones;
 * only those that differ are copied.  The agent's key pair is rewritten
 * under the name it is staged as (agent.key, mode 0600) and wiped from
 * memory after use.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clock.h"
#include "controller/deploy/deploystep.h"
#include "inventory.h"
#include "keys.h"
#include "log.h"
#include "controller/mgmt/loop.h"
#include "controller/mgmt/peers.h"

/* What may be installed; the staged name is the basename of DEST. */
const struct dstep_item dstep_items[IT_N] = {
	[IT_AGENT] = { LIBDIR "/hoplab-agent", "0755", 1 },
	[IT_GEN] = { LIBDIR "/hoplab-gen", "0755", 1 },
	[IT_ROUTER] = { LIBDIR "/hoplab-router", "0755", 1 },
	[IT_LINK] = { LIBDIR "/hoplab-link", "0755", 1 },
	[IT_UNIT] = { "etc/systemd/system/hoplab-agent.service", "0644", 0 },
	[IT_ENV] = { "etc/hoplab/agent.env", "0644", 0 },
	[IT_KEY] = { "etc/hoplab/agent.key", "0600", 0 },
	[IT_AUTH] = { "etc/hoplab/controllers/controller.pub", "0644", 0 },
};

/* ------------------------------------------------------------ local files */

/* sha256 of PATH into SHA (64 hex digits), by running sha256sum. */
static int
local_sha(const char *path, char sha[65])
{
	char *argv[] = { "/usr/bin/sha256sum", "--", (char *)path, NULL };
	char out[256], errtext[512];
	int rc;

	rc = sshrun_exec(argv, NULL, 60, out, sizeof(out), errtext,
	    sizeof(errtext));
	if (rc != 0 || strspn(out, "0123456789abcdef") != 64) {
		log_error("deploy: sha256sum %s: %s", path, errtext);
		return -1;
	}
	memcpy(sha, out, 64);
	sha[64] = '\0';
	return 0;
}

static int
write_file(const char *path, mode_t mode, const char *text)
{
	FILE *f;

	unlink(path);
	if ((f = fopen(path, "w")) == NULL || fchmod(fileno(f), mode) == -1 ||
	    fputs(text, f) == EOF || fclose(f) == EOF) {
		log_error("deploy: %s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* The prefix without its trailing slash: "" for "/". */
const char *
dstep_root(const struct dopts *o)
{
	return strcmp(o->prefix, "/") == 0 ? "" : o->prefix;
}

/*
 * The IPv4 address agent H listens on: its inventory (or ssh) host as
 * a literal, or what that name resolves to here, so that the agent binds
 * to its management address and not to every interface (issue 17).
 */
static int
listen_addr(const struct dhost *h, char *addr, size_t len)
{
	struct addrinfo hints = { .ai_family = AF_INET }, *ai;
	struct in_addr in;
	int rc;

	if (inet_pton(AF_INET, h->t.host, &in) == 1) {
		snprintf(addr, len, "%s", h->t.host);
		return 0;
	}
	if ((rc = getaddrinfo(h->t.host, NULL, &hints, &ai)) != 0) {
		log_error("deploy: %s: cannot bind its agent to the management "
		    "address: %s does not resolve to IPv4 (%s)", h->name,
		    h->t.host, gai_strerror(rc));
		return -1;
	}
	inet_ntop(AF_INET, &((struct sockaddr_in *)(void *)ai->ai_addr)->
	    sin_addr, addr, len);
	freeaddrinfo(ai);
	return 0;
}

/*
 * Write the agent's options for host H into TMP/agent.env: bound to
 * H's management address; --insecure (plain text on that network) says
 * so to the agent with --insecure-on-network, which it asks for.
 */
int
dstep_env(const struct dopts *o, const struct dhost *h, struct local *l)
{
	char text[2048], keys[PATH_MAX * 2 + 16], addr[INET_ADDRSTRLEN];

	if (listen_addr(h, addr, sizeof(addr)) == -1)
		return -1;
	if (o->insecure)
		snprintf(keys, sizeof(keys), "--insecure --insecure-on-network");
	else
		snprintf(keys, sizeof(keys), "-k %s/%s -a %s/etc/hoplab/"
		    "controllers", dstep_root(o), dstep_items[IT_KEY].dest, dstep_root(o));
	snprintf(text, sizeof(text),
	    "# hoplab-agent options, written by hoplab deploy; read by\n"
	    "# hoplab-agent.service and by deploy/remote.sh (daemon mode)\n"
	    "HOPLAB_AGENT_OPTS=\"-N %s -l %s:%u %s%s\"\n", h->name, addr,
	    h->port, keys, o->allow_exec ? " --allow-exec" : "");
	snprintf(l->path, sizeof(l->path), "%s/agent.env", o->tmp);
	if (write_file(l->path, 0644, text) == -1)
		return -1;
	return local_sha(l->path, l->sha);
}

/* Copy the agent's key pair to TMP/agent.key (the staged name). */
int
dstep_key(const struct dopts *o, const struct dhost *h, struct local *l,
    char *pub, char *err, size_t errlen)
{
	char src[PATH_MAX + INV_NAME_MAX + 8], text[512];
	struct keypair kp;

	snprintf(src, sizeof(src), "%s/%s.key", o->keydir, h->name);
	if (keys_load(src, 1, &kp, err, errlen) == -1)
		return -1;
	if (h->pubkey[0] != '\0' && strcmp(h->pubkey, kp.public_z85) != 0) {
		snprintf(err, errlen, "the inventory's public_key of %s is not "
		    "the public half of %s", h->name, src);
		return -1;
	}
	snprintf(pub, KEYS_Z85_LEN + 1, "%s", kp.public_z85);
	snprintf(text, sizeof(text), "# hoplab CURVE key pair \"%s\", "
	    "installed by hoplab deploy; keep this file secret\n"
	    "public-key = \"%s\"\nsecret-key = \"%s\"\n", h->name,
	    kp.public_z85, kp.secret_z85);
	explicit_bzero(&kp, sizeof(kp));
	snprintf(l->path, sizeof(l->path), "%s/agent.key", o->tmp);
	if (write_file(l->path, 0600, text) == -1) {
		explicit_bzero(text, sizeof(text));
		snprintf(err, errlen, "cannot write %s", l->path);
		return -1;
	}
	explicit_bzero(text, sizeof(text));
	return local_sha(l->path, l->sha);
}

/*
 * The files common to every host: programs, unit, controller.pub (with
 * --deb only controller.pub: the package holds the rest).
 */
int
dstep_locals(const struct dopts *o, struct local loc[IT_N])
{
	static const char *const prog[] = { [IT_AGENT] = "hoplab-agent",
	    [IT_GEN] = "hoplab-gen", [IT_ROUTER] = "hoplab-router",
	    [IT_LINK] = "hoplab-link" };
	int i, deb = o->deb.path[0] != '\0';

	memset(loc, 0, sizeof(struct local) * IT_N);
	for (i = IT_AGENT; i <= IT_LINK && !deb; i++) {
		snprintf(loc[i].path, sizeof(loc[i].path), "%s/bin/%s",
		    o->home, prog[i]);
		if (access(loc[i].path, X_OK) == -1) {
			if (i <= IT_GEN) {
				log_error("deploy: %s is not built; run make",
				    loc[i].path);
				return -1;
			}
			loc[i].path[0] = '\0';	/* optional program */
		}
	}
	if (!deb)
		snprintf(loc[IT_UNIT].path, sizeof(loc[IT_UNIT].path),
		    "%s/deploy/hoplab-agent.service", o->home);
	if (!o->insecure)
		snprintf(loc[IT_AUTH].path, sizeof(loc[IT_AUTH].path),
		    "%s/controller.pub", o->keydir);
	for (i = 0; i < IT_N; i++)
		if (loc[i].path[0] != '\0' && local_sha(loc[i].path,
		    loc[i].sha) == -1)
			return -1;
	return 0;
}

/* ------------------------------------------------------------ remote */

/*
 * Run deploy/remote.sh ACTION WORDS... on H (through sudo -n when SUDO).
 * Returns 0 with remote.sh's stdout in OUT; -1 with one line in MSG: ssh's
 * complaint, or remote.sh's "error" lines.
 */
int
dstep_remote(const struct dopts *o, const struct dhost *h, int sudo,
    const char *const *words, int timeout_s, char *out, size_t outlen,
    char *msg, size_t msglen)
{
	const char *w[48];
	char script[PATH_MAX + 32], errtext[4096], *p, *e;
	struct sshrun_argv a;
	size_t n = 0, i, off = 0;
	int rc;

	if (sudo) {
		w[n++] = "sudo";
		w[n++] = "-n";
	}
	w[n++] = "sh";
	w[n++] = "-s";
	w[n++] = "--";
	for (i = 0; words[i] != NULL && n < 47; i++)
		w[n++] = words[i];
	w[n] = NULL;
	snprintf(script, sizeof(script), "%s/deploy/remote.sh", o->home);
	if (sshrun_ssh_argv(&o->ssh, &h->t, w, &a, msg, msglen) == -1)
		return -1;
	if (o->verbose)
		for (i = 0; i < (size_t)a.n; i++)
			fprintf(stderr, "%s%s", a.v[i], i + 1 < (size_t)a.n ?
			    " " : " < deploy/remote.sh\n");
	rc = sshrun_exec(a.v, script, timeout_s, out, outlen, errtext,
	    sizeof(errtext));
	if (rc == 0)
		return 0;
	/* remote.sh explains itself in "error" lines; ssh on stderr. */
	msg[0] = '\0';
	for (p = out; (e = strstr(p, "error ")) != NULL; p = e + 6) {
		if (e != out && e[-1] != '\n')
			continue;
		off += snprintf(msg + off, msglen > off ? msglen - off : 0,
		    "%s%.*s", off ? "\n  " : "", (int)strcspn(e + 6, "\n"),
		    e + 6);
	}
	if (msg[0] == '\0')
		sshrun_failure(errtext, rc, msg, msglen);
	return -1;
}

int
dstep_scp(const struct dopts *o, const struct dhost *h, const char **files,
    const char *stage, char *msg, size_t msglen)
{
	char out[1024], errtext[4096];
	struct sshrun_argv a;
	int rc, i;

	if (sshrun_scp_argv(&o->ssh, &h->t, files, stage, &a, msg, msglen) ==
	    -1)
		return -1;
	if (o->verbose)
		for (i = 0; i < a.n; i++)
			fprintf(stderr, "%s%s", a.v[i], i + 1 < a.n ? " " :
			    "\n");
	rc = sshrun_exec(a.v, NULL, SSH_TIMEOUT_S, out, sizeof(out), errtext,
	    sizeof(errtext));
	if (rc == 0)
		return 0;
	sshrun_failure(errtext, rc, msg, msglen);
	return -1;
}

/* The value after "KEY " on a line of OUT, into BUF; -1 when absent. */
int
dstep_field(const char *out, const char *key, char *buf, size_t len)
{
	size_t klen = strlen(key);
	const char *p;

	for (p = out; p != NULL && *p != '\0'; p = strchr(p, '\n'),
	    p = p != NULL ? p + 1 : NULL) {
		if (strncmp(p, key, klen) == 0 && p[klen] == ' ') {
			snprintf(buf, len, "%.*s", (int)strcspn(p + klen + 1,
			    "\n"), p + klen + 1);
			return 0;
		}
	}
	return -1;
}

static int
parse_probe(const char *out, struct probe *pr, char *msg, size_t msglen)
{
	char v[PATH_MAX], key[128];
	int i;

	memset(pr, 0, sizeof(*pr));
	if (dstep_field(out, "arch", pr->arch, sizeof(pr->arch)) == -1 ||
	    dstep_field(out, "stage", pr->stage, sizeof(pr->stage)) == -1 ||
	    !sshrun_safe_word(pr->stage) || pr->stage[0] != '/') {
		snprintf(msg, msglen, "the target's answer to the probe makes "
		    "no sense: %.200s", out);
		return -1;
	}
	pr->uid = dstep_field(out, "uid", v, sizeof(v)) == 0 ? atol(v) : -1;
	pr->systemd = dstep_field(out, "systemd", v, sizeof(v)) == 0 && v[0] == '1';
	pr->cc = dstep_field(out, "cc", v, sizeof(v)) == 0 && v[0] == '1';
	pr->make = dstep_field(out, "make", v, sizeof(v)) == 0 && v[0] == '1';
	pr->agent_pid = dstep_field(out, "agent", v, sizeof(v)) == 0 ? atol(v) : 0;
	if (dstep_field(out, "dpkg", pr->dpkg, sizeof(pr->dpkg)) == -1)
		snprintf(pr->dpkg, sizeof(pr->dpkg), "-");
	if (dstep_field(out, "debver", pr->debver, sizeof(pr->debver)) == -1)
		snprintf(pr->debver, sizeof(pr->debver), "-");
	if (dstep_field(out, "debsha", v, sizeof(v)) == 0 && strlen(v) == 64)
		snprintf(pr->debsha, sizeof(pr->debsha), "%s", v);
	pr->copied = dstep_field(out, "copied", v, sizeof(v)) == 0 && v[0] == '1';
	pr->debmanifest = dstep_field(out, "debmanifest", v, sizeof(v)) == 0 &&
	    v[0] == '1';
	for (i = 0; i < IT_N; i++) {
		snprintf(key, sizeof(key), "sha %s", dstep_items[i].dest);
		if (dstep_field(out, key, v, sizeof(v)) == 0 && strlen(v) == 64)
			snprintf(pr->sha[i], sizeof(pr->sha[i]), "%s", v);
	}
	return 0;
}

/* ------------------------------------------------------------ one host */

int
dstep_probe(const struct dopts *o, const struct dhost *h, struct probe *pr,
    char *msg, size_t msglen)
{
	const char *w[IT_N + 3];
	char out[OUT_MAX];
	int i, n = 0;

	w[n++] = "probe";
	w[n++] = o->prefix;
	for (i = 0; i < IT_N; i++)
		w[n++] = dstep_items[i].dest;
	w[n] = NULL;
	if (dstep_remote(o, h, 0, w, SSH_TIMEOUT_S, out, sizeof(out), msg,
	    msglen) == -1)
		return -1;
	return parse_probe(out, pr, msg, msglen);
}

/* Pack hoplab's sources into TMP/src.tar.gz for a build on the target. */
static int
make_tarball(const struct dopts *o, char *path, size_t len, char *msg,
    size_t msglen)
{
	char *argv[16], out[1024], errtext[2048], dir[PATH_MAX];
	static const char *const parts[] = { "Makefile", "proto", "lib",
	    "agent", "generator", "router", NULL };
	int n = 0, i, rc;

	snprintf(path, len, "%s/src.tar.gz", o->tmp);
	argv[n++] = "/bin/tar";
	argv[n++] = "-czf";
	argv[n++] = path;
	argv[n++] = "-C";
	argv[n++] = (char *)o->home;
	argv[n++] = "--";
	for (i = 0; parts[i] != NULL; i++) {
		snprintf(dir, sizeof(dir), "%s/%s", o->home, parts[i]);
		if (access(dir, R_OK) == 0)
			argv[n++] = (char *)parts[i];
	}
	argv[n] = NULL;
	rc = sshrun_exec(argv, NULL, 120, out, sizeof(out), errtext,
	    sizeof(errtext));
	if (rc != 0) {
		snprintf(msg, msglen, "tar of the sources failed: %.300s",
		    errtext);
		return -1;
	}
	return 0;
}

/* Copy the sources, run make there; the programs land in the stage. */
int
dstep_build(const struct dopts *o, const struct dhost *h,
    const struct probe *pr, const struct local loc[IT_N], char *msg,
    size_t msglen)
{
	static const char *const target[] = { [IT_AGENT] = "bin/hoplab-agent",
	    [IT_GEN] = "bin/hoplab-gen", [IT_ROUTER] = "bin/hoplab-router",
	    [IT_LINK] = "bin/hoplab-link" };
	const char *w[IT_N + 4], *files[2] = { NULL, NULL };
	char tarball[PATH_MAX], out[OUT_MAX];
	int i, n = 0;

	if (!pr->cc || !pr->make) {
		snprintf(msg, msglen, "the target (%s) has no C compiler or no "
		    "make: install build-essential and the -dev packages of "
		    "deploy/deps.sh there, or deploy from a %s machine",
		    pr->arch, pr->arch);
		return -1;
	}
	if (make_tarball(o, tarball, sizeof(tarball), msg, msglen) == -1)
		return -1;
	files[0] = tarball;
	if (dstep_scp(o, h, files, pr->stage, msg, msglen) == -1)
		return -1;
	w[n++] = "build";
	w[n++] = pr->stage;
	w[n++] = "2";
	for (i = IT_AGENT; i <= IT_LINK; i++)
		if (loc[i].path[0] != '\0')
			w[n++] = target[i];
	w[n] = NULL;
	return dstep_remote(o, h, 0, w, BUILD_TIMEOUT_S, out, sizeof(out), msg,
	    msglen);
}

/*
 * Copy to the stage every local file whose sha256 differs from the
 * target's (all of them but the programs when BUILT there).
 */
int
dstep_copy(const struct dopts *o, const struct dhost *h,
    const struct probe *pr, const struct local loc[IT_N], int built,
    int *ncopied, char *msg, size_t msglen)
{
	const char *files[IT_N + 1];
	int i, n = 0;

	for (i = 0; i < IT_N; i++) {
		if (loc[i].path[0] == '\0' || (built && dstep_items[i].program))
			continue;
		if (strcmp(loc[i].sha, pr->sha[i]) != 0)
			files[n++] = loc[i].path;
	}
	files[n] = NULL;
	*ncopied = n;
	if (n == 0)
		return 0;
	return dstep_scp(o, h, files, pr->stage, msg, msglen);
}

int
dstep_install(const struct dopts *o, const struct dhost *h,
    const struct probe *pr, const struct local loc[IT_N], struct outcome *oc,
    char *msg, size_t msglen)
{
	const char *w[IT_N + 4];
	char specs[IT_N][PATH_MAX], out[OUT_MAX], v[64], *p;
	int i, n = 0;

	if (o->deb.path[0] != '\0')	/* the package's: always under / */
		w[n++] = "install-deb";
	else {
		w[n++] = "install";
		w[n++] = o->prefix;
	}
	w[n++] = pr->stage;
	for (i = 0; i < IT_N; i++) {
		if (loc[i].path[0] == '\0')
			continue;
		snprintf(specs[i], sizeof(specs[i]), "%s:%s", dstep_items[i].dest,
		    dstep_items[i].mode);
		w[n++] = specs[i];
	}
	w[n] = NULL;
	if (dstep_remote(o, h, pr->uid != 0, w, SSH_TIMEOUT_S, out, sizeof(out),
	    msg, msglen) == -1)
		return -1;
	for (p = out; (p = strstr(p, "installed ")) != NULL; p++)
		if (p == out || p[-1] == '\n')
			oc->installed++;
	oc->systemd = dstep_field(out, "mode", v, sizeof(v)) == 0 &&
	    strncmp(v, "systemd", 7) == 0;
	if (dstep_field(out, "agent", v, sizeof(v)) == 0)
		sscanf(v, "%15s %ld", oc->agent, &oc->pid);
	dstep_field(out, "package", oc->package, sizeof(oc->package));
	return 0;
}

/* Wait for the agent's Welcome, as `hoplab agents` does. */
int
dstep_hello(const struct dopts *o, const struct dhost *h, const char *pub,
    struct outcome *oc, char *msg, size_t msglen)
{
	struct inventory *inv;
	struct peers *ps;
	int64_t t0;
	int rc = -1;

	if ((inv = calloc(1, sizeof(*inv))) == NULL) {
		snprintf(msg, msglen, "out of memory");
		return -1;
	}
	snprintf(inv->path, sizeof(inv->path), "hoplab deploy");
	inv->insecure = o->insecure;
	if (!o->insecure)
		snprintf(inv->controller_key, sizeof(inv->controller_key),
		    "%s/controller.key", o->keydir);
	inv->nagents = 1;
	snprintf(inv->agents[0].name, sizeof(inv->agents[0].name), "%s",
	    h->name);
	snprintf(inv->agents[0].address, sizeof(inv->agents[0].address),
	    "%s", h->address);
	inv->agents[0].port = h->port;
	snprintf(inv->agents[0].public_key, sizeof(inv->agents[0].public_key),
	    "%s", pub);
	t0 = clock_mono_ns();
	if ((ps = peers_connect_all(inv, msg, msglen)) != NULL &&
	    loop_hello(ps, (int64_t)o->timeout_s * NSEC_PER_SEC, msg,
	    msglen) == 0) {
		oc->hello_s = (double)(clock_mono_ns() - t0) / NSEC_PER_SEC;
		snprintf(oc->version, sizeof(oc->version), "%s",
		    ps->v[0].version);
		rc = 0;
	}
	peers_free(ps);
	inventory_free(inv);
	return rc;
}

void
dstep_cleanup(const struct dopts *o, const struct dhost *h,
    const struct probe *pr)
{
	const char *w[] = { "cleanup", pr->stage, NULL };
	char out[1024], msg[256];

	if (pr->stage[0] != '\0')
		dstep_remote(o, h, 0, w, SSH_TIMEOUT_S, out, sizeof(out), msg,
		    sizeof(msg));
}

