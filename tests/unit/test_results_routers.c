/*
 * Unit suite for controller/results/routers.c: routers.csv rows from a
 * RouterCounters batch worked by hand (drops by reason, queue depths,
 * per-class sojourn), a resent batch recognised, a batch cut short by a
 * killed controller removed whole on reopen (its agent sends it again),
 * and the per-variant sojourn table.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "controller/results/routers.h"
#include "tests/unit/unit.h"

/* The fast path's 11 columns (issue 19), empty without one. */
#define FP_EMPTY ",,,,,,,,,,,"

static char dir[256];
static char err[512];

static void
fresh_dir(void)
{
	const char *t = getenv("TMPDIR");

	snprintf(dir, sizeof(dir), "%s/test-routers.XXXXXX", t ? t : "/tmp");
	CU_ASSERT_FATAL(mkdtemp(dir) != NULL);
}

static void
rm_tree(void)
{
	char cmd[400];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CU_ASSERT(system(cmd) == 0);
}

static int
line_of(int n, char *buf, size_t len)
{
	char path[400];
	FILE *f;
	int i = 0, rc = -1;

	snprintf(path, sizeof(path), "%s/routers.csv", dir);
	if ((f = fopen(path, "r")) == NULL)
		return -1;
	while (fgets(buf, (int)len, f) != NULL)
		if (i++ == n) {
			buf[strcspn(buf, "\n")] = '\0';
			rc = 0;
			break;
		}
	fclose(f);
	return rc;
}

/*
 * Router A: interface "in" received 1200 packets (3 TTL drops, 2 of an
 * unknown reason, counted as other); "out" sent 1195 of class 0 with a
 * median sojourn of 4.5 us, two queues 3 + 1 deep (max 7 and 9).
 */
static Hoplab__RouterDrop dr[2];
static Hoplab__RouterDrop *drp[2] = { &dr[0], &dr[1] };
static Hoplab__RouterQueue q[2];
static Hoplab__RouterQueue *qp[2] = { &q[0], &q[1] };
static Hoplab__RouterSojourn sj;
static Hoplab__RouterSojourn *sjp[1] = { &sj };
static Hoplab__RouterIfaceCounters ic[2];
static Hoplab__RouterIfaceCounters *icp[2] = { &ic[0], &ic[1] };
static Hoplab__RouterCounters rc;
static Hoplab__RouterCounters *rcp[1] = { &rc };
static uint64_t fhits[3] = { 120, 0, 7 };

static void
batch_init(Hoplab__ResultBatch *b, uint32_t role, uint64_t seq)
{
	hoplab__result_batch__init(b);
	b->role_id = role;
	b->batch_seq = seq;
	b->run_id = "unit";
	hoplab__router_counters__init(&rc);
	rc.router = "A";
	rc.time_ns = 1764470000250000000LL;
	rc.cpu_percent = 12.5;
	rc.n_filter_hits = 3;	/* router-wide: on every row */
	rc.filter_hits = fhits;
	rc.filter_default_hits = 3;
	hoplab__router_iface_counters__init(&ic[0]);
	hoplab__router_iface_counters__init(&ic[1]);
	ic[0].name = "in";
	ic[0].up = 1;
	ic[0].rx_packets = 1200;
	ic[0].rx_bytes = 1200 * 60;
	hoplab__router_drop__init(&dr[0]);
	hoplab__router_drop__init(&dr[1]);
	dr[0].reason = "ttl";
	dr[0].packets = 3;
	dr[1].reason = "cosmic_ray";
	dr[1].packets = 2;
	ic[0].n_drops = 2;
	ic[0].drops = drp;
	ic[1].name = "out";
	ic[1].up = 1;
	ic[1].tx_packets = 1195;
	ic[1].tx_bytes = 1195 * 60;
	hoplab__router_queue__init(&q[0]);
	hoplab__router_queue__init(&q[1]);
	q[0].depth = 3;
	q[0].depth_max = 7;
	q[1].queue = 1;
	q[1].depth = 1;
	q[1].depth_max = 9;
	ic[1].n_queues = 2;
	ic[1].queues = qp;
	hoplab__router_sojourn__init(&sj);
	sj.tc = 0;
	sj.count = 1195;
	sj.p50_ns = 4500;
	sj.p99_ns = 12250;
	ic[1].n_sojourn = 1;
	ic[1].sojourn = sjp;
	rc.n_ifaces = 2;
	rc.ifaces = icp;
	b->n_routers = 1;
	b->routers = rcp;
}

