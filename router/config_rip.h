/*
 * config_rip: the `rip` section of hoplab-router's configuration
 * (docs/router.md "RIP"), for config.c; the loaded settings are struct
 * rconf_rip in struct rconf (config.h):
 *
 *   rip:
 *     interfaces: [r1b, r1c]	# active: RIP sent and taken there;
 *				# default every interface
 *     update: 1s		# 100ms..5m, default 30s
 *     timeout: 5s		# > update, up to 1h, default 180s
 *     garbage: 3s		# 100ms..1h, default 120s
 *     auth: {key_id: 1, secret: "lab-key"}	# HMAC-SHA256, optional
 *
 * The other interfaces are passive: their subnets are announced, nothing
 * is sent or accepted there.  Errors as config.c's: file:line: key.
 */
#ifndef HOPLAB_ROUTER_CONFIG_RIP_H
#define HOPLAB_ROUTER_CONFIG_RIP_H

#include <stddef.h>
#include <stdint.h>

#include "yamldoc.h"

#define RCONF_RIP_SECRET_MAX	32

struct rconf_rip {
	int		enabled;	/* the section is there */
	uint32_t	active;		/* bit i: interfaces[i] is active */
	int64_t		update_ns;
	int64_t		timeout_ns;
	int64_t		garbage_ns;
	int		auth;		/* hmac-sha256 with the key below */
	unsigned	key_id;		/* 0..255 */
	char		secret[RCONF_RIP_SECRET_MAX + 1];
	unsigned long	line;
};

struct rconf;

/* Defaults of RFC 2453 section 3.8, RIP off. */
void	rconf_rip_default(struct rconf_rip *r);

/*
 * Read rip: (N) into C->rip; C->ifs must be read already.  0, or -1
 * with "file:line: rip.KEY: message" in ERR.
 */
int	rconf_parse_rip(struct yamldoc *yd, yaml_node_t *n, struct rconf *c,
	    char *err, size_t errlen);

/*
 * The duration at N (PATH in messages) in LO..HI ns (RANGE says it in
 * words, "100ms..5m") into *NS; N NULL leaves *NS.  0, or -1 with
 * "file:line: PATH: ..." in ERR.  For the rip and nat sections.
 */
int	rconf_yaml_dur(struct yamldoc *yd, yaml_node_t *n, const char *path,
	    int64_t lo, int64_t hi, const char *range, int64_t *ns, char *err,
	    size_t errlen);

#endif
