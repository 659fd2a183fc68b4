/* durable: fsync of files and folders, whole files by rename (durable.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <string.h>
#include <unistd.h>

#include "durable.h"

static int
fail(const char *path, int e, char *err, size_t errlen)
{
	if (err != NULL && errlen > 0)
		snprintf(err, errlen, "%s: %s", path, strerror(e ? e : EIO));
	errno = e ? e : EIO;
	return -1;
}

int
durable_file(FILE *f, const char *path, char *err, size_t errlen)
{
	errno = 0;
	if (fflush(f) == EOF || ferror(f))
		return fail(path, errno, err, errlen);
	if (fsync(fileno(f)) == -1)
		return fail(path, errno, err, errlen);
	return 0;
}

int
durable_dir(const char *dir, char *err, size_t errlen)
{
	int fd, e;

	if ((fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1)
		return fail(dir, errno, err, errlen);
	if (fsync(fd) == -1) {
		e = errno;
		close(fd);
		return fail(dir, e, err, errlen);
	}
	close(fd);
	return 0;
}

int
durable_parent(const char *path, char *err, size_t errlen)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');

	if (slash == NULL)
		return durable_dir(".", err, errlen);
	if (slash == path)
		return durable_dir("/", err, errlen);
	if ((size_t)(slash - path) >= sizeof(dir))
		return fail(path, ENAMETOOLONG, err, errlen);
	memcpy(dir, path, (size_t)(slash - path));
	dir[slash - path] = '\0';
	return durable_dir(dir, err, errlen);
}

int
durable_rename(const char *from, const char *to, char *err, size_t errlen)
{
	if (rename(from, to) == -1)
		return fail(to, errno, err, errlen);
	return durable_parent(to, err, errlen);
}

int
durable_commit(FILE *f, const char *from, const char *to, char *err,
    size_t errlen)
{
	int bad, e;

	bad = durable_file(f, from, err, errlen) == -1;
	e = errno;
	if (fclose(f) == EOF && !bad) {
		e = errno;
		bad = fail(from, e, err, errlen) == -1;
	}
	if (!bad && durable_rename(from, to, err, errlen) == 0)
		return 0;
	e = errno;
	unlink(from);
	errno = e;
	return -1;
}

void
durable_undo(FILE *f, long good)
{
	int e = errno;

	__fpurge(f);		/* or fclose() writes it after all */
	clearerr(f);
	if (good >= 0 && ftruncate(fileno(f), (off_t)good) == 0)
		(void)fseek(f, good, SEEK_SET);
	errno = e;
}

FILE *
durable_append(const char *path, const char *header, long *start,
    char *err, size_t errlen)
{
	FILE *f;
	size_t n = strlen(header);

	if ((f = fopen(path, "a")) == NULL) {
		fail(path, errno, err, errlen);
		return NULL;
	}
	if (fseek(f, 0, SEEK_END) == -1 || (*start = ftell(f)) < 0) {
		fail(path, errno, err, errlen);
		fclose(f);
		return NULL;
	}
	if (*start == 0 && n > 0) {
		fputs(header, f);
		if (header[n - 1] != '\n')
			fputc('\n', f);
	}
	return f;
}

int
durable_append_end(FILE *f, const char *path, long start, char *err,
    size_t errlen)
{
	int e;

	if (durable_file(f, path, err, errlen) == 0) {
		if (fclose(f) == 0)
			return 0;
		e = errno;	/* the close's error is the one to report */
		if (truncate(path, (off_t)start) == -1)
			errno = e;
		return fail(path, e, err, errlen);
	}
	e = errno;
	durable_undo(f, start);
	fclose(f);
	errno = e;
	return -1;
}
