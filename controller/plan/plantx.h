/*
 * plantx: a flow's tx_io: and tx_stamp_every: (plantx.c), for
 * planflow.c: how the chain's generator hands its l2 frames to the
 * kernel (hoplab-gen --tx-io, --tx-stamp-every).
 * Each returns 0, or -1 with the error reported through PERR.
 */
#ifndef HOPLAB_CONTROLLER_PLAN_PLANTX_H
#define HOPLAB_CONTROLLER_PLAN_PLANTX_H

#include <stddef.h>

#include "controller/plan/parse.h"

/* hoplab-gen's --tx-stamp-every default and bound (generator/gen.h). */
#define PLANTX_STAMP_DEFAULT	64
#define PLANTX_STAMP_MAX	1000000

/*
 * Flow F's tx_io: IO and tx_stamp_every: EVERY (NULL: absent) under
 * FPATH; F's mode is known.
 */
int	plantx_parse(struct parse_ctx *c, yaml_node_t *io, yaml_node_t *every,
	    const char *fpath, struct plan_flow *f);
/*
 * The N flows as written (NODE, flows:): every l2 flow runs in the one
 * hoplab-gen of the chain, so they must give the same values.
 */
int	plantx_agree(struct parse_ctx *c, yaml_node_t *node, size_t n);
/* The value hoplab-gen runs F with: "send" when not given. */
const char *plantx_io(const struct plan_flow *f);
/* F's sample, hoplab-gen's default when not given; 0 with send. */
unsigned plantx_every(const struct plan_flow *f);

#endif