static void
t_a_batch_becomes_one_row_per_interface(void)
{
	struct router_role rr = { 41, "A", "A-B", 2 };
	Hoplab__ResultBatch b;
	struct routers *rt;
	char line[4096];

	fresh_dir();
	rt = routers_open(dir, err, sizeof(err));
	CU_ASSERT_PTR_NOT_NULL_FATAL(rt);
	batch_init(&b, 41, 1);
	CU_ASSERT_EQUAL(routers_add(rt, "A", &rr, &b, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(routers_nrows(rt), 2);
	CU_ASSERT_EQUAL(line_of(1, line, sizeof(line)), 0);
	/* drops: bad_frame..ttl (6th) = 3, other (14th) = 2 */
	CU_ASSERT_STRING_EQUAL(line, "A-B,2,A,41,1,2,0,1764470000.250000,in,1,"
	    "1200,72000,0,0,0,0,0,0,0,0,3,0,0,0,0,0,0,0,2,0,0,"
	    "0,,,0,,,0,,,0,,,0,,,0,,,0,,,0,,,12.5,120;0;7,3,,,,,,,,,,"
	    ",,,,,,,,,,,"	/* no rip */
	    ",,,,,,," FP_EMPTY);	/* no nat */
	CU_ASSERT_EQUAL(line_of(2, line, sizeof(line)), 0);
	/* queue depth 3 + 1, max max(7, 9); class 0: 1195, 4.5, 12.25 us */
	CU_ASSERT_STRING_EQUAL(line, "A-B,2,A,41,1,2,0,1764470000.250000,out,1,"
	    "0,0,1195,71700,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,4,9,"
	    "1195,4.500,12.250,0,,,0,,,0,,,0,,,0,,,0,,,0,,,12.5,120;0;7,3,"
	    ",,,,,,,,,"
	    ",,,,,,,,,,,"
	    ",,,,,,," FP_EMPTY);
	CU_ASSERT(routers_seen(rt, "A", 41, 1));
	CU_ASSERT(!routers_seen(rt, "A", 41, 2));
	CU_ASSERT(!routers_seen(rt, "B", 41, 1));
	routers_free(rt);
	rm_tree();
}

/*
 * Two whole batches, then a third cut in the middle of its second row
 * (the controller was killed while writing it): the reopened file keeps
 * the first two, knows them, and takes the third again whole.
 */
static void
t_reopen_drops_a_batch_cut_short_and_knows_the_whole_ones(void)
{
	struct router_role rr = { 41, "A", "A", 1 };
	Hoplab__ResultBatch b;
	struct routers *rt;
	char path[400], line[4096];
	long size;
	FILE *f;

	fresh_dir();
	rt = routers_open(dir, err, sizeof(err));
	CU_ASSERT_PTR_NOT_NULL_FATAL(rt);
	batch_init(&b, 41, 1);
	CU_ASSERT_EQUAL(routers_add(rt, "A", &rr, &b, err, sizeof(err)), 0);
	b.batch_seq = 2;
	CU_ASSERT_EQUAL(routers_add(rt, "A", &rr, &b, err, sizeof(err)), 0);
	b.batch_seq = 3;
	CU_ASSERT_EQUAL(routers_add(rt, "A", &rr, &b, err, sizeof(err)), 0);
	routers_free(rt);
	snprintf(path, sizeof(path), "%s/routers.csv", dir);
	f = fopen(path, "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	fclose(f);
	CU_ASSERT_EQUAL_FATAL(truncate(path, size - 20), 0);

	rt = routers_reopen(dir, err, sizeof(err));
	CU_ASSERT_PTR_NOT_NULL_FATAL(rt);
	CU_ASSERT_EQUAL(routers_nrows(rt), 4);
	CU_ASSERT(routers_seen(rt, "A", 41, 1));
	CU_ASSERT(routers_seen(rt, "A", 41, 2));
	CU_ASSERT(!routers_seen(rt, "A", 41, 3));
	CU_ASSERT_EQUAL(routers_add(rt, "A", &rr, &b, err, sizeof(err)), 0);
	routers_free(rt);
	CU_ASSERT_EQUAL(line_of(6, line, sizeof(line)), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(line, "A,1,A,41,3,2,0,"));
	CU_ASSERT_EQUAL(line_of(7, line, sizeof(line)), -1);

	/* A cut exactly at a line end, inside the batch: also dropped. */
	f = fopen(path, "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	for (size = 0; size < 6 && fgets(line, sizeof(line), f) != NULL;)
		size++;
	size = ftell(f);	/* header + batches 1, 2 + batch 3's row 1 */
	fclose(f);
	CU_ASSERT_EQUAL_FATAL(truncate(path, size), 0);
	rt = routers_reopen(dir, err, sizeof(err));
	CU_ASSERT_PTR_NOT_NULL_FATAL(rt);
	CU_ASSERT_EQUAL(routers_nrows(rt), 4);
	CU_ASSERT(!routers_seen(rt, "A", 41, 3));
	routers_free(rt);
	CU_ASSERT_EQUAL(line_of(5, line, sizeof(line)), -1);
	rm_tree();
}

/* Sojourn 4.5 us over 1195 packets and 6.0 us over 1195: median 5.25. */
static void
t_the_table_gives_each_routers_weighted_median_per_variant(void)
{
	struct router_role ra = { 41, "A", "A-B", 2 }, rb = { 42, "B", "A-B", 2 };
	Hoplab__ResultBatch b;
	struct routers *rt;
	char buf[4096];
	FILE *out;

	fresh_dir();
	rt = routers_open(dir, err, sizeof(err));
	CU_ASSERT_PTR_NOT_NULL_FATAL(rt);
	batch_init(&b, 41, 1);
	CU_ASSERT_EQUAL(routers_add(rt, "A", &ra, &b, err, sizeof(err)), 0);
	sj.p50_ns = 6000;
	b.batch_seq = 2;
	CU_ASSERT_EQUAL(routers_add(rt, "A", &ra, &b, err, sizeof(err)), 0);
	sj.p50_ns = 3000;
	b.role_id = 42;
	b.batch_seq = 1;
	CU_ASSERT_EQUAL(routers_add(rt, "B", &rb, &b, err, sizeof(err)), 0);
	out = fmemopen(buf, sizeof(buf), "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(out);
	routers_print(rt, out, NULL, 0);
	fclose(out);
	/* A: 5.25; B: 3.0; the variant's mean (5.25 + 3.0) / 2 = 4.125 */
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "A-B        A                "
	    "2390        5.250          4.125"));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "A-B        B                "
	    "1195        3.000\n"));
	routers_free(rt);
	/* Read back by a resumed run: the same table. */
	rt = routers_reopen(dir, err, sizeof(err));
	CU_ASSERT_PTR_NOT_NULL_FATAL(rt);
	out = fmemopen(buf, sizeof(buf), "w");
	routers_print(rt, out, NULL, 0);
	fclose(out);
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "5.250          4.125"));
	routers_free(rt);
	rm_tree();
}

