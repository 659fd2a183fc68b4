/*
 * probe: write and read the 18-byte probe header that starts the UDP
 * payload of every hoplab test packet (layout in probe.h).
 *
 * Every field is stored big-endian (network order) one byte at a time, so
 * the code is the same on any host and never casts the frame to a struct:
 * a probe may sit at any alignment inside a received frame.
 *
 * Deliberately not here: authentication of probes (a lab is trusted), and
 * any interpretation of the flags byte, which is reserved; it is carried
 * through unchanged so that a later version can use it.
 */
#include <string.h>

#include "probe.h"

static void
put_be(uint8_t *p, uint64_t v, int n)
{
	int i;

	for (i = n - 1; i >= 0; i--) {
		p[i] = (uint8_t)(v & 0xff);
		v >>= 8;
	}
}

static uint64_t
get_be(const uint8_t *p, int n)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < n; i++)
		v = (v << 8) | p[i];
	return v;
}

void
probe_write(uint8_t *buf, const struct probe *p)
{
	put_be(buf + 0, PROBE_MAGIC, 2);
	buf[2] = PROBE_VERSION;
	buf[3] = p->flags;
	put_be(buf + 4, p->flow_id, 2);
	put_be(buf + 6, p->seq, 4);
	put_be(buf + 10, (uint64_t)p->tx_ns, 8);
}

int
probe_read(const uint8_t *buf, size_t len, struct probe *p)
{
	uint64_t tx;

	if (len < PROBE_LEN)
		return -1;
	if (get_be(buf, 2) != PROBE_MAGIC || buf[2] != PROBE_VERSION)
		return -1;
	memset(p, 0, sizeof(*p));
	p->flags = buf[3];
	p->flow_id = (uint16_t)get_be(buf + 4, 2);
	p->seq = (uint32_t)get_be(buf + 6, 4);
	tx = get_be(buf + 10, 8);
	memcpy(&p->tx_ns, &tx, sizeof(p->tx_ns));	/* two's complement */
	return 0;
}
