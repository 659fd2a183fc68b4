/*
 * truth: hoplab-link's truth file writer (truth.h; the format is
 * lib/truthfile.h's).  The writer keeps its own buffer and writes it with
 * write(2) when it is full or when the loop is idle, so the per-packet
 * cost is the encoding of 40 bytes.  A profile record is followed by its
 * text in 40-byte units.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "link/truth.h"

struct truth {
	int		fd;
	size_t		used;
	uint64_t	records;
	uint64_t	errors;		/* failed writes */
	uint8_t		buf[TRUTH_BUF];
};

static int
write_all(int fd, const uint8_t *p, size_t n)
{
	ssize_t w;

	while (n > 0) {
		if ((w = write(fd, p, n)) < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

struct truth *
truth_open(const char *path, const struct truthfile_hdr *h, char *err,
    size_t errlen)
{
	uint8_t hdr[TRUTHFILE_HDR_LEN];
	struct truth *t;

	truthfile_hdr_encode(hdr, h);
	if ((t = calloc(1, sizeof(*t))) == NULL) {
		snprintf(err, errlen, "truth file: out of memory");
		return NULL;
	}
	if ((t->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
	    0644)) == -1 || write_all(t->fd, hdr, sizeof(hdr)) == -1) {
		snprintf(err, errlen, "truth file %s: %s", path,
		    strerror(errno));
		if (t->fd != -1)
			close(t->fd);
		free(t);
		return NULL;
	}
	return t;
}

int
truth_flush(struct truth *t)
{
	int rc = 0;

	if (t->used > 0 && write_all(t->fd, t->buf, t->used) == -1) {
		t->errors++;
		rc = -1;
	}
	t->used = 0;
	return rc;
}

void
truth_add(struct truth *t, const struct truthfile_rec *r)
{
	if (t->used + TRUTHFILE_REC_LEN > sizeof(t->buf))
		truth_flush(t);
	truthfile_rec_encode(t->buf + t->used, r);
	t->used += TRUTHFILE_REC_LEN;
	t->records++;
}

void
truth_add_profile(struct truth *t, unsigned dir, uint32_t index,
    int64_t asked_ns, int64_t now_ns, const char *text)
{
	struct truthfile_rec r;
	size_t len = strnlen(text, TRUTHFILE_PROF_LEN - 1), units, u, n;

	memset(&r, 0, sizeof(r));
	r.arr_ns = now_ns;
	r.intended_ns = asked_ns;
	r.actual_ns = now_ns;
	r.index = index;
	r.len = (uint16_t)len;
	r.dir = (uint8_t)dir;
	r.kind = TRUTHFILE_K_PROFILE;
	truth_add(t, &r);
	units = (len + TRUTHFILE_REC_LEN - 1) / TRUTHFILE_REC_LEN;
	for (u = 0; u < units; u++) {
		if (t->used + TRUTHFILE_REC_LEN > sizeof(t->buf))
			truth_flush(t);
		n = len - u * TRUTHFILE_REC_LEN;
		if (n > TRUTHFILE_REC_LEN)
			n = TRUTHFILE_REC_LEN;
		memset(t->buf + t->used, 0, TRUTHFILE_REC_LEN);
		memcpy(t->buf + t->used, text + u * TRUTHFILE_REC_LEN, n);
		t->used += TRUTHFILE_REC_LEN;
	}
}

uint64_t
truth_records(const struct truth *t)
{
	return t->records;
}

uint64_t
truth_write_errors(const struct truth *t)
{
	return t->errors;
}

int
truth_close(struct truth *t)
{
	int rc;

	if (t == NULL)
		return 0;
	truth_flush(t);
	rc = t->errors == 0 ? 0 : -1;
	if (close(t->fd) == -1)
		rc = -1;
	free(t);
	return rc;
}
