/*
 * records: write per-packet records to a binary file and export them as
 * CSV (layout in records.h and docs/generator.md).
 *
 * The writer is on the per-packet path: recw_add() only encodes into a
 * 64 KB buffer, and a full buffer goes out with one write(), so the cost
 * per packet is a few stores and, every 2048 packets, a system call.  A
 * failed write is remembered (the first errno) and reported by
 * recw_close(); the run itself goes on.  The record count in the header
 * is written at the end; a file whose run was killed still reads (the
 * reader then counts by the file's size).
 *
 * Which packets get records (gen.c): every received packet once, when
 * its delay is known; every packet given up as not received, when its
 * stamp slot is reused (1024 sends later) or at the end of the run.  A
 * packet that arrives after it was given up has two records: the last
 * one of a (flow, seq) is the truth.  Duplicates get none.
 *
 * Deliberately not here: compression, mmap, reading by the controller
 * (the agent may ship the file later; today it stays where it was
 * written).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "byteorder.h"
#include "clock.h"
#include "records.h"

/* Write all LEN bytes of B; -1 with errno. */
static int
write_all(int fd, const uint8_t *b, size_t len)
{
	ssize_t n;

	while (len > 0) {
		if ((n = write(fd, b, len)) == -1) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		b += n;
		len -= (size_t)n;
	}
	return 0;
}

static int
recw_header(struct recw *w, const struct flowspec *fs, size_t n)
{
	uint8_t h[REC_HDR_LEN], e[REC_FLOW_LEN];
	size_t i;

	memset(h, 0, sizeof(h));
	memcpy(h, REC_MAGIC, 8);
	le32_store(h + 8, (uint32_t)(REC_HDR_LEN + n * REC_FLOW_LEN));
	le32_store(h + 12, PKTREC_LEN);
	le32_store(h + 16, (uint32_t)n);
	le64_store(h + 24, (uint64_t)clock_real_ns());
	if (write_all(w->fd, h, sizeof(h)) == -1)
		return -1;
	for (i = 0; i < n; i++) {
		memset(e, 0, sizeof(e));
		le16_store(e, fs[i].id);
		le16_store(e + 2, (uint16_t)fs[i].frame);
		e[4] = (uint8_t)fs[i].dscp;
		strncpy((char *)e + 8, fs[i].name, REC_FLOW_LEN - 9);
		if (write_all(w->fd, e, sizeof(e)) == -1)
			return -1;
	}
	return 0;
}

struct recw *
recw_open(const char *path, const struct flowspec *fs, size_t n, char *err,
    size_t errlen)
{
	struct recw *w;

	if ((w = calloc(1, sizeof(*w))) == NULL) {
		snprintf(err, errlen, "--records: out of memory");
		return NULL;
	}
	snprintf(w->path, sizeof(w->path), "%s", path);
	w->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (w->fd == -1 || recw_header(w, fs, n) == -1) {
		snprintf(err, errlen, "--records %s: %s", path,
		    strerror(errno));
		if (w->fd != -1)
			close(w->fd);
		free(w);
		return NULL;
	}
	return w;
}

static void
recw_flush(struct recw *w)
{
	if (w->used > 0 && w->err == 0 &&
	    write_all(w->fd, w->buf, w->used) == -1)
		w->err = errno;
	w->used = 0;
}

void
recw_add(struct recw *w, const struct pktrec *r)
{
	if (w->used + PKTREC_LEN > sizeof(w->buf))
		recw_flush(w);
	pktrec_encode(w->buf + w->used, r);
	w->used += PKTREC_LEN;
	w->n++;
}

int
recw_close(struct recw *w, const char *ts_source, char *err, size_t errlen)
{
	uint8_t b[8 + REC_TS_LEN];
	int rc = 0;

	if (w == NULL)
		return 0;
	recw_flush(w);
	le64_store(b, w->n);
	memset(b + 8, 0, REC_TS_LEN);
	strncpy((char *)b + 8, ts_source, REC_TS_LEN - 1);
	if (w->err == 0 && pwrite(w->fd, b, sizeof(b), 32) != sizeof(b))
		w->err = errno != 0 ? errno : EIO;
	if (close(w->fd) == -1 && w->err == 0)
		w->err = errno;
	if (w->err != 0) {
		snprintf(err, errlen, "--records %s: %s", w->path,
		    strerror(w->err));
		rc = -1;
	}
	free(w);
	return rc;
}

