/*
 * inject: write hand-made Ethernet frames onto an interface, for the
 * router's bad-input tests (tests/integration/t_router_basic.sh).
 *
 *	inject IFACE DSTMAC SRCIP DSTIP KIND COUNT [GAP_US]
 *
 * sends COUNT frames of one KIND from IFACE's own MAC to DSTMAC through an
 * AF_PACKET SOCK_RAW socket, GAP_US microseconds apart (default 1000).
 * Every frame but the broken part is a well-formed IPv4/UDP packet from
 * SRCIP to DSTIP, UDP port 49184 -> 9 (discard), TTL 64, 18 bytes of
 * payload, IP id = the frame's number from 1:
 *
 *	good	nothing wrong (the control)
 *	trunc	the frame ends 12 bytes into the IPv4 header
 *	totlen	total length says 1000, the frame holds 46 bytes of IP
 *	shortlen total length 16, less than the header's 20 bytes
 *	badsum	header checksum off by one
 *	ihl4	IHL 4 (a header shorter than the minimum 20 bytes)
 *	ver6	version 6 in an IPv4 ethertype (RFC 1812 5.2.2)
 *	nonip	ethertype 0x88b5 (IEEE 802 local experimental), 60 bytes
 *	ttl1	TTL 1: a router must drop it and send ICMP time exceeded
 *	options	IHL 6 with four NOP options: valid, forwarded unchanged
 *	frag	MF set, offset 0: a valid first fragment, forwarded
 *	arpspray an ARP request "who has DSTIP" from SRCIP + the frame's
 *		number - 1 (another sender in every frame), padded to 60
 *		bytes; a router must not learn senders off its prefix
 *
 * Checksums are computed (RFC 1071) except where KIND breaks them; the UDP
 * checksum is 0 (none, RFC 768).  Exit 0 when all COUNT frames were sent,
 * 1 on bad usage, 2 on a socket error.  It deliberately knows nothing of
 * ARP: the caller passes the next hop's MAC.
 */
#include <arpa/inet.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define ETH_HLEN_	14
#define IP_HLEN		20
#define UDP_HLEN	8
#define PAYLOAD_LEN	18

static const char *kinds[] = {
	"good", "trunc", "totlen", "shortlen", "badsum", "ihl4", "ver6",
	"nonip", "ttl1", "options", "frag", "arpspray", NULL
};

static void
usage(void)
{
	fprintf(stderr, "usage: inject IFACE DSTMAC SRCIP DSTIP KIND COUNT "
	    "[GAP_US]\nKIND: good trunc totlen shortlen badsum ihl4 ver6 "
	    "nonip ttl1 options frag arpspray\n");
	exit(1);
}

/* The Internet checksum (RFC 1071) of LEN bytes at P. */
static uint16_t
cksum(const uint8_t *p, size_t len)
{
	uint32_t	sum = 0;
	size_t		i;

	for (i = 0; i + 1 < len; i += 2)
		sum += (uint32_t)p[i] << 8 | p[i + 1];
	if (len & 1)
		sum += (uint32_t)p[len - 1] << 8;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

static void
put16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v & 0xff;
}

/* An ARP request (RFC 826) for DST from SRC + SEQ - 1, in BUF (60 bytes). */
static size_t
build_arp(uint8_t *buf, const uint8_t smac[6], struct in_addr src,
    struct in_addr dst, unsigned seq)
{
	uint8_t *a = buf + ETH_HLEN_;
	uint32_t spa = ntohl(src.s_addr) + seq - 1;

	memset(buf, 0xff, 6);				/* broadcast */
	put16(buf + 12, ETHERTYPE_ARP);
	put16(a, 1);					/* Ethernet */
	put16(a + 2, ETHERTYPE_IP);
	a[4] = 6;
	a[5] = 4;
	put16(a + 6, 1);				/* request */
	memcpy(a + 8, smac, 6);
	put16(a + 14, (uint16_t)(spa >> 16));
	put16(a + 16, (uint16_t)spa);
	memcpy(a + 24, &dst, 4);			/* tha stays 0 */
	return 60;
}

/*
 * Build frame number SEQ of KIND into BUF (at least 128 bytes); return
 * its length.
 */
static size_t
build(uint8_t *buf, const uint8_t dmac[6], const uint8_t smac[6],
    struct in_addr src, struct in_addr dst, const char *kind, unsigned seq)
{
	uint8_t	*ip = buf + ETH_HLEN_, *udp;
	size_t	 ihl = strcmp(kind, "options") == 0 ? 24 : IP_HLEN;
	size_t	 iplen = ihl + UDP_HLEN + PAYLOAD_LEN;

