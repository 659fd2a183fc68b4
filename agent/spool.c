/*
 * spool: unacknowledged result batches on disk (see spool.h).
 *
 * Durability follows the usual recipe for a file that must be whole or
 * absent after a crash: write DIR/RUN/.<name>.tmp, fsync it, rename it to
 * DIR/RUN/<name>, fsync DIR/RUN (and DIR when RUN's folder is new).  Only then does the caller forward the batch, so
 * a batch the controller has seen is always on disk until it is
 * acknowledged.  Deleting on ack does not fsync the folder: a deletion
 * lost in a crash only means one batch is resent, and the controller
 * recognises it and acknowledges it again.
 *
 * The index is a list in memory in the order batches were spooled; a
 * spool loaded from disk is ordered by (role, batch_seq, run), which is
 * the order the controller handed out role ids.  A linear search finds a
 * batch for an ack: the spool is normally a handful of batches.
 *
 * The lock is flock(2), not a pid file: the kernel drops it when the
 * holder dies, kill -9 included, so a restarted agent never finds a stale
 * one.  The pid written into the lock file is only for the message.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "agent/spool.h"

struct spool {
	char	dir[4096];
	size_t	max_batches;
	uint64_t max_bytes;
	struct spool_io io;
	TAILQ_HEAD(, spool_entry) list;
	size_t	n;
	uint64_t bytes;
	size_t	nbad;			/* files renamed to .bad at load */
	size_t	nmigrated;		/* flat files moved into RUN/ */
	int	lockfd;			/* DIR/.lock, flock()ed; -1 */
};

static int
sys_open(const char *path, int flags, mode_t mode)
{
	return open(path, flags, mode);
}

static const struct spool_io spool_sysio = {
	.open = sys_open,
	.write = write,
	.fsync = fsync,
	.rename = rename,
};

void
spool_path(const struct spool *sp, const char *run, uint32_t role,
    uint64_t seq, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s/%" PRIu32 "-%" PRIu64 ".pb", sp->dir, run,
	    role, seq);
}

int
spool_runid_ok(const char *run)
{
	size_t n = strlen(run);

	return n > 0 && n < SPOOL_RUNID_MAX && run[0] != '.' &&
	    strchr(run, '/') == NULL;
}

static void
spool_err(char *err, size_t errlen, const char *what, const char *path)
{
	int e = errno;

	snprintf(err, errlen, "spool %s: %s%s%s", path, what, *what ? ": " : "",
	    strerror(e));
	errno = e;
}

/* fsync the folder DIR, so that a rename or a new file in it persists. */
static int
sync_dir(struct spool *sp, const char *dir, char *err, size_t errlen)
{
	int fd, rc;

	if ((fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1) {
		spool_err(err, errlen, "", dir);
		return -1;
	}
	rc = sp->io.fsync(fd);
	if (rc == -1)
		spool_err(err, errlen, "fsync", dir);
	close(fd);
	return rc;
}

/* DIR/RUN, created 0700 (and DIR synced) when it is not there yet. */
static int
run_dir(struct spool *sp, const char *run, char *buf, size_t len, char *err,
    size_t errlen)
{
	snprintf(buf, len, "%s/%s", sp->dir, run);
	if (mkdir(buf, 0700) == 0)
		return sync_dir(sp, sp->dir, err, errlen);
	if (errno == EEXIST)
		return 0;
	spool_err(err, errlen, "mkdir", buf);
	return -1;
}

/* Write all LEN bytes of BUF to a new file PATH and fsync it. */
static int
write_file(struct spool *sp, const char *path, const uint8_t *buf, size_t len,
    char *err, size_t errlen)
{
	size_t off = 0;
	ssize_t n;
	int fd, e;

	fd = sp->io.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd == -1) {
		spool_err(err, errlen, "", path);
		return -1;
	}
	while (off < len) {
		n = sp->io.write(fd, buf + off, len - off);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = EIO;
			goto fail;
		}
		off += (size_t)n;
	}
	if (sp->io.fsync(fd) == -1)
		goto fail;
	if (close(fd) == -1) {
		fd = -1;
		goto fail;
	}
	return 0;
fail:
	e = errno;
	spool_err(err, errlen, "", path);
	if (fd != -1)
		close(fd);
	unlink(path);
	errno = e;
	return -1;
}

