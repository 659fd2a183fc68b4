/*
 * Unit suite for agent/spool.c: batches written under their (role,
 * batch_seq) name, deleted only by their ack, reloaded in order by a new
 * spool on the same folder, the two bounds, and the error paths (disk
 * full, I/O error, failed rename) injected through struct spool_io, each
 * of which must leave nothing on disk and say which file and why.
 *
 * Every test works in a fresh temporary folder under $TMPDIR.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "agent/spool.h"
#include "tests/unit/unit.h"

static char dir[256];
static char err[512];

static void
fresh_dir(void)
{
	const char *t = getenv("TMPDIR");

	snprintf(dir, sizeof(dir), "%s/test-spool.XXXXXX", t ? t : "/tmp");
	CU_ASSERT_FATAL(mkdtemp(dir) != NULL);
	strcat(dir, "/spool");		/* spool_open() creates it */
}

static void
rm_dir(void)
{
	char path[512], *slash;
	struct dirent *de;
	DIR *d;

	if ((d = opendir(dir)) != NULL) {
		while ((de = readdir(d)) != NULL) {
			snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
			unlink(path);
		}
		closedir(d);
	}
	rmdir(dir);
	if ((slash = strrchr(dir, '/')) != NULL) {
		*slash = '\0';
		rmdir(dir);
	}
}

/* Files in the folder, "." and ".." not counted. */
static int
nfiles(void)
{
	struct dirent *de;
	DIR *d = opendir(dir);
	int n = 0;

	CU_ASSERT_FATAL(d != NULL);
	while ((de = readdir(d)) != NULL)
		n += strcmp(de->d_name, ".") != 0 &&
		    strcmp(de->d_name, "..") != 0;
	closedir(d);
	return n;
}

static int
exists(const char *name)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return access(path, F_OK) == 0;
}

/* A batch with one flow whose `sent` is SENT. */
static Hoplab__ResultBatch *
batch(uint32_t role, uint64_t seq, const char *run, uint64_t sent)
{
	static Hoplab__ResultBatch rb;
	static Hoplab__FlowResult fr, *frp[1];

	hoplab__result_batch__init(&rb);
	hoplab__flow_result__init(&fr);
	fr.flow_id = 1;
	fr.name = "probe";
	fr.sent = sent;
	frp[0] = &fr;
	rb.role_id = role;
	rb.batch_seq = seq;
	rb.run_id = (char *)run;
	rb.final = 1;
	rb.flows = frp;
	rb.n_flows = 1;
	return &rb;
}

static struct spool *
open_sp(const struct spool_io *io)
{
	struct spool *sp = spool_open(dir, 100, 1 << 20, io, err, sizeof(err));

	CU_ASSERT_FATAL(sp != NULL);
	return sp;
}

static void
t_put_writes_a_file_named_role_dash_seq(void)
{
	struct spool *sp;
	Hoplab__ResultBatch *rb;

	fresh_dir();
	sp = open_sp(NULL);
	CU_ASSERT_EQUAL(spool_put(sp, batch(5, 1, "run-a", 2000), err,
	    sizeof(err)), 0);
	CU_ASSERT(exists("5-1.pb"));
	CU_ASSERT_EQUAL(nfiles(), 1);	/* no temporary file left */
	CU_ASSERT_EQUAL(spool_count(sp), 1);
	CU_ASSERT_EQUAL(spool_bytes(sp),
	    hoplab__result_batch__get_packed_size(batch(5, 1, "run-a", 2000)));
	rb = spool_read(sp, spool_first(sp), err, sizeof(err));
	CU_ASSERT_FATAL(rb != NULL);
	CU_ASSERT_EQUAL(rb->role_id, 5);
	CU_ASSERT_EQUAL(rb->batch_seq, 1);
	CU_ASSERT_STRING_EQUAL(rb->run_id, "run-a");
	CU_ASSERT_EQUAL(rb->n_flows, 1);
	CU_ASSERT_EQUAL(rb->flows[0]->sent, 2000);
	hoplab__result_batch__free_unpacked(rb, NULL);
	spool_free(sp);
	rm_dir();
}

