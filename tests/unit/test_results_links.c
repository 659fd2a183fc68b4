/*
 * Unit suite for controller/results/linkrows.c: links.csv rows of a
 * report (one per direction, batch_rows counting them), a report resent
 * to a resumed run recognised and written once, a report cut short by a
 * full disk or a killed controller dropped whole on reopen (its agent
 * sends it again), and a report of a role no point owns written under
 * the point its earlier rows name.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "controller/results/linkrows.h"
#include "tests/unit/unit.h"

static char dir[256];
static char err[512];

static Hoplab__LinkCounters fwd = HOPLAB__LINK_COUNTERS__INIT;
static Hoplab__LinkCounters rev = HOPLAB__LINK_COUNTERS__INIT;
static Hoplab__LinkCounters *both[2] = { &fwd, &rev };

static const struct linkrow_point point = { "A", "1", "64", "2", "w1",
    "gen", "A", "links/A_w1_64_2.truth" };

static void
batch(Hoplab__ResultBatch *b, uint32_t role, uint64_t seq, uint64_t rx)
{
	hoplab__result_batch__init(b);
	fwd.link = rev.link = "w1";
	fwd.dir = "a-b";
	rev.dir = "b-a";
	fwd.profile = rev.profile = "delay 5ms";
	fwd.rx_packets = rx;
	rev.rx_packets = rx + 1;
	b->role_id = role;
	b->batch_seq = seq;
	b->n_links = 2;
	b->links = both;
}

/* Line N (0: the header) of links.csv, or -1. */
static int
line_of(int n, char *buf, size_t len)
{
	char path[400];
	FILE *f;
	int i, rc = -1;

	snprintf(path, sizeof(path), "%s/links.csv", dir);
	if ((f = fopen(path, "r")) == NULL)
		return -1;
	for (i = 0; i <= n && fgets(buf, (int)len, f) != NULL; i++)
		if (i == n)
			rc = 0;
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return rc;
}

static int
starts(const char *line, const char *prefix)
{
	return strncmp(line, prefix, strlen(prefix)) == 0;
}

static int
nlines(void)
{
	char buf[4096];
	int n = 0;

	while (line_of(n, buf, sizeof(buf)) == 0)
		n++;
	return n;
}

static void
t_a_report_is_a_row_per_direction_with_its_batch_rows(void)
{
	struct linkrows *lr;
	Hoplab__ResultBatch b;
	char line[4096];

	CU_ASSERT_FATAL(unit_tmpdir(dir, sizeof(dir), "test-links") == 0);
	CU_ASSERT_FATAL((lr = linkrows_open(dir, err, sizeof(err))) != NULL);
	batch(&b, 7, 1, 100);
	CU_ASSERT_EQUAL(linkrows_add(lr, "w-w1", &point, &b, err,
	    sizeof(err)), 0);
	CU_ASSERT_EQUAL(linkrows_seen(lr, "w-w1", 7, 1), 1);
	CU_ASSERT_EQUAL(linkrows_seen(lr, "w-w1", 7, 2), 0);
	CU_ASSERT_EQUAL(line_of(1, line, sizeof(line)), 0);
	CU_ASSERT(starts(line, "A,1,64,2,w1,forward,gen,A,w-w1,7,1,0,"));
	CU_ASSERT_PTR_NOT_NULL(strstr(line, ",links/A_w1_64_2.truth,2"));
	CU_ASSERT_EQUAL(line_of(2, line, sizeof(line)), 0);
	CU_ASSERT(starts(line, "A,1,64,2,w1,reverse,A,gen,"));
	CU_ASSERT_EQUAL(linkrows_close(lr, err, sizeof(err)), 0);
	linkrows_free(lr);
	CU_ASSERT(unit_rm_tree(dir) == 0);
}

static void
t_reopen_drops_a_report_cut_short_and_knows_the_whole_ones(void)
{
	struct linkrows *lr;
	Hoplab__ResultBatch b;
	char path[400], line[4096];
	FILE *f;

	CU_ASSERT_FATAL(unit_tmpdir(dir, sizeof(dir), "test-links") == 0);
	CU_ASSERT_FATAL((lr = linkrows_open(dir, err, sizeof(err))) != NULL);
	batch(&b, 7, 1, 100);
	CU_ASSERT_EQUAL(linkrows_add(lr, "w-w1", &point, &b, err,
	    sizeof(err)), 0);
	batch(&b, 7, 2, 200);
	CU_ASSERT_EQUAL(linkrows_add(lr, "w-w1", &point, &b, err,
	    sizeof(err)), 0);
	linkrows_free(lr);
	/* Batch 2 loses its second row: the disk filled mid-report. */
	CU_ASSERT_EQUAL(line_of(3, line, sizeof(line)), 0);
	snprintf(path, sizeof(path), "%s/links.csv", dir);
	CU_ASSERT_FATAL((f = fopen(path, "r+")) != NULL);
	CU_ASSERT(fseek(f, 0, SEEK_END) == 0);
	CU_ASSERT(ftruncate(fileno(f), ftell(f) - 40) == 0);
	fclose(f);
	CU_ASSERT_FATAL((lr = linkrows_open(dir, err, sizeof(err))) != NULL);
	CU_ASSERT_EQUAL(nlines(), 3);		/* header, batch 1 */
	CU_ASSERT_EQUAL(linkrows_seen(lr, "w-w1", 7, 1), 1);
	CU_ASSERT_EQUAL(linkrows_seen(lr, "w-w1", 7, 2), 0);
	/* Its agent sends batch 2 again; no point owns the role now. */
	CU_ASSERT_EQUAL(linkrows_add(lr, "w-w1", &(struct linkrow_point){
	    NULL, NULL, NULL, NULL, "w1", "gen", "A", NULL }, &b, err,
	    sizeof(err)), 0);
	CU_ASSERT_EQUAL(nlines(), 5);
	CU_ASSERT_EQUAL(line_of(3, line, sizeof(line)), 0);
	CU_ASSERT(starts(line, "A,1,64,2,w1,forward,gen,A,w-w1,7,2,0,"));
	CU_ASSERT_PTR_NOT_NULL(strstr(line, ",200,"));
	CU_ASSERT_PTR_NOT_NULL(strstr(line, ",links/A_w1_64_2.truth,2"));
	/* A role with no row before: empty point columns. */
	batch(&b, 9, 1, 5);
	CU_ASSERT_EQUAL(linkrows_add(lr, "w-w1", &(struct linkrow_point){
	    NULL, NULL, NULL, NULL, "w1", "gen", "A", NULL }, &b, err,
	    sizeof(err)), 0);
	CU_ASSERT_EQUAL(line_of(5, line, sizeof(line)), 0);
	CU_ASSERT(starts(line, ",,,,w1,forward,gen,A,w-w1,9,1,"));
	linkrows_free(lr);
	CU_ASSERT(unit_rm_tree(dir) == 0);
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST(t_a_report_is_a_row_per_direction_with_its_batch_rows),
		UNIT_TEST(t_reopen_drops_a_report_cut_short_and_knows_the_whole_ones),
	};

	return UNIT_MAIN("results_links", tests);
}
