/*
 * Unit suite for lib/datafile.c: the files a peer may name (issue 17).
 * The truths are the file system's own: a name with '/' or a leading '.'
 * never leaves the data folder, a symbolic link (to a readable file) is
 * not followed, /dev/zero, a FIFO and a folder are refused without
 * blocking, a file over 64 MiB (sparse, made here) is refused, and the
 * errors name the path, never the content.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include <CUnit/CUnit.h>

#include "datafile.h"
#include "dist.h"
#include "tests/unit/unit.h"

static char dir[] = "/tmp/test_datafile.XXXXXX";
static char err[512];

static void
make_file(const char *name, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	CU_ASSERT_FATAL((f = fopen(path, "w")) != NULL);
	fputs(text, f);
	fclose(f);
}

/* NAME in DIR is refused with an error holding WANT. */
static void
refused(const char *d, const char *name, const char *want)
{
	FILE *f;

	err[0] = '\0';
	f = datafile_open(d, name, NULL, 0, err, sizeof(err));
	CU_ASSERT_PTR_NULL(f);
	if (f != NULL)
		fclose(f);
	if (strstr(err, want) == NULL)
		fprintf(stderr, "%s: got \"%s\", want \"%s\"\n", name, err,
		    want);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, want));
}

static void
t_names(void)
{
	CU_ASSERT_TRUE(datafile_name_ok("sizes.csv"));
	CU_ASSERT_TRUE(datafile_name_ok("imix_2026-12+v2.pcap"));
	CU_ASSERT_FALSE(datafile_name_ok(""));
	CU_ASSERT_FALSE(datafile_name_ok("."));
	CU_ASSERT_FALSE(datafile_name_ok(".."));
	CU_ASSERT_FALSE(datafile_name_ok(".hidden"));
	CU_ASSERT_FALSE(datafile_name_ok("/etc/shadow"));
	CU_ASSERT_FALSE(datafile_name_ok("../etc/shadow"));
	CU_ASSERT_FALSE(datafile_name_ok("a/b"));
	CU_ASSERT_FALSE(datafile_name_ok("a b"));
}

static void
t_plain_file_opens(void)
{
	char path[300], line[32];
	FILE *f;

	make_file("ok.csv", "64\n");
	f = datafile_open(dir, "ok.csv", path, sizeof(path), err,
	    sizeof(err));
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_PTR_NOT_NULL(fgets(line, sizeof(line), f));
	CU_ASSERT_STRING_EQUAL(line, "64\n");
	CU_ASSERT_FALSE(fcntl(fileno(f), F_GETFL) & O_NONBLOCK);
	fclose(f);
	CU_ASSERT_PTR_NOT_NULL(strstr(path, "/ok.csv"));
}

static void
t_names_outside_the_folder_are_refused(void)
{
	refused(dir, "/etc/shadow", "not a file name of the data folder");
	refused(dir, "../etc/passwd", "not a file name of the data folder");
	refused(dir, "..", "not a file name of the data folder");
}

static void
t_links_devices_fifos_folders_big_files(void)
{
	char path[300];
	int fd;

	make_file("secret", "root:$6$hash:19000:0:99999:7:::\n");
	snprintf(path, sizeof(path), "%s/link.csv", dir);
	CU_ASSERT_FATAL(symlink("secret", path) == 0);
	refused(dir, "link.csv", "a symbolic link (not followed)");
	snprintf(path, sizeof(path), "%s/zero", dir);
	CU_ASSERT_FATAL(symlink("/dev/zero", path) == 0);
	refused(dir, "zero", "a symbolic link");
	refused(NULL, "/dev/zero", "not a regular file (a character device)");
	snprintf(path, sizeof(path), "%s/fifo", dir);
	CU_ASSERT_FATAL(mkfifo(path, 0600) == 0);
	refused(dir, "fifo", "not a regular file (a FIFO)");	/* no hang */
	refused(NULL, dir, "not a regular file (a folder)");
	snprintf(path, sizeof(path), "%s/big.csv", dir);
	CU_ASSERT_FATAL((fd = open(path, O_WRONLY | O_CREAT, 0600)) != -1);
	CU_ASSERT_FATAL(ftruncate(fd, DATAFILE_MAX + 1) == 0);
	close(fd);
	refused(dir, "big.csv", "67108865 bytes, more than the 67108864");
}

/* lib/dist.c through the folder: a bad line named, its content not. */
static void
t_dist_errors_name_the_line_not_the_content(void)
{
	struct dist d;

	make_file("shadow.csv", "64\nroot:$6$secrethash:19000\n");
	dist_set_data_dir(dir);
	CU_ASSERT_EQUAL(dist_parse(&d, "csv:shadow.csv", DIST_BYTES, 1, err,
	    sizeof(err)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "/shadow.csv:2: expected a number"));
	CU_ASSERT_PTR_NULL(strstr(err, "secrethash"));
	CU_ASSERT_PTR_NULL(strstr(err, "root"));
	CU_ASSERT_EQUAL(dist_parse(&d, "csv:/etc/passwd", DIST_BYTES, 1, err,
	    sizeof(err)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "not a file name of the data"));
	CU_ASSERT_EQUAL(dist_parse(&d, "pcap-sizes:link.csv", DIST_BYTES, 1,
	    err, sizeof(err)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "a symbolic link"));
	CU_ASSERT_EQUAL_FATAL(dist_parse(&d, "csv:ok.csv", DIST_BYTES, 1, err,
	    sizeof(err)), 0);
	CU_ASSERT_EQUAL(d.nvalues, 1);
	dist_free(&d);
	dist_set_data_dir(NULL);
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST(t_names),
		UNIT_TEST(t_plain_file_opens),
		UNIT_TEST(t_names_outside_the_folder_are_refused),
		UNIT_TEST(t_links_devices_fifos_folders_big_files),
		UNIT_TEST(t_dist_errors_name_the_line_not_the_content),
	};
	char cmd[64];
	int rc;

	if (mkdtemp(dir) == NULL)
		return 1;
	rc = UNIT_MAIN("datafile", tests);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd) != 0)
		rc = 1;
	return rc;
}
