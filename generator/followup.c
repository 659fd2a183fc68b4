/*
 * followup: encode and decode the udp mode's control datagrams (layout in
 * followup.h).  Every field is copied byte by byte in network order, never
 * cast from the buffer.  A datagram whose length does not match the
 * number of entries it announces is refused whole.
 *
 * Deliberately not here: authentication (a forged datagram can lie about
 * a sent count or a stamp; hoplab sends only in labs it controls) and
 * retransmission (the sender repeats its FOLLOWUP_END; stamps that never
 * arrive leave their packets with the probe's user-space stamp).
 */
#include <stdio.h>
#include <string.h>

#include "byteorder.h"
#include "followup.h"

int
followup_write(uint8_t *buf, size_t len, const struct followup_msg *m)
{
	const struct followup_entry *e;
	uint8_t *p;
	size_t i, need;

	if ((m->type != FOLLOWUP_STAMPS && m->type != FOLLOWUP_END) ||
	    m->n > FOLLOWUP_MAX_ENTRIES)
		return -1;
	need = FOLLOWUP_HDR_LEN + m->n * FOLLOWUP_ENTRY_LEN;
	if (len < need)
		return -1;
	memset(buf, 0, need);
	be16_store(buf, FOLLOWUP_MAGIC);
	buf[2] = FOLLOWUP_VERSION;
	buf[3] = m->type;
	be16_store(buf + 4, (uint16_t)m->n);
	memcpy(buf + 8, m->boot_id, 16);
	for (i = 0; i < m->n; i++) {
		e = &m->e[i];
		p = buf + FOLLOWUP_HDR_LEN + i * FOLLOWUP_ENTRY_LEN;
		be16_store(p, e->flow_id);
		p[2] = e->flags;
		be32_store(p + 4, e->seq);
		be64_store(p + 8, (uint64_t)e->value);
	}
	return (int)need;
}

int
followup_read(const uint8_t *buf, size_t len, struct followup_msg *m)
{
	struct followup_entry *e;
	const uint8_t *p;
	uint64_t v;
	size_t i, n;

	if (len < FOLLOWUP_HDR_LEN || be16_load(buf) != FOLLOWUP_MAGIC ||
	    buf[2] != FOLLOWUP_VERSION || (buf[3] != FOLLOWUP_STAMPS &&
	    buf[3] != FOLLOWUP_END))
		return -1;
	n = (size_t)be16_load(buf + 4);
	if (n > FOLLOWUP_MAX_ENTRIES || len != FOLLOWUP_HDR_LEN + n * FOLLOWUP_ENTRY_LEN)
		return -1;
	m->type = buf[3];
	memcpy(m->boot_id, buf + 8, 16);
	m->n = n;
	for (i = 0; i < n; i++) {
		e = &m->e[i];
		p = buf + FOLLOWUP_HDR_LEN + i * FOLLOWUP_ENTRY_LEN;
		e->flow_id = be16_load(p);
		e->flags = p[2];
		e->seq = be32_load(p + 4);
		v = be64_load(p + 8);
		memcpy(&e->value, &v, sizeof(e->value));
	}
	return 0;
}

static int
hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int
followup_boot_id(uint8_t id[16])
{
	char line[64], *s;
	FILE *f;
	int k = 0, hi, lo;

	memset(id, 0, 16);
	if ((f = fopen("/proc/sys/kernel/random/boot_id", "r")) == NULL)
		return -1;
	s = fgets(line, sizeof(line), f);
	fclose(f);
	if (s == NULL)
		return -1;
	/* 8-4-4-4-12 hex digits: skip the dashes. */
	for (; *s != '\0' && k < 16; s++) {
		if (*s == '-')
			continue;
		if ((hi = hexval(s[0])) < 0 || (lo = hexval(s[1])) < 0)
			break;
		id[k++] = (uint8_t)(hi << 4 | lo);
		s++;
	}
	if (k != 16) {
		memset(id, 0, 16);
		return -1;
	}
	return 0;
}
