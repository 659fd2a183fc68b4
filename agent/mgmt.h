/*
 * mgmt: the interface that carries the agent's management (listen)
 * address, which no request may touch (mgmt.c, issue 17): a controller,
 * or anything that reaches the port, must not take it down, give it
 * addresses, run a router, a link or a generator on it, or capture it.
 */
#ifndef HOPLAB_AGENT_MGMT_H
#define HOPLAB_AGENT_MGMT_H

#include <stddef.h>

#include "proto/hoplab.pb-c.h"

/*
 * The interface holding IPv4 address ADDR into IFNAME (LEN bytes): 0, or
 * -1 when none does (ADDR 0.0.0.0: every address, so no one interface).
 */
int	mgmt_iface(const char *addr, char *ifname, size_t len);

/*
 * -1 with ERR when IFNAME is the interface of management address ADDR
 * (WHAT names the field in ERR), else 0.
 */
int	mgmt_check_iface(const char *addr, const char *ifname,
	    const char *what, char *err, size_t errlen);

/* -1 with ERR when StartRole SR names ADDR's interface anywhere. */
int	mgmt_check_start(const char *addr, const Hoplab__StartRole *sr,
	    char *err, size_t errlen);

#endif
