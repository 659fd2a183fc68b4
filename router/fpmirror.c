/*
 * fpmirror: hoplab-router's tables into the XDP fast path's maps (see
 * fpmirror.h).
 */
#include <arpa/inet.h>
#include <string.h>

#include "router/fpmirror.h"

static void
upd(struct fpmirror *m, enum fpm_map map, const void *k, const void *v)
{
	if (m->ops->update(m->arg, map, k, v) == -1)
		m->errors++;
}

static void
del(struct fpmirror *m, enum fpm_map map, const void *k)
{
	if (m->ops->del(m->arg, map, k) == -1)
		m->errors++;
}

static struct fp_route_key
route_key(uint32_t prefix, unsigned plen)
{
	struct fp_route_key k;

	memset(&k, 0, sizeof(k));
	k.plen = plen;
	k.addr = htonl(prefix);
	return k;
}

void
fpm_route_set(struct fpmirror *m, uint32_t prefix, unsigned plen,
    unsigned port, uint32_t gw)
{
	struct fp_route_key k = route_key(prefix, plen);
	struct fp_route v;

	if (m == NULL)
		return;
	memset(&v, 0, sizeof(v));
	v.port = port;
	v.gw = htonl(gw);
	upd(m, FPM_ROUTES, &k, &v);
}

void
fpm_route_del(struct fpmirror *m, uint32_t prefix, unsigned plen)
{
	struct fp_route_key k = route_key(prefix, plen);

	if (m != NULL)
		del(m, FPM_ROUTES, &k);
}

void
fpm_neigh(struct fpmirror *m, unsigned port, uint32_t ip, const uint8_t *mac)
{
	struct fp_neigh_key k;
	struct fp_neigh v;

	if (m == NULL)
		return;
	memset(&k, 0, sizeof(k));
	k.port = port;
	k.ip = htonl(ip);
	if (mac == NULL) {
		del(m, FPM_NEIGH, &k);
		return;
	}
	memset(&v, 0, sizeof(v));
	memcpy(v.mac, mac, 6);
	upd(m, FPM_NEIGH, &k, &v);
}

void
fpm_local(struct fpmirror *m, uint32_t addr)
{
	uint32_t k = htonl(addr), one = 1;

	if (m != NULL)
		upd(m, FPM_LOCAL, &k, &one);
}

void
fpm_port(struct fpmirror *m, unsigned port, unsigned ifindex,
    const uint8_t mac[6], unsigned mtu, unsigned plen, int fast)
{
	struct fp_port v;
	uint32_t k = port, ifx = ifindex;

	if (m == NULL)
		return;
	memset(&v, 0, sizeof(v));
	v.ifindex = ifindex;
	v.flags = fast ? FP_PORT_FAST : 0;
	v.mtu = mtu;
	v.hostmask = htonl(plen == 0 ? ~0U : plen >= 32 ? 0 :
	    ~0U >> plen);
	memcpy(v.mac, mac, 6);
	/* the device map first: a fast port is always a redirect target */
	upd(m, FPM_TX, &k, &ifx);
	upd(m, FPM_IFINDEX, &ifx, &k);
	upd(m, FPM_PORTS, &k, &v);
}

int
fpm_port_fast(const struct fpm_port_conf *c, const char **why)
{
	if (!c->native)
		*why = "no native XDP on the interface";
	else if (!c->up)
		*why = "interface down";
	else if (c->filtering)
		*why = "filters";
	else if (c->nat)
		*why = "nat";
	else if (!c->fifo)
		*why = "priority or DRR queues";
	else if (c->rate_bps != 0)
		*why = "rate limit";
	else
		return 1;
	return 0;
}

void
fpm_sum(const uint64_t *v, unsigned ncpus, unsigned n, uint64_t *out)
{
	unsigned k, cpu;

	for (k = 0; k < n; k++) {
		out[k] = 0;
		for (cpu = 0; cpu < ncpus; cpu++)
			out[k] += v[(size_t)k * ncpus + cpu];
	}
}

const char *
fpm_ctr_name(unsigned c)
{
	static const char *const names[FP_NCTR] = {
		[FP_C_FWD_TCP] = "fwd_tcp",
		[FP_C_FWD_UDP] = "fwd_udp",
		[FP_C_FWD_ICMP] = "fwd_icmp",
		[FP_C_FWD_OTHER] = "fwd_other",
		[FP_C_SENT] = "sent",
		[FP_C_PUNT_SLOW] = "punt_slow",
		[FP_C_PUNT_NOT_IP] = "punt_not_ip",
		[FP_C_PUNT_HEADER] = "punt_header",
		[FP_C_PUNT_LOCAL] = "punt_local",
		[FP_C_PUNT_TTL] = "punt_ttl",
		[FP_C_PUNT_NO_ROUTE] = "punt_no_route",
		[FP_C_PUNT_NO_NEIGH] = "punt_no_neigh",
		[FP_C_PUNT_MTU] = "punt_mtu",
		[FP_C_PASS] = "pass",
	};

	return c < FP_NCTR ? names[c] : "unknown";
}
