/*
 * hostreport: the agent's answer to a HostQuery (docs/management.md
 * "Host reports"): this host's CPU counters and run queue, and, once per
 * run, its facts for run.json's manifest (kernel, CPU model, governor,
 * hoplab's version and commit, and per data interface its MTU, qdisc and
 * offloads).
 *
 * The run queue is sampled by the agent's loop every 100 ms
 * (procs_running of /proc/stat less 1, the agent reading it); each
 * answer carries the samples since the previous answer and starts a new
 * window, so the controller's start-and-end queries around a measured
 * point frame that point.
 */
#ifndef HOPLAB_AGENT_HOSTREPORT_H
#define HOPLAB_AGENT_HOSTREPORT_H

#include <stddef.h>
#include <stdint.h>

#include "agent/sender.h"
#include "msg.h"

#define HOSTREPORT_SAMPLE_NS	(100 * 1000 * 1000LL)

struct hostreport {
	int64_t		next_ns;	/* CLOCK_MONOTONIC of the next sample */
	uint64_t	samples, sum;	/* since the last answer */
	unsigned	max;
	int		failing;	/* /proc/stat unreadable: logged once */
};

void	hostreport_init(struct hostreport *h, int64_t now);
/* When the next sample is due (CLOCK_MONOTONIC), for the poll timeout. */
int64_t	hostreport_next(const struct hostreport *h);
/* Take a run-queue sample if one is due at NOW. */
void	hostreport_tick(struct hostreport *h, int64_t now);
/* Answer Q from the controller with routing id ID through OUT. */
void	hostreport_answer(struct hostreport *h, struct sender *out,
	    const uint8_t *id, size_t idlen, const Hoplab__HostQuery *q);
/*
 * The qdisc kinds of `tc qdisc show dev X`'s output TEXT, in its order,
 * each once, joined by ",": "noqueue", "mq,pfifo_fast"; "" for none.
 */
void	hostreport_qdisc_kinds(const char *text, char *buf, size_t len);

#endif
