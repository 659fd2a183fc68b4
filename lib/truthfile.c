/*
 * truthfile: encode, decode and read hoplab-link's truth files, and their
 * CSV export (truthfile.h has the layout).  Fields are copied byte by
 * byte in little-endian order (byteorder.h), never cast, so a file reads
 * the same on any host.  The reader goes through stdio, one 40-byte unit
 * at a time; a profile record takes the units of its text with it.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "byteorder.h"
#include "truthfile.h"

struct truthfile {
	FILE		*f;
	char		path[512];
	long long	off;		/* bytes read so far */
	long long	n;		/* records read */
	char		text[TRUTHFILE_PROF_LEN + TRUTHFILE_REC_LEN];
};

void
truthfile_hdr_encode(uint8_t *b, const struct truthfile_hdr *h)
{
	memset(b, 0, TRUTHFILE_HDR_LEN);
	memcpy(b, TRUTHFILE_MAGIC, sizeof(TRUTHFILE_MAGIC));
	le32_store(b + 8, TRUTHFILE_VERSION);
	le32_store(b + 12, TRUTHFILE_REC_LEN);
	le64_store(b + 16, (uint64_t)h->start_ns);
	le64_store(b + 24, h->seed);
	memcpy(b + 32, h->ifname[0], 15);
	memcpy(b + 48, h->ifname[1], 15);
	memcpy(b + 64, h->profile[0], TRUTHFILE_PROF_LEN - 1);
	memcpy(b + 64 + TRUTHFILE_PROF_LEN, h->profile[1],
	    TRUTHFILE_PROF_LEN - 1);
}

static void
hdr_decode(const uint8_t *b, struct truthfile_hdr *h)
{
	memset(h, 0, sizeof(*h));
	h->version = le32_load(b + 8);
	h->start_ns = (int64_t)le64_load(b + 16);
	h->seed = le64_load(b + 24);
	memcpy(h->ifname[0], b + 32, 15);
	memcpy(h->ifname[1], b + 48, 15);
	memcpy(h->profile[0], b + 64, TRUTHFILE_PROF_LEN - 1);
	memcpy(h->profile[1], b + 64 + TRUTHFILE_PROF_LEN,
	    TRUTHFILE_PROF_LEN - 1);
}

void
truthfile_rec_encode(uint8_t *b, const struct truthfile_rec *r)
{
	le64_store(b, (uint64_t)r->arr_ns);
	le64_store(b + 8, (uint64_t)r->intended_ns);
	le64_store(b + 16, (uint64_t)r->actual_ns);
	le32_store(b + 24, r->index);
	le32_store(b + 28, r->seq);
	le16_store(b + 32, r->flow);
	le16_store(b + 34, r->len);
	le16_store(b + 36, r->flags);
	b[38] = r->dir;
	b[39] = r->kind;
}

void
truthfile_rec_decode(const uint8_t *b, struct truthfile_rec *r)
{
	r->arr_ns = (int64_t)le64_load(b);
	r->intended_ns = (int64_t)le64_load(b + 8);
	r->actual_ns = (int64_t)le64_load(b + 16);
	r->index = le32_load(b + 24);
	r->seq = le32_load(b + 28);
	r->flow = le16_load(b + 32);
	r->len = le16_load(b + 34);
	r->flags = le16_load(b + 36);
	r->dir = b[38];
	r->kind = b[39];
}

/* Check the header at B (GOT bytes); 0, or -1 with the field in ERR. */
static int
hdr_check(const char *path, const uint8_t *b, size_t got, char *err,
    size_t errlen)
{
	const char *what = NULL;
	unsigned off = 0;

	if (got != TRUTHFILE_HDR_LEN) {
		what = "header cut";
		off = (unsigned)got;
	} else if (memcmp(b, TRUTHFILE_MAGIC, sizeof(TRUTHFILE_MAGIC)) != 0)
		what = "bad magic";
	else if (le32_load(b + 8) < 1 || le32_load(b + 8) > TRUTHFILE_VERSION) {
		what = "unknown version";
		off = 8;
	} else if (le32_load(b + 12) != TRUTHFILE_REC_LEN) {
		what = "wrong record size";
		off = 12;
	}
	if (what == NULL)
		return 0;
	snprintf(err, errlen, "%s: not a hoplab-link truth file (versions "
	    "1..%d): %s at offset %u", path, TRUTHFILE_VERSION, what, off);
	return -1;
}

struct truthfile *
truthfile_open(const char *path, struct truthfile_hdr *h, char *err,
    size_t errlen)
{
	uint8_t hdr[TRUTHFILE_HDR_LEN];
	struct truthfile *tf;
	size_t got;

	if ((tf = calloc(1, sizeof(*tf))) == NULL) {
		snprintf(err, errlen, "%s: out of memory", path);
		return NULL;
	}
	snprintf(tf->path, sizeof(tf->path), "%s", path);
	if ((tf->f = fopen(path, "rb")) == NULL) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		free(tf);
		return NULL;
	}
	got = fread(hdr, 1, sizeof(hdr), tf->f);
	if (hdr_check(path, hdr, got, err, errlen) == -1) {
		truthfile_close(tf);
		return NULL;
	}
	if (h != NULL)
		hdr_decode(hdr, h);
	tf->off = TRUTHFILE_HDR_LEN;
	return tf;
}

