/*
 * icmp: echo replies and error messages of hoplab-router (see icmp.h).
 */
#include <string.h>

#include "byteorder.h"
#include "fwd.h"
#include "icmp.h"

void
icmp_rl_init(struct icmp_rl *rl, unsigned rate)
{
	rl->rate = rate;
	rl->tokens = rate;
	rl->last = 0;
}

int
icmp_rl_allow(struct icmp_rl *rl, int64_t now)
{
	if (rl->rate == 0)
		return 0;
	if (rl->last != 0 && now > rl->last)
		rl->tokens += (double)(now - rl->last) * rl->rate / 1e9;
	rl->last = now;
	if (rl->tokens > rl->rate)
		rl->tokens = rl->rate;
	if (rl->tokens < 1.0)
		return 0;
	rl->tokens -= 1.0;
	return 1;
}

int
icmp_echo_reply(uint8_t *ip, unsigned totlen)
{
	uint8_t *icmp = ip + PKT_IP4_LEN, a[4];
	unsigned ilen;

	if (totlen < PKT_IP4_LEN + 8 || ip[IP4_PROTO] != 1)
		return -1;
	ilen = totlen - PKT_IP4_LEN;
	if (icmp[0] != ICMP_ECHO || icmp[1] != 0 || pkt_csum(icmp, ilen) != 0)
		return -1;
	icmp[0] = ICMP_ECHOREPLY;
	be16_store(icmp + 2, fwd_csum_adjust(be16_load(icmp + 2),
	    ICMP_ECHO << 8, ICMP_ECHOREPLY << 8));
	memcpy(a, ip + IP4_SRC, 4);
	memcpy(ip + IP4_SRC, ip + IP4_DST, 4);
	memcpy(ip + IP4_DST, a, 4);
	ip[IP4_TTL] = ICMP_TTL;
	be16_store(ip + IP4_FRAG, be16_load(ip + IP4_FRAG) & IP4_DF);
	be16_store(ip + IP4_CSUM, 0);
	be16_store(ip + IP4_CSUM, pkt_csum(ip, PKT_IP4_LEN));
	return 0;
}

/* RFC 1812 4.3.2.7: may an error be sent about ORIG? */
static int
may_answer(const uint8_t *orig, unsigned origlen)
{
	unsigned hl = (orig[0] & 0x0f) * 4u;
	uint8_t d0 = orig[IP4_DST], s0 = orig[IP4_SRC];

	if ((be16_load(orig + IP4_FRAG) & IP4_OFFMASK) != 0)
		return 0;
	if (d0 >= 224 || be32_load(orig + IP4_DST) == 0xffffffffU)
		return 0;
	if (s0 == 0 || s0 == 127 || s0 >= 224)
		return 0;
	if (orig[IP4_PROTO] == 1 && origlen > hl) {
		/* an ICMP error (or truncated ICMP) gets no answer */
		uint8_t t = orig[hl];

		if (t != ICMP_ECHO && t != ICMP_ECHOREPLY && t != 13 &&
		    t != 14 && t != 15 && t != 16 && t != 17 && t != 18)
			return 0;
	}
	return 1;
}

size_t
icmp_error(uint8_t *out, size_t outlen, uint8_t type, uint8_t code,
    uint16_t mtu, uint32_t src, const uint8_t *orig, unsigned origlen)
{
	size_t quote, tot;
	uint8_t *icmp = out + PKT_IP4_LEN;

	if (outlen < ICMP_ERR_MAX || origlen < PKT_IP4_LEN ||
	    !may_answer(orig, origlen))
		return 0;
	quote = origlen;
	if (quote > ICMP_ERR_MAX - PKT_IP4_LEN - 8)
		quote = ICMP_ERR_MAX - PKT_IP4_LEN - 8;
	tot = PKT_IP4_LEN + 8 + quote;
	memset(out, 0, PKT_IP4_LEN + 8);
	out[0] = 0x45;
	out[IP4_TOS] = 0xc0;		/* CS6: network control */
	be16_store(out + IP4_TOTLEN, (uint16_t)tot);
	out[IP4_TTL] = ICMP_TTL;
	out[IP4_PROTO] = 1;
	be32_store(out + IP4_SRC, src);
	memcpy(out + IP4_DST, orig + IP4_SRC, 4);
	be16_store(out + IP4_CSUM, pkt_csum(out, PKT_IP4_LEN));
	icmp[0] = type;
	icmp[1] = code;
	if (type == ICMP_UNREACH && code == ICMP_UNREACH_NEEDFRAG)
		be16_store(icmp + 6, mtu);
	memcpy(icmp + 8, orig, quote);
	be16_store(icmp + 2, pkt_csum(icmp, 8 + quote));
	return tot;
}
