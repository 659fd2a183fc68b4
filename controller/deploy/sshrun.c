/*
 * sshrun: build ssh and scp command lines and run them (see sshrun.h).
 *
 * Options given to every ssh and scp (ssh_config(5)):
 *   BatchMode=yes                  never ask for a password or passphrase
 *   ConnectTimeout=10              a dead host fails in 10 s, not minutes
 *   StrictHostKeyChecking=accept-new, UserKnownHostsFile=<hoplab's own>
 *                                  trust on first use, refuse a changed key
 *   LogLevel=ERROR                 no "Permanently added" chatter
 *   IdentitiesOnly=yes with -i     use only the key the user named
 * The remote command is a list of words that ssh joins with spaces for the
 * remote shell, so every word is checked by sshrun_safe_word() and needs no
 * quoting.  lib/spawn runs the child with its stdin from a file (the
 * deploy script) and reads its stdout and stderr through two pipes with
 * poll(2), so neither can fill up and block it; it is killed when it
 * overruns.
 *
 * Deliberately not done: ssh multiplexing (ControlMaster would leave a
 * background process), password authentication, IPv6 literals as hosts.
 */
#include <arpa/inet.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "controller/deploy/sshrun.h"
#include "hostname.h"
#include "spawn.h"

static int
is_alnum(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9');
}

int
sshrun_parse_target(const char *s, struct ssh_target *t, char *err,
    size_t errlen)
{
	const char *at = strchr(s, '@'), *host = at != NULL ? at + 1 : s;
	struct in_addr in;
	size_t ulen = at != NULL ? (size_t)(at - s) : 0, i;

	memset(t, 0, sizeof(*t));
	if (at != NULL) {
		if (ulen == 0 || ulen >= sizeof(t->user) || s[0] == '-' ||
		    s[0] == '.') {
			snprintf(err, errlen, "%s: expected [user@]host with a "
			    "user name of 1 to %zu letters, digits, '.', '_' "
			    "or '-'", s, sizeof(t->user) - 1);
			return -1;
		}
		for (i = 0; i < ulen; i++)
			if (!is_alnum(s[i]) && strchr("._-", s[i]) == NULL) {
				snprintf(err, errlen, "%s: the user name may "
				    "hold only letters, digits, '.', '_' and "
				    "'-'", s);
				return -1;
			}
		memcpy(t->user, s, ulen);
	}
	if (inet_pton(AF_INET, host, &in) != 1 && !hostname_valid(host)) {
		snprintf(err, errlen, "%s: expected [user@]host with an IPv4 "
		    "address or a host name", s);
		return -1;
	}
	snprintf(t->host, sizeof(t->host), "%s", host);
	snprintf(t->spec, sizeof(t->spec), "%s%s%s", t->user,
	    t->user[0] != '\0' ? "@" : "", t->host);
	return 0;
}

int
sshrun_safe_word(const char *s)
{
	if (*s == '\0')
		return 0;
	for (; *s != '\0'; s++)
		if (!is_alnum(*s) && strchr("._/:=+,-", *s) == NULL)
			return 0;
	return 1;
}

static int
push(struct sshrun_argv *a, const char *s)
{
	size_t n = strlen(s) + 1;

	if (a->n >= SSHRUN_MAX_ARGS || a->used + n > sizeof(a->store))
		return -1;
	memcpy(a->store + a->used, s, n);
	a->v[a->n++] = a->store + a->used;
	a->v[a->n] = NULL;
	a->used += n;
	return 0;
}

static int
pushf(struct sshrun_argv *a, const char *fmt, const char *v)
{
	char buf[PATH_MAX + 64];

	snprintf(buf, sizeof(buf), fmt, v);
	return push(a, buf);
}

