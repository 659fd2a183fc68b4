/*
 * pktrec: encode and decode one per-packet record (layout in pktrec.h).
 * One copy for the generator that writes records and the controller
 * that reads them.
 */
#include <string.h>

#include "byteorder.h"
#include "pktrec.h"

void
pktrec_encode(uint8_t *b, const struct pktrec *r)
{
	memset(b, 0, PKTREC_LEN);
	le64_store(b, (uint64_t)r->tx_ns);
	le64_store(b + 8, (uint64_t)r->rx_ns);
	le32_store(b + 16, r->seq);
	le16_store(b + 20, r->flow_id);
	le16_store(b + 22, r->frame);
	b[24] = r->flags;
	b[25] = r->ttl;
}

void
pktrec_decode(const uint8_t *b, struct pktrec *r)
{
	r->tx_ns = (int64_t)le64_load(b);
	r->rx_ns = (int64_t)le64_load(b + 8);
	r->seq = le32_load(b + 16);
	r->flow_id = le16_load(b + 20);
	r->frame = le16_load(b + 22);
	r->flags = b[24];
	r->ttl = b[25];
}
