/*
 * fwd: the out-of-line part of RFC 1812 forwarding (see fwd.h):
 * fragmentation per RFC 791 section 3.2.  Each fragment gets a copy of the
 * 20-byte header with its own total length, offset and MF flag and a
 * checksum computed afresh; the data is cut at multiples of 8 bytes.
 */
#include <string.h>

#include "byteorder.h"
#include "fwd.h"

size_t
fwd_fragment(const uint8_t *ip, unsigned totlen, unsigned mtu, unsigned k,
    const uint8_t *hdr, size_t hdrlen, uint8_t *out, size_t outlen)
{
	unsigned hl = PKT_IP4_LEN, chunk, off, n, payload, frag;
	uint16_t f;

	if (mtu < hl + 8 || totlen <= hl)
		return 0;
	chunk = (mtu - hl) & ~7u;
	payload = totlen - hl;
	off = k * chunk;
	if (off >= payload)
		return 0;
	n = payload - off < chunk ? payload - off : chunk;
	if (hdrlen + hl + n > outlen)
		return 0;
	if (hdrlen > 0)
		memcpy(out, hdr, hdrlen);
	memcpy(out + hdrlen, ip, hl);
	memcpy(out + hdrlen + hl, ip + hl + off, n);
	f = be16_load(ip + IP4_FRAG);
	frag = (f & IP4_OFFMASK) + off / 8;
	f = (uint16_t)((f & IP4_MF) | frag);
	if (off + n < payload)
		f |= IP4_MF;
	be16_store(out + hdrlen + IP4_FRAG, f);
	be16_store(out + hdrlen + IP4_TOTLEN, (uint16_t)(hl + n));
	be16_store(out + hdrlen + IP4_CSUM, 0);
	be16_store(out + hdrlen + IP4_CSUM, pkt_csum(out + hdrlen, hl));
	return hdrlen + hl + n;
}

void
fwd_l4_csum_fill(uint8_t *ip, unsigned totlen)
{
	unsigned hl = (ip[0] & 0x0f) * 4u, len = totlen - hl, off;
	uint8_t *l4 = ip + hl;
	uint32_t sum = 0;
	size_t i;

	if ((be16_load(ip + IP4_FRAG) & (IP4_MF | IP4_OFFMASK)) != 0)
		return;
	if (ip[IP4_PROTO] == 6 && len >= 20)
		off = 16;
	else if (ip[IP4_PROTO] == 17 && len >= 8)
		off = 6;
	else
		return;
	be16_store(l4 + off, 0);
	for (i = 0; i < 8; i += 2)	/* pseudo header (RFC 768, 793) */
		sum += be16_load(ip + IP4_SRC + i);
	sum += ip[IP4_PROTO] + len;
	for (i = 0; i + 1 < len; i += 2)
		sum += be16_load(l4 + i);
	if (len & 1)
		sum += (uint32_t)l4[len - 1] << 8;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	sum = ~sum & 0xffff;
	if (sum == 0 && ip[IP4_PROTO] == 17)
		sum = 0xffff;		/* RFC 768: 0 means none */
	be16_store(l4 + off, (uint16_t)sum);
}

int
fwd_l4_csum_looks_partial(const uint8_t *ip, unsigned totlen)
{
	unsigned hl = (ip[0] & 0x0f) * 4u, len, off;
	uint32_t sum = 0;
	size_t i;

	if (hl < PKT_IP4_LEN || totlen <= hl ||
	    (be16_load(ip + IP4_FRAG) & (IP4_MF | IP4_OFFMASK)) != 0)
		return 0;
	len = totlen - hl;
	if (ip[IP4_PROTO] == 6 && len >= 20)
		off = 16;
	else if (ip[IP4_PROTO] == 17 && len >= 8)
		off = 6;
	else
		return 0;
	for (i = 0; i < 8; i += 2)
		sum += be16_load(ip + IP4_SRC + i);
	sum += ip[IP4_PROTO] + len;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return be16_load(ip + hl + off) == sum;
}

const char *
fwd_check_name(enum fwd_check c)
{
	static const char *const names[] = {
		"ok", "truncated", "bad version", "bad header length",
		"bad total length", "bad checksum", "martian source",
		"options",
	};

	if ((unsigned)c < sizeof(names) / sizeof(names[0]))
		return names[c];
	return "unknown";
}
