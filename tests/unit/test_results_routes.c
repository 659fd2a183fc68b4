/*
 * Unit suite for controller/results/routes.c: routes.csv rows from a
 * batch of RouteChanges written here (an initial route, an addition, a
 * removal; the times as exact nanoseconds), compared with the expected
 * text line by line; a resent batch is skipped; a batch with a DaemonLog
 * writes routing/R1-ospf-r7-bird.log with exactly its bytes; a reopened
 * file knows its batches and goes on appending, without a second header.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "controller/results/routes.h"
#include "tests/unit/unit.h"

static char dir[256];
static char err[512];

static void
fresh_dir(void)
{
	const char *t = getenv("TMPDIR");

	snprintf(dir, sizeof(dir), "%s/test-routes.XXXXXX", t ? t : "/tmp");
	CU_ASSERT_FATAL(mkdtemp(dir) != NULL);
}

static void
rm_tree(void)
{
	char cmd[400];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CU_ASSERT(system(cmd) == 0);
}

static char *
slurp(const char *name)
{
	static char buf[8192];
	char path[512];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if ((f = fopen(path, "r")) == NULL)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	return buf;
}

static Hoplab__RouteChange ch[3];
static Hoplab__RouteChange *chp[3] = { &ch[0], &ch[1], &ch[2] };

/* Batch SEQ of role 7: 3 changes (or none with NONE), at 1.7e9 s. */
static void
batch(Hoplab__ResultBatch *b, uint64_t seq, int none)
{
	hoplab__result_batch__init(b);
	b->role_id = 7;
	b->batch_seq = seq;
	if (none)
		return;
	hoplab__route_change__init(&ch[0]);
	ch[0].time_ns = 1700000000000000001LL;
	ch[0].initial = 1;
	ch[0].prefix = "198.18.1.0/24";
	ch[0].dev = "r1-h1";
	ch[0].proto = "kernel";
	hoplab__route_change__init(&ch[1]);
	ch[1].time_ns = 1700000001123456789LL;
	ch[1].prefix = "198.18.6.0/24";
	ch[1].via = "198.18.12.2";
	ch[1].dev = "r1-r2";
	ch[1].metric = 32;
	ch[1].proto = "bird";
	hoplab__route_change__init(&ch[2]);
	ch[2].time_ns = 1700000002000000000LL;
	ch[2].removed = 1;
	ch[2].prefix = "198.18.6.0/24";
	ch[2].via = "198.18.12.2";
	ch[2].dev = "r1-r2";
	ch[2].metric = 32;
	ch[2].proto = "bird";
	b->routes = chp;
	b->n_routes = 3;
}

#define HEADER	"variant,routers,router,role,batch,time_unix_s,event,prefix," \
	"via,dev,metric,proto\n"
#define ROWS(s)	"ospf,4,R1,7," s ",1700000000.000000001,initial," \
	"198.18.1.0/24,,r1-h1,0,kernel\n" \
	"ospf,4,R1,7," s ",1700000001.123456789,add,198.18.6.0/24," \
	"198.18.12.2,r1-r2,32,bird\n" \
	"ospf,4,R1,7," s ",1700000002.000000000,del,198.18.6.0/24," \
	"198.18.12.2,r1-r2,32,bird\n"

static void
t_rows_resend_log_reopen(void)
{
	struct router_role rr = { .role = 7, .agent = "R1",
	    .variant = "ospf", .routers = 4 };
	Hoplab__ResultBatch b;
	Hoplab__DaemonLog dl = HOPLAB__DAEMON_LOG__INIT;
	struct routes *rt;
	char name[256], *text;

	fresh_dir();
	CU_ASSERT_PTR_NOT_NULL_FATAL(rt = routes_open(dir, err, sizeof(err)));
	batch(&b, 1, 1);
	CU_ASSERT_EQUAL(routes_add(rt, "R1", &rr, &b, err, sizeof(err)), 0);
	CU_ASSERT_PTR_NULL(slurp("routes.csv"));	/* none yet */
	batch(&b, 2, 0);
	CU_ASSERT_EQUAL(routes_add(rt, "R1", &rr, &b, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(routes_add(rt, "R1", &rr, &b, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(routes_nrows(rt), 3);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text = slurp("routes.csv"));
	CU_ASSERT_STRING_EQUAL(text, HEADER ROWS("2"));

	batch(&b, 3, 1);
	dl.daemon = "bird";
	dl.log.data = (uint8_t *)"2026-12-02 bird: Started\n";
	dl.log.len = strlen((char *)dl.log.data);
	b.daemon = &dl;
	b.final = 1;
	CU_ASSERT_EQUAL(routes_add(rt, "R1", &rr, &b, err, sizeof(err)), 0);
	routes_log_name("R1", &rr, 7, "bird", name, sizeof(name));
	CU_ASSERT_STRING_EQUAL(name, "R1-ospf-r7-bird.log");
	CU_ASSERT_PTR_NOT_NULL_FATAL(text = slurp("routing/R1-ospf-r7-bird.log"));
	CU_ASSERT_STRING_EQUAL(text, "2026-12-02 bird: Started\n");
	routes_log_name("R/1", NULL, 9, "", name, sizeof(name));
	CU_ASSERT_STRING_EQUAL(name, "R_1-run-r9-daemon.log");
	CU_ASSERT_EQUAL(routes_close(rt, err, sizeof(err)), 0);
	routes_free(rt);

	CU_ASSERT_PTR_NOT_NULL_FATAL(rt = routes_reopen(dir, err,
	    sizeof(err)));
	CU_ASSERT_EQUAL(routes_nrows(rt), 3);
	batch(&b, 2, 0);		/* a resend after the attach */
	CU_ASSERT_EQUAL(routes_add(rt, "R1", &rr, &b, err, sizeof(err)), 0);
	batch(&b, 4, 0);
	CU_ASSERT_EQUAL(routes_add(rt, "R1", &rr, &b, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(routes_nrows(rt), 6);
	routes_free(rt);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text = slurp("routes.csv"));
	CU_ASSERT_STRING_EQUAL(text, HEADER ROWS("2") ROWS("4"));
	rm_tree();
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST_NAMED("rows, resend, daemon log, reopen",
		    t_rows_resend_log_reopen),
	};

	return UNIT_MAIN("results_routes", tests);
}