/* The batch (RUN, ROLE, SEQ); with RUN NULL, the first of any run. */
static struct spool_entry *
find(const struct spool *sp, const char *run, uint32_t role, uint64_t seq)
{
	struct spool_entry *e;

	TAILQ_FOREACH(e, &sp->list, entry)
		if (e->role_id == role && e->batch_seq == seq &&
		    (run == NULL || strcmp(e->run_id, run) == 0))
			return e;
	return NULL;
}

/* Whether a batch of RUN is still spooled. */
static int
run_used(const struct spool *sp, const char *run)
{
	struct spool_entry *e;

	TAILQ_FOREACH(e, &sp->list, entry)
		if (strcmp(e->run_id, run) == 0)
			return 1;
	return 0;
}

/* Refuse RB when it would take the spool past one of its bounds. */
static int
check_bounds(struct spool *sp, size_t len, char *err, size_t errlen)
{
	if (sp->n >= sp->max_batches)
		snprintf(err, errlen, "spool %s is full: %zu unacknowledged "
		    "batches, the limit is %zu", sp->dir, sp->n,
		    sp->max_batches);
	else if (sp->bytes + len > sp->max_bytes)
		snprintf(err, errlen, "spool %s is full: %" PRIu64 " bytes "
		    "unacknowledged and %zu more would pass the limit of %"
		    PRIu64 " bytes", sp->dir, sp->bytes, len, sp->max_bytes);
	else
		return 0;
	errno = ENOBUFS;
	return -1;
}

static int
add_entry(struct spool *sp, uint32_t role, uint64_t seq, const char *run_id,
    size_t size, char *err, size_t errlen)
{
	struct spool_entry *e;

	if ((e = calloc(1, sizeof(*e))) == NULL) {
		snprintf(err, errlen, "spool %s: out of memory", sp->dir);
		errno = ENOMEM;
		return -1;
	}
	e->role_id = role;
	e->batch_seq = seq;
	e->size = size;
	snprintf(e->run_id, sizeof(e->run_id), "%s", run_id);
	TAILQ_INSERT_TAIL(&sp->list, e, entry);
	sp->n++;
	sp->bytes += size;
	return 0;
}

/* Write the packed BUF as RB's file, durably; nothing left on failure. */
static int
put_file(struct spool *sp, const Hoplab__ResultBatch *rb, const uint8_t *buf,
    size_t len, char *err, size_t errlen)
{
	char rdir[4200], path[4200], tmp[4300];

	if (run_dir(sp, rb->run_id, rdir, sizeof(rdir), err, errlen) == -1)
		return -1;
	spool_path(sp, rb->run_id, rb->role_id, rb->batch_seq, path,
	    sizeof(path));
	snprintf(tmp, sizeof(tmp), "%s/.%" PRIu32 "-%" PRIu64 ".tmp", rdir,
	    rb->role_id, rb->batch_seq);
	if (write_file(sp, tmp, buf, len, err, errlen) == -1)
		return -1;
	if (sp->io.rename(tmp, path) == -1) {
		spool_err(err, errlen, "rename", path);
		unlink(tmp);
		return -1;
	}
	if (sync_dir(sp, rdir, err, errlen) == -1) {
		unlink(path);
		return -1;
	}
	return 0;
}

