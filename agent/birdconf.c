/*
 * birdconf: a kernel router's BIRD 2 configuration (birdconf.h).
 *
 * What is written, in this order (BIRD's user guide, doc/bird.sgml):
 *
 *   log "LOGPATH" all;
 *   router id A.B.C.D;            the router's lowest interface address
 *   protocol device               interfaces as the kernel has them
 *   protocol direct               the router's own subnets, every
 *                                 interface of the role (RIP announces
 *                                 them from here)
 *   protocol kernel               every learned route into the main
 *                                 table (not the direct ones: the kernel
 *                                 has them already), merge paths no,
 *                                 learn no, persist no (bird withdraws
 *                                 what it installed when it stops)
 *   protocol bfd                  when bfd_interval_ns > 0: the active
 *                                 interfaces with interval and multiplier
 *   protocol rip                  RIPv2 (RFC 2453), multicast, on the
 *                                 active interfaces only, update, timeout
 *                                 and garbage times from the params, the
 *                                 keyed HMAC-SHA256 digest of RFC 4822
 *                                 when rip_auth is set
 *   or protocol ospf v2           area 0 (RFC 2328): the active interfaces
 *                                 point-to-point with hello and dead, cost
 *                                 10; the others stub (announced, silent)
 *
 * OSPF retransmits unanswered database packets every hello interval, at
 * least 2 s, BIRD's least (its default is 5 s): a first DD packet lost while the neighbour
 * was starting then costs a hello, not 5 s, of convergence.  (BIRD keeps
 * RFC 2328's MinLSInterval of 5 s between two originations of one LSA:
 * a change within 5 s of an adjacency coming up waits for it.)
 *
 * Both protocols run with `ecmp no`: one next hop per prefix, the one
 * the plan's path expects, and a route change is one route replaced.
 * Times are whole seconds in BIRD's RIP and OSPF options: a time in ns
 * is rounded up to a second (at least 1); BFD's interval is in ms.
 *
 * Every string that goes between quotes is checked first: an interface
 * name or a secret with a quote, a backslash or a pattern character
 * (BIRD reads "eth*" as a pattern) is refused, not escaped.
 *
 * Deliberately not here: IPv6 (the lab is IPv4), other areas, RIP's
 * passive interfaces (the other subnets come from protocol direct),
 * OSPF authentication, filters beyond the kernel export.
 */
#include <arpa/inet.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "agent/birdconf.h"

#define NS_PER_S	1000000000ULL
#define NS_PER_MS	1000000ULL
#define SCAN_TIME_S	10		/* device and kernel scans */
#define SECRET_MAX	32		/* RFC 4822 as the plan allows */

/* RFC 2453 section 3.8 and RFC 2328 appendix C.3 defaults, in ns. */
#define RIP_UPDATE_NS	(30 * NS_PER_S)
#define RIP_TIMEOUT_NS	(180 * NS_PER_S)
#define RIP_GARBAGE_NS	(120 * NS_PER_S)
#define OSPF_HELLO_NS	(10 * NS_PER_S)
#define OSPF_DEAD_NS	(40 * NS_PER_S)
#define BFD_MULT	3

/* NS (0: DEF) in whole seconds, rounded up, at least 1. */
static unsigned long long
secs(uint64_t ns, uint64_t def)
{
	unsigned long long s;

	if (ns == 0)
		ns = def;
	s = (ns + NS_PER_S - 1) / NS_PER_S;
	return s > 0 ? s : 1;
}

/* OSPF's retransmit interval: the hello's, at least 2 s (BIRD's least). */
static unsigned long long
rxmt(uint64_t hello_ns)
{
	unsigned long long s = secs(hello_ns, OSPF_HELLO_NS);

	return s < 2 ? 2 : s;
}

/* 1 if S may stand between BIRD's quotes as it is. */
static int
quotable(const char *s, int pattern_free)
{
	const unsigned char *p;

	for (p = (const unsigned char *)s; *p != '\0'; p++)
		if (*p < 0x20 || *p > 0x7e || *p == '"' || *p == '\\' ||
		    (pattern_free && (*p == '*' || *p == '?')))
			return 0;
	return s[0] != '\0';
}

/* The host address of CIDR ("198.18.1.1/24") in host order; 0 or -1. */
static int
cidr_addr(const char *cidr, uint32_t *a)
{
	char buf[INET_ADDRSTRLEN];
	const char *slash = strchr(cidr, '/');
	struct in_addr in;
	size_t n = slash != NULL ? (size_t)(slash - cidr) : strlen(cidr);

	if (n >= sizeof(buf))
		return -1;
	memcpy(buf, cidr, n);
	buf[n] = '\0';
	if (inet_pton(AF_INET, buf, &in) != 1)
		return -1;
	*a = ntohl(in.s_addr);
	return 0;
}