/*
 * A kernel router (impl linux): hoplab-router's own columns are empty,
 * the kernel's drops and errors and the forwarded counts are there, and
 * fwd_pps is the forwarded total's difference over the time between two
 * reports: (40 + 300 + 2 + 1) - (10 + 80 + 1 + 0) = 252 packets in
 * 0.5 s = 504 per second; the first report has none.
 */
static void
t_a_kernel_router_row_has_its_own_columns_and_a_rate(void)
{
	struct router_role rr = { 43, "B", "A-B", 2 };
	Hoplab__RouterIfaceCounters k;
	Hoplab__RouterIfaceCounters *kp[1] = { &k };
	Hoplab__ResultBatch b;
	struct routers *rt;
	char line[4096];

	fresh_dir();
	rt = routers_open(dir, err, sizeof(err));
	CU_ASSERT_PTR_NOT_NULL_FATAL(rt);
	batch_init(&b, 43, 1);
	rc.impl = "linux";
	rc.fwd_valid = 1;
	rc.fwd_tcp = 10;
	rc.fwd_udp = 80;
	rc.fwd_icmp = 1;
	hoplab__router_iface_counters__init(&k);
	k.name = "in";
	k.up = 1;
	k.rx_packets = 91;
	k.rx_bytes = 9100;
	k.tx_packets = 2;
	k.tx_bytes = 120;
	k.rx_dropped = 5;
	k.tx_dropped = 6;
	k.rx_errors = 7;
	k.tx_errors = 8;
	rc.n_ifaces = 1;
	rc.ifaces = kp;
	CU_ASSERT_EQUAL(routers_add(rt, "B", &rr, &b, err, sizeof(err)), 0);
	b.batch_seq = 2;
	rc.time_ns += 500000000;
	rc.fwd_tcp = 40;
	rc.fwd_udp = 300;
	rc.fwd_icmp = 2;
	rc.fwd_other = 1;
	CU_ASSERT_EQUAL(routers_add(rt, "B", &rr, &b, err, sizeof(err)), 0);
	routers_free(rt);
	CU_ASSERT_EQUAL(line_of(1, line, sizeof(line)), 0);
	CU_ASSERT_STRING_EQUAL(line, "A-B,2,B,43,1,1,0,1764470000.250000,in,1,"
	    "91,9100,2,120,"
	    /* ring_drops .. filter_default_hits: 44 empty cells */
	    ",,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,"
	    "linux,5,6,7,8,10,80,1,0,"
	    ",,,,,,,,,,,"	/* fwd_pps, the 11 rip columns */
	    ",,,,,,," FP_EMPTY);	/* the 7 nat columns: no NAT */
	CU_ASSERT_EQUAL(line_of(2, line, sizeof(line)), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(line, ",linux,5,6,7,8,40,300,2,1,504.0"));
	/* A resumed run knows the last total: the next rate goes on. */
	rt = routers_reopen(dir, err, sizeof(err));
	CU_ASSERT_PTR_NOT_NULL_FATAL(rt);
	b.batch_seq = 3;
	rc.time_ns += 1000000000;
	rc.fwd_udp = 400;	/* 100 more in 1 s */
	CU_ASSERT_EQUAL(routers_add(rt, "B", &rr, &b, err, sizeof(err)), 0);
	routers_free(rt);
	CU_ASSERT_EQUAL(line_of(3, line, sizeof(line)), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(line, ",40,400,2,1,100.0"));
	rm_tree();
}

