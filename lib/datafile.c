/*
 * datafile: input files named by a peer, opened so that a name cannot
 * reach outside the data folder, follow a link, hang on a device or a
 * FIFO, or read without bound (see datafile.h).  A lib/ module: it never
 * logs, it fills the caller's error buffer.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "datafile.h"

int
datafile_name_ok(const char *name)
{
	size_t n = strlen(name);

	if (n == 0 || n >= DATAFILE_NAME_MAX || name[0] == '.')
		return 0;
	return strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "0123456789._-+") == n;
}

/* FD is open on NAME: a regular file of at most DATAFILE_MAX bytes? */
static int
check_fd(int fd, const char *name, char *err, size_t errlen)
{
	struct stat st;
	int fl;

	if (fstat(fd, &st) == -1) {
		snprintf(err, errlen, "%s: %s", name, strerror(errno));
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: not a regular file (a %s)", name,
		    S_ISDIR(st.st_mode) ? "folder" : S_ISCHR(st.st_mode) ?
		    "character device" : S_ISBLK(st.st_mode) ? "block device" :
		    S_ISFIFO(st.st_mode) ? "FIFO" : S_ISSOCK(st.st_mode) ?
		    "socket" : "special file");
		return -1;
	}
	if (st.st_size > DATAFILE_MAX) {
		snprintf(err, errlen, "%s: %lld bytes, more than the %lld a "
		    "data file may have", name, (long long)st.st_size,
		    DATAFILE_MAX);
		return -1;
	}
	if ((fl = fcntl(fd, F_GETFL)) == -1 ||
	    fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) == -1) {
		snprintf(err, errlen, "%s: %s", name, strerror(errno));
		return -1;
	}
	return 0;
}

FILE *
datafile_open(const char *dir, const char *name, char *path, size_t pathlen,
    char *err, size_t errlen)
{
	char buf[4096];
	FILE *f;
	int fd;

	if (dir != NULL && !datafile_name_ok(name)) {
		snprintf(err, errlen, "%.*s: not a file name of the data "
		    "folder (1..%d letters, digits, '.', '_', '-', '+'; no "
		    "'/', not starting with '.')", DATAFILE_NAME_MAX, name,
		    DATAFILE_NAME_MAX - 1);
		return NULL;
	}
	if (dir != NULL)
		snprintf(buf, sizeof(buf), "%s/%s", dir, name);
	else
		snprintf(buf, sizeof(buf), "%s", name);
	if (path != NULL)
		snprintf(path, pathlen, "%s", buf);
	fd = open(buf, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY |
	    O_CLOEXEC);
	if (fd == -1) {
		snprintf(err, errlen, "%s: %s", buf, errno == ELOOP ?
		    "a symbolic link (not followed)" : strerror(errno));
		return NULL;
	}
	if (check_fd(fd, buf, err, errlen) == -1) {
		close(fd);
		return NULL;
	}
	if ((f = fdopen(fd, "r")) == NULL) {
		snprintf(err, errlen, "%s: %s", buf, strerror(errno));
		close(fd);
	}
	return f;
}

/* The four shapes hoplab-link computes; any other word is a table. */
static int
is_shape(const char *w, size_t n)
{
	static const char *const shapes[] = { "uniform", "normal", "pareto",
	    "paretonormal" };
	size_t i;

	for (i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++)
		if (strlen(shapes[i]) == n && strncmp(w, shapes[i], n) == 0)
			return 1;
	return 0;
}

int
datafile_netem_ok(const char *profile, char *bad, size_t len)
{
	char name[DATAFILE_NAME_MAX + 1];
	const char *p = profile, *w;
	size_t n;
	int after = 0;

	for (;;) {
		p += strspn(p, " \t");
		if (*p == '\0')
			return 1;
		w = p;
		n = strcspn(p, " \t");
		p += n;
		if (after && !is_shape(w, n)) {
			snprintf(name, sizeof(name), "%.*s", (int)n, w);
			if (n >= sizeof(name) - 1 || !datafile_name_ok(name)) {
				snprintf(bad, len, "%.*s", (int)n, w);
				return 0;
			}
		}
		after = n == 12 && strncmp(w, "distribution", 12) == 0;
	}
}