/* The flows' names from the header's table, by id; "" when unknown. */
struct rec_names {
	uint16_t	id[FLOWSPEC_MAX_FLOWS];
	char		name[FLOWSPEC_MAX_FLOWS][FLOWSPEC_NAME_MAX];
	size_t		n;
};

static const char *
rec_name(const struct rec_names *t, uint16_t id)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (t->id[i] == id)
			return t->name[i];
	return "";
}

/* Read and check the header of F; fills T.  -1 with ERR. */
static int
rec_read_header(FILE *f, const char *path, struct rec_names *t, char *err,
    size_t errlen)
{
	uint8_t h[REC_HDR_LEN], e[REC_FLOW_LEN];
	uint32_t hlen, nflows, i;

	if (fread(h, 1, sizeof(h), f) != sizeof(h) ||
	    memcmp(h, REC_MAGIC, 8) != 0) {
		snprintf(err, errlen, "%s: not a hoplab-gen records file",
		    path);
		return -1;
	}
	hlen = le32_load(h + 8);
	nflows = le32_load(h + 16);
	if (le32_load(h + 12) != PKTREC_LEN || nflows > FLOWSPEC_MAX_FLOWS ||
	    hlen != REC_HDR_LEN + nflows * REC_FLOW_LEN) {
		snprintf(err, errlen, "%s: unsupported records layout "
		    "(record length %" PRIu32 ", %" PRIu32 " flows)", path,
		    le32_load(h + 12), nflows);
		return -1;
	}
	for (i = 0; i < nflows; i++) {
		if (fread(e, 1, sizeof(e), f) != sizeof(e)) {
			snprintf(err, errlen, "%s: truncated flow table", path);
			return -1;
		}
		t->id[i] = le16_load(e);
		memcpy(t->name[i], e + 8, FLOWSPEC_NAME_MAX - 1);
		t->name[i][FLOWSPEC_NAME_MAX - 1] = '\0';
	}
	t->n = nflows;
	return 0;
}

int
rec_export_csv(const char *path, FILE *out, char *err, size_t errlen)
{
	struct rec_names *t;
	uint8_t b[PKTREC_LEN];
	struct pktrec r;
	FILE *f;
	size_t n;
	int rc = -1;

	if ((f = fopen(path, "rb")) == NULL) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if ((t = calloc(1, sizeof(*t))) == NULL) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	if (rec_read_header(f, path, t, err, errlen) == -1)
		goto out;
	fprintf(out, "flow_id,flow,seq,tx_ns,rx_ns,delay_ns,frame,ttl,"
	    "received,tx_kernel\n");
	while ((n = fread(b, 1, sizeof(b), f)) == sizeof(b)) {
		pktrec_decode(b, &r);
		fprintf(out, "%u,%s,%" PRIu32 ",%" PRId64 ",%" PRId64 ",",
		    r.flow_id, rec_name(t, r.flow_id), r.seq, r.tx_ns, r.rx_ns);
		if (r.flags & PKTREC_F_RECEIVED)
			fprintf(out, "%" PRId64, r.rx_ns - r.tx_ns);
		/* tx_kernel 2: the probe's stamp, a kernel stamp taken too. */
		fprintf(out, ",%u,%u,%d,%d\n", r.frame, r.ttl,
		    (r.flags & PKTREC_F_RECEIVED) != 0,
		    (r.flags & PKTREC_F_KTX) != 0 ? 1 :
		    (r.flags & PKTREC_F_KTX_SAMPLE) != 0 ? 2 : 0);
	}
	if (n != 0) {
		snprintf(err, errlen, "%s: truncated record at the end (%zu "
		    "bytes)", path, n);
		goto out;
	}
	rc = ferror(f) ? -1 : 0;
	if (rc == -1)
		snprintf(err, errlen, "%s: read error", path);
out:
	free(t);
	fclose(f);
	return rc;
}
