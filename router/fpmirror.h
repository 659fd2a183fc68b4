/*
 * fpmirror: the XDP fast path's view of hoplab-router's tables
 * (docs/router.md, "The fast path"): every change of the FIB, the ARP
 * cache and an interface's settings becomes an update or a delete of an
 * entry in the BPF program's maps (router/bpf/fastpath_abi.h), through a
 * table of two functions, so this module needs no kernel: router/
 * fastpath.c fills the table with bpf_map_update_elem() and
 * bpf_map_delete_elem(), the unit tests with a recorder.
 *
 * Addresses come in host order, as everywhere in the router, and go into
 * the maps in network order.  The per-CPU counters the kernel returns
 * are summed here too, and an interface's eligibility for the fast path
 * is decided here (fpm_port_fast()), so both can be tested by hand.
 *
 * Every function does nothing when M is NULL (no fast path), so that
 * the callers (rtables.c) need no test of their own.  A failed map
 * operation is counted in M->errors and logged by the caller's op, never
 * fatal: the entry is then missing and its packets take the slow path
 * (a route the program cannot see), or stale until the next change.
 *
 * Deliberately not here: the maps' file descriptors and loading the
 * program (fastpath.c), reading the router's own structures.
 */
#ifndef HOPLAB_ROUTER_FPMIRROR_H
#define HOPLAB_ROUTER_FPMIRROR_H

#include <stdint.h>

#include "router/bpf/fastpath_abi.h"

enum fpm_map {
	FPM_IFINDEX,		/* ifindex -> port */
	FPM_PORTS,		/* port -> struct fp_port */
	FPM_ROUTES,		/* struct fp_route_key -> struct fp_route */
	FPM_NEIGH,		/* struct fp_neigh_key -> struct fp_neigh */
	FPM_LOCAL,		/* address -> 1 */
	FPM_TX,			/* port -> ifindex (the device map) */
	FPM_NMAPS
};

struct fpm_ops {
	/* Insert or replace KEY's value in MAP; 0 or -1. */
	int	(*update)(void *arg, enum fpm_map map, const void *key,
		    const void *val);
	/* Remove KEY from MAP; 0, or -1 (absent is not an error). */
	int	(*del)(void *arg, enum fpm_map map, const void *key);
};

struct fpmirror {
	const struct fpm_ops *ops;
	void		*arg;
	uint64_t	errors;		/* map operations that failed */
};

/* What decides whether an interface may take the fast path. */
struct fpm_port_conf {
	int		native;		/* the program runs in the driver */
	int		up;
	int		filtering;	/* filter rules or a deny default */
	int		nat;		/* NAT on this router */
	int		fifo;		/* its queues are one FIFO */
	uint64_t	rate_bps;	/* output limit; 0 none */
};

/* PREFIX/PLEN (host order) now goes out of PORT towards GW (0: direct). */
void	fpm_route_set(struct fpmirror *m, uint32_t prefix, unsigned plen,
	    unsigned port, uint32_t gw);
void	fpm_route_del(struct fpmirror *m, uint32_t prefix, unsigned plen);
/* IP on PORT is at MAC (ARP learnt it); MAC NULL: it is not any more. */
void	fpm_neigh(struct fpmirror *m, unsigned port, uint32_t ip,
	    const uint8_t *mac);
/* ADDR (host order) is the router's own: punt what is sent to it. */
void	fpm_local(struct fpmirror *m, uint32_t addr);
/*
 * Interface PORT (kernel IFINDEX, MAC, IPv4 MTU, prefix length PLEN):
 * its entries in every per-port map, fast or slow as FAST says.
 */
void	fpm_port(struct fpmirror *m, unsigned port, unsigned ifindex,
	    const uint8_t mac[6], unsigned mtu, unsigned plen, int fast);
/*
 * Whether an interface configured as C may take the fast path: 1, or 0
 * with *WHY (a static string) saying why not.
 */
int	fpm_port_fast(const struct fpm_port_conf *c, const char **why);
/*
 * Sum NCPUS per-CPU values of each of N counters: V holds them counter
 * by counter (V[k * NCPUS + cpu]), OUT gets N sums.
 */
void	fpm_sum(const uint64_t *v, unsigned ncpus, unsigned n, uint64_t *out);
/* The counter C's name in reports ("fwd_tcp", "punt_no_route", ...). */
const char *fpm_ctr_name(unsigned c);

#endif