/* 1 if NAME is in RT's active interfaces. */
static int
is_active(const Hoplab__RoutingParams *rt, const char *name)
{
	size_t i;

	for (i = 0; i < rt->n_active_ifaces; i++)
		if (strcmp(rt->active_ifaces[i], name) == 0)
			return 1;
	return 0;
}

/* 1 if NAME is one of RP's interfaces. */
static int
has_iface(const Hoplab__RouterParams *rp, const char *name)
{
	size_t i;

	for (i = 0; i < rp->n_ifaces; i++)
		if (strcmp(rp->ifaces[i]->name, name) == 0)
			return 1;
	return 0;
}

/* RP can be written; the lowest address into *RID.  0, or -1 with ERR. */
static int
check(const Hoplab__RouterParams *rp, const char *logpath, uint32_t *rid,
    char *err, size_t errlen)
{
	const Hoplab__RoutingParams *rt = rp->routing;
	uint32_t a;
	size_t i;

	if (rt == NULL || (rt->protocol != HOPLAB__ROUTING_PARAMS__PROTOCOL__RIP &&
	    rt->protocol != HOPLAB__ROUTING_PARAMS__PROTOCOL__OSPF)) {
		snprintf(err, errlen, "bird: routing protocol is not rip or "
		    "ospf");
		return -1;
	}
	if (rp->n_ifaces == 0) {
		snprintf(err, errlen, "bird: the router has no interface");
		return -1;
	}
	if (!quotable(logpath, 0)) {
		snprintf(err, errlen, "bird: log path \"%.64s\" cannot be "
		    "quoted", logpath);
		return -1;
	}
	*rid = UINT32_MAX;
	for (i = 0; i < rp->n_ifaces; i++) {
		if (!quotable(rp->ifaces[i]->name, 1)) {
			snprintf(err, errlen, "bird: interface name \"%.32s\" "
			    "cannot be quoted", rp->ifaces[i]->name);
			return -1;
		}
		if (cidr_addr(rp->ifaces[i]->cidr, &a) == -1) {
			snprintf(err, errlen, "bird: %s: \"%.40s\" is not an "
			    "IPv4 address", rp->ifaces[i]->name,
			    rp->ifaces[i]->cidr);
			return -1;
		}
		if (a < *rid)
			*rid = a;
	}
	for (i = 0; i < rt->n_active_ifaces; i++)
		if (!has_iface(rp, rt->active_ifaces[i])) {
			snprintf(err, errlen, "bird: active interface \"%.32s\" "
			    "is not one of the router's", rt->active_ifaces[i]);
			return -1;
		}
	if (rt->rip_auth[0] != '\0' && (strcmp(rt->rip_auth,
	    "hmac-sha256") != 0 || !quotable(rt->rip_auth_secret, 0) ||
	    strlen(rt->rip_auth_secret) > SECRET_MAX ||
	    rt->rip_auth_key_id > 255)) {
		snprintf(err, errlen, "bird: rip authentication \"%.16s\" "
		    "(key id %u): expected hmac-sha256, a key id 0..255 and "
		    "a secret of 1..%d printable characters without quotes",
		    rt->rip_auth, rt->rip_auth_key_id, SECRET_MAX);
		return -1;
	}
	return 0;
}

/* "\"a\", \"b\"": the interfaces of RP, all or only the active ones. */
static void
iface_list(FILE *f, const Hoplab__RouterParams *rp, int active_only)
{
	const char *sep = "";
	size_t i;

	for (i = 0; i < rp->n_ifaces; i++) {
		if (active_only && !is_active(rp->routing, rp->ifaces[i]->name))
			continue;
		fprintf(f, "%s\"%s\"", sep, rp->ifaces[i]->name);
		sep = ", ";
	}
}

static void
write_head(FILE *f, const Hoplab__RouterParams *rp, const char *logpath,
    uint32_t rid)
{
	fprintf(f, "# Written by hoplab-agent (agent/birdconf.c) for this "
	    "role; see docs/routing.md.\n");
	fprintf(f, "log \"%s\" all;\n", logpath);
	fprintf(f, "router id %u.%u.%u.%u;\n\n", rid >> 24, (rid >> 16) & 255,
	    (rid >> 8) & 255, rid & 255);
	fprintf(f, "protocol device {\n\tscan time %d;\n}\n\n", SCAN_TIME_S);
	fprintf(f, "protocol direct {\n\tipv4;\n\tinterface ");
	iface_list(f, rp, 0);
	fprintf(f, ";\n}\n\n");
	fprintf(f, "protocol kernel {\n"
	    "\tipv4 {\n"
	    "\t\timport none;\n"
	    "\t\texport filter {\n"
	    "\t\t\tif source = RTS_DEVICE then reject;\n"
	    "\t\t\taccept;\n"
	    "\t\t};\n"
	    "\t};\n"
	    "\tmerge paths no;\n"
	    "\tlearn no;\n"
	    "\tpersist no;\n"
	    "\tscan time %d;\n"
	    "}\n\n", SCAN_TIME_S);
}

