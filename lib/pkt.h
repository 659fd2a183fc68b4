/*
 * pkt: Ethernet, ARP, IPv4 and UDP frames, built and parsed.
 *
 * Sizes follow RFC 2544: a "frame" length is the Ethernet frame including
 * its 4-byte FCS (64..1518); the bytes handed to an AF_PACKET socket are
 * frame - 4 (the NIC adds the FCS).  Checksums: RFC 1071 Internet checksum;
 * the UDP checksum covers the RFC 768 pseudo header.  Parsing never trusts
 * a length field without checking it against the buffer.
 */
#ifndef HOPLAB_PKT_H
#define HOPLAB_PKT_H

#include <stddef.h>
#include <stdint.h>
#include <netinet/in.h>

#define PKT_ETH_LEN	14
#define PKT_IP4_LEN	20		/* without options */
#define PKT_UDP_LEN	8
#define PKT_ARP_LEN	28
#define PKT_FCS_LEN	4
#define PKT_HDRS_LEN	(PKT_ETH_LEN + PKT_IP4_LEN + PKT_UDP_LEN)
#define PKT_FRAME_MIN	64		/* incl. FCS */
#define PKT_FRAME_MAX	1518		/* incl. FCS */

struct pkt_udp4 {
	uint8_t		dst_mac[6];
	uint8_t		src_mac[6];
	struct in_addr	src_ip;
	struct in_addr	dst_ip;
	uint16_t	src_port;	/* host order */
	uint16_t	dst_port;	/* host order */
	uint8_t		ttl;
	uint8_t		dscp;		/* 0..63 */
	uint16_t	ip_id;		/* host order */
};

/* Parsed view of a received IPv4/UDP frame; payload points into the frame. */
struct pkt_udp4_view {
	struct pkt_udp4	hdr;
	const uint8_t	*payload;
	size_t		payload_len;
};

/*
 * RFC 1071 checksum of LEN bytes, folded and complemented, as a host-order
 * number to store big-endian (htons).  Over bytes that include a correct
 * checksum field it returns 0, which is how a header is verified.
 */
uint16_t pkt_csum(const void *data, size_t len);
/*
 * Build an Ethernet/IPv4/UDP frame of FRAME bytes (incl. FCS, so FRAME - 4
 * bytes are written to BUF, which must hold them) with PAYLOAD_LEN bytes of
 * PAYLOAD at the start of the UDP payload and zeros after.  Fills both
 * checksums.  Returns the number of bytes written, or -1 if FRAME is outside
 * 64..1518, DSCP is above 63, BUF is too small or the payload does not fit.
 */
int	pkt_build_udp4(uint8_t *buf, size_t buflen, unsigned frame,
	    const struct pkt_udp4 *h, const uint8_t *payload, size_t payload_len);
/*
 * Parse an Ethernet/IPv4/UDP frame of LEN bytes (without FCS).  Returns 0,
 * or -1 with a short static reason in *WHY ("truncated", "not ipv4",
 * "bad ip header length", "bad ip checksum", "bad ip total length",
 * "fragment", "not udp", "bad udp length", "bad udp checksum"); WHY may be
 * NULL.  A zero UDP checksum is accepted (RFC 768: none computed).
 * Ethernet padding beyond the IPv4 total length is ignored.
 */
int	pkt_parse_udp4(const uint8_t *buf, size_t len, struct pkt_udp4_view *v,
	    const char **why);
/* ARP (RFC 826) over Ethernet for IPv4. */
#define PKT_ARP_REQUEST	1
#define PKT_ARP_REPLY	2
struct pkt_arp {
	uint16_t	op;		/* PKT_ARP_REQUEST or PKT_ARP_REPLY */
	uint8_t		sha[6];		/* sender hardware address */
	struct in_addr	spa;		/* sender protocol address */
	uint8_t		tha[6];
	struct in_addr	tpa;
};
/*
 * Build a 60-byte ARP frame (padded to the Ethernet minimum) into BUF.
 * A request goes to the broadcast MAC; a reply to A->tha.  The Ethernet
 * source is A->sha.  Returns the length written, or -1 if BUF is too small
 * or A->op is neither request nor reply.
 */
int	pkt_build_arp(uint8_t *buf, size_t buflen, const struct pkt_arp *a);
/*
 * Parse an ARP frame; 0, or -1 if it is not Ethernet/IPv4 ARP or the op is
 * neither request nor reply.
 */
int	pkt_parse_arp(const uint8_t *buf, size_t len, struct pkt_arp *a);

/*
 * "aa:bb:cc:dd:ee:ff" <-> 6 bytes.  Parse wants exactly six colon-separated
 * pairs of hex digits (either case) and returns 0 or -1, leaving MAC alone
 * on failure.  Format writes lower case into BUF (18 bytes) and returns it.
 */
int	pkt_mac_parse(const char *s, uint8_t mac[6]);
char	*pkt_mac_format(const uint8_t mac[6], char *buf, size_t len);

#endif
