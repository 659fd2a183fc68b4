/*
 * capture: the agent's capture roles (capture.c): libpcap on one
 * interface per role, the file shipped to the controller in FileChunks
 * once the role is stopped.  Declared here rather than in agent.h so that
 * the two stay independent (as fault.h).
 */
#ifndef HOPLAB_AGENT_CAPTURE_H
#define HOPLAB_AGENT_CAPTURE_H

#include <stddef.h>
#include <stdint.h>

#include "agent.h"

#define CAPTURE_CHUNK		(256 * 1024)	/* bytes per FileChunk */
#define CAPTURE_WINDOW		4		/* chunks ahead of the ack */

/*
 * Start capture role SR (params_case CAPTURE) for the controller with
 * routing id ID: answer STARTED once pcap_activate() succeeded and the
 * file is open, or FAILED with the reason.
 */
void	capture_start(struct agent *ag, const uint8_t *id, size_t idlen,
	    const Hoplab__StartRole *sr);
/*
 * StopRole ROLE: a capture role is stopped, reported (CaptureReport,
 * then RoleStatus STOPPED) and its file sent; returns 1.  ROLE 0 stops
 * every capture without sending files and returns 0 (the other roles
 * are stopped too); any other role: 0.
 */
int	capture_stop(struct agent *ag, uint32_t role);
/* A FileAck from the controller with routing id ID. */
void	capture_file_ack(struct agent *ag, const uint8_t *id, size_t idlen,
	    const Hoplab__FileAck *fa);

#endif
