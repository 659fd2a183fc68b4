/*
 * capture: the capture role kind (capture.c): libpcap on one interface
 * per role in a forked child, the file fetched by the controller in
 * FileChunks once the role is stopped.
 */
#ifndef HOPLAB_AGENT_CAPTURE_H
#define HOPLAB_AGENT_CAPTURE_H

#include "agent/role.h"

extern const struct role_ops capture_ops;

#endif