int
spool_put(struct spool *sp, const Hoplab__ResultBatch *rb, char *err,
    size_t errlen)
{
	char path[4200];
	uint8_t *buf;
	size_t len;
	int rc = -1, e;

	if (rb->batch_seq == 0)
		return 0;		/* console only: nothing to keep */
	if (!spool_runid_ok(rb->run_id)) {
		snprintf(err, errlen, "spool %s: batch %" PRIu64 " of role %"
		    PRIu32 ": run id \"%.64s\" cannot name a folder",
		    sp->dir, rb->batch_seq, rb->role_id, rb->run_id);
		errno = EINVAL;
		return -1;
	}
	if (find(sp, rb->run_id, rb->role_id, rb->batch_seq) != NULL)
		return 0;		/* a child's resend: kept already */
	len = hoplab__result_batch__get_packed_size(rb);
	if (check_bounds(sp, len, err, errlen) == -1)
		return -1;
	if ((buf = malloc(len ? len : 1)) == NULL) {
		snprintf(err, errlen, "spool %s: out of memory", sp->dir);
		errno = ENOMEM;
		return -1;
	}
	hoplab__result_batch__pack(rb, buf);
	if (put_file(sp, rb, buf, len, err, errlen) == 0) {
		rc = add_entry(sp, rb->role_id, rb->batch_seq, rb->run_id, len,
		    err, errlen);
		if (rc == -1) {
			spool_path(sp, rb->run_id, rb->role_id, rb->batch_seq,
			    path, sizeof(path));
			unlink(path);
		}
	}
	e = errno;
	if (rc == -1 && !run_used(sp, rb->run_id)) {
		snprintf(path, sizeof(path), "%s/%s", sp->dir, rb->run_id);
		rmdir(path);		/* made for this batch only */
	}
	free(buf);
	errno = e;
	return rc;
}

int
spool_ack(struct spool *sp, const char *run, uint32_t role, uint64_t seq,
    char *err, size_t errlen)
{
	struct spool_entry *e = find(sp, run, role, seq);
	char path[4200];

	if (e == NULL) {
		if ((e = find(sp, NULL, role, seq)) == NULL)
			return -ENOENT;
		snprintf(err, errlen, "spool %s: batch %" PRIu64 " of role %"
		    PRIu32 " is kept for run %s, not for run %.64s: not "
		    "deleted", sp->dir, seq, role, e->run_id, run);
		return -ESRCH;
	}
	spool_path(sp, run, role, seq, path, sizeof(path));
	if (unlink(path) == -1 && errno != ENOENT) {
		spool_err(err, errlen, "unlink", path);
		return -1;
	}
	TAILQ_REMOVE(&sp->list, e, entry);
	sp->n--;
	sp->bytes -= e->size;
	if (!run_used(sp, e->run_id)) {
		snprintf(path, sizeof(path), "%s/%s", sp->dir, e->run_id);
		rmdir(path);		/* empty now; a stray file keeps it */
	}
	free(e);
	return 0;
}

/* The whole file PATH (at most MSG_MAX_SIZE bytes), unpacked. */
static Hoplab__ResultBatch *
read_batch(const char *path, size_t *size, char *err, size_t errlen)
{
	Hoplab__ResultBatch *rb = NULL;
	struct stat st;
	uint8_t *buf;
	ssize_t n;
	int fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1) {
		spool_err(err, errlen, "", path);
		return NULL;
	}
	if (fstat(fd, &st) == -1 || st.st_size > MSG_MAX_SIZE) {
		snprintf(err, errlen, "spool %s: not a result batch (size)",
		    path);
		close(fd);
		return NULL;
	}
	if ((buf = malloc((size_t)st.st_size + 1)) != NULL &&
	    (n = read(fd, buf, (size_t)st.st_size)) == st.st_size)
		rb = hoplab__result_batch__unpack(NULL, (size_t)n, buf);
	if (rb == NULL)
		snprintf(err, errlen, "spool %s: not a whole result batch",
		    path);
	*size = (size_t)st.st_size;
	free(buf);
	close(fd);
	return rb;
}

Hoplab__ResultBatch *
spool_read(struct spool *sp, const struct spool_entry *e, char *err,
    size_t errlen)
{
	char path[4200];
	size_t size;

	spool_path(sp, e->run_id, e->role_id, e->batch_seq, path,
	    sizeof(path));
	return read_batch(path, &size, err, errlen);
}

/* "5-1.pb" -> 5, 1; 0 if NAME is a batch's name. */
static int
parse_name(const char *name, uint32_t *role, uint64_t *seq)
{
	unsigned long long r, s;
	int used = 0;

	if (sscanf(name, "%llu-%llu.pb%n", &r, &s, &used) != 2 ||
	    name[used] != '\0' || !isdigit((unsigned char)name[0]) ||
	    r == 0 || r > UINT32_MAX)
		return -1;
	*role = (uint32_t)r;
	*seq = s;
	return 0;
}

