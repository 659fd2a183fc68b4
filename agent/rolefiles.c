/*
 * rolefiles: a generator role's shipped files on disk (see rolefiles.h).
 *
 * The folder is fresh for every role (mkdtemp), so that no earlier file,
 * link or name of the same role id can be in it, and each file is made
 * with O_CREAT | O_EXCL | O_NOFOLLOW: nothing is written through a link.
 * Removal unlinks the folder's entries by name (unlinkat: no path is
 * followed) and the folder itself.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "agent/rolefiles.h"
#include "datafile.h"
#include "dist.h"

/* SPEC names no file, or one of GP's files. */
static int
shipped(const Hoplab__GenParams *gp, const char *spec)
{
	const char *name = dist_file(spec);
	size_t i;

	if (name == NULL)
		return 1;
	for (i = 0; i < gp->n_files; i++)
		if (strcmp(gp->files[i]->name, name) == 0)
			return 1;
	return 0;
}

static int
check_flows(const Hoplab__GenParams *gp, char *err, size_t errlen)
{
	const Hoplab__FlowSpec *f;
	size_t i;

	for (i = 0; i < gp->n_flows; i++) {
		f = gp->flows[i];
		if (!shipped(gp, f->idt_dist) || !shipped(gp, f->frame_dist) ||
		    !shipped(gp, f->burst_dist) || !shipped(gp, f->off_dist)) {
			snprintf(err, errlen, "files: flow %zu names a file "
			    "that is not among the %zu shipped", i,
			    gp->n_files);
			return -1;
		}
	}
	return 0;
}

int
rolefiles_check(const Hoplab__GenParams *gp, char *err, size_t errlen)
{
	size_t i, j, total = 0;

	if (gp->n_files == 0)
		return 0;
	if (gp->n_files > ROLEFILES_MAX) {
		snprintf(err, errlen, "files: %zu, at most %d", gp->n_files,
		    ROLEFILES_MAX);
		return -1;
	}
	for (i = 0; i < gp->n_files; i++) {
		if (!datafile_name_ok(gp->files[i]->name)) {
			snprintf(err, errlen, "files: name \"%.64s\": expected "
			    "a plain file name (letters, digits, '.', '_', "
			    "'-', '+'; not starting with '.')",
			    gp->files[i]->name);
			return -1;
		}
		for (j = 0; j < i; j++)
			if (strcmp(gp->files[j]->name,
			    gp->files[i]->name) == 0) {
				snprintf(err, errlen, "files: %s twice",
				    gp->files[i]->name);
				return -1;
			}
		total += gp->files[i]->data.len;
	}
	if (total > ROLEFILES_BYTES) {
		snprintf(err, errlen, "files: %zu bytes, at most %d", total,
		    ROLEFILES_BYTES);
		return -1;
	}
	return check_flows(gp, err, errlen);
}

int
rolefiles_put(const char *dir, const Hoplab__ExecFile *f, int excl,
    char *err, size_t errlen)
{
	char path[PATH_MAX + DATAFILE_NAME_MAX];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, f->name);
	if ((fd = open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC |
	    (excl ? O_EXCL : O_TRUNC), 0600)) == -1) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	n = write(fd, f->data.data, f->data.len);
	if (close(fd) == -1 || n != (ssize_t)f->data.len) {
		snprintf(err, errlen, "%s: %s", path, n == -1 ?
		    strerror(errno) : "short write");
		return -1;
	}
	return 0;
}

int
rolefiles_write(const char *rundir, uint32_t role,
    const Hoplab__GenParams *gp, char *dir, size_t len, char *err,
    size_t errlen)
{
	char top[PATH_MAX];
	size_t i;

	dir[0] = '\0';
	snprintf(top, sizeof(top), "%s/gen", rundir);
	if (mkdir(top, 0700) == -1 && errno != EEXIST) {
		snprintf(err, errlen, "mkdir %s: %s", top, strerror(errno));
		return -1;
	}
	snprintf(dir, len, "%s/%u-XXXXXX", top, role);
	if (mkdtemp(dir) == NULL) {
		snprintf(err, errlen, "mkdtemp %s: %s", dir, strerror(errno));
		dir[0] = '\0';
		return -1;
	}
	for (i = 0; i < gp->n_files; i++)
		if (rolefiles_put(dir, gp->files[i], 1, err, errlen) == -1)
			return -1;
	return 0;
}

void
rolefiles_remove(const char *dir)
{
	struct dirent *e;
	DIR *d;

	if (dir[0] == '\0' || (d = opendir(dir)) == NULL)
		return;
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			(void)unlinkat(dirfd(d), e->d_name, 0);
	closedir(d);
	(void)rmdir(dir);
}
