/*
 * csvfile: create, reopen at a size, sync and close one results CSV file
 * (see csvfile.h).  Every failure names the file and the errno text.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "controller/results/csvfile.h"
#include "durable.h"

static int
sys_err(const char *path, char *err, size_t errlen)
{
	if (err != NULL && errlen > 0)
		snprintf(err, errlen, "%s: %s", path, strerror(errno ? errno : EIO));
	return -1;
}

/* A write to CF failed: the file cut back to its whole rows, ERR set. */
static int
undo(struct csvfile *cf, char *err, size_t errlen)
{
	int e = errno ? errno : EIO;

	durable_undo(cf->f, cf->good);
	errno = e;
	return sys_err(cf->path, err, errlen);
}

/* Note the bytes now written whole. */
static void
mark_good(struct csvfile *cf)
{
	cf->good = ftell(cf->f);
}

/* Open PATH for writing with the header; the caller names the path. */
static int
open_with_header(struct csvfile *cf, const char *path,
    const char *const *cols, size_t ncols, char *err, size_t errlen)
{
	if ((cf->f = fopen(path, "w")) == NULL)
		return sys_err(path, err, errlen);
	if (cf->buf != NULL)
		setvbuf(cf->f, cf->buf, _IOFBF, cf->bufsize);
	if ((cf->c = csv_from_stream(cf->f, cols, ncols)) == NULL) {
		fclose(cf->f);
		cf->f = NULL;
		return sys_err(path, err, errlen);
	}
	return 0;
}

/* Clear CF but for the buffer its owner gave it. */
static void
cf_reset(struct csvfile *cf)
{
	char *buf = cf->buf;
	size_t size = cf->bufsize;

	memset(cf, 0, sizeof(*cf));
	cf->buf = buf;
	cf->bufsize = size;
}

size_t
csvfile_split(char *line, char **f, size_t max)
{
	char *r = line, *w = line;
	size_t n = 0;
	int q = 0;

	f[n++] = w;
	for (; *r != '\0'; r++) {
		if (q && *r == '"' && r[1] == '"')
			*w++ = *r++;
		else if (*r == '"')
			q = !q;
		else if (!q && *r == ',') {
			*w++ = '\0';
			if (n == max)
				return n + 1;
			f[n++] = w;
		} else
			*w++ = *r;
	}
	*w = '\0';
	return n;
}

int
csvfile_create(struct csvfile *cf, const char *dir, const char *name,
    const char *const *cols, size_t ncols, char *err, size_t errlen)
{
	cf_reset(cf);
	snprintf(cf->path, sizeof(cf->path), "%s/%s", dir, name);
	if (open_with_header(cf, cf->path, cols, ncols, err, errlen) == -1)
		return -1;
	if (fflush(cf->f) == EOF)
		return undo(cf, err, errlen);
	mark_good(cf);
	cf->fresh = 1;		/* its folder is synced with it */
	return 0;
}

/*
 * 1 if OLD's first line is not the header COLS make: rows appended now
 * would not fit it (a file of another hoplab version).  OLD is rewound.
 */
static int
header_differs(FILE *old, const char *const *cols, size_t ncols)
{
	char line[4096];
	size_t i, at = 0;
	int differs = 0;

	line[0] = '\0';
	if (fgets(line, sizeof(line), old) == NULL)
		differs = 1;
	line[strcspn(line, "\r\n")] = '\0';
	for (i = 0; !differs && i < ncols; i++) {
		if (i > 0 && line[at++] != ',')
			differs = 1;
		else if (strncmp(line + at, cols[i], strlen(cols[i])) != 0)
			differs = 1;
		else
			at += strlen(cols[i]);
	}
	if (line[at] != '\0')
		differs = 1;
	rewind(old);
	return differs;
}

/*
 * The first BYTES bytes of OLD up to the end of their last whole line:
 * a row cut short (a full disk, a crash mid-write) is not continued.
 */
static uint64_t
whole_lines(FILE *old, uint64_t bytes)
{
	char buf[4096];
	uint64_t end = bytes, at;
	size_t n, i;

	while (end > 0) {
		at = end > sizeof(buf) ? end - sizeof(buf) : 0;
		if (fseeko(old, (off_t)at, SEEK_SET) == -1 ||
		    (n = fread(buf, 1, (size_t)(end - at), old)) !=
		    (size_t)(end - at))
			break;
		for (i = n; i > 0; i--)
			if (buf[i - 1] == '\n') {
				rewind(old);
				return at + i;
			}
		end = at;
	}
	rewind(old);
	return 0;
}

