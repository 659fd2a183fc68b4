/*
 * capture: the capture role kind (capture.c): libpcap on one interface
 * per role in a forked child, the file fetched by the controller in
 * FileChunks once the role is stopped.
 */
#ifndef HOPLAB_AGENT_CAPTURE_H
#define HOPLAB_AGENT_CAPTURE_H

#include <stddef.h>
#include <stdint.h>

#include "agent/role.h"

extern const struct role_ops capture_ops;

/*
 * May a capture of LIMIT bytes go into DIR, which has AVAIL bytes free?
 * 0, or -1 with ERR (over CAP_LIMIT_MAX, 4GB, or over AVAIL).
 */
int	capture_room(const char *dir, uint64_t limit, uint64_t avail,
	    char *err, size_t errlen);

#endif
