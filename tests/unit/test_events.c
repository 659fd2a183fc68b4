/*
 * test_events: controller/run/events.c, --json-stream's JSON Lines.
 * Every event of a made-up run is written to a file and read back: one
 * line each, in order, each with its name and times first, its members
 * as written out here (the times, which the clock gives, cut out); an
 * interval with nothing received has null delays; a NULL handle writes
 * nothing and closes fine.
 */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "controller/results/results.h"
#include "controller/run/events.h"
#include "tests/unit/unit.h"

/* LINE without its time members: {"event":"x",REST} -> "x|REST". */
static void
untimed(const char *line, char *out, size_t len)
{
	const char *ev = line + strlen("{\"event\":\""), *q, *rest;

	q = strchr(ev, '"');
	rest = strstr(line, "\"elapsed_s\":");
	CU_ASSERT_PTR_NOT_NULL_FATAL(q);
	CU_ASSERT_PTR_NOT_NULL_FATAL(rest);
	CU_ASSERT(strncmp(q, "\",\"time_unix_s\":", 16) == 0);
	rest = strchr(rest, ',');
	snprintf(out, len, "%.*s|%s", (int)(q - ev), ev,
	    rest != NULL ? rest + 1 : "}\n");
}

static void
t_a_run_is_one_line_an_event_in_order(void)
{
	static const char *const want[] = {
		"run_start|\"run_id\":\"p-1\",\"plan\":\"p\",\"plan_path\":"
		    "\"p.yaml\",\"results_dir\":\"r/p-1\",\"points\":2,"
		    "\"points_done\":0,\"results_format\":1}\n",
		"point_start|\"point\":1,\"variant\":\"A\",\"frame_bytes\":64,"
		    "\"rep\":1,\"label\":\"frame=64\",\"agent\":\"gen\","
		    "\"role\":7}\n",
		"interval|\"point\":1,\"flow\":\"probe\",\"interval\":0,"
		    "\"t_s\":0.500,\"length_s\":0.500,\"start_unix_s\":"
		    "1.000000,\"sent\":500,\"received\":499,\"lost\":1,"
		    "\"delay_mean_us\":3.500,\"delay_min_us\":2.000,"
		    "\"delay_max_us\":9.000,\"rx_mbps\":0.5110}\n",
		"interval|\"point\":1,\"flow\":\"probe\",\"interval\":1,"
		    "\"t_s\":1.000,\"length_s\":0.500,\"start_unix_s\":"
		    "1.500000,\"sent\":500,\"received\":0,\"lost\":500,"
		    "\"delay_mean_us\":null,\"delay_min_us\":null,"
		    "\"delay_max_us\":null,\"rx_mbps\":0.0000}\n",
		"fault|\"point\":1,\"t_s\":0.600,\"kind\":\"link\",\"name\":"
		    "\"A-B\",\"action\":\"down\",\"detail\":\"(A:out, B:in)\","
		    "\"ok\":true}\n",
		"point_end|\"point\":1,\"variant\":\"A\",\"frame_bytes\":64,"
		    "\"rep\":1,\"label\":\"frame=64\"}\n",
		"run_end|\"status\":\"failed: \\\"x\\\"\",\"points\":2,"
		    "\"points_done\":1}\n",
	};
	Hoplab__FlowResult f = HOPLAB__FLOW_RESULT__INIT;
	Hoplab__FlowInterval iv = HOPLAB__FLOW_INTERVAL__INIT;
	struct run_point pt = { .variant = "A", .frame = 64, .rep = 1,
	    .agent = "gen", .role = 7 };
	char path[] = "/tmp/test_events.XXXXXX", err[256], line[512],
	    got[512];
	struct events *ev;
	size_t n = 0;
	FILE *in;
	int fd = mkstemp(path);

	CU_ASSERT_FATAL(fd != -1);
	close(fd);
	ev = events_open(path, err, sizeof(err));
	CU_ASSERT_PTR_NOT_NULL_FATAL(ev);
	events_run_start(ev, "p-1", "p", "p.yaml", "r/p-1", 2, 0);
	events_point_start(ev, 0, &pt, "frame=64");
	f.name = "probe";
	iv.length_ns = 500000000;
	iv.start_ns = 1000000000;
	iv.sent = 500;
	iv.received = 499;
	iv.lost = 1;
	iv.delay_mean_ns = 3500;
	iv.delay_min_ns = 2000;
	iv.delay_max_ns = 9000;
	iv.rx_mbps = 0.511;
	events_interval(ev, 0, &f, &iv);
	iv.index = 1;
	iv.start_ns = 1500000000;
	iv.received = 0;
	iv.lost = 500;
	iv.rx_mbps = 0;
	events_interval(ev, 0, &f, &iv);
	events_fault(ev, 0, 0.6, "link", "A-B", "down", "(A:out, B:in)", 1);
	events_point_end(ev, 0, &pt, "frame=64");
	events_run_end(ev, "failed: \"x\"", 1, 2);
	CU_ASSERT_EQUAL(events_close(ev, err, sizeof(err)), 0);
	in = fopen(path, "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(in);
	while (fgets(line, sizeof(line), in) != NULL && n < 7) {
		untimed(line, got, sizeof(got));
		CU_ASSERT_STRING_EQUAL(got, want[n]);
		if (strcmp(got, want[n]) != 0)
			fprintf(stderr, "\n got: [%s]\nwant: [%s]\n", got,
			    want[n]);
		n++;
	}
	CU_ASSERT_EQUAL(n, 7);
	CU_ASSERT_PTR_NULL(fgets(line, sizeof(line), in));
	fclose(in);
	unlink(path);
}

static void
t_no_stream_writes_nothing(void)
{
	char err[64] = "";

	events_run_start(NULL, "p-1", "p", "p.yaml", "r", 1, 0);
	events_run_end(NULL, "completed", 1, 1);
	CU_ASSERT_EQUAL(events_close(NULL, err, sizeof(err)), 0);
	CU_ASSERT_PTR_NULL(events_open("/nonexistent/dir/x", err,
	    sizeof(err)));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "--json-stream /nonexistent/dir/x:"));
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST(t_a_run_is_one_line_an_event_in_order),
		UNIT_TEST(t_no_stream_writes_nothing),
	};

	return UNIT_MAIN("events", tests);
}