/* PATH is not a whole batch: set it aside as PATH.bad and count it. */
static void
set_aside(struct spool *sp, const char *path, Hoplab__ResultBatch *rb)
{
	char bad[4300];

	snprintf(bad, sizeof(bad), "%s.bad", path);
	rename(path, bad);
	sp->nbad++;
	if (rb != NULL)
		hoplab__result_batch__free_unpacked(rb, NULL);
}

/*
 * Load NAME of the run folder RUN (DIR/RUN/NAME); bad files are set aside,
 * not fatal.  A batch must name its file: role, seq and run.
 */
static int
load_one(struct spool *sp, const char *run, const char *name, char *err,
    size_t errlen)
{
	char path[4200], why[512];
	Hoplab__ResultBatch *rb;
	uint32_t role;
	uint64_t seq;
	size_t size;
	int rc;

	snprintf(path, sizeof(path), "%s/%s/%s", sp->dir, run, name);
	if (name[0] == '.' && strstr(name, ".tmp") != NULL) {
		unlink(path);		/* a write a crash interrupted */
		return 0;
	}
	if (parse_name(name, &role, &seq) == -1)
		return 0;		/* not ours: .bad files, others */
	rb = read_batch(path, &size, why, sizeof(why));
	if (rb == NULL || rb->role_id != role || rb->batch_seq != seq ||
	    strcmp(rb->run_id, run) != 0) {
		set_aside(sp, path, rb);
		return 0;
	}
	rc = add_entry(sp, role, seq, run, size, err, errlen);
	hoplab__result_batch__free_unpacked(rb, NULL);
	return rc;
}

/* Every file of the run folder DIR/RUN. */
static int
load_run(struct spool *sp, const char *run, char *err, size_t errlen)
{
	char path[4200];
	struct dirent *de;
	DIR *d;
	int rc = 0;

	snprintf(path, sizeof(path), "%s/%s", sp->dir, run);
	if ((d = opendir(path)) == NULL) {
		spool_err(err, errlen, "", path);
		return -1;
	}
	while (rc == 0 && (de = readdir(d)) != NULL)
		if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0)
			rc = load_one(sp, run, de->d_name, err, errlen);
	closedir(d);
	if (rc == 0 && !run_used(sp, run))
		rmdir(path);	/* a crash between the last unlink and rmdir */
	return rc;
}

/*
 * A file NAME at the top of DIR: a temporary is removed; a batch of the
 * flat layout (DIR/<role>-<seq>.pb, before batches were kept per run) is
 * moved into its run's folder and indexed, or removed when that folder
 * holds it already.  The move is a rename within one file system, then
 * an fsync of both folders.
 */
static int
migrate_one(struct spool *sp, const char *name, char *err, size_t errlen)
{
	char path[4200], rdir[4200], to[4300], why[512];
	Hoplab__ResultBatch *rb;
	uint32_t role;
	uint64_t seq;
	size_t size;
	int rc = 0;

	snprintf(path, sizeof(path), "%s/%s", sp->dir, name);
	if (name[0] == '.' && strstr(name, ".tmp") != NULL) {
		unlink(path);
		return 0;
	}
	if (parse_name(name, &role, &seq) == -1)
		return 0;
	rb = read_batch(path, &size, why, sizeof(why));
	if (rb == NULL || rb->role_id != role || rb->batch_seq != seq ||
	    !spool_runid_ok(rb->run_id)) {
		set_aside(sp, path, rb);
		return 0;
	}
	if (find(sp, rb->run_id, role, seq) != NULL) {
		unlink(path);		/* moved before, the unlink lost */
		hoplab__result_batch__free_unpacked(rb, NULL);
		return 0;
	}
	if (run_dir(sp, rb->run_id, rdir, sizeof(rdir), err, errlen) == -1)
		rc = -1;
	snprintf(to, sizeof(to), "%s/%s", rdir, name);
	if (rc == 0 && rename(path, to) == -1) {
		spool_err(err, errlen, "rename", to);
		rc = -1;
	}
	if (rc == 0 && (rc = sync_dir(sp, rdir, err, errlen)) == 0 &&
	    (rc = sync_dir(sp, sp->dir, err, errlen)) == 0 &&
	    (rc = add_entry(sp, role, seq, rb->run_id, size, err,
	    errlen)) == 0)
		sp->nmigrated++;
	hoplab__result_batch__free_unpacked(rb, NULL);
	return rc;
}

