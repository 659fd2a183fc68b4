/*
 * config_nat: the `nat` section of hoplab-router's configuration
 * (docs/router.md "NAT"), for config.c; the loaded settings are struct
 * rconf_nat in struct rconf (config.h):
 *
 *   nat:
 *     interface: r1b		# the outside interface (required)
 *     address: 198.18.2.1	# translated source; default the
 *				# interface's own, else one in its subnet
 *     port_min: 1024		# translated ports and ICMP ids,
 *     port_max: 65535		# default 1024..65535
 *     tcp_timeout: 7440s	# established, RFC 5382 REQ-5
 *     tcp_transitory: 240s	# opening and closing, RFC 5382
 *     udp_timeout: 300s	# RFC 4787 REQ-5
 *     icmp_timeout: 60s	# RFC 5508 REQ-1
 *     max_entries: 65536	# connection table size, 1..1048576
 *
 * Timeouts are 100ms..24h.  Errors as config.c's: file:line: key.
 */
#ifndef HOPLAB_ROUTER_CONFIG_NAT_H
#define HOPLAB_ROUTER_CONFIG_NAT_H

#include <stddef.h>
#include <stdint.h>

#include "yamldoc.h"

struct rconf_nat {
	int		enabled;	/* the section is there */
	unsigned	iface;		/* index in interfaces */
	uint32_t	addr;		/* host order; 0: the interface's */
	unsigned	port_min, port_max;
	int64_t		tcp_ns, tcp_trans_ns, udp_ns, icmp_ns;
	unsigned	max_entries;
	unsigned long	line;
};

struct rconf;

/* The defaults named above, NAT off. */
void	rconf_nat_default(struct rconf_nat *n);

/*
 * Read nat: (N) into C->nat; C->ifs must be read already.  0, or -1
 * with "file:line: nat.KEY: message" in ERR.
 */
int	rconf_parse_nat(struct yamldoc *yd, yaml_node_t *n, struct rconf *c,
	    char *err, size_t errlen);

#endif
