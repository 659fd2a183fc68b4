/*
 * natpkt: tuples out of IPv4 datagrams and the in-place rewrite for the
 * NAT table (natpkt.h).  Offsets, never structs cast onto the frame.
 */
#include "byteorder.h"
#include "router/fwd.h"
#include "router/icmp.h"
#include "router/natpkt.h"

#define TCP_FLAGS	13
#define TCP_CSUM	16
#define UDP_CSUM	6
#define ICMP_CSUM	2
#define ICMP_ID		4

int
natpkt_tuple(const uint8_t *ip, unsigned totlen, int out,
    struct nat_tuple *k, uint8_t *flags)
{
	unsigned hl = (ip[0] & 0x0f) * 4u, len = totlen - hl;
	const uint8_t *l4 = ip + hl;

	if (hl != PKT_IP4_LEN || totlen < hl || !nat_proto_ok(ip[IP4_PROTO]) ||
	    (be16_load(ip + IP4_FRAG) & (IP4_MF | IP4_OFFMASK)) != 0 ||
	    len < (ip[IP4_PROTO] == 6 ? 20u : 8u))
		return -1;
	k->proto = ip[IP4_PROTO];
	k->src = be32_load(ip + IP4_SRC);
	k->dst = be32_load(ip + IP4_DST);
	*flags = k->proto == 6 ? l4[TCP_FLAGS] & (NAT_TCP_FIN | NAT_TCP_SYN |
	    NAT_TCP_RST) : 0;
	if (k->proto != 1) {
		k->sport = be16_load(l4);
		k->dport = be16_load(l4 + 2);
		return 0;
	}
	if (l4[0] != (out ? ICMP_ECHO : ICMP_ECHOREPLY) || l4[1] != 0)
		return -1;
	k->sport = out ? be16_load(l4 + ICMP_ID) : 0;
	k->dport = out ? 0 : be16_load(l4 + ICMP_ID);
	return 0;
}

/* The checksum at C after a covered word changed from M to V. */
static inline void
csum_fix(uint8_t *c, uint16_t m, uint16_t v)
{
	be16_store(c, fwd_csum_adjust(be16_load(c), m, v));
}

void
natpkt_rewrite(uint8_t *ip, int dst, uint32_t addr, uint16_t port)
{
	uint8_t *l4 = ip + PKT_IP4_LEN, *a = ip + (dst ? IP4_DST : IP4_SRC);
	uint8_t *pc = NULL, *ac = NULL;	/* checksums over port, address */
	uint16_t hi = be16_load(a), lo = be16_load(a + 2), op;
	unsigned poff = dst ? 2 : 0;

	if (ip[IP4_PROTO] == 6)
		pc = ac = l4 + TCP_CSUM;
	else if (ip[IP4_PROTO] == 17) {
		if (be16_load(l4 + UDP_CSUM) != 0)
			pc = ac = l4 + UDP_CSUM;
	} else {
		pc = l4 + ICMP_CSUM;
		poff = ICMP_ID;
	}
	be32_store(a, addr);
	csum_fix(ip + IP4_CSUM, hi, (uint16_t)(addr >> 16));
	csum_fix(ip + IP4_CSUM, lo, (uint16_t)addr);
	if (ac != NULL) {
		csum_fix(ac, hi, (uint16_t)(addr >> 16));
		csum_fix(ac, lo, (uint16_t)addr);
	}
	op = be16_load(l4 + poff);
	be16_store(l4 + poff, port);
	if (pc != NULL)
		csum_fix(pc, op, port);
	if (ip[IP4_PROTO] == 17 && pc != NULL && be16_load(pc) == 0)
		be16_store(pc, 0xffff);		/* RFC 768: 0 means none */
}

int
natpkt_out(struct nat *t, uint8_t *ip, unsigned totlen, int64_t now)
{
	struct nat_tuple k;
	uint8_t flags;
	uint16_t xport;

	if (natpkt_tuple(ip, totlen, 1, &k, &flags) == -1 ||
	    nat_out(t, &k, flags, now, &xport) != 0)
		return -1;
	natpkt_rewrite(ip, 0, nat_addr(t), xport);
	return 0;
}

int
natpkt_in(struct nat *t, uint8_t *ip, unsigned totlen, int64_t now)
{
	struct nat_tuple k;
	uint32_t addr;
	uint16_t port;
	uint8_t flags;

	if (natpkt_tuple(ip, totlen, 0, &k, &flags) == -1)
		return 1;
	if (nat_in(t, &k, flags, now, &addr, &port) != 0)
		return -1;
	natpkt_rewrite(ip, 1, addr, port);
	return 0;
}