/*
 * Two passes over DIR: the run folders first, then the flat files, each
 * moved into a run folder and indexed (moving them during the first pass
 * could let readdir show a new run folder, and load its batch twice).
 */
static int
load_pass(struct spool *sp, int flat, char *err, size_t errlen)
{
	struct dirent *de;
	struct stat st;
	char path[4200];
	DIR *d;
	int rc = 0;

	if ((d = opendir(sp->dir)) == NULL) {
		spool_err(err, errlen, "", sp->dir);
		return -1;
	}
	while (rc == 0 && (de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.' && strstr(de->d_name, ".tmp") == NULL)
			continue;	/* ".", "..", the lock */
		snprintf(path, sizeof(path), "%s/%s", sp->dir, de->d_name);
		if (lstat(path, &st) == -1)
			continue;
		if (!flat && S_ISDIR(st.st_mode) && spool_runid_ok(de->d_name))
			rc = load_run(sp, de->d_name, err, errlen);
		else if (flat && S_ISREG(st.st_mode))
			rc = migrate_one(sp, de->d_name, err, errlen);
	}
	closedir(d);
	return rc;
}

static int
entry_cmp(const void *a, const void *b)
{
	const struct spool_entry *x = *(const struct spool_entry *const *)a;
	const struct spool_entry *y = *(const struct spool_entry *const *)b;

	if (x->role_id != y->role_id)
		return x->role_id < y->role_id ? -1 : 1;
	if (x->batch_seq != y->batch_seq)
		return x->batch_seq < y->batch_seq ? -1 : 1;
	return strcmp(x->run_id, y->run_id);	/* two runs, one role id */
}

/* Order the loaded entries by (role, batch_seq). */
static int
sort_list(struct spool *sp)
{
	struct spool_entry **v, *e;
	size_t i = 0;

	if (sp->n < 2)
		return 0;
	if ((v = calloc(sp->n, sizeof(*v))) == NULL)
		return -1;
	while ((e = TAILQ_FIRST(&sp->list)) != NULL) {
		TAILQ_REMOVE(&sp->list, e, entry);
		v[i++] = e;
	}
	qsort(v, sp->n, sizeof(*v), entry_cmp);
	for (i = 0; i < sp->n; i++)
		TAILQ_INSERT_TAIL(&sp->list, v[i], entry);
	free(v);
	return 0;
}

static int
load(struct spool *sp, char *err, size_t errlen)
{
	int rc;

	rc = load_pass(sp, 0, err, errlen);
	if (rc == 0)
		rc = load_pass(sp, 1, err, errlen);
	if (rc == 0 && sort_list(sp) == -1) {
		snprintf(err, errlen, "spool %s: out of memory", sp->dir);
		rc = -1;
	}
	return rc;
}

/*
 * flock DIR/.lock for this spool's lifetime and write our pid into it; a
 * lock held elsewhere fails with EWOULDBLOCK and the holder's pid.
 */
static int
lock_dir(struct spool *sp, char *err, size_t errlen)
{
	char path[4200], buf[32];
	ssize_t n;
	long pid = 0;
	int e;

	snprintf(path, sizeof(path), "%s/" SPOOL_LOCK, sp->dir);
	sp->lockfd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW,
	    0600);
	if (sp->lockfd == -1) {
		spool_err(err, errlen, "", path);
		return -1;
	}
	if (flock(sp->lockfd, LOCK_EX | LOCK_NB) == 0) {
		snprintf(buf, sizeof(buf), "%ld\n", (long)getpid());
		/*
		 * The pid only names the holder in a second agent's message:
		 * the lock works without it.  (n, not a (void) cast, which
		 * _FORTIFY_SOURCE's warn_unused_result in the package build
		 * does not accept.)
		 */
		if (ftruncate(sp->lockfd, 0) == 0) {
			n = pwrite(sp->lockfd, buf, strlen(buf), 0);
			(void)n;
		}
		return 0;
	}
	e = errno;
	if ((n = pread(sp->lockfd, buf, sizeof(buf) - 1, 0)) > 0) {
		buf[n] = '\0';
		pid = strtol(buf, NULL, 10);
	}
	if (e == EWOULDBLOCK)
		snprintf(err, errlen, "spool %s is in use by another agent "
		    "(pid %ld holds the lock on %s): one spool per agent",
		    sp->dir, pid, path);
	else
		snprintf(err, errlen, "spool %s: flock: %s", path,
		    strerror(e));
	errno = e;
	return -1;
}