/* The options ssh and scp share; PORTFLAG is "-p" (ssh) or "-P" (scp). */
static int
common_opts(const struct sshrun_conf *c, const char *prog,
    const char *portflag, struct sshrun_argv *a)
{
	char port[16];
	int rc = 0;

	memset(a, 0, sizeof(*a));
	rc |= push(a, prog);
	rc |= push(a, "-o");
	rc |= push(a, "BatchMode=yes");
	rc |= push(a, "-o");
	snprintf(port, sizeof(port), "%d", SSHRUN_CONNECT_TIMEOUT);
	rc |= pushf(a, "ConnectTimeout=%s", port);
	rc |= push(a, "-o");
	rc |= push(a, "StrictHostKeyChecking=accept-new");
	rc |= push(a, "-o");
	rc |= pushf(a, "UserKnownHostsFile=%s", c->known_hosts);
	rc |= push(a, "-o");
	rc |= push(a, "LogLevel=ERROR");
	if (c->key[0] != '\0') {
		rc |= push(a, "-o");
		rc |= push(a, "IdentitiesOnly=yes");
		rc |= push(a, "-i");
		rc |= push(a, c->key);
	}
	if (c->port != 0) {
		snprintf(port, sizeof(port), "%u", c->port);
		rc |= push(a, portflag);
		rc |= push(a, port);
	}
	return rc;
}

int
sshrun_ssh_argv(const struct sshrun_conf *c, const struct ssh_target *t,
    const char *const *remote, struct sshrun_argv *a, char *err,
    size_t errlen)
{
	size_t i;

	for (i = 0; remote[i] != NULL; i++) {
		if (!sshrun_safe_word(remote[i])) {
			snprintf(err, errlen, "refusing to pass \"%s\" to the "
			    "remote shell (only [A-Za-z0-9._/:=+,-] words)",
			    remote[i]);
			return -1;
		}
	}
	if (common_opts(c, SSHRUN_SSH, "-p", a) == -1 || push(a, "-T") == -1 ||
	    push(a, "--") == -1 || push(a, t->spec) == -1)
		goto toolong;
	for (i = 0; remote[i] != NULL; i++)
		if (push(a, remote[i]) == -1)
			goto toolong;
	return 0;
toolong:
	snprintf(err, errlen, "ssh command line too long");
	return -1;
}

int
sshrun_scp_argv(const struct sshrun_conf *c, const struct ssh_target *t,
    const char *const *files, const char *destdir, struct sshrun_argv *a,
    char *err, size_t errlen)
{
	char dest[600];
	size_t i;

	if (!sshrun_safe_word(destdir)) {
		snprintf(err, errlen, "refusing remote folder \"%s\"", destdir);
		return -1;
	}
	if (common_opts(c, SSHRUN_SCP, "-P", a) == -1 || push(a, "-q") == -1 ||
	    push(a, "-p") == -1 || push(a, "--") == -1)
		goto toolong;
	for (i = 0; files[i] != NULL; i++)
		if (push(a, files[i]) == -1)
			goto toolong;
	snprintf(dest, sizeof(dest), "%s:%s/", t->spec, destdir);
	if (push(a, dest) == -1)
		goto toolong;
	return 0;
toolong:
	snprintf(err, errlen, "scp command line too long");
	return -1;
}

int
sshrun_exec(char *const argv[], const char *stdin_path, int timeout_s,
    char *out, size_t outlen, char *errtext, size_t errlen)
{
	struct spawn_opts so = { .stdin_path = stdin_path };
	struct spawn_result r = { .out = out, .outlen = outlen,
	    .errout = errtext, .errlen = errlen,
	    .timeout_ns = (int64_t)timeout_s * 1000000000, .status = -1 };
	char why[512];

	out[0] = errtext[0] = '\0';
	if (spawn_run(argv[0], argv, &so, &r, why, sizeof(why)) == -1) {
		if (r.status == -1) {		/* it never ran */
			snprintf(errtext, errlen, "%s", why);
			return 127;
		}
		snprintf(errtext, errlen, "%s did not finish within %d s; "
		    "killed it", argv[0], timeout_s);
	}
	if (WIFSIGNALED(r.status))
		return 256 + WTERMSIG(r.status);
	return WEXITSTATUS(r.status);
}

void
sshrun_failure(const char *errtext, int status, char *buf, size_t len)
{
	const char *end = errtext + strlen(errtext), *start;

	while (end > errtext && (end[-1] == '\n' || end[-1] == '\r' ||
	    end[-1] == ' '))
		end--;
	if (end == errtext) {
		if (status >= 256)
			snprintf(buf, len, "killed by signal %d", status - 256);
		else
			snprintf(buf, len, "exit status %d", status);
		return;
	}
	for (start = end; start > errtext && start[-1] != '\n'; start--)
		;
	snprintf(buf, len, "%s%.*s",
	    strncmp(start, "ssh:", 4) == 0 || strncmp(start, "scp:", 4) == 0 ?
	    "" : "ssh: ", (int)(end - start), start);
}
