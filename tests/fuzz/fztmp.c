/*
 * fztmp: one fuzz target's private folder and its input files (fztmp.h).
 * Files are rewritten in place (open O_TRUNC), not created anew, so that
 * an input costs a few system calls.
 */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "tests/fuzz/fztmp.h"

static char dir[PATH_MAX];
static char paths[FZTMP_FILES][PATH_MAX];

static void
cleanup(void)
{
	size_t i;

	for (i = 0; i < FZTMP_FILES; i++)
		if (paths[i][0] != '\0')
			(void)unlink(paths[i]);
	(void)rmdir(dir);
}

const char *
fztmp_dir(void)
{
	const char *t = getenv("TMPDIR");

	if (dir[0] != '\0')
		return dir;
	snprintf(dir, sizeof(dir), "%s/hoplab-fuzz.XXXXXX",
	    t != NULL && t[0] != '\0' ? t : "/tmp");
	if (mkdtemp(dir) == NULL) {
		perror("fztmp: mkdtemp");
		abort();
	}
	atexit(cleanup);
	return dir;
}

const char *
fztmp_file(const char *name, const uint8_t *data, size_t size, mode_t mode)
{
	char path[PATH_MAX];
	size_t i, off = 0;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", fztmp_dir(), name);
	for (i = 0; i < FZTMP_FILES && paths[i][0] != '\0' &&
	    strcmp(paths[i], path) != 0; i++)
		;
	if (i == FZTMP_FILES)
		abort();
	memcpy(paths[i], path, sizeof(path));
	if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
	    mode)) == -1 || fchmod(fd, mode) == -1) {
		perror(path);
		abort();
	}
	for (; off < size; off += (size_t)n)
		if ((n = write(fd, data + off, size - off)) <= 0) {
			perror(path);
			abort();
		}
	close(fd);
	return paths[i];
}
