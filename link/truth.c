/*
 * truth: the truth file of hoplab-link, written and exported to CSV
 * (truth.h has the layout).  Fields are copied byte by byte in
 * little-endian order, never cast, so the file reads the same on any
 * host.  The writer keeps its own buffer and writes it with write(2) when
 * it is full or when the loop is idle, so the per-packet cost is one copy
 * of 40 bytes.  A profile record is followed by its text in 40-byte
 * units; the export reads them with the record.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "link/impair.h"
#include "link/truth.h"

struct truth {
	int		fd;
	size_t		used;
	uint64_t	records;
	uint64_t	errors;		/* failed writes */
	uint8_t		buf[TRUTH_BUF];
};

static void
put_le(uint8_t *p, uint64_t v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t
get_le(const uint8_t *p, int n)
{
	uint64_t v = 0;
	int i;

	for (i = n - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

void
truth_pack(uint8_t *b, const struct truth_rec *r)
{
	put_le(b, (uint64_t)r->arr_ns, 8);
	put_le(b + 8, (uint64_t)r->intended_ns, 8);
	put_le(b + 16, (uint64_t)r->actual_ns, 8);
	put_le(b + 24, r->index, 4);
	put_le(b + 28, r->seq, 4);
	put_le(b + 32, r->flow, 2);
	put_le(b + 34, r->len, 2);
	put_le(b + 36, r->flags, 2);
	b[38] = r->dir;
	b[39] = r->kind;
}

void
truth_unpack(const uint8_t *b, struct truth_rec *r)
{
	r->arr_ns = (int64_t)get_le(b, 8);
	r->intended_ns = (int64_t)get_le(b + 8, 8);
	r->actual_ns = (int64_t)get_le(b + 16, 8);
	r->index = (uint32_t)get_le(b + 24, 4);
	r->seq = (uint32_t)get_le(b + 28, 4);
	r->flow = (uint16_t)get_le(b + 32, 2);
	r->len = (uint16_t)get_le(b + 34, 2);
	r->flags = (uint16_t)get_le(b + 36, 2);
	r->dir = b[38];
	r->kind = b[39];
}

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
truth_open(const char *path, const struct truth_hdr *h, char *err,
    size_t errlen)
{
	uint8_t hdr[TRUTH_HDR_LEN];
	struct truth *t;

	memset(hdr, 0, sizeof(hdr));
	memcpy(hdr, TRUTH_MAGIC, sizeof(TRUTH_MAGIC));
	put_le(hdr + 8, TRUTH_VERSION, 4);
	put_le(hdr + 12, TRUTH_REC_LEN, 4);
	put_le(hdr + 16, (uint64_t)h->start_ns, 8);
	put_le(hdr + 24, h->seed, 8);
	memcpy(hdr + 32, h->ifname[0], 15);
	memcpy(hdr + 48, h->ifname[1], 15);
	memcpy(hdr + 64, h->profile[0], TRUTH_PROF_LEN - 1);
	memcpy(hdr + 64 + TRUTH_PROF_LEN, h->profile[1], TRUTH_PROF_LEN - 1);
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
truth_add(struct truth *t, const struct truth_rec *r)
{
	if (t->used + TRUTH_REC_LEN > sizeof(t->buf))
		truth_flush(t);
	truth_pack(t->buf + t->used, r);
	t->used += TRUTH_REC_LEN;
	t->records++;
}

void
truth_add_profile(struct truth *t, unsigned dir, uint32_t index,
    int64_t asked_ns, int64_t now_ns, const char *text)
{
	struct truth_rec r;
	size_t len = strnlen(text, TRUTH_PROF_LEN - 1), units, u, n;

	memset(&r, 0, sizeof(r));
	r.arr_ns = now_ns;
	r.intended_ns = asked_ns;
	r.actual_ns = now_ns;
	r.index = index;
	r.len = (uint16_t)len;
	r.dir = (uint8_t)dir;
	r.kind = TRUTH_K_PROFILE;
	truth_add(t, &r);
	units = (len + TRUTH_REC_LEN - 1) / TRUTH_REC_LEN;
	for (u = 0; u < units; u++) {
		if (t->used + TRUTH_REC_LEN > sizeof(t->buf))
			truth_flush(t);
		n = len - u * TRUTH_REC_LEN;
		if (n > TRUTH_REC_LEN)
			n = TRUTH_REC_LEN;
		memset(t->buf + t->used, 0, TRUTH_REC_LEN);
		memcpy(t->buf + t->used, text + u * TRUTH_REC_LEN, n);
		t->used += TRUTH_REC_LEN;
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

const char *
truth_fate(uint16_t f)
{
	if (f & LT_LOST)
		return "lost";
	if (f & LT_QDROP)
		return "queue_drop";
	if (f & LT_PDROP)
		return "policy_drop";
	if (f & LT_POOLDROP)
		return "pool_drop";
	if (f & LT_TXDROP)
		return "tx_drop";
	return "sent";
}

static const char *kinds[] = { "ipv4", "probe", "nonip", "runt",
    "oversize", "malformed", "profile" };

/*
 * A profile row: the text (LEN bytes) read from F after the record,
 * quoted as RFC 4180 in the actions column.  0, or -1 when cut.
 */
static int
csv_profile(FILE *out, FILE *f, const struct truth_rec *r)
{
	char text[TRUTH_PROF_LEN + TRUTH_REC_LEN];
	size_t units = (r->len + TRUTH_REC_LEN - 1) / TRUTH_REC_LEN, i;

	if (r->len >= TRUTH_PROF_LEN || fread(text, TRUTH_REC_LEN, units,
	    f) != units)
		return -1;
	text[r->len] = '\0';
	fprintf(out, "%s,%" PRIu32 ",profile,,,,%" PRId64 ",%" PRId64 ",%"
	    PRId64 ",,%" PRId64 ",profile,\"", r->dir == 0 ? "a-b" : "b-a",
	    r->index, r->arr_ns, r->intended_ns, r->actual_ns,
	    r->actual_ns - r->intended_ns);
	for (i = 0; i < r->len; i++) {
		if (text[i] == '"')
			fputc('"', out);
		fputc(text[i], out);
	}
	fprintf(out, "\"\n");
	return 0;
}

static void
csv_row(FILE *out, const struct truth_rec *r)
{
	static const struct { uint16_t bit; const char *name; } acts[] = {
		{ LT_DELAYED, "delayed" }, { LT_DUPED, "duplicated" },
		{ LT_DUP, "dup_copy" }, { LT_CORRUPT, "corrupted" },
		{ LT_REORDER, "reordered" }, { LT_LATE, "late" },
		{ LT_PASS, "passed" }, { LT_CLAMPED, "clamped" },
	};
	const char *sep = "";
	int sent = r->actual_ns != 0;
	size_t i;

	fprintf(out, "%s,%" PRIu32 ",%s,", r->dir == 0 ? "a-b" : "b-a",
	    r->index, r->kind < TRUTH_K_PROFILE ? kinds[r->kind] : "unknown");
	if (r->kind == TRUTH_K_PROBE)
		fprintf(out, "%u,%" PRIu32 ",", r->flow, r->seq);
	else
		fprintf(out, ",,");
	fprintf(out, "%u,%" PRId64 ",", r->len + 4u, r->arr_ns);
	if (sent)
		fprintf(out, "%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64,
		    r->intended_ns, r->actual_ns, r->actual_ns - r->arr_ns,
		    r->actual_ns - r->intended_ns);
	else
		fprintf(out, ",,,");
	fprintf(out, ",%s,", truth_fate(r->flags));
	for (i = 0; i < sizeof(acts) / sizeof(acts[0]); i++)
		if (r->flags & acts[i].bit) {
			fprintf(out, "%s%s", sep, acts[i].name);
			sep = ";";
		}
	fprintf(out, "\n");
}

long long
truth_export_csv(const char *in, FILE *out, char *err, size_t errlen)
{
	uint8_t hdr[TRUTH_HDR_LEN], rec[TRUTH_REC_LEN];
	struct truth_rec r;
	long long n = 0;
	size_t got;
	FILE *f;

	if ((f = fopen(in, "rb")) == NULL) {
		snprintf(err, errlen, "%s: %s", in, strerror(errno));
		return -1;
	}
	if (fread(hdr, 1, sizeof(hdr), f) != sizeof(hdr) ||
	    memcmp(hdr, TRUTH_MAGIC, sizeof(TRUTH_MAGIC)) != 0 ||
	    get_le(hdr + 8, 4) < 1 || get_le(hdr + 8, 4) > TRUTH_VERSION ||
	    get_le(hdr + 12, 4) != TRUTH_REC_LEN) {
		snprintf(err, errlen, "%s: not a hoplab-link truth file "
		    "(versions 1..%d)", in, TRUTH_VERSION);
		fclose(f);
		return -1;
	}
	fprintf(out, "dir,index,kind,flow,seq,frame,arrival_ns,intended_ns,"
	    "actual_ns,delay_ns,error_ns,fate,actions\n");
	while ((got = fread(rec, 1, sizeof(rec), f)) == sizeof(rec)) {
		truth_unpack(rec, &r);
		if (r.kind != TRUTH_K_PROFILE)
			csv_row(out, &r);
		else if (csv_profile(out, f, &r) == -1) {
			got = 1;
			break;
		}
		n++;
	}
	fclose(f);
	if (got != 0) {
		snprintf(err, errlen, "%s: truncated after %lld records", in,
		    n);
		return -1;
	}
	return n;
}
