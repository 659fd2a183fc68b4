/*
 * test_gen_udpio: the udp mode's socket helpers (generator/udpio.c) that
 * need no network: "IP:PORT" parsing, and a loopback round trip that
 * carries the TOS byte and the TTL to the receiver.
 */
#include <arpa/inet.h>
#include <string.h>
#include <unistd.h>
#include <CUnit/CUnit.h>

#include "generator/udpio.h"
#include "tests/unit/unit.h"

static void
t_parse_addr_takes_ip_and_port_only(void)
{
	struct sockaddr_in sa;

	CU_ASSERT_EQUAL(udpio_parse_addr("198.18.0.1:9000", &sa), 0);
	CU_ASSERT_EQUAL(ntohs(sa.sin_port), 9000);
	CU_ASSERT_EQUAL(ntohl(sa.sin_addr.s_addr), 0xc6120001u);
	CU_ASSERT_EQUAL(udpio_parse_addr("198.18.0.1:65535", &sa), 0);
	CU_ASSERT_EQUAL(udpio_parse_addr("198.18.0.1:0", &sa), -1);
	CU_ASSERT_EQUAL(udpio_parse_addr("198.18.0.1:65536", &sa), -1);
	CU_ASSERT_EQUAL(udpio_parse_addr("198.18.0.1", &sa), -1);
	CU_ASSERT_EQUAL(udpio_parse_addr("198.18.0.1:", &sa), -1);
	CU_ASSERT_EQUAL(udpio_parse_addr("198.18.0.1:9x", &sa), -1);
	CU_ASSERT_EQUAL(udpio_parse_addr(":9000", &sa), -1);
	CU_ASSERT_EQUAL(udpio_parse_addr("host:9000", &sa), -1);
	CU_ASSERT_EQUAL(udpio_parse_addr("198.18.0.1:-1", &sa), -1);
}

static void
t_loopback_datagram_carries_tos_and_ttl(void)
{
	struct sockaddr_in any, lo;
	struct udpsock s, r;
	struct udp_rx rx[2];
	socklen_t len = sizeof(lo);
	char err[256];
	int n = 0, tries;

	memset(&any, 0, sizeof(any));
	any.sin_family = AF_INET;
	any.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	CU_ASSERT_EQUAL_FATAL(udpio_open_recv(&r, &any, 0, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL_FATAL(getsockname(r.fd, (struct sockaddr *)&lo,
	    &len), 0);
	any.sin_port = 0;
	CU_ASSERT_EQUAL_FATAL(udpio_open_send(&s, &any, &lo, 0, err,
	    sizeof(err)), 0);
	CU_ASSERT_EQUAL(udpio_send(&s, "HLxyz", 5, 46 << 2), 0);
	for (tries = 0; n == 0 && tries < 1000; tries++) {
		n = udpio_recv(&r, rx, 2);
		if (n == 0)
			usleep(1000);
	}
	CU_ASSERT_EQUAL(n, 1);
	CU_ASSERT_EQUAL(rx[0].len, 5);
	CU_ASSERT_EQUAL(memcmp(rx[0].buf, "HLxyz", 5), 0);
	CU_ASSERT_EQUAL(rx[0].tos, 46 << 2);	/* EF */
	CU_ASSERT_EQUAL(rx[0].ttl, 64);
	CU_ASSERT_EQUAL(rx[0].rx_ns, 0);	/* no stamps asked for */
	udpio_close(&s);
	udpio_close(&r);
	udpio_close(&r);				/* twice is harmless */
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST_NAMED("parse addr takes IP and port only",
		    t_parse_addr_takes_ip_and_port_only),
		UNIT_TEST_NAMED("loopback datagram carries TOS and TTL",
		    t_loopback_datagram_carries_tos_and_ttl),
	};

	return UNIT_MAIN("gen_udpio", tests);
}