struct spool *
spool_open(const char *dir, size_t max_batches, uint64_t max_bytes,
    const struct spool_io *io, char *err, size_t errlen)
{
	struct spool *sp;
	int e;

	if (dir[0] != '/') {
		snprintf(err, errlen, "spool %s: expected an absolute path",
		    dir);
		errno = EINVAL;
		return NULL;
	}
	if (strlen(dir) >= sizeof(sp->dir) - 64 - SPOOL_RUNID_MAX) {
		snprintf(err, errlen, "spool %s: path too long", dir);
		return NULL;
	}
	if ((sp = calloc(1, sizeof(*sp))) == NULL) {
		snprintf(err, errlen, "spool %s: out of memory", dir);
		return NULL;
	}
	snprintf(sp->dir, sizeof(sp->dir), "%s", dir);
	sp->lockfd = -1;
	sp->max_batches = max_batches;
	sp->max_bytes = max_bytes;
	sp->io = spool_sysio;
	if (io != NULL) {
		if (io->open != NULL)
			sp->io.open = io->open;
		if (io->write != NULL)
			sp->io.write = io->write;
		if (io->fsync != NULL)
			sp->io.fsync = io->fsync;
		if (io->rename != NULL)
			sp->io.rename = io->rename;
	}
	TAILQ_INIT(&sp->list);
	if (mkdir(dir, 0700) == -1 && errno != EEXIST) {
		spool_err(err, errlen, "mkdir", dir);
		spool_free(sp);
		return NULL;
	}
	if (lock_dir(sp, err, errlen) == -1 || load(sp, err, errlen) == -1) {
		e = errno;
		spool_free(sp);
		errno = e;
		return NULL;
	}
	return sp;
}

int
spool_take(struct spool *sp, const char *old, size_t *moved, char *err,
    size_t errlen)
{
	const struct spool_entry *e;
	Hoplab__ResultBatch *rb;
	struct spool *from;
	char path[4200];
	int rc = 0;

	*moved = 0;
	from = spool_open(old, sp->max_batches, sp->max_bytes, NULL, err,
	    errlen);
	if (from == NULL)
		return -1;
	while (rc == 0 && (e = spool_first(from)) != NULL) {
		if ((rb = spool_read(from, e, err, errlen)) == NULL)
			rc = -1;
		else if ((rc = spool_put(sp, rb, err, errlen)) == 0 &&
		    (rc = spool_ack(from, e->run_id, e->role_id, e->batch_seq,
		    err, errlen)) == 0)
			(*moved)++;
		if (rb != NULL)
			hoplab__result_batch__free_unpacked(rb, NULL);
	}
	spool_free(from);
	if (rc == 0) {
		snprintf(path, sizeof(path), "%s/" SPOOL_LOCK, old);
		unlink(path);
		rmdir(old);	/* stays if something else is in it */
	}
	return rc == 0 ? 0 : -1;
}

void
spool_free(struct spool *sp)
{
	struct spool_entry *e;

	if (sp == NULL)
		return;
	while ((e = TAILQ_FIRST(&sp->list)) != NULL) {
		TAILQ_REMOVE(&sp->list, e, entry);
		free(e);
	}
	if (sp->lockfd != -1)
		close(sp->lockfd);	/* drops the flock */
	free(sp);
}

const struct spool_entry *
spool_first(const struct spool *sp)
{
	return TAILQ_FIRST(&sp->list);
}

const struct spool_entry *
spool_next(const struct spool_entry *e)
{
	return TAILQ_NEXT(e, entry);
}

size_t
spool_count(const struct spool *sp)
{
	return sp->n;
}

uint64_t
spool_bytes(const struct spool *sp)
{
	return sp->bytes;
}

size_t
spool_nbad(const struct spool *sp)
{
	return sp->nbad;
}

size_t
spool_nmigrated(const struct spool *sp)
{
	return sp->nmigrated;
}

const char *
spool_dir(const struct spool *sp)
{
	return sp->dir;
}
