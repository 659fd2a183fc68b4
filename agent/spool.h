/*
 * spool: the agent's result batches on disk until the controller has
 * acknowledged them.
 *
 * Every ResultBatch a child sends is written to DIR/<run>/<role>-<seq>.pb
 * (the packed hoplab.ResultBatch, nothing else) before it is forwarded:
 * written to a temporary file, fsync()ed, renamed into place and the
 * folder fsync()ed, so that after a crash a file either holds the whole
 * batch or is not there.  An Ack for (run, role, batch_seq) deletes it;
 * an Ack naming another run deletes nothing.  Role ids come from wall
 * time, so two runs may share one: the run folder keeps them apart.  A
 * new agent on the same folder loads what is left and resends it.
 *
 * One agent per spool: spool_open() takes an flock(2) on DIR/.lock that
 * is held until spool_free() (or the process dies), and a second open
 * fails naming the folder and the pid that holds it.  Files of the flat
 * layout of earlier versions (DIR/<role>-<seq>.pb) are moved into their
 * run's folder when the spool is opened.
 *
 * Bounded: at most max_batches files and max_bytes bytes; beyond that a
 * batch is refused (errno ENOBUFS) with a sentence that says which limit.
 * The system calls that write go through a struct spool_io so that the
 * unit suite can make them fail (disk full, I/O error).
 *
 * It deliberately does not log, send or decide anything: the agent does.
 */
#ifndef HOPLAB_SPOOL_H
#define HOPLAB_SPOOL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/queue.h>
#include <sys/types.h>

#include "msg.h"

#define SPOOL_MAX_BATCHES	10000
#define SPOOL_MAX_BYTES		(256ULL << 20)	/* 256 MiB */
#define SPOOL_RUNID_MAX		64		/* incl. the NUL */
#define SPOOL_LOCK		".lock"		/* in DIR, flock()ed */

/* The calls spool_put() writes with; NULL members mean the system's. */
struct spool_io {
	int	(*open)(const char *path, int flags, mode_t mode);
	ssize_t	(*write)(int fd, const void *buf, size_t len);
	int	(*fsync)(int fd);
	int	(*rename)(const char *from, const char *to);
};

/* One batch on disk, in the order it was spooled (or loaded). */
struct spool_entry {
	TAILQ_ENTRY(spool_entry) entry;
	uint32_t role_id;
	uint64_t batch_seq;
	size_t	size;			/* bytes of the file */
	char	run_id[SPOOL_RUNID_MAX];
};

struct spool;

/*
 * Open the spool in DIR, an absolute path (DIR itself created 0700 if
 * missing, not its parents), lock it and load the batches left there:
 * files that are not whole batches are renamed to NAME.bad and counted
 * (spool_nbad()), leftover temporary files removed, flat files of the old
 * layout moved into their run's folder (spool_nmigrated()).  IO may be
 * NULL.  Returns NULL with ERR filled: errno EINVAL for a relative path,
 * EWOULDBLOCK when another spool (another agent) holds the lock.
 */
struct spool *spool_open(const char *dir, size_t max_batches,
	    uint64_t max_bytes, const struct spool_io *io, char *err,
	    size_t errlen);
void	spool_free(struct spool *sp);		/* NULL is fine */
/*
 * Write RB to disk durably; a batch_seq of 0 (hoplab-gen's interval
 * batches for the console, generator/live.c) is not kept and is a
 * success.  Returns 0; -1 with errno and ERR ("spool
 * /path/RUN/.5-1.tmp: No space left on device") when it could not, in
 * which case nothing of it is left on disk; EINVAL for a run id that
 * cannot be a folder name (empty, too long, a leading dot, a '/').  A
 * batch already spooled for the same run is a success (a child's resend).
 */
int	spool_put(struct spool *sp, const Hoplab__ResultBatch *rb, char *err,
	    size_t errlen);
/*
 * The controller acknowledged (RUN, ROLE, SEQ): delete it, and RUN's
 * folder with its last batch.  Returns 0; -ENOENT when no such batch is
 * spooled (a duplicate ack); -ESRCH when none of RUN is but a batch of
 * another run has that (role, seq), which is kept (ERR names it); -1
 * with ERR when the file could not be removed.
 */
int	spool_ack(struct spool *sp, const char *run, uint32_t role,
	    uint64_t seq, char *err, size_t errlen);
/*
 * Move every batch of the spool in OLD (another folder, perhaps another
 * file system) into SP: each is written durably into SP before it is
 * deleted from OLD, so a crash in between leaves it in both and it is
 * only resent.  OLD's lock and folder go when it is empty.  *MOVED counts
 * the batches moved, also on failure.  Returns 0, or -1 with ERR (OLD
 * locked by an agent, a batch SP refused); the rest stays in OLD.
 */
int	spool_take(struct spool *sp, const char *old, size_t *moved,
	    char *err, size_t errlen);
/* Read E back; the caller frees it with hoplab__result_batch__free_unpacked. */
Hoplab__ResultBatch *spool_read(struct spool *sp, const struct spool_entry *e,
	    char *err, size_t errlen);
const struct spool_entry *spool_first(const struct spool *sp);
const struct spool_entry *spool_next(const struct spool_entry *e);
size_t	spool_count(const struct spool *sp);
uint64_t spool_bytes(const struct spool *sp);
size_t	spool_nbad(const struct spool *sp);
size_t	spool_nmigrated(const struct spool *sp);	/* flat files moved */
const char *spool_dir(const struct spool *sp);
/* DIR/<run>/<role>-<seq>.pb into BUF. */
void	spool_path(const struct spool *sp, const char *run, uint32_t role,
	    uint64_t seq, char *buf, size_t len);
/* Whether RUN can name a run's folder: 1..63 bytes, no '/', no leading dot. */
int	spool_runid_ok(const char *run);

#endif
