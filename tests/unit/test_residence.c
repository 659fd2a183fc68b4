/*
 * Unit suite for controller/results/residence.c: a router's residence
 * matched from pcap files written here by hand (libpcap, nanosecond
 * stamps), its first later copy on either of two egress files, and the
 * hops.csv rows read back from a residence.csv written by hand, their
 * interval worked out by hand from the block means.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/CUnit.h>
#include <pcap/pcap.h>

#include "byteorder.h"
#include "controller/results/residence.h"
#include "probe.h"
#include "tests/unit/unit.h"

static char dir[] = "/tmp/hoplab-test-residence.XXXXXX";

#define T0	1000000000LL	/* the first probe's ingress stamp, ns */
#define GAP	1000000LL	/* 1 ms between probes */

/* One frame: Ethernet, IPv4, UDP to PORT, the probe (SEQ of flow 1). */
static void
put(pcap_dumper_t *d, int64_t ns, uint32_t seq, int port)
{
	uint8_t f[64];
	struct pcap_pkthdr h;
	struct probe p = { .flow_id = 1, .seq = seq, .tx_ns = 0 };

	memset(f, 0, sizeof(f));
	be16_store(f + 12, 0x0800);
	f[14] = 0x45;
	f[14 + 9] = 17;
	be16_store(f + 34 + 2, (uint16_t)port);
	probe_write(f + 42, &p);
	memset(&h, 0, sizeof(h));
	h.ts.tv_sec = ns / 1000000000LL;
	h.ts.tv_usec = ns % 1000000000LL;	/* nanoseconds in this file */
	h.caplen = h.len = sizeof(f);
	pcap_dump((u_char *)d, &h, f);
}

static pcap_dumper_t *
open_file(pcap_t **pc, const char *name, char *path, size_t len)
{
	*pc = pcap_open_dead_with_tstamp_precision(DLT_EN10MB, 128,
	    PCAP_TSTAMP_PRECISION_NANO);
	snprintf(path, len, "%s/%s", dir, name);
	return pcap_dump_open(*pc, path);
}

static void
close_file(pcap_t *pc, pcap_dumper_t *d)
{
	pcap_dump_close(d);
	pcap_close(pc);
}

/*
 * 20 probes in; even ones leave by out 2 us later, odd ones by exit 4 us
 * later, but 5 is on out only before it came (negative), 7 is on out
 * 9 us and on exit 3 us later (3 us counts), 19 never leaves; one
 * warm-up probe to port 7 on all three is not counted.
 */
static void
write_files(char *in, char *out, char *ex, size_t len)
{
	pcap_dumper_t *di, *dout, *dex;
	pcap_t *pi, *po, *pe;
	int64_t t;
	uint32_t i;

	di = open_file(&pi, "in.pcap", in, len);
	dout = open_file(&po, "out.pcap", out, len);
	dex = open_file(&pe, "exit.pcap", ex, len);
	CU_ASSERT_FATAL(di != NULL && dout != NULL && dex != NULL);
	put(di, T0 - GAP, 0, 7);
	put(dout, T0 - GAP + 500, 0, 7);
	for (i = 0; i < 20; i++) {
		t = T0 + (int64_t)i * GAP;
		put(di, t, i, 9);
		if (i == 5)
			put(dout, t - 100, i, 9);
		else if (i == 7) {
			put(dex, t + 3000, i, 9);
			put(dout, t + 9000, i, 9);
		} else if (i == 19)
			continue;
		else if (i % 2 == 0)
			put(dout, t + 2000, i, 9);
		else
			put(dex, t + 4000, i, 9);
	}
	close_file(pi, di);
	close_file(po, dout);
	close_file(pe, dex);
}

/* Line N (0: the header) of DIR/residence.csv into BUF. */
static int
line(int n, char *buf, size_t len)
{
	char path[256];
	FILE *f;
	int i, ok = 0;

	snprintf(path, sizeof(path), "%s/residence.csv", dir);
	if ((f = fopen(path, "r")) == NULL)
		return -1;
	for (i = 0; i <= n && (ok = fgets(buf, (int)len, f) != NULL); i++)
		;
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return ok ? 0 : -1;
}

