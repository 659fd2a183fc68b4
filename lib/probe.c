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

#include "byteorder.h"
#include "probe.h"

void
probe_write(uint8_t *buf, const struct probe *p)
{
	be16_store(buf + 0, PROBE_MAGIC);
	buf[2] = PROBE_VERSION;
	buf[3] = p->flags;
	be16_store(buf + 4, p->flow_id);
	be32_store(buf + 6, p->seq);
	be64_store(buf + 10, (uint64_t)p->tx_ns);
}

int
probe_read(const uint8_t *buf, size_t len, struct probe *p)
{
	uint64_t tx;

	if (len < PROBE_LEN)
		return -1;
	if (be16_load(buf) != PROBE_MAGIC || buf[2] != PROBE_VERSION)
		return -1;
	memset(p, 0, sizeof(*p));
	p->flags = buf[3];
	p->flow_id = be16_load(buf + 4);
	p->seq = be32_load(buf + 6);
	tx = be64_load(buf + 10);
	memcpy(&p->tx_ns, &tx, sizeof(p->tx_ns));	/* two's complement */
	return 0;
}