/* Copy OLD's bytes after its first line, up to BYTES, to CF's stream. */
static int
copy_rows(struct csvfile *cf, FILE *old, uint64_t bytes)
{
	char buf[8192];
	uint64_t left = bytes;
	size_t n;
	int c;

	while (left > 0 && (c = fgetc(old)) != EOF) {	/* the header */
		left--;
		if (c == '\n')
			break;
	}
	while (left > 0) {
		n = fread(buf, 1, left < sizeof(buf) ? left : sizeof(buf), old);
		if (n == 0)
			return -1;
		if (fwrite(buf, 1, n, cf->f) != n)
			return -1;
		left -= n;
	}
	return 0;
}

int
csvfile_reopen(struct csvfile *cf, const char *dir, const char *name,
    uint64_t bytes, const char *const *cols, size_t ncols, char *err,
    size_t errlen)
{
	char tmp[PATH_MAX + 48];
	struct stat st;
	FILE *old;

	cf_reset(cf);
	snprintf(cf->path, sizeof(cf->path), "%s/%s", dir, name);
	errno = 0;
	if (bytes == 0 || (stat(cf->path, &st) == -1 && errno == ENOENT))
		return csvfile_create(cf, dir, name, cols, ncols, err, errlen);
	if ((uint64_t)st.st_size < bytes) {
		snprintf(err, errlen, "%s: %lld bytes, shorter than the %llu "
		    "state.json says", cf->path, (long long)st.st_size,
		    (unsigned long long)bytes);
		return -1;
	}
	snprintf(tmp, sizeof(tmp), "%s.tmp", cf->path);
	if ((old = fopen(cf->path, "r")) == NULL)
		return sys_err(cf->path, err, errlen);
	if (header_differs(old, cols, ncols)) {
		snprintf(err, errlen, "%s: its columns are not this hoplab's "
		    "(written by another version?); attach with the hoplab "
		    "that started the run", cf->path);
		fclose(old);
		return -1;
	}
	if (open_with_header(cf, tmp, cols, ncols, err, errlen) == -1) {
		fclose(old);
		return -1;
	}
	errno = 0;
	if (copy_rows(cf, old, whole_lines(old, bytes)) == -1) {
		fclose(old);
		return sys_err(tmp, err, errlen);
	}
	fclose(old);
	if (durable_file(cf->f, tmp, err, errlen) == -1 ||
	    durable_rename(tmp, cf->path, err, errlen) == -1) {
		unlink(tmp);
		return -1;
	}
	mark_good(cf);
	return 0;
}

int
csvfile_end_row(struct csvfile *cf, char *err, size_t errlen)
{
	errno = 0;
	if (csv_end_row(cf->c, err, errlen) == -1) {
		if (errno != 0)		/* not a row of the wrong width */
			return undo(cf, err, errlen);
		durable_undo(cf->f, cf->good);
		return -1;
	}
	if (fflush(cf->f) == EOF)
		return undo(cf, err, errlen);
	mark_good(cf);
	return 0;
}

int
csvfile_sync(struct csvfile *cf, uint64_t *bytes, char *err, size_t errlen)
{
	long off;

	if (cf->f == NULL) {
		snprintf(err, errlen, "%s: not open", cf->path);
		return -1;
	}
	if (durable_file(cf->f, cf->path, err, errlen) == -1) {
		durable_undo(cf->f, cf->good);
		return -1;
	}
	mark_good(cf);
	if (cf->fresh && durable_parent(cf->path, err, errlen) == -1)
		return -1;
	cf->fresh = 0;
	if (fseek(cf->f, 0, SEEK_END) == -1 || (off = ftell(cf->f)) < 0)
		return sys_err(cf->path, err, errlen);
	if (bytes != NULL)
		*bytes = (uint64_t)off;
	return 0;
}

int
csvfile_close(struct csvfile *cf, char *err, size_t errlen)
{
	int rc = 0;

	if (cf->c != NULL && csv_close(cf->c, err, errlen) == -1)
		rc = -1;
	cf->c = NULL;
	if (cf->f != NULL && fclose(cf->f) == EOF && rc == 0)
		rc = sys_err(cf->path, err, errlen);
	cf->f = NULL;
	return rc;
}