/* A hoplab-router running RIP fills the 11 rip columns, in order. */
static void
t_a_rip_router_row_ends_with_its_rip_counters(void)
{
	struct router_role rr = { 41, "A", "A", 1 };
	Hoplab__RipCounters rip = HOPLAB__RIP_COUNTERS__INIT;
	Hoplab__ResultBatch b;
	struct routers *rt;
	char line[4096];
	const char *end;

	fresh_dir();
	rt = routers_open(dir, err, sizeof(err));
	CU_ASSERT_PTR_NOT_NULL_FATAL(rt);
	batch_init(&b, 41, 1);
	rip.rx_packets = 30;
	rip.tx_packets = 31;
	rip.tx_triggered = 2;
	rip.routes = 4;
	rip.routes_timed_out = 1;
	rip.drop_malformed = 3;
	rip.drop_oversize = 5;
	rip.drop_version = 6;
	rip.drop_auth = 7;
	rip.drop_source = 8;
	rip.drop_entry = 9;
	rc.rip = &rip;
	CU_ASSERT_EQUAL(routers_add(rt, "A", &rr, &b, err, sizeof(err)), 0);
	rc.rip = NULL;
	routers_free(rt);
	CU_ASSERT_EQUAL(line_of(0, line, sizeof(line)), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(line, ",fwd_pps,rip_rx,rip_tx,"
	    "rip_triggered,rip_routes,rip_timed_out,rip_drop_malformed,"
	    "rip_drop_oversize,rip_drop_version,rip_drop_auth,"
	    "rip_drop_source,rip_drop_entry"));
	CU_ASSERT_EQUAL(line_of(1, line, sizeof(line)), 0);
#define RIP_END ",30,31,2,4,1,3,5,6,7,8,9,,,,,,," FP_EMPTY
	end = line + strlen(line) - strlen(RIP_END);
	CU_ASSERT_STRING_EQUAL(end, RIP_END);
	rm_tree();
}

/*
 * NAT counters (issue 16): a kernel router (valid_detail false) fills
 * nat_active only; hoplab-router's detail fills all seven, in order.
 */
