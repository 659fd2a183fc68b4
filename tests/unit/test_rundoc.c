/*
 * test_rundoc: controller/results/rundoc.c, a results folder as one JSON
 * document.  Each test writes a small folder by hand (run.json and the
 * CSV files) into a temporary directory and compares the document with
 * the one written out here byte for byte: cells typed by their column
 * (text, number with the CSV's digits, flags as a list), empty, nan and
 * inf as null, run.json written again with its literals; and the folders
 * it must refuse (a newer results format, no run.json, not a number).
 */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "controller/results/rundoc.h"
#include "tests/unit/unit.h"

static char dir[64];

static void
put(const char *name, const char *text)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(text, f);
	fclose(f);
}

static void
rm(const char *name)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	unlink(path);
}

/* A fresh folder with run.json and a two-row summary.csv. */
static void
folder(void)
{
	snprintf(dir, sizeof(dir), "/tmp/test_rundoc.XXXXXX");
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	put("run.json", "{\n  \"status\": \"completed\",\n"
	    "  \"hoplab_version\": \"0.1.0\",\n  \"results_format\": 1,\n"
	    "  \"ok\": true,\n  \"none\": null,\n  \"x\": -1.50e3,\n"
	    "  \"hosts\": [{\"name\": \"gen\", \"n\": \"7\"}]\n}\n");
	put("summary.csv", "variant,routers,frame_bytes,rep,flow,sent,"
	    "delay_mean_us,jitter_us,ts_source,point\n"
	    "A,1,64,1,probe,500,3.000,,kernel,idt=1ms\n"
	    "A-B,2,64,1,\"a,b\",500,nan,inf,kernel,\n");
}

static void
cleanup(void)
{
	rm("run.json");
	rm("summary.csv");
	rm("hops.csv");
	rm("outages.csv");
	rmdir(dir);
}

/* The document of DIR; RC what rundoc_write must return. */
static char *
doc(int rc)
{
	char err[512] = "", *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL(rundoc_write(f, dir, err, sizeof(err)), rc);
	fclose(f);
	return text;
}

static void
same(const char *got, const char *want)
{
	CU_ASSERT_STRING_EQUAL(got, want);
	if (strcmp(got, want) != 0)
		fprintf(stderr, "\n got: [%s]\nwant: [%s]\n", got, want);
}

static void
t_cells_are_typed_by_column_and_missing_files_are_empty(void)
{
	char *got;

	folder();
	got = doc(0);
	same(got, "{\n"
	    "  \"format\": \"hoplab-run\",\n"
	    "  \"format_version\": 1,\n"
	    "  \"hoplab_version\": \"0.1.0\",\n"
	    "  \"run\": {\n"
	    "    \"status\": \"completed\",\n"
	    "    \"hoplab_version\": \"0.1.0\",\n"
	    "    \"results_format\": 1,\n"
	    "    \"ok\": true,\n"
	    "    \"none\": null,\n"
	    "    \"x\": -1.50e3,\n"
	    "    \"hosts\": [{\"name\": \"gen\", \"n\": \"7\"}]\n"
	    "  },\n"
	    "  \"summary\": [\n"
	    "    {\"variant\": \"A\", \"routers\": 1, \"frame_bytes\": 64, "
	    "\"rep\": 1, \"flow\": \"probe\", \"sent\": 500, "
	    "\"delay_mean_us\": 3.000, \"jitter_us\": null, "
	    "\"ts_source\": \"kernel\", \"point\": \"idt=1ms\"},\n"
	    "    {\"variant\": \"A-B\", \"routers\": 2, \"frame_bytes\": 64, "
	    "\"rep\": 1, \"flow\": \"a,b\", \"sent\": 500, "
	    "\"delay_mean_us\": null, \"jitter_us\": null, "
	    "\"ts_source\": \"kernel\", \"point\": \"\"}\n"
	    "  ],\n"
	    "  \"hops\": [],\n"
	    "  \"outages\": []\n"
	    "}\n");
	free(got);
	cleanup();
}

