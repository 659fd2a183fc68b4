/*
 * hoplabrouter: the agent side of router impl HOPLAB.
 *
 * The controller's RouterParams become a hoplab-router configuration file
 * (docs/router.md) in the agent's run folder, and hoplab-router runs as a
 * supervised child like the generator: its own process group, its output
 * in role-N.log, its counter reports PUSHed to the children socket and
 * forwarded to the controller.  Before it starts, the kernel's IPv4
 * addresses on its interfaces are flushed: the router owns its addresses,
 * and a kernel that also held them would answer ARP and forward in its
 * place.  Every value is checked before it reaches the file or the argv.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent.h"
#include "log.h"

#define INTERVAL_MIN_NS	(100 * 1000000ULL)	/* 100 ms */
#define INTERVAL_MAX_NS	(60 * 1000000000ULL)	/* 60 s */

/* "198.18.0.2/24" (host bits allowed) or, with PREFIX, "198.18.100.0/24". */
static int
valid_cidr(const char *s)
{
	char addr[INET_ADDRSTRLEN], *end;
	struct in_addr a;
	const char *slash = strchr(s, '/');
	long len;

	if (slash == NULL || (size_t)(slash - s) >= sizeof(addr))
		return 0;
	memcpy(addr, s, (size_t)(slash - s));
	addr[slash - s] = '\0';
	len = strtol(slash + 1, &end, 10);
	return inet_pton(AF_INET, addr, &a) == 1 && *end == '\0' &&
	    end != slash + 1 && len >= 0 && len <= 32;
}

static int
valid_ip(const char *s)
{
	struct in_addr a;

	return inet_pton(AF_INET, s, &a) == 1;
}

static int
one_of(const char *s, const char *const *allowed)
{
	for (; *allowed != NULL; allowed++)
		if (strcmp(s, *allowed) == 0)
			return 1;
	return 0;
}

static int
check_params(const Hoplab__RouterParams *rp, char *err, size_t errlen)
{
	static const char *const scheds[] = { "", "fifo", "prio", "drr", NULL };
	static const char *const rings[] = { "", "v2", "v3", NULL };
	size_t i;

	if (rp->n_ifaces == 0 || rp->n_ifaces > ROUTER_IFACES_MAX ||
	    rp->n_routes > ROUTER_ROUTES_MAX) {
		snprintf(err, errlen, "hoplab router: %zu interfaces and %zu "
		    "routes (1..%d and 0..%d allowed)", rp->n_ifaces,
		    rp->n_routes, ROUTER_IFACES_MAX, ROUTER_ROUTES_MAX);
		return -1;
	}
	for (i = 0; i < rp->n_ifaces; i++) {
		const Hoplab__IfaceAddr *ia = rp->ifaces[i];

		if (if_nametoindex(ia->name) == 0) {
			snprintf(err, errlen, "hoplab router: no interface "
			    "'%s' in this host", ia->name);
			return -1;
		}
		if (!valid_cidr(ia->cidr)) {
			snprintf(err, errlen, "hoplab router: interface %s: "
			    "'%s' is not an IPv4 prefix", ia->name, ia->cidr);
			return -1;
		}
	}
	for (i = 0; i < rp->n_routes; i++)
		if (!valid_cidr(rp->routes[i]->prefix) ||
		    !valid_ip(rp->routes[i]->via)) {
			snprintf(err, errlen, "hoplab router: bad route '%s' "
			    "via '%s'", rp->routes[i]->prefix,
			    rp->routes[i]->via);
			return -1;
		}
	if (!one_of(rp->scheduler, scheds) || !one_of(rp->rx_ring, rings)) {
		snprintf(err, errlen, "hoplab router: scheduler '%s' or rx ring "
		    "'%s' unknown (fifo, prio, drr; v2, v3)", rp->scheduler,
		    rp->rx_ring);
		return -1;
	}
	if (rp->report_interval_ns != 0 &&
	    (rp->report_interval_ns < INTERVAL_MIN_NS ||
	    rp->report_interval_ns > INTERVAL_MAX_NS)) {
		snprintf(err, errlen, "hoplab router: report interval %" PRIu64
		    " ns outside 100ms..60s", rp->report_interval_ns);
		return -1;
	}
	return 0;
}