/* Interim console batches (batch_seq 0) are forwarded, never kept. */
static void
t_put_keeps_nothing_for_batch_seq_zero(void)
{
	struct spool *sp;

	fresh_dir();
	sp = open_sp(NULL);
	CU_ASSERT_EQUAL(spool_put(sp, batch(5, 0, "run-a", 10), err,
	    sizeof(err)), 0);
	CU_ASSERT_EQUAL(nfiles(), 0);
	CU_ASSERT_EQUAL(spool_count(sp), 0);
	CU_ASSERT_EQUAL(spool_bytes(sp), 0);
	spool_free(sp);
	rm_dir();
}

static void
t_ack_deletes_only_the_acknowledged_batch(void)
{
	struct spool *sp;

	fresh_dir();
	sp = open_sp(NULL);
	spool_put(sp, batch(5, 1, "r", 1), err, sizeof(err));
	spool_put(sp, batch(5, 2, "r", 2), err, sizeof(err));
	spool_put(sp, batch(6, 1, "r", 3), err, sizeof(err));
	CU_ASSERT_EQUAL(spool_ack(sp, 5, 2, err, sizeof(err)), 0);
	CU_ASSERT(exists("5-1.pb"));
	CU_ASSERT(!exists("5-2.pb"));
	CU_ASSERT(exists("6-1.pb"));
	CU_ASSERT_EQUAL(spool_count(sp), 2);
	/* A second ack of the same batch, e.g. after a resend. */
	CU_ASSERT_EQUAL(spool_ack(sp, 5, 2, err, sizeof(err)), -ENOENT);
	CU_ASSERT_EQUAL(spool_ack(sp, 9, 1, err, sizeof(err)), -ENOENT);
	CU_ASSERT_EQUAL(spool_count(sp), 2);
	spool_free(sp);
	rm_dir();
}

static void
t_reopen_loads_unacked_batches_in_role_seq_order(void)
{
	struct spool *sp;
	const struct spool_entry *e;

	fresh_dir();
	sp = open_sp(NULL);
	spool_put(sp, batch(7, 1, "r", 1), err, sizeof(err));
	spool_put(sp, batch(5, 2, "r", 2), err, sizeof(err));
	spool_put(sp, batch(5, 1, "r", 3), err, sizeof(err));
	spool_put(sp, batch(6, 1, "r", 4), err, sizeof(err));
	spool_ack(sp, 6, 1, err, sizeof(err));
	spool_free(sp);		/* the agent dies */
	sp = open_sp(NULL);
	CU_ASSERT_EQUAL(spool_count(sp), 3);
	e = spool_first(sp);
	CU_ASSERT_FATAL(e != NULL);
	CU_ASSERT(e->role_id == 5 && e->batch_seq == 1);
	e = spool_next(e);
	CU_ASSERT_FATAL(e != NULL);
	CU_ASSERT(e->role_id == 5 && e->batch_seq == 2);
	e = spool_next(e);
	CU_ASSERT_FATAL(e != NULL);
	CU_ASSERT(e->role_id == 7 && e->batch_seq == 1);
	CU_ASSERT_STRING_EQUAL(e->run_id, "r");
	CU_ASSERT(spool_next(e) == NULL);
	spool_free(sp);
	rm_dir();
}

static void
write_raw(const char *name, const char *bytes, size_t len)
{
	char path[512];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	CU_ASSERT_FATAL(fd != -1);
	CU_ASSERT_FATAL(write(fd, bytes, len) == (ssize_t)len);
	close(fd);
}