static void
t_hops_flags_are_a_list_and_outages_numbers(void)
{
	char *got, *h, *o;

	folder();
	put("hops.csv", "flow,frame_bytes,method,variants,t_router_us,"
	    "ci95_lo_us,flags\n"
	    "probe,64,difference,A-B - A,2.5000,,single-run;disturbed\n"
	    "probe,64,regression,slope over all,-0.5,1.25,\n");
	put("outages.csv", "point,variant,frame,rep,flow,fault,outage_s\n"
	    "2,A-B,64,1,probe,link A-B down,0.500\n");
	got = doc(0);
	h = strstr(got, "  \"hops\": [");
	o = strstr(got, "  \"outages\": [");
	CU_ASSERT_PTR_NOT_NULL_FATAL(h);
	CU_ASSERT_PTR_NOT_NULL_FATAL(o);
	same(h, "  \"hops\": [\n"
	    "    {\"flow\": \"probe\", \"frame_bytes\": 64, \"method\": "
	    "\"difference\", \"variants\": \"A-B - A\", \"t_router_us\": "
	    "2.5000, \"ci95_lo_us\": null, \"flags\": [\"single-run\", "
	    "\"disturbed\"]},\n"
	    "    {\"flow\": \"probe\", \"frame_bytes\": 64, \"method\": "
	    "\"regression\", \"variants\": \"slope over all\", "
	    "\"t_router_us\": -0.5, \"ci95_lo_us\": 1.25, \"flags\": []}\n"
	    "  ],\n"
	    "  \"outages\": [\n"
	    "    {\"point\": 2, \"variant\": \"A-B\", \"frame\": 64, \"rep\": 1, "
	    "\"flow\": \"probe\", \"fault\": \"link A-B down\", \"outage_s\": "
	    "0.500}\n"
	    "  ]\n"
	    "}\n");
	free(got);
	cleanup();
}

static void
t_newer_format_is_refused_older_taken(void)
{
	char err[512] = "";

	folder();
	put("run.json", "{\"hoplab_version\": \"9.0\", \"results_format\": 2}");
	CU_ASSERT_EQUAL(rundoc_check(dir, err, sizeof(err)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "written by a newer hoplab (9.0, "
	    "results format 2)"));
	free(doc(-1));
	put("run.json", "{\"hoplab_version\": \"0.0.9\"}");	/* format 1 */
	CU_ASSERT_EQUAL(rundoc_check(dir, err, sizeof(err)), 0);
	put("run.json", "[1, 2]");
	CU_ASSERT_EQUAL(rundoc_check(dir, err, sizeof(err)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "not a hoplab run.json"));
	rm("run.json");
	CU_ASSERT_EQUAL(rundoc_check(dir, err, sizeof(err)), 1);
	free(doc(-1));
	cleanup();
}

static void
t_a_number_column_with_text_is_an_error(void)
{
	char err[512] = "";
	FILE *f = fopen("/dev/null", "w");

	folder();
	put("summary.csv", "variant,routers,frame_bytes,rep,flow,sent\n"
	    "A,1,64,1,probe,many\n");
	CU_ASSERT_EQUAL(rundoc_write(f, dir, err, sizeof(err)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "summary.csv: row 1, column sent: "
	    "'many' is not a number"));
	rm("summary.csv");
	CU_ASSERT_EQUAL(rundoc_write(f, dir, err, sizeof(err)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "summary.csv"));
	fclose(f);
	cleanup();
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST(t_cells_are_typed_by_column_and_missing_files_are_empty),
		UNIT_TEST(t_hops_flags_are_a_list_and_outages_numbers),
		UNIT_TEST(t_newer_format_is_refused_older_taken),
		UNIT_TEST(t_a_number_column_with_text_is_an_error),
	};

	return UNIT_MAIN("rundoc", tests);
}
