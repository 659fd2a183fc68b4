/*
 * ctlroute: RIP counters and routes in the router's reports and control
 * answers (ctlroute.h).
 */
#include <arpa/inet.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "router/ctlroute.h"
#include "router/rip.h"
#include "router/router.h"

struct rc_item {
	Hoplab__RouteChange m;
	char		prefix[24];
	char		via[INET_ADDRSTRLEN];
};

struct rc_mem {
	Hoplab__RouteChange **v;
	struct rc_item	*it;
};

int
ctlroute_rip(struct router *r, Hoplab__RipCounters *m)
{
	struct rip_counters c;

	if (r->rip == NULL)
		return -1;
	rip_counters(r->rip, &c);
	hoplab__rip_counters__init(m);
	m->rx_packets = c.rx_packets;
	m->tx_packets = c.tx_packets;
	m->tx_triggered = c.tx_triggered;
	m->rx_requests = c.rx_requests;
	m->routes = c.routes;
	m->routes_timed_out = c.timed_out;
	m->drop_malformed = c.drops[RIP_DROP_MALFORMED];
	m->drop_oversize = c.drops[RIP_DROP_OVERSIZE];
	m->drop_version = c.drops[RIP_DROP_VERSION];
	m->drop_auth = c.drops[RIP_DROP_AUTH];
	m->drop_source = c.drops[RIP_DROP_SOURCE];
	m->drop_entry = c.drops[RIP_DROP_ENTRY];
	return 0;
}

static void
ip_text(uint32_t a, char *buf, size_t len)
{
	struct in_addr ia = { htonl(a) };

	inet_ntop(AF_INET, &ia, buf, (socklen_t)len);
}

static void
item(struct router *r, struct rc_item *it, const struct rtlog_route *rt,
    int64_t t, int removed, int initial)
{
	char a[INET_ADDRSTRLEN];

	hoplab__route_change__init(&it->m);
	ip_text(rt->prefix, a, sizeof(a));
	snprintf(it->prefix, sizeof(it->prefix), "%s/%u", a, rt->plen);
	it->via[0] = '\0';
	if (rt->via != 0)
		ip_text(rt->via, it->via, sizeof(it->via));
	it->m.time_ns = t;
	it->m.removed = removed;
	it->m.initial = initial;
	it->m.prefix = it->prefix;
	it->m.via = it->via;
	it->m.dev = rt->port < r->nports ? r->ports[rt->port].name : "";
	it->m.metric = rt->metric;
	it->m.proto = (char *)rtlog_proto_name(rt->proto);
}

Hoplab__RouteChange **
ctlroute_list(struct router *r, int whole, size_t *n, void **mem)
{
	const struct rtlog_change *ch = NULL;
	struct rc_mem *m;
	int64_t now = clock_real_ns();
	size_t i, k;

	*mem = NULL;
	if (whole)
		k = r->rtlog.ncur;
	else
		ch = rtlog_take(&r->rtlog, &k);
	*n = 0;
	if (k == 0 || (m = calloc(1, sizeof(*m))) == NULL)
		return NULL;
	m->v = calloc(k, sizeof(*m->v));
	m->it = calloc(k, sizeof(*m->it));
	if (m->v == NULL || m->it == NULL) {
		ctlroute_free(m);
		return NULL;
	}
	for (i = 0; i < k; i++) {
		if (whole)
			item(r, &m->it[i], &r->rtlog.cur[i], now, 0, 1);
		else
			item(r, &m->it[i], &ch[i].r, ch[i].time_ns,
			    ch[i].removed, 0);
		m->v[i] = &m->it[i].m;
	}
	*n = k;
	*mem = m;
	return m->v;
}

void
ctlroute_free(void *mem)
{
	struct rc_mem *m = mem;

	if (m == NULL)
		return;
	free(m->v);
	free(m->it);
	free(m);
}

void
ctlroute_print(FILE *f, const Hoplab__RouterCounters *c)
{
	const Hoplab__RipCounters *p = c->rip;
	const Hoplab__RouteChange *rc;
	size_t i;

	if (p != NULL) {
		fprintf(f, "rip: rx %" PRIu64 " tx %" PRIu64 " triggered %"
		    PRIu64 " requests %" PRIu64 " routes %u timed_out %" PRIu64
		    "\n", p->rx_packets, p->tx_packets, p->tx_triggered,
		    p->rx_requests, p->routes, p->routes_timed_out);
		fprintf(f, "rip drops: malformed %" PRIu64 " oversize %" PRIu64
		    " version %" PRIu64 " auth %" PRIu64 " source %" PRIu64
		    " entry %" PRIu64 "\n", p->drop_malformed,
		    p->drop_oversize, p->drop_version, p->drop_auth,
		    p->drop_source, p->drop_entry);
	}
	for (i = 0; i < c->n_route_changes; i++) {
		rc = c->route_changes[i];
		fprintf(f, "route %s via %s dev %s metric %u proto %s\n",
		    rc->prefix, rc->via[0] != '\0' ? rc->via : "-", rc->dev,
		    rc->metric, rc->proto);
	}
}
