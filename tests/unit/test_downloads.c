/*
 * Unit suite for controller/results/downloads.c: the rows of a complete
 * and of a cut download, and downloads_summary.csv over two repetitions,
 * compared whole with texts worked by hand.
 *
 * Complete, rep 1: 3000 bytes over 2 streams in 0.5 ms: goodput 3000 x 8
 * / 500000 ns x 1000 = 48 Mbit/s; its streams 1500 each, 0.4 and 0.5 ms:
 * 30 and 24 Mbit/s.  Rep 2: 1 ms: 24 Mbit/s.  Summary: time mean 0.00075
 * s, std sqrt(2 x 0.00025^2) = 0.000354, ci95 12.706205 x 0.000354 /
 * sqrt(2) = 0.003177 (4 decimals: 0.0032); goodput mean 36, std
 * sqrt(2 x 144) = 16.970563, ci95 12.706205 x 12 = 152.4745.
 * Cut: the sender's complete is false and the receiver read 1000 bytes
 * in the 1 ms until the cut: no time, 8 Mbit/s, complete 0.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "controller/results/downloads.h"
#include "tests/unit/unit.h"

static char err[512];

static char *
slurp(const char *dir, const char *name)
{
	static char buf[4096];
	char path[512];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if ((f = fopen(path, "r")) == NULL)
		return strcpy(buf, "(missing)");
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* A sender's result: BYTES sent and counted over streams of TIMES. */
static void
sender(Hoplab__FlowResult *f, Hoplab__TcpStream *st, Hoplab__TcpStream **sp,
    uint64_t each, const uint64_t *times, size_t n, uint64_t transfer,
    int complete)
{
	size_t i;

	hoplab__flow_result__init(f);
	for (i = 0; i < n; i++) {
		hoplab__tcp_stream__init(&st[i]);
		st[i].index = (uint32_t)i;
		st[i].bytes_sent = st[i].bytes_peer = each;
		st[i].transfer_ns = times[i];
		st[i].rtt_us = 1500;
		sp[i] = &st[i];
	}
	f->tx_bytes = f->tcp_peer_bytes = each * n;
	f->tcp_transfer_ns = transfer;
	f->tcp_complete = complete;
	f->tcp_rtt_us = 1500;
	f->tcp_retransmits = 2;
	f->tcp_cc = "cubic";
	f->n_tcp_streams = n;
	f->tcp_streams = sp;
}

static void
t_complete_and_cut_downloads_and_their_summary(void)
{
	static const uint64_t t1[] = { 400000, 500000 }, t2[] = { 1000000,
	    900000 }, t3[] = { 0 };
	Hoplab__FlowResult s, r;
	Hoplab__TcpStream st[2], *sp[2];
	struct download_in d = { "topology", "n=2", 1, "get", 3000, 2, &s,
	    &r };
	struct downloads *dl;
	char dir[] = "/tmp/test_downloads.XXXXXX", cmd[64];
	int complete = -1;

	CU_ASSERT_FATAL(mkdtemp(dir) != NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(dl = downloads_open(dir, err,
	    sizeof(err)));
	hoplab__flow_result__init(&r);
	r.rx_bytes = 3000;
	sender(&s, st, sp, 1500, t1, 2, 500000, 1);
	CU_ASSERT_EQUAL(downloads_add(dl, &d, &complete, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(complete, 1);
	d.rep = 2;
	sender(&s, st, sp, 1500, t2, 2, 1000000, 1);
	CU_ASSERT_EQUAL(downloads_add(dl, &d, &complete, err, sizeof(err)), 0);
	d.point = "n=1";
	d.rep = 1;
	d.streams = 1;
	r.rx_bytes = 1000;
	sender(&s, st, sp, 1200, t3, 1, 1000000, 0);
	s.tcp_peer_bytes = 0;	/* reset: no count came back */
	st[0].bytes_peer = 0;
	CU_ASSERT_EQUAL(downloads_add(dl, &d, &complete, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(complete, 0);
	CU_ASSERT_EQUAL(downloads_close(dl, err, sizeof(err)), 0);
	CU_ASSERT_STRING_EQUAL(slurp(dir, "downloads.csv"),
	    "variant,point,rep,flow,bytes,bytes_sent,bytes_received,complete,"
	    "download_time_s,goodput_mbps,retransmits,rtt_ms,streams,cc\n"
	    "topology,n=2,1,get,3000,3000,3000,1,0.000500,48.000,2,1.500,2,"
	    "cubic\n"
	    "topology,n=2,2,get,3000,3000,3000,1,0.001000,24.000,2,1.500,2,"
	    "cubic\n"
	    "topology,n=1,1,get,3000,1200,1000,0,,8.000,2,1.500,1,cubic\n");
	CU_ASSERT_STRING_EQUAL(slurp(dir, "downloads_streams.csv"),
	    "variant,point,rep,flow,stream,bytes,bytes_sent,bytes_received,"
	    "complete,download_time_s,goodput_mbps,retransmits,rtt_ms\n"
	    "topology,n=2,1,get,0,1500,1500,1500,1,0.000400,30.000,0,1.500\n"
	    "topology,n=2,1,get,1,1500,1500,1500,1,0.000500,24.000,0,1.500\n"
	    "topology,n=2,2,get,0,1500,1500,1500,1,0.001000,12.000,0,1.500\n"
	    "topology,n=2,2,get,1,1500,1500,1500,1,0.000900,13.333,0,1.500\n"
	    "topology,n=1,1,get,0,3000,1200,0,0,,0.000,0,1.500\n");
	CU_ASSERT_EQUAL(downloads_summary(dir, err, sizeof(err)), 0);
	CU_ASSERT(strstr(slurp(dir, "downloads_summary.csv"),
	    "topology,n=2,get,2,3000.0000,0.0000,0.0000,3000.0000,0.0000,"
	    "0.0000,3000.0000,0.0000,0.0000,1.0000,0.0000,0.0000,0.0008,"
	    "0.0004,0.0032,36.0000,16.9706,152.4745,") != NULL);
	CU_ASSERT(strstr(slurp(dir, "downloads_summary.csv"),
	    "topology,n=1,get,1,3000.0000,,,1200.0000,,,1000.0000,,,0.0000,,,"
	    ",,,8.0000,,,") != NULL);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CU_ASSERT_EQUAL(system(cmd), 0);
}

static void
t_no_downloads_no_summary(void)
{
	char dir[] = "/tmp/test_downloads.XXXXXX";

	CU_ASSERT_FATAL(mkdtemp(dir) != NULL);
	CU_ASSERT_EQUAL(downloads_summary(dir, err, sizeof(err)), 0);
	CU_ASSERT_STRING_EQUAL(slurp(dir, "downloads_summary.csv"),
	    "(missing)");
	rmdir(dir);
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST(t_complete_and_cut_downloads_and_their_summary),
		UNIT_TEST(t_no_downloads_no_summary),
	};

	return UNIT_MAIN("downloads", tests);
}
