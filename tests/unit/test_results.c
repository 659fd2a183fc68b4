/*
 * Unit suite for controller/results/results.c, flowseries.c, csvfile.c and
 * resultsjson.c: summary.csv's appended columns, intervals.csv and
 * pdf.csv from a FlowResult worked by hand, a resumed run that cuts
 * every file back to the sizes state.json holds, so that no row is
 * doubled, state.json byte for byte as written by hand (and accepted by
 * jq), and the plan hash against the FIPS 180-2 test vectors.  Every
 * test works in a fresh folder under $TMPDIR.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "controller/results/csvfile.h"
#include "controller/results/results.h"
#include "tests/unit/unit.h"

static char base[256];
static char err[512];

static void
fresh_dir(void)
{
	const char *t = getenv("TMPDIR");

	snprintf(base, sizeof(base), "%s/test-results.XXXXXX", t ? t : "/tmp");
	CU_ASSERT_FATAL(mkdtemp(base) != NULL);
}

static void
rm_tree(const char *dir)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CU_ASSERT(system(cmd) == 0);
}

/* Line N (0: the header) of DIR/NAME into BUF, without its newline. */
static int
line_of(const char *dir, const char *name, int n, char *buf, size_t len)
{
	char path[600];
	FILE *f;
	int i = 0, rc = -1;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
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

static int
count_lines(const char *dir, const char *name)
{
	char buf[4096];
	int n = 0;

	while (line_of(dir, name, n, buf, sizeof(buf)) == 0)
		n++;
	return n;
}

/* A flow of 10 packets, 9 received, with 2 intervals and 2 PDF bins. */
static Hoplab__FlowInterval iv[2];
static Hoplab__FlowInterval *ivp[2] = { &iv[0], &iv[1] };
static Hoplab__DelayBin bins[2];
static Hoplab__DelayBin *binp[2] = { &bins[0], &bins[1] };

static void
flow_init(Hoplab__FlowResult *f)
{
	hoplab__flow_result__init(f);
	f->name = "probe";
	f->frame = 64;
	f->sent = 10;
	f->received = 9;
	f->lost = 1;
	f->delay_min_ns = 10000;
	f->delay_mean_ns = 12000;
	f->first_tx_ns = 1000000000000LL;
	f->ts_source = "tx=kernel-sw,rx=kernel-sw";
	f->ipdv_pairs = 7;
	f->ipdv_abs_mean_ns = 1500;
	f->ipdv_abs_p99_ns = 4250;
	f->pdv_p999_ns = 7125;
	f->idt_clamped = 2;
	f->frame_clamped = 3;
	f->tx_idt_std_ns = 800.6;
	f->tx_idt_err_p99_ns = 2400;
	f->tx_idt_err_p50_ns = 700;
	f->tx_idt_err_p999_ns = 9100;
	hoplab__flow_interval__init(&iv[0]);
	hoplab__flow_interval__init(&iv[1]);
	/* interval 0 starts 250 us before the first send, 0.5 s long */
	iv[0].index = 0;
	iv[0].start_ns = f->first_tx_ns - 250000;
	iv[0].length_ns = 500000000;
	iv[0].sent = 10;
	iv[0].received = 9;
	iv[0].lost = 1;
	iv[0].tx_bytes = 640;
	iv[0].rx_bytes = 576;
	iv[0].rx_mbps = 576 * 8 / 0.5 / 1e6;
	iv[0].delay_mean_ns = 12000;
	iv[0].delay_min_ns = 10000;
	iv[0].delay_max_ns = 15500;
	iv[1].index = 1;
	iv[1].start_ns = iv[0].start_ns + 500000000;
	iv[1].length_ns = 500000000;
	f->n_intervals = 2;
	f->intervals = ivp;
	hoplab__delay_bin__init(&bins[0]);
	hoplab__delay_bin__init(&bins[1]);
	bins[0].lo_ns = 10000;
	bins[0].hi_ns = 10078;
	bins[0].count = 4;
	bins[1].lo_ns = 12000;
	bins[1].hi_ns = 12250;
	bins[1].count = 5;
	f->n_delay_pdf = 2;
	f->delay_pdf = binp;
}

/* 1 if S ends with SUFFIX. */
static int
ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && strcmp(s + n - m, suffix) == 0;
}

