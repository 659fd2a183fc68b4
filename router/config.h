/*
 * config: hoplab-router's configuration file (YAML, docs/router.md), read
 * with lib/yamldoc like plans, so every error names the file, the line,
 * the key and the value: "r1.yaml:7: interfaces[1].address: expected an
 * IPv4 prefix such as 198.18.1.1/24, got '198.18.1.300/24'".
 *
 * The loader checks everything that can be checked without the host:
 * addresses and prefixes parse and have no host bits where none are
 * allowed, interface names are unique, subnets do not overlap, static
 * route prefixes are unique and their next hops lie in a connected
 * subnet, scheduler and queue settings are valid (router/sched.h), filter
 * rules are valid (router/filter.h).  Whether the interfaces exist is a
 * separate check (rconf_check_host), so a file can be written elsewhere.
 *
 * The loader is in several files: config.c reads the file (interfaces,
 * routes, arp, icmp, io) and calls config_qos.c for the qos and filters
 * sections (config_qos.h), config_rip.c for rip (config_rip.h) and
 * config_nat.c for nat (config_nat.h); they read single values with
 * config_value.c (config_value.h, included here for the command line
 * and the control socket, which parse the same values).  Nothing calls back up.
 *
 * Deliberately not here: IPv6, secondary addresses, VLANs, include files.
 */
#ifndef HOPLAB_ROUTER_CONFIG_H
#define HOPLAB_ROUTER_CONFIG_H

#include <sched.h>
#include <stddef.h>
#include <stdint.h>

#include "cpulist.h"
#include "router/classify.h"
#include "router/config_nat.h"
#include "router/config_rip.h"
#include "router/config_value.h"
#include "router/filter.h"
#include "router/sched.h"

#define RCONF_IF_MAX		16
#define RCONF_ROUTE_MAX		1024
#define RCONF_FILTER_MAX	256
#define RCONF_IFNAME_MAX	16
#define RCONF_RATE_MIN		100000ULL		/* 100 kbit/s */
#define RCONF_RATE_MAX		100000000000ULL		/* 100 Gbit/s */
#define RCONF_BUSY_MAX_NS	(1000 * 1000000LL)	/* io.busy_poll <= 1 s */
#define RCONF_BUSY_ADAPT_NS	(1000 * 1000LL)		/* adaptive: <= 1 ms */

#define RCONF_IO_PACKET		0	/* AF_PACKET rings (lib/pktio) */
#define RCONF_IO_XDP		1	/* AF_XDP sockets (router/xsk.c) */

struct rconf_iface {
	char		name[RCONF_IFNAME_MAX];
	uint32_t	addr;		/* host order */
	unsigned	plen;		/* 8..30 */
	unsigned	mtu;		/* 0: the kernel's */
	uint64_t	rate_bps;	/* output limit, bit/s; 0: the link's */
	unsigned long	line;
};

struct rconf_route {
	uint32_t	prefix;		/* host order, no host bits */
	unsigned	plen;
	uint32_t	via;
	unsigned	port;		/* interface index whose subnet has via */
	unsigned long	line;
};

struct rconf {
	char		path[256];
	struct rconf_iface ifs[RCONF_IF_MAX];
	size_t		nifs;
	struct rconf_route routes[RCONF_ROUTE_MAX];
	size_t		nroutes;
	int64_t		arp_timeout_ns;	/* default 60 s */
	unsigned	arp_queue;	/* default 64 */
	unsigned	icmp_rate;	/* per second, default 100 */
	int		backend;	/* io.backend: RCONF_IO_PACKET or
					   RCONF_IO_XDP (router/xsk.c) */
	int		xdp_mode;	/* io.xdp_mode: 0 auto (native, else
					   skb), 1 native, 2 skb */
	int		xdp_fill_full;	/* io.xdp_fill: 0 adaptive, 1 full */
	int		fastpath;	/* io.fastpath: -1 not given (on where
					   XDP runs in the driver), 0 off,
					   1 on (router/fastpath.c) */
	unsigned long	fastpath_line;	/* where io.fastpath was given */
	char		rx_ring[4];	/* "v2" (default) or "v3" */
	unsigned	block_tov_ms;	/* v3 block retire timeout, default 1 */
	unsigned	tx_batch;	/* frames per send(), default 32 */
	cpu_set_t	cpus;		/* io.cpus: the cores it may run on */
	int		ncpus;		/* CPUs in cpus; 0: not pinned */
	char		cpus_text[CPULIST_TEXT_MAX]; /* io.cpus as written */
	int		tx_path;	/* io.tx_path: PKTIO_TX_COPY (copy,
					   default) or PKTIO_TX_RING (ring) */
	int		tx_qdisc;	/* io.qdisc_bypass off: 1, send
					   through the qdisc, where packet
					   taps (captures) see the frames */
	int		busy_adaptive;	/* io.busy_poll: adaptive (default) */
	int64_t		busy_poll_ns;	/* fixed spin after traffic; with
					   busy_adaptive, the most it spins */
	struct classify_map cmap;	/* DSCP -> class */
	struct sched_conf sched;	/* every output interface the same */
	struct filter_rule filters[RCONF_FILTER_MAX];
	size_t		nfilters;
	enum filter_action filter_default;
	struct rconf_rip rip;		/* rip: (config_rip.h) */
	struct rconf_nat nat;		/* nat: (config_nat.h) */
	char		routes_file[512]; /* routes_file:, resolved, or "" */
	struct rconf_route *bulk;	/* its routes (config_routes.h) */
	size_t		nbulk;
};

/*
 * Load PATH (or the string YAML called NAME in messages).  Returns a
 * config the caller frees with rconf_free(), or NULL with the message in
 * ERR.
 */
struct rconf *rconf_load(const char *path, char *err, size_t errlen);
struct rconf *rconf_load_string(const char *yaml, const char *name,
	    char *err, size_t errlen);
void	rconf_free(struct rconf *c);		/* NULL is fine */
/* Do the interfaces exist in this host?  0, or -1 naming file and line. */
int	rconf_check_host(const struct rconf *c, char *err, size_t errlen);
/* The interface whose subnet holds ADDR (host order), or -1
   (config_value.c). */
int	rconf_iface_for(const struct rconf *c, uint32_t addr);
#endif
