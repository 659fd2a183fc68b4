/*
 * iproute: run iproute2 (see iproute.h) through lib/spawn: fork + execv
 * with an explicit argv, never a shell; stdin and stdout on /dev/null,
 * stderr kept for the error text, killed when it hangs.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "agent/iproute.h"
#include "clock.h"
#include "log.h"
#include "spawn.h"

/*
 * An ip command that hangs is killed: it runs inside the agent's one loop,
 * which must answer the controllers' heartbeats (1 s, lost after 3); ip
 * itself takes a few milliseconds.
 */
#define IP_TIMEOUT_MS	500
#define IP_ERR_MAX	512	/* stderr bytes kept for the error text */

static const char *
ip_path(void)
{
	if (access("/usr/sbin/ip", X_OK) == 0)
		return "/usr/sbin/ip";
	if (access("/sbin/ip", X_OK) == 0)
		return "/sbin/ip";
	return NULL;
}

/* "ip route replace ..." from ARGV, for error messages. */
static void
ip_cmdline(char *const argv[], char *buf, size_t len)
{
	size_t n = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; argv[i] != NULL && n < len; i++)
		n += snprintf(buf + n, len - n, "%s%s", i ? " " : "",
		    i ? argv[i] : "ip");
}

/* Strip iproute2's "Error: " prefix, newlines and a final period. */
static void
ip_tidy(char *s)
{
	size_t n;
	char *p;

	if (strncmp(s, "Error: ", 7) == 0)
		memmove(s, s + 7, strlen(s + 7) + 1);
	while ((p = strchr(s, '\n')) != NULL)
		*p = p[1] == '\0' ? '\0' : ' ';
	n = strlen(s);
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '.'))
		s[--n] = '\0';
}

int
iproute_run(char *const argv[], char *err, size_t errlen)
{
	static const struct spawn_opts o = { .die_with_parent = 1 };
	const char *path = ip_path();
	char cmd[256], text[IP_ERR_MAX] = "", why[256];
	struct spawn_result r = { .errout = text, .errlen = sizeof(text),
	    .timeout_ns = IP_TIMEOUT_MS * NSEC_PER_MSEC };

	ip_cmdline(argv, cmd, sizeof(cmd));
	if (path == NULL) {
		snprintf(err, errlen, "%s: iproute2 not found in /usr/sbin "
		    "or /sbin", cmd);
		return -1;
	}
	log_debug("run %s", cmd);
	if (spawn_run(path, argv, &o, &r, why, sizeof(why)) == -1) {
		if (r.timed_out)
			snprintf(err, errlen, "%s: no answer in %d ms, killed",
			    cmd, IP_TIMEOUT_MS);
		else
			snprintf(err, errlen, "%s: %s", cmd, why);
		return -1;
	}
	ip_tidy(text);
	if (WIFSIGNALED(r.status))
		snprintf(err, errlen, "%s: terminated by signal %d", cmd,
		    WTERMSIG(r.status));
	else if (WEXITSTATUS(r.status) != 0)
		snprintf(err, errlen, "%s: exited with %d%s%s", cmd,
		    WEXITSTATUS(r.status), text[0] ? ": " : "", text);
	else
		return 0;
	return -1;
}

int
iproute_flush(const char *ifname, char *err, size_t errlen)
{
	char *argv[] = { "ip", "addr", "flush", "dev", (char *)ifname, NULL };

	return iproute_run(argv, err, errlen);
}

int
iproute_route_replace(const char *prefix, const char *via,
    char *const *ecmp_via, size_t n_ecmp, unsigned metric, char *err,
    size_t errlen)
{
	char m[16];
	char *argv[8 + 3 * (IPROUTE_ECMP_MAX + 1)];
	size_t n = 0, i;

	if (n_ecmp > IPROUTE_ECMP_MAX) {
		snprintf(err, errlen, "route %s: %zu next hops, at most %d",
		    prefix, n_ecmp + 1, IPROUTE_ECMP_MAX + 1);
		return -1;
	}
	argv[n++] = "ip";
	argv[n++] = "route";
	argv[n++] = "replace";
	argv[n++] = (char *)prefix;
	snprintf(m, sizeof(m), "%u", metric);
	if (metric != 0) {		/* 0: the kernel's default */
		argv[n++] = "metric";
		argv[n++] = m;
	}
	if (n_ecmp > 0)
		argv[n++] = "nexthop";
	argv[n++] = "via";
	argv[n++] = (char *)via;
	for (i = 0; i < n_ecmp; i++) {
		argv[n++] = "nexthop";
		argv[n++] = "via";
		argv[n++] = ecmp_via[i];
	}
	argv[n] = NULL;
	return iproute_run(argv, err, errlen);
}