static void
t_nat_columns_end_the_row(void)
{
	struct router_role rr = { 44, "R1", "topology", 1 };
	Hoplab__NatCounters nat = HOPLAB__NAT_COUNTERS__INIT;
	Hoplab__ResultBatch b;
	struct routers *rt;
	char line[4096];
	const char *end;

	fresh_dir();
	rt = routers_open(dir, err, sizeof(err));
	CU_ASSERT_PTR_NOT_NULL_FATAL(rt);
	batch_init(&b, 44, 1);
	rc.impl = "linux";
	nat.active = 3;
	nat.created = 99;	/* not valid: not written */
	rc.nat = &nat;
	CU_ASSERT_EQUAL(routers_add(rt, "R1", &rr, &b, err, sizeof(err)), 0);
	b.batch_seq = 2;
	rc.impl = "hoplab";
	nat.valid_detail = 1;
	nat.active = 4;
	nat.created = 10;
	nat.expired = 6;
	nat.drop_exhausted = 2;
	nat.translated_out = 500;
	nat.translated_in = 480;
	nat.drop_no_entry = 7;
	CU_ASSERT_EQUAL(routers_add(rt, "R1", &rr, &b, err, sizeof(err)), 0);
	rc.nat = NULL;
	routers_free(rt);
	CU_ASSERT_EQUAL(line_of(0, line, sizeof(line)), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(line, ",rip_drop_entry,nat_active,"
	    "nat_created,nat_expired,nat_drop_exhausted,nat_translated_out,"
	    "nat_translated_in,nat_drop_no_entry"));
	CU_ASSERT_EQUAL(line_of(1, line, sizeof(line)), 0);
	end = line + strlen(line) - strlen(",3,,,,,," FP_EMPTY);
	CU_ASSERT_STRING_EQUAL(end, ",3,,,,,," FP_EMPTY);
	CU_ASSERT_EQUAL(line_of(3, line, sizeof(line)), 0); /* 2 a batch */
	end = line + strlen(line) - strlen(",4,10,6,2,500,480,7" FP_EMPTY);
	CU_ASSERT_STRING_EQUAL(end, ",4,10,6,2,500,480,7" FP_EMPTY);
	rm_tree();
}

/*
 * hoplab-router's XDP fast path (issue 19): forwarded, sent and the
 * punts by reason in the 11 fp columns that end the row, a reason the
 * router does not list written 0; without a fast path they are empty.
 */
static void
t_fastpath_columns_end_the_row(void)
{
	struct router_role rr = { 45, "A", "A", 1 };
	Hoplab__RouterDrop d1 = HOPLAB__ROUTER_DROP__INIT;
	Hoplab__RouterDrop d2 = HOPLAB__ROUTER_DROP__INIT;
	Hoplab__RouterDrop *dp[2] = { &d1, &d2 };
	Hoplab__ResultBatch b;
	struct routers *rt;
	char line[4096];
	const char *end;

	fresh_dir();
	rt = routers_open(dir, err, sizeof(err));
	CU_ASSERT_PTR_NOT_NULL_FATAL(rt);
	batch_init(&b, 45, 1);
	d1.reason = "punt_ttl";
	d1.packets = 3;
	d2.reason = "punt_no_neigh";
	d2.packets = 1;
	rc.fastpath = 1;
	ic[0].fp_forwarded = 200;
	ic[0].fp_sent = 198;
	ic[0].fp_punts = dp;
	ic[0].n_fp_punts = 2;
	CU_ASSERT_EQUAL(routers_add(rt, "A", &rr, &b, err, sizeof(err)), 0);
	rc.fastpath = 0;
	ic[0].fp_forwarded = ic[0].fp_sent = 0;
	ic[0].n_fp_punts = 0;
	ic[0].fp_punts = NULL;
	routers_free(rt);
	CU_ASSERT_EQUAL(line_of(0, line, sizeof(line)), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(line, ",nat_drop_no_entry,fp_forwarded,"
	    "fp_sent,fp_punt_slow,fp_punt_not_ip,fp_punt_header,"
	    "fp_punt_local,fp_punt_ttl,fp_punt_no_route,fp_punt_no_neigh,"
	    "fp_punt_mtu,fp_pass"));
	CU_ASSERT_EQUAL(line_of(1, line, sizeof(line)), 0);
	end = line + strlen(line) - strlen(",200,198,0,0,0,0,3,0,1,0,0");
	CU_ASSERT_STRING_EQUAL(end, ",200,198,0,0,0,0,3,0,1,0,0");
	rm_tree();
}

