/*
 * manifest: run.json's "manifest" (docs/results.md "run.json"): what the
 * controller and every host of the run ran on (kernel, CPU model,
 * frequency governor, hoplab's version and git commit) and each test
 * interface's MTU, qdiscs and offloads, as the agents answered a
 * HostQuery with facts (agent/hostreport.c), and the plan's SHA-256.
 * Hosts whose boot ids are equal run on one kernel (the namespace lab:
 * every host is the one machine): "shared_kernels" lists them in
 * groups, "shared_kernel" says whether there is any such group, and
 * cpu.csv's shared_kernel column is that.
 */
#ifndef HOPLAB_MANIFEST_H
#define HOPLAB_MANIFEST_H

#include <stddef.h>

#include "json.h"
#include "msg.h"

#define MANIFEST_MAX_IFACES	16
#define MANIFEST_MAX_OFFLOADS	8

struct manifest_iface {
	char		name[16];
	unsigned	mtu;
	char		qdisc[128];
	char		offload[MANIFEST_MAX_OFFLOADS][24];
	int		offload_on[MANIFEST_MAX_OFFLOADS];
	size_t		noffloads;
	char		error[256];
};

struct manifest_host {
	char		name[64];	/* agent name, "controller" */
	char		kernel[128], kernel_full[512], cpu_model[128];
	char		governor[256], version[32], commit[64];
	char		hostname[256];
	char		boot_id[64];	/* "": unknown (an older agent) */
	struct manifest_iface ifaces[MANIFEST_MAX_IFACES];
	size_t		nifaces;
	int		answered;	/* 0: the agent did not answer */
};

/* H from agent NAME's HostReport HR (facts). */
void	manifest_from_report(struct manifest_host *h, const char *name,
	    const Hoplab__HostReport *hr);
/* H for this process's own host: the controller (no interfaces). */
void	manifest_self(struct manifest_host *h);
/*
 * 1 when two or more of HOSTS (N; the run's agents) answered with one
 * boot id, else 0.
 */
int	manifest_shared_kernel(const struct manifest_host *hosts, size_t n);
/*
 * "manifest": {"controller": {...}, "hosts": {NAME: {...}},
 * "plan_sha256": SHA} into J; CTL may be NULL (left out).
 */
void	manifest_json(struct json *j, const struct manifest_host *ctl,
	    const struct manifest_host *hosts, size_t n, const char *sha);

#endif