static void
write_bfd(FILE *f, const Hoplab__RouterParams *rp)
{
	const Hoplab__RoutingParams *rt = rp->routing;
	uint64_t ms = (rt->bfd_interval_ns + NS_PER_MS - 1) / NS_PER_MS;

	fprintf(f, "protocol bfd {\n\tinterface ");
	iface_list(f, rp, 1);
	fprintf(f, " {\n\t\tinterval %" PRIu64 " ms;\n"
	    "\t\tmultiplier %u;\n\t};\n}\n\n", ms > 0 ? ms : 1,
	    rt->bfd_multiplier ? rt->bfd_multiplier : BFD_MULT);
}

static void
write_rip(FILE *f, const Hoplab__RouterParams *rp)
{
	const Hoplab__RoutingParams *rt = rp->routing;
	size_t i;

	fprintf(f, "protocol rip {\n"
	    "\tipv4 {\n"
	    "\t\timport all;\n"
	    "\t\texport where source ~ [ RTS_DEVICE, RTS_RIP ];\n"
	    "\t};\n"
	    "\tecmp no;\n");
	for (i = 0; i < rt->n_active_ifaces; i++) {
		fprintf(f, "\tinterface \"%s\" {\n"
		    "\t\tversion 2;\n"
		    "\t\tmode multicast;\n"
		    "\t\tupdate time %llu;\n"
		    "\t\ttimeout time %llu;\n"
		    "\t\tgarbage time %llu;\n", rt->active_ifaces[i],
		    secs(rt->rip_update_ns, RIP_UPDATE_NS),
		    secs(rt->rip_timeout_ns, RIP_TIMEOUT_NS),
		    secs(rt->rip_garbage_ns, RIP_GARBAGE_NS));
		if (rt->rip_auth[0] != '\0')
			fprintf(f, "\t\tauthentication cryptographic;\n"
			    "\t\tpassword \"%s\" {\n"
			    "\t\t\tid %u;\n"
			    "\t\t\talgorithm hmac sha256;\n"
			    "\t\t};\n", rt->rip_auth_secret,
			    rt->rip_auth_key_id);
		if (rt->bfd_interval_ns > 0)
			fprintf(f, "\t\tbfd yes;\n");
		fprintf(f, "\t};\n");
	}
	fprintf(f, "}\n");
}

static void
write_ospf(FILE *f, const Hoplab__RouterParams *rp)
{
	const Hoplab__RoutingParams *rt = rp->routing;
	const char *name;
	size_t i;

	fprintf(f, "protocol ospf v2 {\n"
	    "\tipv4 {\n"
	    "\t\timport all;\n"
	    "\t\texport none;\n"
	    "\t};\n"
	    "\tecmp no;\n"
	    "\tarea 0 {\n");
	for (i = 0; i < rp->n_ifaces; i++) {
		name = rp->ifaces[i]->name;
		if (!is_active(rt, name)) {
			fprintf(f, "\t\tinterface \"%s\" {\n"
			    "\t\t\tstub yes;\n\t\t};\n", name);
			continue;
		}
		fprintf(f, "\t\tinterface \"%s\" {\n"
		    "\t\t\ttype ptp;\n"
		    "\t\t\tcost 10;\n"
		    "\t\t\thello %llu;\n"
		    "\t\t\tretransmit %llu;\n"
		    "\t\t\tdead %llu;\n", name,
		    secs(rt->ospf_hello_ns, OSPF_HELLO_NS),
		    rxmt(rt->ospf_hello_ns),
		    secs(rt->ospf_dead_ns, OSPF_DEAD_NS));
		if (rt->bfd_interval_ns > 0)
			fprintf(f, "\t\t\tbfd yes;\n");
		fprintf(f, "\t\t};\n");
	}
	fprintf(f, "\t};\n}\n");
}

int
birdconf_write(FILE *f, const Hoplab__RouterParams *rp, const char *logpath,
    char *err, size_t errlen)
{
	const Hoplab__RoutingParams *rt = rp->routing;
	uint32_t rid;

	if (check(rp, logpath, &rid, err, errlen) == -1)
		return -1;
	write_head(f, rp, logpath, rid);
	if (rt->bfd_interval_ns > 0 && rt->n_active_ifaces > 0)
		write_bfd(f, rp);
	if (rt->protocol == HOPLAB__ROUTING_PARAMS__PROTOCOL__RIP)
		write_rip(f, rp);
	else
		write_ospf(f, rp);
	if (fflush(f) == EOF || ferror(f)) {
		snprintf(err, errlen, "bird: writing the configuration "
		    "failed");
		return -1;
	}
	return 0;
}