static int
write_config(const char *path, const Hoplab__RouterParams *rp, char *err,
    size_t errlen)
{
	FILE *f = fopen(path, "w");
	size_t i;

	if (f == NULL) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	fprintf(f, "# written by hoplab-agent from the controller's plan\n"
	    "interfaces:\n");
	for (i = 0; i < rp->n_ifaces; i++)
		fprintf(f, "  - {name: %s, address: %s}\n", rp->ifaces[i]->name,
		    rp->ifaces[i]->cidr);
	if (rp->n_routes > 0)
		fprintf(f, "routes:\n");
	for (i = 0; i < rp->n_routes; i++)
		fprintf(f, "  - {prefix: %s, via: %s}\n",
		    rp->routes[i]->prefix, rp->routes[i]->via);
	if (rp->rx_ring[0] != '\0')
		fprintf(f, "io: {rx_ring: %s}\n", rp->rx_ring);
	if (rp->scheduler[0] != '\0')
		fprintf(f, "qos: {scheduler: %s}\n", rp->scheduler);
	if (fclose(f) == EOF) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* Start hoplab-router as role R from SR->router; 0 or -1 with ERR. */
int
hoplabrouter_start(struct agent *ag, struct role *r,
    const Hoplab__StartRole *sr, char *err, size_t errlen)
{
	const Hoplab__RouterParams *rp = sr->router;
	char conf[PATH_MAX + 32], logpath[PATH_MAX + 32], bin[PATH_MAX + 16];
	char role[16], interval[32], sock[PATH_MAX + 32], ep[PATH_MAX + 40];
	char *argv[20];
	int n = 0;
	size_t i;

	if (check_params(rp, err, errlen) == -1)
		return -1;
	if (!genrole_valid_token(sr->run_id, AGENT_RUNID_MAX - 1)) {
		snprintf(err, errlen, "hoplab router: bad run id");
		return -1;
	}
	for (i = 0; i < rp->n_ifaces; i++)
		if (linuxrouter_flush(rp->ifaces[i]->name, err, errlen) == -1)
			return -1;
	snprintf(conf, sizeof(conf), "%s/router-%u.yaml", ag->conf->rundir,
	    r->id);
	if (write_config(conf, rp, err, errlen) == -1)
		return -1;
	snprintf(bin, sizeof(bin), "%s/hoplab-router", ag->conf->bindir);
	snprintf(role, sizeof(role), "%u", r->id);
	snprintf(interval, sizeof(interval), "%" PRIu64 "ms",
	    (uint64_t)(rp->report_interval_ns ? rp->report_interval_ns :
	    1000000000ULL) / 1000000U);
	argv[n++] = bin;
	argv[n++] = "-v";	/* its interfaces and routes in role-N.log */
	argv[n++] = "-c";
	argv[n++] = conf;
	argv[n++] = "--report";
	argv[n++] = ag->endpoint;
	argv[n++] = "--role-id";
	argv[n++] = role;
	argv[n++] = "--run-id";
	argv[n++] = (char *)sr->run_id;
	argv[n++] = "--interval";
	argv[n++] = interval;
	/* Its control socket appears once its rings are open (see below). */
	snprintf(sock, sizeof(sock), "%s/router-%u.sock", ag->conf->rundir,
	    r->id);
	snprintf(ep, sizeof(ep), "ipc://%s", sock);
	unlink(sock);
	argv[n++] = "-s";
	argv[n++] = ep;
	argv[n] = NULL;
	snprintf(logpath, sizeof(logpath), "%s/role-%u.log", ag->conf->rundir,
	    r->id);
	r->pid = supervise_spawn(bin, argv, logpath, err, errlen);
	if (r->pid == -1) {
		r->pid = 0;
		return -1;
	}
	/*
	 * Answer STARTED only when the router forwards: the generator's
	 * first packets would otherwise meet interfaces with no ring yet.
	 */
	if (role_wait_ready(r->pid, sock, logpath, "hoplab-router", err,
	    errlen) == -1)
		return -1;
	log_info("role %u: started %s as pid %d, config %s", r->id, bin,
	    (int)r->pid, conf);
	return 0;
}
