/*
 * Unit suite for agent/spool.c: batches written under their run's folder
 * and (role, batch_seq) name, deleted only by an ack that names their
 * run, reloaded in order by a new spool on the same folder, the old flat
 * layout moved into run folders, the lock that keeps a second spool out,
 * the two bounds, and the error paths (disk full, I/O error, failed
 * rename) injected through struct spool_io, each of which must leave
 * nothing on disk and say which file and why.
 *
 * Every test works in a fresh temporary folder under $TMPDIR.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
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

static int
rm_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (type == FTW_DP)
		rmdir(path);
	else
		unlink(path);
	return 0;
}

/* The temporary folder and everything in it. */
static void
rm_dir(void)
{
	char *slash;

	if ((slash = strrchr(dir, '/')) != NULL)
		*slash = '\0';
	nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static int nfound;

static int
count_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	if (type == FTW_F && strcmp(path + ftw->base, ".lock") != 0)
		nfound++;
	return 0;
}

/* Files in the spool and its run folders, the lock not counted. */
static int
nfiles(void)
{
	nfound = 0;
	CU_ASSERT_FATAL(nftw(dir, count_one, 16, FTW_PHYS) == 0);
	return nfound;
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
t_put_writes_run_slash_role_dash_seq(void)
{
	struct spool *sp;
	Hoplab__ResultBatch *rb;

	fresh_dir();
	sp = open_sp(NULL);
	CU_ASSERT_EQUAL(spool_put(sp, batch(5, 1, "run-a", 2000), err,
	    sizeof(err)), 0);
	CU_ASSERT(exists("run-a/5-1.pb"));
	CU_ASSERT(!exists("5-1.pb"));
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
	CU_ASSERT_EQUAL(spool_ack(sp, "r", 5, 2, err, sizeof(err)), 0);
	CU_ASSERT(exists("r/5-1.pb"));
	CU_ASSERT(!exists("r/5-2.pb"));
	CU_ASSERT(exists("r/6-1.pb"));
	CU_ASSERT_EQUAL(spool_count(sp), 2);
	/* A second ack of the same batch, e.g. after a resend. */
	CU_ASSERT_EQUAL(spool_ack(sp, "r", 5, 2, err, sizeof(err)), -ENOENT);
	CU_ASSERT_EQUAL(spool_ack(sp, "r", 9, 1, err, sizeof(err)), -ENOENT);
	CU_ASSERT_EQUAL(spool_count(sp), 2);
	/* The run's last batch takes its folder with it. */
	CU_ASSERT_EQUAL(spool_ack(sp, "r", 5, 1, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(spool_ack(sp, "r", 6, 1, err, sizeof(err)), 0);
	CU_ASSERT(!exists("r"));
	CU_ASSERT(exists(".lock"));
	spool_free(sp);
	rm_dir();
}

static void
t_reopen_loads_unacked_batches_in_role_seq_order(void)
{
	char gone[512];
	struct spool *sp;
	const struct spool_entry *e;

	fresh_dir();
	sp = open_sp(NULL);
	spool_put(sp, batch(7, 1, "r", 1), err, sizeof(err));
	spool_put(sp, batch(5, 2, "r", 2), err, sizeof(err));
	spool_put(sp, batch(5, 1, "r", 3), err, sizeof(err));
	spool_put(sp, batch(6, 1, "r", 4), err, sizeof(err));
	spool_ack(sp, "r", 6, 1, err, sizeof(err));
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
	/* A run folder a crash left empty goes at the next open. */
	snprintf(gone, sizeof(gone), "%s/gone", dir);
	CU_ASSERT(mkdir(gone, 0700) == 0);
	sp = open_sp(NULL);
	CU_ASSERT(!exists("gone"));
	CU_ASSERT_EQUAL(spool_count(sp), 3);
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
	write_raw("r/.4-1.tmp", "half", 4);		/* crash mid-write */
	write_raw("r/4-2.pb", "\xff\xff\xff", 3);	/* does not decode */
	/* A whole batch under the wrong name, and one in another run's. */
	len = hoplab__result_batch__pack(batch(8, 8, "r", 1), buf);
	write_raw("r/4-3.pb", (const char *)buf, len);
	len = hoplab__result_batch__pack(batch(4, 4, "q", 1), buf);
	write_raw("r/4-4.pb", (const char *)buf, len);
	write_raw("r/notes.txt", "x", 1);		/* not ours */
	write_raw(".4-5.tmp", "half", 4);		/* the flat layout's */
	write_raw("4-6.pb", "\xff", 1);
	sp = open_sp(NULL);
	CU_ASSERT_EQUAL(spool_count(sp), 1);
	CU_ASSERT_EQUAL(spool_nbad(sp), 4);
	CU_ASSERT(!exists("r/.4-1.tmp"));
	CU_ASSERT(exists("r/4-2.pb.bad"));
	CU_ASSERT(exists("r/4-3.pb.bad"));
	CU_ASSERT(exists("r/4-4.pb.bad"));
	CU_ASSERT(exists("r/notes.txt"));
	CU_ASSERT(!exists(".4-5.tmp"));
	CU_ASSERT(exists("4-6.pb.bad"));
	CU_ASSERT(exists("r/3-1.pb"));
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
	CU_ASSERT(!exists("r/1-3.pb"));
	/* An ack makes room again. */
	spool_ack(sp, "r", 1, 1, err, sizeof(err));
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

/* Role ids of two runs collide: each run keeps its own batch. */
static void
t_same_name_same_run_is_kept_once_other_run_apart(void)
{
	struct spool *sp;
	Hoplab__ResultBatch *rb;

	fresh_dir();
	sp = open_sp(NULL);
	CU_ASSERT_EQUAL(spool_put(sp, batch(2, 1, "run-a", 1), err,
	    sizeof(err)), 0);
	CU_ASSERT_EQUAL(spool_put(sp, batch(2, 1, "run-a", 1), err,
	    sizeof(err)), 0);
	CU_ASSERT_EQUAL(spool_count(sp), 1);
	CU_ASSERT_EQUAL(spool_put(sp, batch(2, 1, "run-b", 7), err,
	    sizeof(err)), 0);
	CU_ASSERT_EQUAL(spool_count(sp), 2);
	CU_ASSERT(exists("run-a/2-1.pb"));
	CU_ASSERT(exists("run-b/2-1.pb"));
	spool_free(sp);
	sp = open_sp(NULL);
	CU_ASSERT_EQUAL(spool_count(sp), 2);
	CU_ASSERT_EQUAL(spool_ack(sp, "run-a", 2, 1, err, sizeof(err)), 0);
	rb = spool_read(sp, spool_first(sp), err, sizeof(err));
	CU_ASSERT_FATAL(rb != NULL);
	CU_ASSERT_STRING_EQUAL(rb->run_id, "run-b");
	CU_ASSERT_EQUAL(rb->flows[0]->sent, 7);
	hoplab__result_batch__free_unpacked(rb, NULL);
	spool_free(sp);
	rm_dir();
}

/* An ack whose run is not the batch's deletes nothing, and says so. */
static void
t_ack_for_another_run_leaves_the_batch(void)
{
	struct spool *sp;

	fresh_dir();
	sp = open_sp(NULL);
	spool_put(sp, batch(9, 3, "run-a", 1), err, sizeof(err));
	err[0] = '\0';
	CU_ASSERT_EQUAL(spool_ack(sp, "run-b", 9, 3, err, sizeof(err)),
	    -ESRCH);
	CU_ASSERT(strstr(err, "kept for run run-a, not for run run-b") != NULL);
	CU_ASSERT_EQUAL(spool_ack(sp, "", 9, 3, err, sizeof(err)), -ESRCH);
	CU_ASSERT(exists("run-a/9-3.pb"));
	CU_ASSERT_EQUAL(spool_count(sp), 1);
	spool_free(sp);
	sp = open_sp(NULL);		/* and it is still there for a new agent */
	CU_ASSERT_EQUAL(spool_count(sp), 1);
	CU_ASSERT_EQUAL(spool_ack(sp, "run-a", 9, 3, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(spool_count(sp), 0);
	CU_ASSERT_EQUAL(nfiles(), 0);
	spool_free(sp);
	rm_dir();
}

/* Run ids become folder names: nothing that names another folder. */
static void
t_run_id_that_cannot_name_a_folder_is_refused(void)
{
	static const char *const bad[] = { "", ".", "..", ".hidden", "a/b",
	    "../../etc" };
	struct spool *sp;
	size_t i;

	fresh_dir();
	sp = open_sp(NULL);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		errno = 0;
		CU_ASSERT_EQUAL(spool_put(sp, batch(1, 1, bad[i], 1), err,
		    sizeof(err)), -1);
		CU_ASSERT_EQUAL(errno, EINVAL);
		CU_ASSERT(strstr(err, "cannot name a folder") != NULL);
	}
	CU_ASSERT_EQUAL(spool_count(sp), 0);
	CU_ASSERT_EQUAL(nfiles(), 0);
	spool_free(sp);
	rm_dir();
}

/* Files of the flat layout (DIR/ROLE-SEQ.pb) move into their run. */
static void
t_flat_layout_files_move_into_their_run_folder(void)
{
	struct spool *sp;
	uint8_t buf[256];
	size_t len;

	fresh_dir();
	sp = open_sp(NULL);		/* creates the folder */
	spool_free(sp);
	len = hoplab__result_batch__pack(batch(5, 1, "run-a", 11), buf);
	write_raw("5-1.pb", (const char *)buf, len);
	len = hoplab__result_batch__pack(batch(5, 2, "run-a", 12), buf);
	write_raw("5-2.pb", (const char *)buf, len);
	/* A flat batch whose run id could not be a folder is set aside. */
	len = hoplab__result_batch__pack(batch(6, 1, "..", 1), buf);
	write_raw("6-1.pb", (const char *)buf, len);
	sp = open_sp(NULL);
	CU_ASSERT_EQUAL(spool_count(sp), 2);
	CU_ASSERT_EQUAL(spool_nmigrated(sp), 2);
	CU_ASSERT_EQUAL(spool_nbad(sp), 1);
	CU_ASSERT(exists("run-a/5-1.pb") && exists("run-a/5-2.pb"));
	CU_ASSERT(!exists("5-1.pb") && !exists("5-2.pb"));
	CU_ASSERT(exists("6-1.pb.bad"));
	CU_ASSERT_EQUAL(spool_first(sp)->batch_seq, 1);
	CU_ASSERT_EQUAL(spool_ack(sp, "run-a", 5, 1, err, sizeof(err)), 0);
	CU_ASSERT(!exists("run-a/5-1.pb"));
	spool_free(sp);
	sp = open_sp(NULL);		/* nothing moved twice */
	CU_ASSERT_EQUAL(spool_count(sp), 1);
	CU_ASSERT_EQUAL(spool_nmigrated(sp), 0);
	spool_free(sp);
	rm_dir();
}

/* One agent per spool: a second open fails naming the folder and pid. */
static void
t_second_open_is_refused_while_the_first_holds_the_lock(void)
{
	struct spool *sp, *sp2;
	char want[512], c;
	pid_t pid;
	int st, p[2];

	fresh_dir();
	sp = open_sp(NULL);
	errno = 0;
	sp2 = spool_open(dir, 100, 1 << 20, NULL, err, sizeof(err));
	CU_ASSERT(sp2 == NULL);
	CU_ASSERT_EQUAL(errno, EWOULDBLOCK);
	snprintf(want, sizeof(want), "spool %s is in use by another agent "
	    "(pid %ld holds the lock on %s/.lock): one spool per agent", dir,
	    (long)getpid(), dir);
	CU_ASSERT_STRING_EQUAL(err, want);
	spool_free(sp2);
	spool_free(sp);
	sp = open_sp(NULL);		/* free released it */
	spool_free(sp);
	/*
	 * Another process holds it (another agent), then is killed without
	 * spool_free(): the kernel drops the lock, nothing stale is left.
	 */
	CU_ASSERT_FATAL(pipe(p) == 0);
	pid = fork();
	CU_ASSERT_FATAL(pid != -1);
	if (pid == 0) {
		if (spool_open(dir, 100, 1 << 20, NULL, err, sizeof(err)) ==
		    NULL)
			_exit(1);
		(void)write(p[1], "x", 1);
		pause();
		_exit(0);
	}
	close(p[1]);
	CU_ASSERT_FATAL(read(p[0], &c, 1) == 1);
	close(p[0]);
	CU_ASSERT(spool_open(dir, 100, 1 << 20, NULL, err, sizeof(err)) ==
	    NULL);
	snprintf(want, sizeof(want), "(pid %ld holds", (long)pid);
	CU_ASSERT(strstr(err, want) != NULL);
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	sp = open_sp(NULL);
	spool_free(sp);
	rm_dir();
}

/* An old spool elsewhere (RUNDIR/spool) moves into this one, once. */
static void
t_take_moves_an_old_spool_in_and_removes_it(void)
{
	struct spool *sp, *old;
	char olddir[300], lock[320];
	Hoplab__ResultBatch *rb;
	size_t n = 99;

	fresh_dir();
	snprintf(olddir, sizeof(olddir), "%.*s/old", (int)strlen(dir) - 6,
	    dir);
	old = spool_open(olddir, 100, 1 << 20, NULL, err, sizeof(err));
	CU_ASSERT_FATAL(old != NULL);
	spool_put(old, batch(4, 1, "run-a", 41), err, sizeof(err));
	spool_put(old, batch(4, 2, "run-a", 42), err, sizeof(err));
	sp = open_sp(NULL);
	/* Held by a running agent: refused, nothing moved. */
	CU_ASSERT_EQUAL(spool_take(sp, olddir, &n, err, sizeof(err)), -1);
	CU_ASSERT(strstr(err, "is in use by another agent") != NULL);
	CU_ASSERT_EQUAL(n, 0);
	spool_free(old);
	CU_ASSERT_EQUAL(spool_take(sp, olddir, &n, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(n, 2);
	CU_ASSERT_EQUAL(spool_count(sp), 2);
	CU_ASSERT(exists("run-a/4-1.pb") && exists("run-a/4-2.pb"));
	snprintf(lock, sizeof(lock), "%s/.lock", olddir);
	CU_ASSERT(access(lock, F_OK) == -1);
	CU_ASSERT(access(olddir, F_OK) == -1);
	rb = spool_read(sp, spool_first(sp), err, sizeof(err));
	CU_ASSERT_FATAL(rb != NULL);
	CU_ASSERT_EQUAL(rb->flows[0]->sent, 41);
	hoplab__result_batch__free_unpacked(rb, NULL);
	spool_free(sp);
	rm_dir();
}

/* The spool must not depend on the current folder. */
static void
t_relative_path_is_refused(void)
{
	struct spool *sp;

	errno = 0;
	sp = spool_open("hoplab-test-spool", 10, 1000, NULL, err, sizeof(err));
	CU_ASSERT(sp == NULL);
	CU_ASSERT_EQUAL(errno, EINVAL);
	CU_ASSERT_STRING_EQUAL(err, "spool hoplab-test-spool: expected an "
	    "absolute path");
	CU_ASSERT(access("hoplab-test-spool", F_OK) == -1);
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
	snprintf(want, sizeof(want), "spool %s", dir);	/* DIR or a file */
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
		UNIT_TEST_NAMED("put writes RUN/role-seq.pb",
		    t_put_writes_run_slash_role_dash_seq),
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
		    "same name: same run kept once, other run kept apart",
		    t_same_name_same_run_is_kept_once_other_run_apart),
		UNIT_TEST_NAMED("ack for another run leaves the batch",
		    t_ack_for_another_run_leaves_the_batch),
		UNIT_TEST_NAMED("run id that cannot name a folder is refused",
		    t_run_id_that_cannot_name_a_folder_is_refused),
		UNIT_TEST_NAMED("flat layout files move into their run folder",
		    t_flat_layout_files_move_into_their_run_folder),
		UNIT_TEST_NAMED("second open refused while the first holds the "
		    "lock", t_second_open_is_refused_while_the_first_holds_the_lock),
		UNIT_TEST_NAMED("take moves an old spool in and removes it",
		    t_take_moves_an_old_spool_in_and_removes_it),
		UNIT_TEST_NAMED("relative path is refused",
		    t_relative_path_is_refused),
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
