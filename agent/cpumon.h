/*
 * cpumon: the cpu role kind (cpumon.c, StartRole.cpu): the host's CPU
 * per interval from /proc/stat, whole and per core, and the CPU of the
 * agent and every process it started; no process of its own.
 */
#ifndef HOPLAB_AGENT_CPUMON_H
#define HOPLAB_AGENT_CPUMON_H

#include "agent/role.h"

extern const struct role_ops cpumon_ops;

#endif
