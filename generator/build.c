/*
 * build: the frames of hoplab-gen's l2 mode.  One template per flow,
 * built once with pkt_build_udp4() (frame length incl. FCS per RFC 2544);
 * per packet only the IPv4 id (one counter for all flows), the IPv4 header
 * checksum, the probe (lib/probe.h) and the UDP checksum (RFC 1624
 * incremental update) change.  A flow with a size distribution rebuilds
 * its template when the drawn size differs from the last one.
 *
 * Deliberately not here: IP options, fragments, VLAN tags, IPv6.
 */
#include <stdio.h>
#include <string.h>

#include "build.h"
#include "byteorder.h"

#define OFF_IP_ID	(PKT_ETH_LEN + 4)
#define OFF_IP_CSUM	(PKT_ETH_LEN + 10)
#define OFF_UDP_CSUM	(PKT_ETH_LEN + PKT_IP4_LEN + 6)
#define OFF_PROBE	PKT_HDRS_LEN

int
build_template(struct gen *g, size_t i, unsigned frame, char *err,
    size_t errlen)
{
	const struct flowspec *fs = &g->flows[i].spec;
	struct pkt_udp4 h;
	struct probe p;
	uint8_t payload[PROBE_LEN];
	int n;

	memset(&h, 0, sizeof(h));
	memcpy(h.dst_mac, g->gw_mac, 6);
	memcpy(h.src_mac, g->tx.mac, 6);
	h.src_ip = g->cfg.src;
	h.dst_ip = g->flows[i].dst;
	h.src_port = fs->sport;
	h.dst_port = fs->dport;
	h.ttl = g->cfg.ttl;
	h.dscp = fs->dscp;
	memset(&p, 0, sizeof(p));
	p.flow_id = fs->id;
	probe_write(payload, &p);
	n = pkt_build_udp4(g->tmpl[i], sizeof(g->tmpl[i]), frame, &h,
	    payload, sizeof(payload));
	if (n == -1) {
		snprintf(err, errlen, "flow %s: cannot build a %u-byte frame",
		    fs->name, frame);
		return -1;
	}
	g->tmpl_len[i] = n;
	return 0;
}

/*
 * Write probe P into frame B and update the UDP checksum incrementally
 * (RFC 1624 eqn. 3: HC' = ~(~HC + ~m + m') over every changed word).
 */
static void
gen_put_probe(uint8_t *b, const struct probe *p)
{
	uint8_t old[PROBE_LEN];
	uint32_t sum;
	uint16_t c;
	int i;

	memcpy(old, b + OFF_PROBE, PROBE_LEN);
	probe_write(b + OFF_PROBE, p);
	sum = (uint16_t)~be16_load(b + OFF_UDP_CSUM);
	for (i = 0; i < PROBE_LEN; i += 2)
		sum += (uint16_t)~be16_load(old + i) +
		    be16_load(b + OFF_PROBE + i);
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	c = (uint16_t)~sum;
	be16_store(b + OFF_UDP_CSUM, c == 0 ? 0xffff : c);
}

void
build_stamp(uint8_t *b, uint16_t id, const struct probe *p)
{
	be16_store(b + OFF_IP_ID, id);
	be16_store(b + OFF_IP_CSUM, 0);
	be16_store(b + OFF_IP_CSUM, pkt_csum(b + PKT_ETH_LEN, PKT_IP4_LEN));
	gen_put_probe(b, p);
}
