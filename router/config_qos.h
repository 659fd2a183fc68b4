/*
 * config_qos: the qos and filters sections of hoplab-router's
 * configuration (config_qos.c), for config.c.  Not for other modules:
 * they read the loaded struct rconf (config.h).
 */
#ifndef HOPLAB_ROUTER_CONFIG_QOS_H
#define HOPLAB_ROUTER_CONFIG_QOS_H

#include <stddef.h>

#include "yamldoc.h"
#include "router/config.h"

/*
 * Read qos: {scheduler, map, queues} (N) into C->cmap and C->sched, or
 * filters: {default, rules} into C->filters; the first problem is the
 * error, "file:line: key: message" in ERR.  0 or -1.
 */
int	rconf_parse_qos(struct yamldoc *yd, yaml_node_t *n, struct rconf *c,
	    char *err, size_t errlen);
int	rconf_parse_filters(struct yamldoc *yd, yaml_node_t *n,
	    struct rconf *c, char *err, size_t errlen);

#endif