static void
t_first_later_copy_on_any_egress_by_hand(void)
{
	static const struct residence_flow fl[] = { { 1, "probe" } };
	char in[256], out[256], ex[256], err[256], buf[512];
	struct residence_point rp;
	struct residence_sum sum;

	write_files(in, out, ex, sizeof(in));
	memset(&rp, 0, sizeof(rp));
	rp.router = "B";
	rp.variant = "A-B";
	rp.routers = 2;
	rp.frame = 64;
	rp.rep = 1;
	rp.point = "";
	rp.ingress = in;
	rp.egress[0] = out;
	rp.egress[1] = ex;
	rp.negress = 2;
	rp.flows = fl;
	rp.nflows = 1;
	rp.port = 9;
	CU_ASSERT_EQUAL_FATAL(residence_add(dir, &rp, &sum, err,
	    sizeof(err)), 0);
	/* 10 x 2 us, 7 x 4 us and 3 us: 51 us / 18. */
	CU_ASSERT_EQUAL(sum.ingress, 20);
	CU_ASSERT_EQUAL(sum.matched, 18);
	CU_ASSERT_EQUAL(sum.negative, 1);
	CU_ASSERT_DOUBLE_EQUAL(sum.mean_us, 51.0 / 18, 1e-9);
	CU_ASSERT_EQUAL_FATAL(line(1, buf, sizeof(buf)), 0);
	CU_ASSERT_STRING_EQUAL(buf, "B,A-B,2,64,1,,probe,0,0,20,18,2.000,"
	    "2.833,2.000,4.000,4.000,0.985,1");
	/* Block 1: probes 0 and 1, 2 and 4 us. */
	CU_ASSERT_EQUAL_FATAL(line(2, buf, sizeof(buf)), 0);
	CU_ASSERT_STRING_EQUAL(buf, "B,A-B,2,64,1,,probe,1,0.000000,,2,"
	    "2.000,3.000,2.000,4.000,4.000,1.414,");
	CU_ASSERT_EQUAL(line(11, buf, sizeof(buf)), 0);
	CU_ASSERT_EQUAL(line(12, buf, sizeof(buf)), -1);
}

static void
t_hops_rows_from_block_means_by_hand(void)
{
	static const char *csv =
	    "router,variant,routers,frame_bytes,rep,point,flow,block,"
	    "block_start_s,ingress_probes,samples,residence_min_us,"
	    "residence_mean_us,residence_p50_us,residence_p99_us,"
	    "residence_max_us,residence_std_us,negative\n"
	    "B,A-B,2,64,1,,probe,0,0,100,100,1,2.000,2,3,3,1,0\n"
	    "B,A-B,2,64,1,,probe,1,0,,30,1,1.000,1,1,1,0,\n"
	    "B,A-B,2,64,1,,probe,2,0.1,,30,1,2.000,2,2,2,0,\n"
	    "B,A-B,2,64,1,,probe,3,0.2,,40,1,3.000,3,3,3,0,\n"
	    "A,A-B,2,64,1,,probe,0,0,50,50,1,7.000,7,7,7,0,0\n"
	    "B,A-B,2,64,2,,probe,0,0,300,300,1,4.000,4,5,5,1,0\n"
	    "B,A-B,2,64,2,,probe,1,0,,100,1,3.000,3,3,3,0,\n"
	    "B,A-B,2,64,2,,probe,2,0.1,,100,1,4.000,4,4,4,0,\n"
	    "B,A-B,2,64,2,,probe,3,0.2,,100,1,5.000,5,5,5,0,\n"
	    "B,A-B,2,64,2,,probe,4,0.3,,0,,,,,,,\n";
	struct hops_est h[4];
	char path[256];
	double hw;
	FILE *f;

	snprintf(path, sizeof(path), "%s/residence.csv", dir);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f = fopen(path, "w"));
	fputs(csv, f);
	fclose(f);
	CU_ASSERT_EQUAL_FATAL(residence_hops(dir, h, 4), 2);
	CU_ASSERT_STRING_EQUAL(h[0].method, "residence");
	CU_ASSERT_STRING_EQUAL(h[0].variants, "B");
	CU_ASSERT_STRING_EQUAL(h[0].flow, "probe");
	CU_ASSERT_EQUAL(h[0].frame, 64);
	CU_ASSERT_EQUAL(h[0].samples, 400);
	/* (100 x 2 + 300 x 4) / 400 */
	CU_ASSERT_DOUBLE_EQUAL(h[0].t_us, 3.5, 1e-12);
	/* Block means 1 2 3 3 4 5: sd sqrt(2), t95(5) = 2.5706 */
	hw = 2.570582 * sqrt(2.0) / sqrt(6.0);
	CU_ASSERT_DOUBLE_EQUAL(h[0].ci95_lo_us, 3.5 - hw, 1e-5);
	CU_ASSERT_DOUBLE_EQUAL(h[0].ci95_hi_us, 3.5 + hw, 1e-5);
	CU_ASSERT_STRING_EQUAL(h[1].variants, "A");
	CU_ASSERT_DOUBLE_EQUAL(h[1].t_us, 7.0, 1e-12);
	CU_ASSERT(isnan(h[1].ci95_lo_us));	/* no blocks */
	unlink(path);
	CU_ASSERT_EQUAL(residence_hops(dir, h, 4), 0);
}

static int
setup(void)
{
	return mkdtemp(dir) == NULL ? -1 : 0;
}

static int
teardown(void)
{
	char path[256];
	static const char *const names[] = { "in.pcap", "out.pcap",
	    "exit.pcap", "residence.csv" };
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		unlink(path);
	}
	return rmdir(dir);
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST(t_first_later_copy_on_any_egress_by_hand),
		UNIT_TEST(t_hops_rows_from_block_means_by_hand),
	};

	return UNIT_MAIN_FIXTURE("residence", setup, teardown, tests);
}
