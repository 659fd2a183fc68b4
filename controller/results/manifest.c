/*
 * manifest: run.json's "manifest" (see manifest.h).  The controller's
 * own facts come from lib/hostinfo, as the agents' do.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hostinfo.h"
#include "controller/results/manifest.h"

#define CPUINFO_MAX	65536

static void
iface_from(struct manifest_iface *m, const Hoplab__HostIfaceFacts *f)
{
	size_t i;

	memset(m, 0, sizeof(*m));
	snprintf(m->name, sizeof(m->name), "%s", f->name);
	m->mtu = f->mtu;
	snprintf(m->qdisc, sizeof(m->qdisc), "%s", f->qdisc);
	snprintf(m->error, sizeof(m->error), "%s", f->error);
	for (i = 0; i < f->n_offloads && i < MANIFEST_MAX_OFFLOADS; i++) {
		snprintf(m->offload[i], sizeof(m->offload[i]), "%s",
		    f->offloads[i]->name);
		m->offload_on[i] = f->offloads[i]->on;
	}
	m->noffloads = i;
}

void
manifest_from_report(struct manifest_host *h, const char *name,
    const Hoplab__HostReport *hr)
{
	size_t i;

	memset(h, 0, sizeof(*h));
	snprintf(h->name, sizeof(h->name), "%s", name);
	snprintf(h->kernel, sizeof(h->kernel), "%s", hr->kernel);
	snprintf(h->kernel_full, sizeof(h->kernel_full), "%s",
	    hr->kernel_full);
	snprintf(h->cpu_model, sizeof(h->cpu_model), "%s", hr->cpu_model);
	snprintf(h->governor, sizeof(h->governor), "%s", hr->governor);
	snprintf(h->version, sizeof(h->version), "%s", hr->version);
	snprintf(h->commit, sizeof(h->commit), "%s", hr->commit);
	snprintf(h->hostname, sizeof(h->hostname), "%s", hr->hostname);
	snprintf(h->boot_id, sizeof(h->boot_id), "%s", hr->boot_id);
	for (i = 0; i < hr->n_ifaces && i < MANIFEST_MAX_IFACES; i++)
		iface_from(&h->ifaces[i], hr->ifaces[i]);
	h->nifaces = i;
	h->answered = 1;
}

void
manifest_self(struct manifest_host *h)
{
	char *info = malloc(CPUINFO_MAX);

	memset(h, 0, sizeof(*h));
	snprintf(h->name, sizeof(h->name), "controller");
	hostinfo_kernel(h->kernel, sizeof(h->kernel), h->kernel_full,
	    sizeof(h->kernel_full));
	if (info != NULL &&
	    hostinfo_read_file("/proc/cpuinfo", info, CPUINFO_MAX) > 0)
		hostinfo_cpu_model(info, h->cpu_model, sizeof(h->cpu_model));
	else
		snprintf(h->cpu_model, sizeof(h->cpu_model), "unknown");
	free(info);
	hostinfo_governor("/sys/devices/system/cpu", h->governor,
	    sizeof(h->governor));
	snprintf(h->version, sizeof(h->version), "%s", HOPLAB_VERSION);
	snprintf(h->commit, sizeof(h->commit), "%s", hostinfo_commit());
	if (gethostname(h->hostname, sizeof(h->hostname) - 1) == -1)
		h->hostname[0] = '\0';
	hostinfo_boot_id(h->boot_id, sizeof(h->boot_id));
	h->answered = 1;
}

static void
iface_json(struct json *j, const struct manifest_iface *m)
{
	size_t i;

	json_key(j, m->name);
	json_object(j, JSON_INLINE);
	json_kuint(j, "mtu", m->mtu);
	json_kstring(j, "qdisc", m->qdisc);
	json_key(j, "offloads");
	json_object(j, JSON_INLINE);
	for (i = 0; i < m->noffloads; i++)
		json_kbool(j, m->offload[i], m->offload_on[i]);
	json_end(j);
	if (m->error[0] != '\0')
		json_kstring(j, "error", m->error);
	json_end(j);
}

static void
host_json(struct json *j, const struct manifest_host *h, int with_ifaces)
{
	size_t i;

	json_object(j, JSON_INLINE);
	if (!h->answered) {
		json_kstring(j, "error", "no answer to the host query");
		json_end(j);
		return;
	}
	json_kstring(j, "hostname", h->hostname);
	json_kstring(j, "kernel", h->kernel);
	json_kstring(j, "kernel_full", h->kernel_full);
	json_kstring(j, "cpu_model", h->cpu_model);
	json_kstring(j, "governor", h->governor);
	json_kstring(j, "hoplab_version", h->version);
	json_kstring(j, "commit", h->commit);
	if (h->boot_id[0] != '\0')
		json_kstring(j, "boot_id", h->boot_id);
	if (with_ifaces) {
		json_key(j, "ifaces");
		json_object(j, JSON_INLINE);
		for (i = 0; i < h->nifaces; i++)
			iface_json(j, &h->ifaces[i]);
		json_end(j);
	}
	json_end(j);
}

/* 1 when H has a boot id that HOSTS[0..I) (answered) has not. */
static int
first_of_kernel(const struct manifest_host *hosts, size_t i)
{
	size_t k;

	if (!hosts[i].answered || hosts[i].boot_id[0] == '\0')
		return 0;
	for (k = 0; k < i; k++)
		if (hosts[k].answered &&
		    strcmp(hosts[k].boot_id, hosts[i].boot_id) == 0)
			return 0;
	return 1;
}

/* How many of HOSTS have H's boot id. */
static size_t
same_kernel(const struct manifest_host *hosts, size_t n,
    const struct manifest_host *h)
{
	size_t k, m = 0;

	for (k = 0; k < n; k++)
		m += hosts[k].answered &&
		    strcmp(hosts[k].boot_id, h->boot_id) == 0;
	return m;
}

int
manifest_shared_kernel(const struct manifest_host *hosts, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (first_of_kernel(hosts, i) &&
		    same_kernel(hosts, n, &hosts[i]) >= 2)
			return 1;
	return 0;
}

/* "shared_kernels": [[A, B, ...], ...]: the hosts of each shared kernel. */
static void
shared_json(struct json *j, const struct manifest_host *hosts, size_t n)
{
	size_t i, k;

	json_kbool(j, "shared_kernel", manifest_shared_kernel(hosts, n));
	json_key(j, "shared_kernels");
	json_array(j, JSON_INLINE);
	for (i = 0; i < n; i++) {
		if (!first_of_kernel(hosts, i) ||
		    same_kernel(hosts, n, &hosts[i]) < 2)
			continue;
		json_array(j, JSON_INLINE);
		for (k = i; k < n; k++)
			if (hosts[k].answered &&
			    strcmp(hosts[k].boot_id, hosts[i].boot_id) == 0)
				json_string(j, hosts[k].name);
		json_end(j);
	}
	json_end(j);
}

void
manifest_json(struct json *j, const struct manifest_host *ctl,
    const struct manifest_host *hosts, size_t n, const char *sha)
{
	size_t i;

	json_key(j, "manifest");
	json_object(j, JSON_BLOCK);
	if (ctl != NULL) {
		json_key(j, "controller");
		host_json(j, ctl, 0);
	}
	json_key(j, "hosts");
	json_object(j, JSON_BLOCK);
	for (i = 0; i < n; i++) {
		json_key(j, hosts[i].name);
		host_json(j, &hosts[i], 1);
	}
	json_end(j);
	shared_json(j, hosts, n);
	json_kstring(j, "plan_sha256", sha);
	json_end(j);
}