static struct results *
open_results(void)
{
	static struct plan plan;
	struct results *res;

	memset(&plan, 0, sizeof(plan));
	strcpy(plan.name, "unit");
	res = results_open(base, &plan, err, sizeof(err));
	CU_ASSERT_PTR_NOT_NULL_FATAL(res);
	return res;
}

/* Record FLOW as the point (variant, rep), as the runner does. */
static void
record(struct results *res, const char *variant, size_t nr, unsigned rep,
    const Hoplab__FlowResult *f)
{
	struct point_key k = { variant, nr, rep, rep + 10 };
	struct flow_row row;

	memset(&row, 0, sizeof(row));
	snprintf(row.variant, sizeof(row.variant), "%s", variant);
	row.routers = nr;
	row.rep = rep;
	row.run = rep + 10;
	results_row_from_flow(&row, f);
	CU_ASSERT_EQUAL(results_add(res, &row, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(results_add_series(res, &k, f, err, sizeof(err)), 0);
}

static void
t_summary_appends_ipdv_and_pacing_columns_at_the_end(void)
{
	Hoplab__FlowResult f;
	struct results *res;
	char line[4096], dir[600];
	FILE *null = fopen("/dev/null", "w");

	fresh_dir();
	res = open_results();
	snprintf(dir, sizeof(dir), "%s", results_dir(res));
	flow_init(&f);
	record(res, "A", 1, 1, &f);
	CU_ASSERT_EQUAL(line_of(dir, "summary.csv", 0, line, sizeof(line)), 0);
	/* The 24 old columns first and unchanged, the 7 new ones after. */
	CU_ASSERT_PTR_NOT_NULL(strstr(line, "jitter_us,throughput_mbps,"
	    "ttl_min,ttl_max,ts_source,ipdv_abs_mean_us,ipdv_abs_p99_us,"
	    "pdv_p999_us,idt_clamped,frame_clamped,tx_idt_std_us,"
	    "tx_idt_err_p99_us"));
	CU_ASSERT(strncmp(line, "variant,routers,frame_bytes,rep,flow,sent,",
	    42) == 0);
	/*
	 * Then run, the pacing percentiles, disturbed, replica_of (no
	 * sweep: no point).
	 */
	CU_ASSERT(ends_with(line, ",tx_idt_err_p99_us,run,"
	    "tx_idt_err_p50_us,tx_idt_err_p999_us,disturbed,replica_of"));
	CU_ASSERT_EQUAL(line_of(dir, "summary.csv", 1, line, sizeof(line)), 0);
	/*
	 * 1500 ns -> 1.500 us ... 800.6 ns -> 0.801 (rounded), 2400 -> 2.4;
	 * the run that measured the row (11); p50 700 ns -> 0.700, p99.9
	 * 9100 ns -> 9.100; disturbed 0: not flagged; replica_of empty.
	 */
	CU_ASSERT(ends_with(line,
	    ",\"tx=kernel-sw,rx=kernel-sw\",1.500,4.250,7.125,2,3,0.801,"
	    "2.400,11,0.700,9.100,0,"));
	CU_ASSERT_EQUAL(results_finish(res, null, err, sizeof(err)), 0);
	fclose(null);
	results_free(res);
	rm_tree(base);
}

/*
 * A plan with an icmp flow gets delay_kind after disturbed: "rtt" for
 * the ping's row (FlowResult.round_trip), "one-way" for the other.
 */
static void
t_summary_says_the_delay_kind_in_plans_with_ping(void)
{
	static struct plan plan;
	Hoplab__FlowResult f;
	struct results *res;
	char line[4096], dir[600];
	FILE *null = fopen("/dev/null", "w");

	fresh_dir();
	memset(&plan, 0, sizeof(plan));
	strcpy(plan.name, "unit");
	plan.nflows = 2;
	strcpy(plan.flows[0].mode, "udp");
	strcpy(plan.flows[1].mode, "icmp");
	res = results_open(base, &plan, err, sizeof(err));
	CU_ASSERT_PTR_NOT_NULL_FATAL(res);
	snprintf(dir, sizeof(dir), "%s", results_dir(res));
	flow_init(&f);
	record(res, "topology", 2, 1, &f);
	f.round_trip = 1;
	f.name = "ping";
	record(res, "topology", 2, 1, &f);
	CU_ASSERT_EQUAL(line_of(dir, "summary.csv", 0, line, sizeof(line)), 0);
	CU_ASSERT(ends_with(line, ",tx_idt_err_p999_us,disturbed,replica_of,delay_kind"));
	CU_ASSERT_EQUAL(line_of(dir, "summary.csv", 1, line, sizeof(line)), 0);
	CU_ASSERT(ends_with(line, ",9.100,0,,one-way"));
	CU_ASSERT_EQUAL(line_of(dir, "summary.csv", 2, line, sizeof(line)), 0);
	CU_ASSERT(strncmp(line, "topology,2,64,1,ping,", 21) == 0);
	CU_ASSERT(ends_with(line, ",9.100,0,,rtt"));
	CU_ASSERT_EQUAL(results_finish(res, null, err, sizeof(err)), 0);
	fclose(null);
	results_free(res);
	rm_tree(base);
}

static void
t_intervals_rows_are_relative_to_first_send_with_units(void)
{
	Hoplab__FlowResult f;
	struct results *res;
	char line[4096], dir[600];

	fresh_dir();
	res = open_results();
	snprintf(dir, sizeof(dir), "%s", results_dir(res));
	flow_init(&f);
	record(res, "A-B", 2, 3, &f);
	CU_ASSERT_EQUAL(line_of(dir, "intervals.csv", 0, line, sizeof(line)),
	    0);
	CU_ASSERT_STRING_EQUAL(line, "variant,routers,frame_bytes,rep,flow,"
	    "interval,start_s,length_s,sent,received,lost,tx_bytes,rx_bytes,"
	    "rx_mbps,delay_mean_us,delay_min_us,delay_max_us,run");
	/* 576 bytes in 0.5 s = 9216 bit/s = 0.0092 Mbit/s */
	CU_ASSERT_EQUAL(line_of(dir, "intervals.csv", 1, line, sizeof(line)),
	    0);
	CU_ASSERT_STRING_EQUAL(line, "A-B,2,64,3,probe,0,-0.000250,0.500000,"
	    "10,9,1,640,576,0.0092,12.000,10.000,15.500,13");
	/* Nothing received: the delays are empty, not 0. */
	CU_ASSERT_EQUAL(line_of(dir, "intervals.csv", 2, line, sizeof(line)),
	    0);
	CU_ASSERT_STRING_EQUAL(line, "A-B,2,64,3,probe,1,0.499750,0.500000,"
	    "0,0,0,0,0,0.0000,,,,13");
	CU_ASSERT_EQUAL(line_of(dir, "pdf.csv", 0, line, sizeof(line)), 0);
	CU_ASSERT_STRING_EQUAL(line, "variant,routers,frame_bytes,rep,flow,"
	    "lo_us,hi_us,count");
	CU_ASSERT_EQUAL(line_of(dir, "pdf.csv", 2, line, sizeof(line)), 0);
	CU_ASSERT_STRING_EQUAL(line, "A-B,2,64,3,probe,12.000,12.250,5");
	results_free(res);
	rm_tree(base);
}

/*
 * Two points done (state saved), a third written but not marked done:
 * the resumed run keeps exactly the rows of the first two in every file.
 */
static void
t_reopen_cuts_every_file_back_to_the_done_points(void)
{
	Hoplab__FlowResult f;
	struct run_state st;
	struct results *res;
	char dir[600];

	fresh_dir();
	memset(&st, 0, sizeof(st));
	res = open_results();
	snprintf(dir, sizeof(dir), "%s", results_dir(res));
	flow_init(&f);
	record(res, "A", 1, 1, &f);
	record(res, "A", 1, 2, &f);
	CU_ASSERT_EQUAL_FATAL(results_sync(res, &st, err, sizeof(err)), 0);
	record(res, "A", 1, 3, &f);	/* killed before it was done */
	results_free(res);
	CU_ASSERT_EQUAL(count_lines(dir, "intervals.csv"), 1 + 6);
	CU_ASSERT_EQUAL(count_lines(dir, "pdf.csv"), 1 + 6);

	res = results_reopen(dir, &st, err, sizeof(err));
	CU_ASSERT_PTR_NOT_NULL_FATAL(res);
	CU_ASSERT_EQUAL(count_lines(dir, "summary.csv"), 1 + 2);
	CU_ASSERT_EQUAL(count_lines(dir, "intervals.csv"), 1 + 4);
	CU_ASSERT_EQUAL(count_lines(dir, "pdf.csv"), 1 + 4);
	record(res, "A", 1, 3, &f);	/* measured again */
	results_free(res);
	CU_ASSERT_EQUAL(count_lines(dir, "summary.csv"), 1 + 3);
	CU_ASSERT_EQUAL(count_lines(dir, "intervals.csv"), 1 + 6);
	CU_ASSERT_EQUAL(count_lines(dir, "pdf.csv"), 1 + 6);
	rm_tree(base);
}

/* Write TEXT as DIR/summary.csv; its size into ST. */
static void
put_summary(const char *dir, const char *text, struct run_state *st)
{
	char path[600];
	FILE *f;

	snprintf(path, sizeof(path), "%s/summary.csv", dir);
	CU_ASSERT_FATAL((f = fopen(path, "w")) != NULL);
	fputs(text, f);
	fclose(f);
	st->summary_bytes = strlen(text);
}

/*
 * "disturbed" is the last column of a new summary.csv, 0/1 per row, and
 * reads back; a file with "point" and "disturbed", and one with "point"
 * but without "disturbed" (written before it), read back as they are.
 */
static void
t_summary_disturbed_is_last_and_reads_back(void)
{
	Hoplab__FlowResult f;
	struct flow_row row;
	struct run_state st;
	struct results *res;
	const struct flow_row *rows;
	char dir[600], head[4096], r1[4096], r2[4096], text[16384];
	size_t n;

	fresh_dir();
	memset(&st, 0, sizeof(st));
	res = open_results();
	snprintf(dir, sizeof(dir), "%s", results_dir(res));
	flow_init(&f);
	memset(&row, 0, sizeof(row));
	strcpy(row.variant, "A");
	row.routers = 1;
	row.rep = 1;
	results_row_from_flow(&row, &f);
	row.disturbed = 1;
	CU_ASSERT_EQUAL(results_add(res, &row, err, sizeof(err)), 0);
	row.rep = 2;
	row.disturbed = 0;
	CU_ASSERT_EQUAL(results_add(res, &row, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL_FATAL(results_sync(res, &st, err, sizeof(err)), 0);
	results_free(res);
	CU_ASSERT_EQUAL_FATAL(line_of(dir, "summary.csv", 0, head,
	    sizeof(head)), 0);
	CU_ASSERT(strstr(head, ",tx_idt_err_p999_us,disturbed") != NULL &&
	    strcmp(head + strlen(head) - 21, ",disturbed,replica_of") == 0);
	CU_ASSERT_EQUAL_FATAL(line_of(dir, "summary.csv", 1, r1,
	    sizeof(r1)), 0);
	CU_ASSERT_EQUAL_FATAL(line_of(dir, "summary.csv", 2, r2,
	    sizeof(r2)), 0);
	CU_ASSERT(strcmp(r1 + strlen(r1) - 9, ",9.100,1,") == 0);
	CU_ASSERT(strcmp(r2 + strlen(r2) - 9, ",9.100,0,") == 0);

	res = results_reopen(dir, &st, err, sizeof(err));
	CU_ASSERT_PTR_NOT_NULL_FATAL(res);
	rows = results_rows(res, &n);
	CU_ASSERT_EQUAL_FATAL(n, 2);
	CU_ASSERT_EQUAL(rows[0].disturbed, 1);
	CU_ASSERT_EQUAL(rows[1].disturbed, 0);
	results_free(res);

	/* With "point" before it: HEAD and R1 as the file had them. */
	head[strlen(head) - 21] = '\0';
	r1[strlen(r1) - 3] = '\0';
	snprintf(text, sizeof(text), "%s,point,disturbed\n%s,idt=1ms,1\n",
	    head, r1);
	put_summary(dir, text, &st);
	res = results_reopen(dir, &st, err, sizeof(err));
	CU_ASSERT_PTR_NOT_NULL_FATAL(res);
	rows = results_rows(res, &n);
	CU_ASSERT_EQUAL_FATAL(n, 1);
	CU_ASSERT_STRING_EQUAL(rows[0].point, "idt=1ms");
	CU_ASSERT_EQUAL(rows[0].disturbed, 1);
	results_free(res);
	CU_ASSERT_EQUAL(line_of(dir, "summary.csv", 1, r2, sizeof(r2)), 0);
	CU_ASSERT(strcmp(r2 + strlen(r2) - 10, ",idt=1ms,1") == 0);

	/* "point" last, as before "disturbed" existed: kept so. */
	snprintf(text, sizeof(text), "%s,point\n%s,idt=2ms\n", head, r1);
	put_summary(dir, text, &st);
	res = results_reopen(dir, &st, err, sizeof(err));
	CU_ASSERT_PTR_NOT_NULL_FATAL(res);
	rows = results_rows(res, &n);
	CU_ASSERT_EQUAL_FATAL(n, 1);
	CU_ASSERT_STRING_EQUAL(rows[0].point, "idt=2ms");
	CU_ASSERT_EQUAL(rows[0].disturbed, 0);
	results_free(res);
	CU_ASSERT_EQUAL(line_of(dir, "summary.csv", 0, r2, sizeof(r2)), 0);
	CU_ASSERT(strcmp(r2 + strlen(r2) - 6, ",point") == 0);
	rm_tree(base);
}

static const char old_summary[] =
    "variant,routers,frame_bytes,rep,flow,sent,received,lost,"
    "loss_pct,duplicates,reordered,delay_min_us,delay_mean_us,"
    "delay_p50_us,delay_p90_us,delay_p99_us,delay_p999_us,"
    "delay_max_us,delay_std_us,jitter_us,throughput_mbps,ttl_min,"
    "ttl_max,ts_source\nA,1,64,1,probe,100,100,0,0.0000,0,0,1.000,"
    "2.000,2.000,2.500,3.000,3.000,3.000,0.500,0.100,0.0512,63,63,"
    "tx=user\n";

/*
 * A summary.csv of 24 columns (an older run) reads back, the columns it
 * lacks as not measured, and is rewritten with its own 24 columns: the
 * same bytes.  A header naming a column hoplab does not know is refused
 * with the file and line.
 */
static void
t_reopen_reads_a_summary_without_the_appended_columns(void)
{
	struct run_state st;
	struct results *res;
	const struct flow_row *rows;
	char path[600], back[sizeof(old_summary) + 64];
	size_t n;
	FILE *f;

	fresh_dir();
	memset(&st, 0, sizeof(st));
	snprintf(path, sizeof(path), "%s/summary.csv", base);
	f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(old_summary, f);
	st.summary_bytes = (uint64_t)ftell(f);
	fclose(f);
	res = results_reopen(base, &st, err, sizeof(err));
	CU_ASSERT_PTR_NOT_NULL_FATAL(res);
	rows = results_rows(res, &n);
	CU_ASSERT_EQUAL_FATAL(n, 1);
	CU_ASSERT_DOUBLE_EQUAL(rows[0].delay_mean_us, 2.0, 1e-9);
	CU_ASSERT(isnan(rows[0].ipdv_abs_mean_us));
	CU_ASSERT(isnan(rows[0].tx_idt_err_p99_us));
	CU_ASSERT_EQUAL(rows[0].run, 0);
	results_free(res);
	f = fopen(path, "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	n = fread(back, 1, sizeof(back) - 1, f);
	back[n] = '\0';
	fclose(f);
	CU_ASSERT_STRING_EQUAL(back, old_summary);
	CU_ASSERT_EQUAL(count_lines(base, "intervals.csv"), 1);

	f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("variant,routers,frame_bytes,rep,flow,colour\n", f);
	st.summary_bytes = (uint64_t)ftell(f);
	fclose(f);
	CU_ASSERT_PTR_NULL(results_reopen(base, &st, err, sizeof(err)));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "summary.csv:1: column 6 is "
	    "\"colour\""));
	rm_tree(base);
}

/* PATH's whole text into BUF (NUL-terminated); its length. */
static size_t
slurp(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n = 0;

	if (f != NULL) {
		n = fread(buf, 1, len - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	return n;
}

#define V2_HEADER "variant,routers,frame_bytes,rep,flow,sent,received,lost," \
	"loss_pct,duplicates,reordered,delay_min_us,delay_mean_us," \
	"delay_p50_us,delay_p90_us,delay_p99_us,delay_p999_us," \
	"delay_max_us,delay_std_us,jitter_us,throughput_mbps,ttl_min," \
	"ttl_max,ts_source,ipdv_abs_mean_us,ipdv_abs_p99_us,pdv_p999_us," \
	"idt_clamped,frame_clamped,tx_idt_std_us,tx_idt_err_p99_us"
#define V2_ROW "A,1,64,1,probe,100,100,0,0.0000,0,0,1.000,2.000,2.000," \
	"2.500,3.000,3.000,3.000,0.500,0.100,0.0512,63,63,tx=user,0.200," \
	"0.900,2.000,0,0,1.250,4.500"

/*
 * summary.csv written before the pacing percentiles (31 columns, and 32
 * with point) reads back, the new values NaN, and is rewritten byte for
 * byte as it was; one with them reads them back, also after "point".
 */
/*
 * In a fresh folder, a summary.csv holding TEXT, as a killed run left
 * it (state.json's byte count: all of it), reopened.
 */
static struct results *
reopen_text(const char *text)
{
	struct run_state st;
	struct results *res;
	char path[600];
	FILE *f;

	fresh_dir();
	memset(&st, 0, sizeof(st));
	snprintf(path, sizeof(path), "%s/summary.csv", base);
	f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(text, f);
	st.summary_bytes = (uint64_t)ftell(f);
	fclose(f);
	res = results_reopen(base, &st, err, sizeof(err));
	CU_ASSERT_PTR_NOT_NULL_FATAL(res);
	return res;
}

static void
t_reopen_keeps_a_summary_with_or_without_the_percentiles(void)
{
	static const char *const files[] = {
		V2_HEADER "\n" V2_ROW "\n",
		V2_HEADER ",point\n" V2_ROW ",idt=1ms\n",
		V2_HEADER ",tx_idt_err_p50_us,tx_idt_err_p999_us\n" V2_ROW
		    ",0.700,9.100\n",
		V2_HEADER ",point,tx_idt_err_p50_us,tx_idt_err_p999_us\n" V2_ROW
		    ",idt=1ms,0.700,9.100\n",
	};
	struct results *res;
	const struct flow_row *rows;
	char path[600], after[2048];
	size_t i, n;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		res = reopen_text(files[i]);
		snprintf(path, sizeof(path), "%s/summary.csv", base);
		rows = results_rows(res, &n);
		CU_ASSERT_EQUAL_FATAL(n, 1);
		CU_ASSERT_DOUBLE_EQUAL(rows[0].tx_idt_err_p99_us, 4.5, 1e-9);
		CU_ASSERT_STRING_EQUAL(rows[0].point, i % 2 ? "idt=1ms" : "");
		if (i < 2) {
			CU_ASSERT(isnan(rows[0].tx_idt_err_p50_us));
			CU_ASSERT(isnan(rows[0].tx_idt_err_p999_us));
		} else {
			CU_ASSERT_DOUBLE_EQUAL(rows[0].tx_idt_err_p50_us, 0.7,
			    1e-9);
			CU_ASSERT_DOUBLE_EQUAL(rows[0].tx_idt_err_p999_us, 9.1,
			    1e-9);
		}
		results_free(res);
		slurp(path, after, sizeof(after));
		CU_ASSERT_STRING_EQUAL(after, files[i]);
		rm_tree(base);
	}
}

static void
t_state_json_keeps_byte_counts_and_router_roles(void)
{
	struct run_state st, back;
	struct router_role rr[2] = {
		{ 41, "A", "A", 1 }, { 43, "B", "A-B", 2 },
	};
	struct run_point pt = { "A", 64, 1, POINT_DONE, "gen", 40 };

	fresh_dir();
	memset(&st, 0, sizeof(st));
	strcpy(st.run_id, "unit-1");
	strcpy(st.status, "running");
	st.plan_text = "name: unit\n";
	st.role_first = 40;
	st.role_reserved = 72;
	st.summary_bytes = 1000;
	st.intervals_bytes = 20000;
	st.pdf_bytes = 3000;
	st.points = &pt;
	st.npoints = 1;
	st.rroles = rr;
	st.nrroles = 2;
	CU_ASSERT_EQUAL_FATAL(results_state_write(base, &st, err,
	    sizeof(err)), 0);
	CU_ASSERT_EQUAL_FATAL(results_state_read(base, &back, err,
	    sizeof(err)), 0);
	CU_ASSERT_EQUAL(back.intervals_bytes, 20000);
	CU_ASSERT_EQUAL(back.pdf_bytes, 3000);
	CU_ASSERT_EQUAL_FATAL(back.nrroles, 2);
	CU_ASSERT_EQUAL(back.rroles[1].role, 43);
	CU_ASSERT_STRING_EQUAL(back.rroles[1].agent, "B");
	CU_ASSERT_STRING_EQUAL(back.rroles[1].variant, "A-B");
	CU_ASSERT_EQUAL(back.rroles[1].routers, 2);
	results_state_free(&back);
	/* No router roles: an empty list that reads back as none. */
	st.nrroles = 0;
	CU_ASSERT_EQUAL_FATAL(results_state_write(base, &st, err,
	    sizeof(err)), 0);
	CU_ASSERT_EQUAL_FATAL(results_state_read(base, &back, err,
	    sizeof(err)), 0);
	CU_ASSERT_EQUAL(back.nrroles, 0);
	results_state_free(&back);
	rm_tree(base);
}

/* DIR/NAME's whole text into BUF of LEN. */
static void
read_text(const char *dir, const char *name, char *buf, size_t len)
{
	char path[600];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
}

static void
t_state_json_is_indented_escaped_and_valid(void)
{
	struct router_role rr = { 41, "A", "A", 1 };
	struct run_point pt[3] = {
		{ "A", 64, 1, POINT_DONE, "gen", 40 },
		{ "A-B", 64, 1, POINT_RUNNING, "gen", 42 },
		{ "A-B", 128, 2, POINT_RUNNING, "g\"2", 44 },
	};
	static const char want[] =
	    "{\n"
	    "  \"run_id\": \"unit-1\",\n"
	    "  \"status\": \"running\",\n"
	    "  \"controller_pid\": 7,\n"
	    "  \"plan_path\": \"p.yaml\",\n"
	    "  \"plan_sha256\": \"ab\",\n"
	    "  \"role_first\": 40,\n"
	    "  \"role_reserved\": 72,\n"
	    "  \"summary_bytes\": 1000,\n"
	    "  \"intervals_bytes\": 0,\n"
	    "  \"pdf_bytes\": 0,\n"
	    "  \"points\": [\n"
	    "    {\"n\": 1, \"variant\": \"A\", \"frame\": 64, \"rep\": 1, "
	    "\"state\": \"done\", \"agent\": \"gen\", \"role\": 40},\n"
	    "    {\"n\": 2, \"variant\": \"A-B\", \"frame\": 64, \"rep\": 1, "
	    "\"state\": \"running\", \"agent\": \"gen\", \"role\": 42},\n"
	    "    {\"n\": 3, \"variant\": \"A-B\", \"frame\": 128, \"rep\": 2, "
	    "\"state\": \"running\", \"agent\": \"g\\\"2\", \"role\": 44}\n"
	    "  ],\n"
	    "  \"router_roles\": [\n"
	    "    {\"role\": 41, \"agent\": \"A\", \"variant\": \"A\", "
	    "\"routers\": 1}\n"
	    "  ],\n"
	    "  \"in_flight\": {\"gen\": [42], \"g\\\"2\": [44]},\n"
	    "  \"plan_text\": \"name: unit\\n\\tx: \\\"q\\\" \\\\ \\u0001\\n\"\n"
	    "}\n";
	struct run_state st;
	char got[4096], cmd[600];

	fresh_dir();
	memset(&st, 0, sizeof(st));
	strcpy(st.run_id, "unit-1");
	strcpy(st.status, "running");
	strcpy(st.plan_path, "p.yaml");
	strcpy(st.plan_sha256, "ab");
	st.controller_pid = 7;
	st.plan_text = "name: unit\n\tx: \"q\" \\ \001\n";
	st.role_first = 40;
	st.role_reserved = 72;
	st.summary_bytes = 1000;
	st.points = pt;
	st.npoints = 3;
	st.rroles = &rr;
	st.nrroles = 1;
	CU_ASSERT_EQUAL_FATAL(results_state_write(base, &st, err,
	    sizeof(err)), 0);
	read_text(base, "state.json", got, sizeof(got));
	CU_ASSERT_STRING_EQUAL(got, want);
	if (system("command -v jq >/dev/null") == 0) {
		snprintf(cmd, sizeof(cmd), "jq -e . '%s/state.json' "
		    ">/dev/null", base);
		CU_ASSERT_EQUAL(system(cmd), 0);
	}
	rm_tree(base);
}

static void
t_plan_hash_matches_fips_180_2_vectors(void)
{
	static const char two_blocks[] =
	    "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	char hex[65];

	results_sha256_hex("abc", 3, hex);
	CU_ASSERT_STRING_EQUAL(hex, "ba7816bf8f01cfea414140de5dae2223"
	    "b00361a396177a9cb410ff61f20015ad");
	results_sha256_hex(two_blocks, strlen(two_blocks), hex);
	CU_ASSERT_STRING_EQUAL(hex, "248d6a61d20638b8e5c026930c3e6039"
	    "a33ce45964ff2167f6ecedd419db06c1");
	results_sha256_hex("", 0, hex);
	CU_ASSERT_STRING_EQUAL(hex, "e3b0c44298fc1c149afbf4c8996fb924"
	    "27ae41e4649b934ca495991b7852b855");
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST(t_summary_appends_ipdv_and_pacing_columns_at_the_end),
		UNIT_TEST(t_summary_says_the_delay_kind_in_plans_with_ping),
		UNIT_TEST(t_intervals_rows_are_relative_to_first_send_with_units),
		UNIT_TEST(t_reopen_cuts_every_file_back_to_the_done_points),
		UNIT_TEST(t_reopen_reads_a_summary_without_the_appended_columns),
		UNIT_TEST(
		    t_reopen_keeps_a_summary_with_or_without_the_percentiles),
		UNIT_TEST(t_summary_disturbed_is_last_and_reads_back),
		UNIT_TEST(t_state_json_keeps_byte_counts_and_router_roles),
		UNIT_TEST(t_state_json_is_indented_escaped_and_valid),
		UNIT_TEST(t_plan_hash_matches_fips_180_2_vectors),
	};

	return UNIT_MAIN("results", tests);
}
