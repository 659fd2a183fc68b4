/*
 * Unit suite for shipping a generator's files (issue 17): the
 * controller's controller/run/genfiles.c reads the files the flows name
 * from the plan's folder into GenParams.files, and the agent's
 * agent/rolefiles.c checks them and writes them into a fresh folder.
 * The truths are the bytes written here and the file system: what is
 * shipped is what the file holds, once per name; a link is not followed;
 * a set over 512 KiB is not shipped; the agent's copy has the same bytes
 * in a folder of its own, created O_EXCL, and is gone after removal.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include <CUnit/CUnit.h>

#include "agent/rolefiles.h"
#include "controller/run/genfiles.h"
#include "tests/unit/unit.h"

static char dir[] = "/tmp/test_genfiles.XXXXXX";
static char err[512];

static void
make_file(const char *name, const char *text, size_t len)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	CU_ASSERT_FATAL((f = fopen(path, "w")) != NULL);
	fwrite(text, 1, len, f);
	fclose(f);
}

/* GP with N flows, flow i's idt and frame distributions from the lists. */
static Hoplab__FlowSpec fs[4], *fsp[4];

static void
flows(Hoplab__GenParams *gp, size_t n, const char *const *idt,
    const char *const *frame)
{
	size_t i;

	hoplab__gen_params__init(gp);
	for (i = 0; i < n; i++) {
		hoplab__flow_spec__init(&fs[i]);
		fs[i].idt_dist = (char *)idt[i];
		fs[i].frame_dist = (char *)frame[i];
		fsp[i] = &fs[i];
	}
	gp->flows = fsp;
	gp->n_flows = n;
}

static void
t_files_are_shipped_once_with_their_bytes(void)
{
	static const char *const idt[] = { "csv:gaps.csv", "exp:1ms",
	    "csv:gaps.csv" };
	static const char *const frame[] = { "", "csv:sizes.csv", "" };
	Hoplab__GenParams gp;
	int note = -1;

	make_file("gaps.csv", "1ms\n2ms\n", 8);
	make_file("sizes.csv", "64\n1518\n", 8);
	flows(&gp, 3, idt, frame);
	CU_ASSERT_EQUAL_FATAL(genfiles_attach(dir, &gp, &note, err,
	    sizeof(err)), 0);
	CU_ASSERT_EQUAL(note, 0);
	CU_ASSERT_EQUAL_FATAL(gp.n_files, 2);
	CU_ASSERT_STRING_EQUAL(gp.files[0]->name, "gaps.csv");
	CU_ASSERT_EQUAL(gp.files[0]->data.len, 8);
	CU_ASSERT_NSTRING_EQUAL(gp.files[0]->data.data, "1ms\n2ms\n", 8);
	CU_ASSERT_STRING_EQUAL(gp.files[1]->name, "sizes.csv");
	CU_ASSERT_EQUAL(rolefiles_check(&gp, err, sizeof(err)), 0);
	genfiles_free(&gp);
	CU_ASSERT_EQUAL(gp.n_files, 0);
}

static void
t_links_are_refused_and_big_sets_not_shipped(void)
{
	static const char *const idt[] = { "csv:link.csv" };
	static const char *const big[] = { "csv:big.csv" };
	static const char *const none[] = { "" };
	char path[300], *buf;
	Hoplab__GenParams gp;
	int note = -1;

	snprintf(path, sizeof(path), "%s/link.csv", dir);
	CU_ASSERT_FATAL(symlink("/etc/passwd", path) == 0);
	flows(&gp, 1, idt, none);
	CU_ASSERT_EQUAL(genfiles_attach(dir, &gp, &note, err, sizeof(err)),
	    -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "link.csv: a symbolic link"));
	genfiles_free(&gp);
	CU_ASSERT_FATAL((buf = malloc(GENFILES_BYTES + 1)) != NULL);
	memset(buf, '7', GENFILES_BYTES + 1);
	make_file("big.csv", buf, GENFILES_BYTES + 1);
	free(buf);
	flows(&gp, 1, big, none);
	CU_ASSERT_EQUAL(genfiles_attach(dir, &gp, &note, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(note, 1);
	CU_ASSERT_EQUAL(gp.n_files, 0);
	genfiles_free(&gp);
}

static void
t_the_agent_writes_them_into_a_folder_of_its_own(void)
{
	static const char *const idt[] = { "csv:gaps.csv" };
	static const char *const none[] = { "" };
	Hoplab__GenParams gp;
	char rdir[256], path[600], got[16] = "";
	struct stat st;
	FILE *f;

	flows(&gp, 1, idt, none);
	CU_ASSERT_EQUAL_FATAL(genfiles_attach(dir, &gp, NULL, err,
	    sizeof(err)), 0);
	CU_ASSERT_EQUAL_FATAL(rolefiles_write(dir, 7, &gp, rdir,
	    sizeof(rdir), err, sizeof(err)), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(rdir, "/gen/7-"));
	snprintf(path, sizeof(path), "%s/gaps.csv", rdir);
	CU_ASSERT_FATAL((f = fopen(path, "r")) != NULL);
	CU_ASSERT_EQUAL(fread(got, 1, sizeof(got), f), 8);
	fclose(f);
	CU_ASSERT_STRING_EQUAL(got, "1ms\n2ms\n");
	CU_ASSERT_EQUAL(stat(path, &st), 0);
	CU_ASSERT_EQUAL(st.st_mode & 0777, 0600);
	rolefiles_remove(rdir);
	CU_ASSERT_EQUAL(stat(rdir, &st), -1);
	genfiles_free(&gp);
}

static void
t_the_agent_refuses_bad_sets(void)
{
	static const char *const idt[] = { "csv:gaps.csv" };
	static const char *const other[] = { "csv:other.csv" };
	static const char *const none[] = { "" };
	Hoplab__GenParams gp;
	char *name;

	flows(&gp, 1, idt, none);
	CU_ASSERT_EQUAL_FATAL(genfiles_attach(dir, &gp, NULL, err,
	    sizeof(err)), 0);
	fs[0].idt_dist = (char *)other[0];	/* names one not shipped */
	CU_ASSERT_EQUAL(rolefiles_check(&gp, err, sizeof(err)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "not among the 1 shipped"));
	fs[0].idt_dist = (char *)idt[0];
	name = gp.files[0]->name;
	gp.files[0]->name = "../gaps.csv";
	CU_ASSERT_EQUAL(rolefiles_check(&gp, err, sizeof(err)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "expected a plain file name"));
	gp.files[0]->name = name;
	genfiles_free(&gp);
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST(t_files_are_shipped_once_with_their_bytes),
		UNIT_TEST(t_links_are_refused_and_big_sets_not_shipped),
		UNIT_TEST(t_the_agent_writes_them_into_a_folder_of_its_own),
		UNIT_TEST(t_the_agent_refuses_bad_sets),
	};
	char cmd[64];
	int rc;

	if (mkdtemp(dir) == NULL)
		return 1;
	rc = UNIT_MAIN("genfiles", tests);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd) != 0)
		rc = 1;
	return rc;
}