static void
t_reopen_sets_aside_damaged_files_and_drops_temporaries(void)
{
	struct spool *sp;
	uint8_t buf[256];
	size_t len;

	fresh_dir();
	sp = open_sp(NULL);
	spool_put(sp, batch(3, 1, "r", 1), err, sizeof(err));
	spool_free(sp);
	write_raw(".4-1.tmp", "half", 4);		/* crash mid-write */
	write_raw("4-2.pb", "\xff\xff\xff", 3);	/* does not decode */
	/* A whole batch under the wrong name. */
	len = hoplab__result_batch__pack(batch(8, 8, "r", 1), buf);
	write_raw("4-3.pb", (const char *)buf, len);
	write_raw("notes.txt", "x", 1);			/* not ours */
	sp = open_sp(NULL);
	CU_ASSERT_EQUAL(spool_count(sp), 1);
	CU_ASSERT_EQUAL(spool_nbad(sp), 2);
	CU_ASSERT(!exists(".4-1.tmp"));
	CU_ASSERT(exists("4-2.pb.bad"));
	CU_ASSERT(exists("4-3.pb.bad"));
	CU_ASSERT(exists("notes.txt"));
	CU_ASSERT(exists("3-1.pb"));
	spool_free(sp);
	rm_dir();
}

static void
t_full_by_count_refuses_with_enobufs(void)
{
	struct spool *sp;

	fresh_dir();
	sp = spool_open(dir, 2, 1 << 20, NULL, err, sizeof(err));
	CU_ASSERT_FATAL(sp != NULL);
	CU_ASSERT_EQUAL(spool_put(sp, batch(1, 1, "r", 1), err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(spool_put(sp, batch(1, 2, "r", 1), err, sizeof(err)), 0);
	errno = 0;
	CU_ASSERT_EQUAL(spool_put(sp, batch(1, 3, "r", 1), err, sizeof(err)),
	    -1);
	CU_ASSERT_EQUAL(errno, ENOBUFS);
	CU_ASSERT(strstr(err, "is full: 2 unacknowledged batches, the limit "
	    "is 2") != NULL);
	CU_ASSERT(!exists("1-3.pb"));
	/* An ack makes room again. */
	spool_ack(sp, 1, 1, err, sizeof(err));
	CU_ASSERT_EQUAL(spool_put(sp, batch(1, 3, "r", 1), err, sizeof(err)), 0);
	spool_free(sp);
	rm_dir();
}

static void
t_full_by_bytes_refuses_with_enobufs(void)
{
	struct spool *sp;
	size_t one = hoplab__result_batch__get_packed_size(batch(1, 1, "r", 1));

	fresh_dir();
	/* Room for one batch and a bit, not two. */
	sp = spool_open(dir, 100, one + one / 2, NULL, err, sizeof(err));
	CU_ASSERT_FATAL(sp != NULL);
	CU_ASSERT_EQUAL(spool_put(sp, batch(1, 1, "r", 1), err, sizeof(err)), 0);
	errno = 0;
	CU_ASSERT_EQUAL(spool_put(sp, batch(1, 2, "r", 1), err, sizeof(err)),
	    -1);
	CU_ASSERT_EQUAL(errno, ENOBUFS);
	CU_ASSERT(strstr(err, "bytes unacknowledged") != NULL);
	CU_ASSERT_EQUAL(spool_count(sp), 1);
	CU_ASSERT_EQUAL(nfiles(), 1);
	spool_free(sp);
	rm_dir();
}

static void
t_same_name_same_run_is_kept_once_other_run_refused(void)
{
	struct spool *sp;

	fresh_dir();
	sp = open_sp(NULL);
	CU_ASSERT_EQUAL(spool_put(sp, batch(2, 1, "run-a", 1), err,
	    sizeof(err)), 0);
	CU_ASSERT_EQUAL(spool_put(sp, batch(2, 1, "run-a", 1), err,
	    sizeof(err)), 0);
	CU_ASSERT_EQUAL(spool_count(sp), 1);
	errno = 0;
	CU_ASSERT_EQUAL(spool_put(sp, batch(2, 1, "run-b", 1), err,
	    sizeof(err)), -1);
	CU_ASSERT_EQUAL(errno, EEXIST);
	CU_ASSERT(strstr(err, "already kept for run run-a") != NULL);
	spool_free(sp);
	rm_dir();
}

/* Injected failures: the Nth call fails with fail_errno. */
static int fail_errno, calls;

static ssize_t
short_disk_write(int fd, const void *buf, size_t len)
{
	/* Half of the batch fits, then the disk is full. */
	if (calls++ == 0)
		return write(fd, buf, len / 2);
	errno = fail_errno;
	return -1;
}

static int
bad_fsync(int fd)
{
	(void)fd;
	errno = fail_errno;
	return -1;
}

static int
bad_rename(const char *a, const char *b)
{
	(void)a;
	(void)b;
	errno = fail_errno;
	return -1;
}

/* Put with IO; check the failure names the file and the reason. */
static void
put_fails(const struct spool_io *io, int e, const char *reason)
{
	struct spool *sp;
	char want[512];

	fresh_dir();
	sp = open_sp(io);
	fail_errno = e;
	calls = 0;
	errno = 0;
	CU_ASSERT_EQUAL(spool_put(sp, batch(5, 1, "r", 9), err, sizeof(err)),
	    -1);
	CU_ASSERT_EQUAL(errno, e);
	snprintf(want, sizeof(want), "spool %s/", dir);
	CU_ASSERT(strstr(err, want) != NULL);
	CU_ASSERT(strstr(err, reason) != NULL);
	CU_ASSERT_EQUAL(nfiles(), 0);	/* nothing half-written remains */
	CU_ASSERT_EQUAL(spool_count(sp), 0);
	CU_ASSERT_EQUAL(spool_bytes(sp), 0);
	spool_free(sp);
	rm_dir();
}

static void
t_disk_full_mid_write_fails_and_leaves_nothing(void)
{
	const struct spool_io io = { .write = short_disk_write };

	put_fails(&io, ENOSPC, "No space left on device");
}

static void
t_fsync_error_fails_and_leaves_nothing(void)
{
	const struct spool_io io = { .fsync = bad_fsync };

	put_fails(&io, EIO, "Input/output error");
}

static void
t_rename_error_fails_and_leaves_nothing(void)
{
	const struct spool_io io = { .rename = bad_rename };

	put_fails(&io, EROFS, "rename: Read-only file system");
}

static void
t_open_fails_on_a_folder_it_cannot_create(void)
{
	struct spool *sp;

	sp = spool_open("/proc/hoplab-no/spool", 10, 1000, NULL, err,
	    sizeof(err));
	CU_ASSERT(sp == NULL);
	CU_ASSERT(strstr(err, "spool /proc/hoplab-no/spool: mkdir") != NULL);
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST_NAMED("put writes a file named role-seq",
		    t_put_writes_a_file_named_role_dash_seq),
		UNIT_TEST_NAMED("put keeps nothing for batch_seq 0",
		    t_put_keeps_nothing_for_batch_seq_zero),
		UNIT_TEST_NAMED("ack deletes only the acknowledged batch",
		    t_ack_deletes_only_the_acknowledged_batch),
		UNIT_TEST_NAMED(
		    "reopen loads unacked batches in role/seq order",
		    t_reopen_loads_unacked_batches_in_role_seq_order),
		UNIT_TEST_NAMED(
		    "reopen sets aside damaged files, drops temporaries",
		    t_reopen_sets_aside_damaged_files_and_drops_temporaries),
		UNIT_TEST_NAMED("full by count refuses with ENOBUFS",
		    t_full_by_count_refuses_with_enobufs),
		UNIT_TEST_NAMED("full by bytes refuses with ENOBUFS",
		    t_full_by_bytes_refuses_with_enobufs),
		UNIT_TEST_NAMED(
		    "same name: same run kept once, other run refused",
		    t_same_name_same_run_is_kept_once_other_run_refused),
		UNIT_TEST_NAMED("disk full mid-write fails and leaves nothing",
		    t_disk_full_mid_write_fails_and_leaves_nothing),
		UNIT_TEST_NAMED("fsync error fails and leaves nothing",
		    t_fsync_error_fails_and_leaves_nothing),
		UNIT_TEST_NAMED("rename error fails and leaves nothing",
		    t_rename_error_fails_and_leaves_nothing),
		UNIT_TEST_NAMED("open fails on a folder it cannot create",
		    t_open_fails_on_a_folder_it_cannot_create),
	};

	return UNIT_MAIN("spool", tests);
}
