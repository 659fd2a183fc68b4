/*
 * mgmt: keeping requests off the management interface (see mgmt.h).
 *
 * The interface is looked up at each check (getifaddrs), not once at
 * start: an address may move, an interface be renamed.  An agent that
 * listens on 0.0.0.0 has no one management interface and protects none;
 * main.c warns about that at start, and hoplab deploy always binds the
 * agent to its inventory address.
 *
 * Every interface a StartRole can name is checked: a router's addresses,
 * options, NAT and routing interfaces; a link's two ends; a generator's
 * tx and rx (mode l2 and icmp; udp and tcp leave interfaces to the
 * kernel); a capture's.
 */
#include <arpa/inet.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

#include "agent/mgmt.h"

int
mgmt_iface(const char *addr, char *ifname, size_t len)
{
	struct ifaddrs *ifa, *i;
	struct in_addr a;
	int rc = -1;

	if (inet_pton(AF_INET, addr, &a) != 1 || a.s_addr == INADDR_ANY ||
	    getifaddrs(&ifa) == -1)
		return -1;
	for (i = ifa; i != NULL; i = i->ifa_next)
		if (i->ifa_addr != NULL && i->ifa_addr->sa_family == AF_INET &&
		    ((struct sockaddr_in *)(void *)i->ifa_addr)->sin_addr.s_addr
		    == a.s_addr) {
			snprintf(ifname, len, "%s", i->ifa_name);
			rc = 0;
			break;
		}
	freeifaddrs(ifa);
	return rc;
}

int
mgmt_check_iface(const char *addr, const char *ifname, const char *what,
    char *err, size_t errlen)
{
	char m[64];

	if (addr == NULL || ifname == NULL || ifname[0] == '\0' ||
	    mgmt_iface(addr, m, sizeof(m)) == -1 || strcmp(m, ifname) != 0)
		return 0;
	snprintf(err, errlen, "%s %s carries this agent's management address "
	    "%s: the agent never touches it", what, ifname, addr);
	return -1;
}

static int
check_router(const char *addr, const Hoplab__RouterParams *rp, char *err,
    size_t errlen)
{
	size_t i;

	for (i = 0; i < rp->n_ifaces; i++)
		if (mgmt_check_iface(addr, rp->ifaces[i]->name, "router "
		    "interface", err, errlen) == -1)
			return -1;
	for (i = 0; i < rp->n_iface_opts; i++)
		if (mgmt_check_iface(addr, rp->iface_opts[i]->name, "router "
		    "interface", err, errlen) == -1)
			return -1;
	if (rp->nat != NULL && mgmt_check_iface(addr, rp->nat->out_iface,
	    "NAT interface", err, errlen) == -1)
		return -1;
	if (rp->routing != NULL)
		for (i = 0; i < rp->routing->n_active_ifaces; i++)
			if (mgmt_check_iface(addr,
			    rp->routing->active_ifaces[i], "routing interface",
			    err, errlen) == -1)
				return -1;
	return 0;
}

int
mgmt_check_start(const char *addr, const Hoplab__StartRole *sr, char *err,
    size_t errlen)
{
	switch (sr->params_case) {
	case HOPLAB__START_ROLE__PARAMS_ROUTER:
		return check_router(addr, sr->router, err, errlen);
	case HOPLAB__START_ROLE__PARAMS_LINK:
		return mgmt_check_iface(addr, sr->link->iface_a, "link "
		    "interface", err, errlen) == -1 || mgmt_check_iface(addr,
		    sr->link->iface_b, "link interface", err, errlen) == -1 ?
		    -1 : 0;
	case HOPLAB__START_ROLE__PARAMS_GEN:
		if (strcmp(sr->gen->mode, "udp") == 0 ||
		    strcmp(sr->gen->mode, "tcp") == 0)
			return 0;
		return mgmt_check_iface(addr, sr->gen->tx_iface, "generator "
		    "interface", err, errlen) == -1 || mgmt_check_iface(addr,
		    sr->gen->rx_iface, "generator interface", err,
		    errlen) == -1 ? -1 : 0;
	case HOPLAB__START_ROLE__PARAMS_CAPTURE:
		return mgmt_check_iface(addr, sr->capture->iface, "capture "
		    "interface", err, errlen);
	default:
		return 0;
	}
}
