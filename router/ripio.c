/*
 * ripio: RIP's packets in and out of hoplab-router's interfaces
 * (ripio.h).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#include "byteorder.h"
#include "clock.h"
#include "log.h"
#include "router/fwd.h"
#include "router/rip.h"
#include "router/ripio.h"
#include "router/router.h"

static const uint8_t rip_mac[6] = { 0x01, 0x00, 0x5e, 0x00, 0x00, 0x09 };

/* RFC 1071 sum of N bytes at P added to SUM, not folded. */
static uint32_t
sum16(uint32_t sum, const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i + 1 < n; i += 2)
		sum += be16_load(p + i);
	if (n & 1)
		sum += (uint32_t)p[n - 1] << 8;
	return sum;
}

/* The UDP checksum of the datagram at IP (its header 20 bytes). */
static uint16_t
udp_csum(const uint8_t *ip, size_t ulen)
{
	uint8_t ph[4] = { 0, 17, (uint8_t)(ulen >> 8), (uint8_t)ulen };
	uint32_t s = sum16(sum16(sum16(0, ip + IP4_SRC, 8), ph, 4),
	    ip + PKT_IP4_LEN, ulen);

	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return (uint16_t)~s;
}

static void
cb_send(void *arg, unsigned ifi, uint32_t dst, uint16_t dport,
    const uint8_t *pkt, size_t len)
{
	struct router *r = arg;
	struct port *p = &r->ports[ifi];
	uint8_t *f = r->ripbuf, *ip = f + PKT_ETH_LEN, *u = ip + PKT_IP4_LEN;
	size_t ulen = PKT_UDP_LEN + len, tl = PKT_IP4_LEN + ulen;
	uint16_t c;

	if (PKT_ETH_LEN + tl > sizeof(r->ripbuf) || !p->up)
		return;
	memcpy(f, rip_mac, 6);		/* output() fills unicast's */
	memcpy(f + 6, p->mac, 6);
	be16_store(f + 12, 0x0800);
	memset(ip, 0, PKT_IP4_LEN);
	ip[0] = 0x45;
	ip[IP4_TOS] = 0xc0;
	be16_store(ip + IP4_TOTLEN, (uint16_t)tl);
	be16_store(ip + IP4_ID, (uint16_t)r->rip_ipid++);
	ip[IP4_TTL] = 1;
	ip[IP4_PROTO] = 17;
	be32_store(ip + IP4_SRC, p->addr);
	be32_store(ip + IP4_DST, dst);
	be16_store(ip + IP4_CSUM, pkt_csum(ip, PKT_IP4_LEN));
	be16_store(u, RIP_PORT);
	be16_store(u + 2, dport);
	be16_store(u + 4, (uint16_t)ulen);
	be16_store(u + 6, 0);
	memcpy(u + PKT_UDP_LEN, pkt, len);
	c = udp_csum(ip, ulen);
	be16_store(u + 6, c == 0 ? 0xffff : c);
	if (dst == RIP_GROUP)
		port_send(r, p, f, (uint32_t)(PKT_ETH_LEN + tl), 6,
		    clock_real_ns());
	else
		r->rip_hooks->output(r, p, dst, f, (uint32_t)(PKT_ETH_LEN + tl),
		    6);
}

static int
cb_install(void *arg, uint32_t prefix, unsigned plen, uint32_t via,
    unsigned ifi, unsigned metric)
{
	struct router *r = arg;
	const struct rtlog_route *cur = rtlog_get(&r->rtlog, prefix, plen);
	char err[128];

	(void)ifi;
	if (cur != NULL && cur->proto != RTLOG_RIP)
		return 1;	/* the configuration's route wins */
	if (cur != NULL && cur->via == via && cur->metric == metric)
		return 0;	/* there already (a reinstall) */
	if (r->rip_hooks->route_set(r, prefix, plen, via, RTLOG_RIP, metric,
	    err, sizeof(err)) == -1) {
		log_warn("rip: %s", err);
		return -1;
	}
	return 0;
}

static void
cb_remove(void *arg, uint32_t prefix, unsigned plen)
{
	struct router *r = arg;
	const struct rtlog_route *cur = rtlog_get(&r->rtlog, prefix, plen);
	char err[128];

	if (cur != NULL && cur->proto == RTLOG_RIP)
		r->rip_hooks->route_del(r, prefix, plen, err, sizeof(err));
}

/* xorshift32: jitter needs no more. */
static uint32_t
cb_random(void *arg)
{
	struct router *r = arg;
	uint32_t x = r->rip_rng;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return r->rip_rng = x;
}

static uint32_t
cb_seq(void *arg)
{
	(void)arg;
	return (uint32_t)(clock_real_ns() / NSEC_PER_SEC);
}

static const struct rip_ops ops = {
	.send = cb_send,
	.install = cb_install,
	.remove = cb_remove,
	.random = cb_random,
	.seq = cb_seq,
};

/*
 * Frames to 01:00:5e:00:00:09 through (JOIN 1) or no longer through
 * (0) a NIC's multicast filter: SIOCADDMULTI on the device, not a
 * socket option of the ring, so that the AF_XDP back end has it too.
 */