	memset(buf, 0, 128);
	memcpy(buf, dmac, 6);
	memcpy(buf + 6, smac, 6);
	if (strcmp(kind, "arpspray") == 0)
		return build_arp(buf, smac, src, dst, seq);
	if (strcmp(kind, "nonip") == 0) {
		put16(buf + 12, 0x88b5);
		memcpy(buf + ETH_HLEN_, "hoplab inject nonip", 19);
		return 60;
	}
	put16(buf + 12, ETHERTYPE_IP);
	ip[0] = 0x40 | (uint8_t)(ihl / 4);
	put16(ip + 2, (uint16_t)iplen);
	put16(ip + 4, (uint16_t)seq);
	ip[8] = strcmp(kind, "ttl1") == 0 ? 1 : 64;
	ip[9] = 17;
	memcpy(ip + 12, &src, 4);
	memcpy(ip + 16, &dst, 4);
	if (ihl == 24)
		memset(ip + 20, 1, 4);			/* NOP x 4 */
	if (strcmp(kind, "frag") == 0)
		put16(ip + 6, 0x2000);			/* MF */
	udp = ip + ihl;
	put16(udp, 49184);
	put16(udp + 2, 9);
	put16(udp + 4, UDP_HLEN + PAYLOAD_LEN);
	memcpy(udp + UDP_HLEN, "hoplab inject", 13);

	if (strcmp(kind, "totlen") == 0)
		put16(ip + 2, 1000);
	if (strcmp(kind, "shortlen") == 0)
		put16(ip + 2, 16);
	if (strcmp(kind, "ihl4") == 0)
		ip[0] = 0x44;
	if (strcmp(kind, "ver6") == 0)
		ip[0] = 0x65;
	put16(ip + 10, cksum(ip, ihl));
	if (strcmp(kind, "badsum") == 0)
		put16(ip + 10, (uint16_t)(cksum(ip, ihl) + 1));
	if (strcmp(kind, "trunc") == 0)
		return ETH_HLEN_ + 12;
	return ETH_HLEN_ + iplen;
}

static int
parse_mac(const char *s, uint8_t mac[6])
{
	unsigned	v[6];
	int		i;

	if (sscanf(s, "%2x:%2x:%2x:%2x:%2x:%2x", &v[0], &v[1], &v[2], &v[3],
	    &v[4], &v[5]) != 6)
		return -1;
	for (i = 0; i < 6; i++)
		mac[i] = (uint8_t)v[i];
	return 0;
}

/* Open a raw packet socket on IFACE; fill SLL and SMAC.  -1 on error. */
static int
open_iface(const char *iface, struct sockaddr_ll *sll, uint8_t smac[6])
{
	struct ifreq	ifr;
	int		fd;

	if ((fd = socket(AF_PACKET, SOCK_RAW, 0)) == -1)
		return -1;
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", iface);
	if (ioctl(fd, SIOCGIFHWADDR, &ifr) == -1) {
		close(fd);
		return -1;
	}
	memcpy(smac, ifr.ifr_hwaddr.sa_data, 6);
	memset(sll, 0, sizeof(*sll));
	sll->sll_family = AF_PACKET;
	sll->sll_ifindex = (int)if_nametoindex(iface);
	sll->sll_halen = 6;
	return fd;
}

int
main(int argc, char *argv[])
{
	struct sockaddr_ll	sll;
	struct in_addr		src, dst;
	struct timespec		gap;
	uint8_t			dmac[6], smac[6], buf[128];
	unsigned long		count, gap_us = 1000, i;
	size_t			len;
	int			fd, k;

	if (argc != 7 && argc != 8)
		usage();
	for (k = 0; kinds[k] != NULL && strcmp(kinds[k], argv[5]) != 0; k++)
		;
	if (kinds[k] == NULL || parse_mac(argv[2], dmac) == -1 ||
	    inet_pton(AF_INET, argv[3], &src) != 1 ||
	    inet_pton(AF_INET, argv[4], &dst) != 1)
		usage();
	count = strtoul(argv[6], NULL, 10);
	if (count < 1 || count > 100000)
		usage();
	if (argc == 8 && (gap_us = strtoul(argv[7], NULL, 10)) > 1000000)
		usage();
	gap.tv_sec = (time_t)(gap_us / 1000000);
	gap.tv_nsec = (long)(gap_us % 1000000) * 1000;

	if ((fd = open_iface(argv[1], &sll, smac)) == -1) {
		fprintf(stderr, "inject: %s: %s\n", argv[1], strerror(errno));
		return 2;
	}
	memcpy(sll.sll_addr, dmac, 6);
	for (i = 1; i <= count; i++) {
		len = build(buf, dmac, smac, src, dst, argv[5], (unsigned)i);
		if (sendto(fd, buf, len, 0, (struct sockaddr *)&sll,
		    sizeof(sll)) != (ssize_t)len) {
			fprintf(stderr, "inject: send %s #%lu: %s\n", argv[5],
			    i, strerror(errno));
			close(fd);
			return 2;
		}
		if (i < count)
			nanosleep(&gap, NULL);
	}
	close(fd);
	return 0;
}