/* Say that the record at offset AT is cut, or unreadable. */
static int
rec_cut(struct truthfile *tf, long long at, char *err, size_t errlen)
{
	if (ferror(tf->f))
		snprintf(err, errlen, "%s: read error after %lld records, at "
		    "offset %lld: %s", tf->path, tf->n, at, strerror(errno));
	else
		snprintf(err, errlen, "%s: truncated after %lld records, at "
		    "offset %lld", tf->path, tf->n, at);
	return -1;
}

/* The text units after profile record R (at offset AT). */
static int
read_text(struct truthfile *tf, const struct truthfile_rec *r, long long at,
    char *err, size_t errlen)
{
	size_t units = (r->len + TRUTHFILE_REC_LEN - 1) / TRUTHFILE_REC_LEN;

	if (r->len >= TRUTHFILE_PROF_LEN) {
		snprintf(err, errlen, "%s: bad profile record after %lld "
		    "records, at offset %lld: text of %u bytes", tf->path,
		    tf->n, at, r->len);
		return -1;
	}
	if (fread(tf->text, TRUTHFILE_REC_LEN, units, tf->f) != units)
		return rec_cut(tf, at, err, errlen);
	tf->text[r->len] = '\0';
	tf->off += (long long)(units * TRUTHFILE_REC_LEN);
	return 0;
}

int
truthfile_next(struct truthfile *tf, struct truthfile_rec *r, char *err,
    size_t errlen)
{
	uint8_t b[TRUTHFILE_REC_LEN];
	long long at = tf->off;
	size_t got;

	if ((got = fread(b, 1, sizeof(b), tf->f)) != sizeof(b)) {
		if (got == 0 && !ferror(tf->f))
			return 0;
		return rec_cut(tf, at, err, errlen);
	}
	tf->off += TRUTHFILE_REC_LEN;
	truthfile_rec_decode(b, r);
	tf->text[0] = '\0';
	if (r->kind == TRUTHFILE_K_PROFILE &&
	    read_text(tf, r, at, err, errlen) == -1)
		return -1;
	tf->n++;
	return 1;
}

const char *
truthfile_text(const struct truthfile *tf)
{
	return tf->text;
}

void
truthfile_close(struct truthfile *tf)
{
	if (tf == NULL)
		return;
	if (tf->f != NULL)
		fclose(tf->f);
	free(tf);
}

const char *
truthfile_fate(uint16_t f)
{
	if (f & TRUTHFILE_F_LOST)
		return "lost";
	if (f & TRUTHFILE_F_QDROP)
		return "queue_drop";
	if (f & TRUTHFILE_F_PDROP)
		return "policy_drop";
	if (f & TRUTHFILE_F_POOLDROP)
		return "pool_drop";
	if (f & TRUTHFILE_F_TXDROP)
		return "tx_drop";
	return "sent";
}

static const char *kinds[] = { "ipv4", "probe", "nonip", "runt",
    "oversize", "malformed", "profile" };

/* A profile row: TEXT quoted as RFC 4180 in the actions column. */
static void
csv_profile(FILE *out, const struct truthfile_rec *r, const char *text)
{
	size_t i;

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
}

static void
csv_row(FILE *out, const struct truthfile_rec *r)
{
	static const struct { uint16_t bit; const char *name; } acts[] = {
		{ TRUTHFILE_F_DELAYED, "delayed" },
		{ TRUTHFILE_F_DUPED, "duplicated" },
		{ TRUTHFILE_F_DUP, "dup_copy" },
		{ TRUTHFILE_F_CORRUPT, "corrupted" },
		{ TRUTHFILE_F_REORDER, "reordered" },
		{ TRUTHFILE_F_LATE, "late" },
		{ TRUTHFILE_F_PASS, "passed" },
		{ TRUTHFILE_F_CLAMPED, "clamped" },
	};
	const char *sep = "";
	int sent = r->actual_ns != 0;
	size_t i;

	fprintf(out, "%s,%" PRIu32 ",%s,", r->dir == 0 ? "a-b" : "b-a",
	    r->index, r->kind < TRUTHFILE_K_PROFILE ? kinds[r->kind] :
	    "unknown");
	if (r->kind == TRUTHFILE_K_PROBE)
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
	fprintf(out, ",%s,", truthfile_fate(r->flags));
	for (i = 0; i < sizeof(acts) / sizeof(acts[0]); i++)
		if (r->flags & acts[i].bit) {
			fprintf(out, "%s%s", sep, acts[i].name);
			sep = ";";
		}
	fprintf(out, "\n");
}

long long
truthfile_export_csv(const char *in, FILE *out, char *err, size_t errlen)
{
	struct truthfile_rec r;
	struct truthfile *tf;
	long long n = 0;
	int rc;

	if ((tf = truthfile_open(in, NULL, err, errlen)) == NULL)
		return -1;
	fprintf(out, "dir,index,kind,flow,seq,frame,arrival_ns,intended_ns,"
	    "actual_ns,delay_ns,error_ns,fate,actions\n");
	while ((rc = truthfile_next(tf, &r, err, errlen)) == 1) {
		if (r.kind == TRUTHFILE_K_PROFILE)
			csv_profile(out, &r, truthfile_text(tf));
		else
			csv_row(out, &r);
		n++;
	}
	truthfile_close(tf);
	return rc == 0 ? n : -1;
}