static void
join(struct port *p, int on)
{
	struct ifreq ifr;
	int fd;

	if ((fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0)) == -1)
		return;
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", p->name);
	ifr.ifr_hwaddr.sa_family = AF_UNSPEC;
	memcpy(ifr.ifr_hwaddr.sa_data, rip_mac, 6);
	if (ioctl(fd, on ? SIOCADDMULTI : SIOCDELMULTI, &ifr) == -1 && on)
		log_warn("%s: cannot take 224.0.0.9's frames: %s", p->name,
		    strerror(errno));
	close(fd);
}

int
ripio_setup(struct router *r, const struct ripio_hooks *hooks, char *err,
    size_t errlen)
{
	r->rip_hooks = hooks;
	const struct rconf_rip *c = &r->conf->rip;
	struct rip_ifinfo ifs[RIP_IF_MAX];
	struct rip_conf rc;
	unsigned i;

	if (!c->enabled)
		return 0;
	memset(&rc, 0, sizeof(rc));
	rc.update_ns = c->update_ns;
	rc.timeout_ns = c->timeout_ns;
	rc.garbage_ns = c->garbage_ns;
	rc.auth = c->auth;
	rc.key.id = (uint8_t)c->key_id;
	rc.key.len = strlen(c->secret);
	memcpy(rc.key.secret, c->secret, rc.key.len);
	memset(ifs, 0, sizeof(ifs));
	for (i = 0; i < r->nports && i < RIP_IF_MAX; i++) {
		snprintf(ifs[i].name, sizeof(ifs[i].name), "%s",
		    r->ports[i].name);
		ifs[i].addr = r->ports[i].addr;
		ifs[i].plen = r->ports[i].plen;
		ifs[i].active = (c->active >> i) & 1;
		if (ifs[i].active)
			join(&r->ports[i], 1);
	}
	r->rip_rng = (uint32_t)clock_real_ns() | 1;
	if ((r->rip = rip_new(&rc, ifs, i, &ops, r, clock_mono_ns())) ==
	    NULL) {
		snprintf(err, errlen, "rip: out of memory");
		return -1;
	}
	log_info("rip: update %lld ms, timeout %lld ms, garbage %lld ms, %s",
	    (long long)(c->update_ns / NSEC_PER_MSEC),
	    (long long)(c->timeout_ns / NSEC_PER_MSEC),
	    (long long)(c->garbage_ns / NSEC_PER_MSEC),
	    c->auth ? "hmac-sha256" : "no authentication");
	return 0;
}

void
ripio_free(struct router *r)
{
	unsigned i;

	for (i = 0; r->rip != NULL && i < r->nports && i < RIP_IF_MAX; i++)
		if ((r->conf->rip.active >> i) & 1)
			join(&r->ports[i], 0);
	rip_free(r->rip);
	r->rip = NULL;
}

/*
 * Say which reason dropped a packet from SRC on IN, at most once a
 * second (BEFORE: the counters before it): an authentication that does
 * not match BIRD's shows in the log, not only as a number.
 */
static void
log_drop(struct router *r, struct port *in, uint32_t src,
    const struct rip_counters *before)
{
	struct rip_counters now;
	char a[INET_ADDRSTRLEN];
	struct in_addr ia = { htonl(src) };
	unsigned d;

	if (r->now_mono < r->rip_log_at)
		return;
	rip_counters(r->rip, &now);
	for (d = 0; d < RIP_NDROP; d++)
		if (now.drops[d] != before->drops[d])
			break;
	if (d == RIP_NDROP)
		return;
	r->rip_log_at = r->now_mono + NSEC_PER_SEC;
	inet_ntop(AF_INET, &ia, a, sizeof(a));
	log_warn("rip: packet from %s on %s dropped (%s; at most one such "
	    "line a second)", a, in->name, rip_drop_name((enum rip_drop)d));
}

int
ripio_input(struct router *r, struct port *in, const uint8_t *ip,
    unsigned tl, int csum_partial)
{
	struct rip_counters before;

	const uint8_t *u = ip + PKT_IP4_LEN;
	unsigned ulen;

	if (tl < PKT_IP4_LEN + PKT_UDP_LEN || be16_load(u + 2) != RIP_PORT)
		return -1;
	ulen = be16_load(u + 4);
	if ((be16_load(ip + IP4_FRAG) & (IP4_MF | IP4_OFFMASK)) != 0 ||
	    ulen < PKT_UDP_LEN || ulen > tl - PKT_IP4_LEN ||
	    (!csum_partial && be16_load(u + 6) != 0 &&
	    udp_csum(ip, ulen) != 0)) {
		rip_drop(r->rip, RIP_DROP_MALFORMED);
		return 0;
	}
	rip_counters(r->rip, &before);
	rip_input(r->rip, in->idx, be32_load(ip + IP4_SRC), be16_load(u),
	    be32_load(ip + IP4_DST), u + PKT_UDP_LEN, ulen - PKT_UDP_LEN,
	    r->now_mono);
	log_drop(r, in, be32_load(ip + IP4_SRC), &before);
	r->timers_kick = 1;
	return 0;
}