/* hoplab-router started again counts from 0: no rate across it. */
static void
t_no_rate_across_a_restarted_router(void)
{
	struct router_role rr = { 41, "A", "A", 1 };
	Hoplab__ResultBatch b;
	struct routers *rt;
	char line[4096];

	fresh_dir();
	rt = routers_open(dir, err, sizeof(err));
	CU_ASSERT_PTR_NOT_NULL_FATAL(rt);
	batch_init(&b, 41, 1);
	rc.impl = "hoplab";
	rc.fwd_valid = 1;
	rc.fwd_udp = 1000;
	CU_ASSERT_EQUAL(routers_add(rt, "A", &rr, &b, err, sizeof(err)), 0);
	b.batch_seq = 1000001;
	rc.time_ns += 1000000000;
	rc.fwd_udp = 30;
	CU_ASSERT_EQUAL(routers_add(rt, "A", &rr, &b, err, sizeof(err)), 0);
	b.batch_seq = 1000002;
	rc.time_ns += 1000000000;
	rc.fwd_udp = 80;
	CU_ASSERT_EQUAL(routers_add(rt, "A", &rr, &b, err, sizeof(err)), 0);
	routers_free(rt);
	CU_ASSERT_EQUAL(line_of(3, line, sizeof(line)), 0);
	/* fwd_pps empty, then the first rip column */
	CU_ASSERT_PTR_NOT_NULL(strstr(line, ",hoplab,,,,,0,30,0,0,,"));
	CU_ASSERT_EQUAL(line_of(5, line, sizeof(line)), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(line, ",hoplab,,,,,0,80,0,0,50.0"));
	rm_tree();
}

/*
 * A routers.csv of the hoplab before issue 14 (58 columns, up to
 * filter_default_hits): reopened, its header is today's and its rows
 * are padded with the 10 new columns empty; the batch is known.
 */
static void
t_an_older_file_is_padded_to_todays_columns(void)
{
	static const char old_row[] = "A,1,A,41,1,1,0,1764470000.250000,in,1,"
	    "1200,72000,0,0,0,0,0,0,0,0,3,0,0,0,0,0,0,0,2,0,0,"
	    "0,,,0,,,0,,,0,,,0,,,0,,,0,,,0,,,12.5,,0";
	struct routers *rt;
	char path[400], line[4096], head[4096];
	FILE *f;

	fresh_dir();
	rt = routers_open(dir, err, sizeof(err));	/* today's header */
	CU_ASSERT_PTR_NOT_NULL_FATAL(rt);
	routers_free(rt);
	CU_ASSERT_EQUAL_FATAL(line_of(0, head, sizeof(head)), 0);
	snprintf(path, sizeof(path), "%s/routers.csv", dir);
	f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	*strstr(head, ",impl,") = '\0';	/* the older header */
	fprintf(f, "%s\n%s\n", head, old_row);
	fclose(f);
	rt = routers_reopen(dir, err, sizeof(err));
	CU_ASSERT_PTR_NOT_NULL_FATAL(rt);
	CU_ASSERT(routers_seen(rt, "A", 41, 1));
	CU_ASSERT_EQUAL(routers_nrows(rt), 1);
	routers_free(rt);
	CU_ASSERT_EQUAL(line_of(0, line, sizeof(line)), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(line, "filter_default_hits,impl,"
	    "rx_dropped,tx_dropped,rx_errors,tx_errors,fwd_tcp,fwd_udp,"
	    "fwd_icmp,fwd_other,fwd_pps"));
	CU_ASSERT_EQUAL(line_of(1, line, sizeof(line)), 0);
	CU_ASSERT_EQUAL(strlen(line), strlen(old_row) + 10 + 11 + 7 + 11);
	CU_ASSERT_EQUAL(strncmp(line, old_row, strlen(old_row)), 0);
	CU_ASSERT_STRING_EQUAL(line + strlen(old_row), ",,,,,,,,,,"
	    ",,,,,,,,,,,"	/* and the 11 rip columns */
	    ",,,,,,,"	/* and the 7 nat ones */
	    FP_EMPTY);	/* and the 11 fast path ones */
	rm_tree();
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST(t_a_batch_becomes_one_row_per_interface),
		UNIT_TEST(t_reopen_drops_a_batch_cut_short_and_knows_the_whole_ones),
		UNIT_TEST(t_the_table_gives_each_routers_weighted_median_per_variant),
		UNIT_TEST(t_a_kernel_router_row_has_its_own_columns_and_a_rate),
		UNIT_TEST(t_a_rip_router_row_ends_with_its_rip_counters),
		UNIT_TEST(t_no_rate_across_a_restarted_router),
		UNIT_TEST(t_nat_columns_end_the_row),
		UNIT_TEST(t_fastpath_columns_end_the_row),
		UNIT_TEST(t_an_older_file_is_padded_to_todays_columns),
	};

	return UNIT_MAIN("results_routers", tests);
}
