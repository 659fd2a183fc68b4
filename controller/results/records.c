/*
 * records: write the per-packet records a generator streams
 * (ResultBatch.records) to the results folder's packets/, one CSV file
 * per point and flow, so that a user can look at every packet's delay
 * with a spreadsheet, R or pandas (docs/results.md, "packets/").
 *
 * Columns, with their units: seq, tx_ns and rx_ns (CLOCK_REALTIME
 * nanoseconds; rx_ns empty when the packet was not received), delay_ns
 * (rx_ns - tx_ns, the same difference the summary's delay statistics
 * are made of), frame_bytes (Ethernet frame incl. FCS), ttl (on
 * arrival), received (1 or 0) and tx_kernel (1: the kernel's transmit
 * stamp, 0: the user-space one).  Rows come in the order the generator
 * settled the packets, not by seq.  A packet given up as lost and then
 * arriving late has two rows; the last row of a seq is the truth.
 *
 * Nothing lost: a batch's rows are written and flushed by
 * records_take(), and synced by records_sync(); waitrole.c acknowledges
 * a batch to the agent, which keeps it in its spool until then, only
 * after that sync.  It syncs when no more messages are waiting (a group
 * commit: one fdatasync per file for a burst of batches from many
 * generators, not one per batch).  A resent batch (same batch_seq) is
 * not written twice.  The final batch says how many records the generator streamed
 * and how many it had to drop; records_end() compares.
 *
 * The files of up to RECORDS_ROLES roles are open at once, held by a
 * struct records that the run owns (records_new()).
 *
 * Deliberately not here: records of points in flight when a controller
 * was killed (`hoplab attach` measures such a point again, or takes its
 * final batch from the spool, and its packets/ file stays as far as it
 * was written), sorting, compression.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "byteorder.h"
#include "controller/results/records.h"
#include "durable.h"

const char records_header[] =
    "seq,tx_ns,rx_ns,delay_ns,frame_bytes,ttl,received,tx_kernel\n";

struct rrole {
	int		used;
	uint32_t	role;
	char		agent[64];
	char		path[PATH_MAX];		/* DIR/packets/LABEL */
	char		names[RECORDS_FLOWS][64];
	size_t		nf;
	FILE		*f[RECORDS_FLOWS + 1];	/* by flow index; last: others */
	uint64_t	rows;
	uint64_t	last_seq;		/* batch_seq written last */
	int		dirty;			/* written since the last sync */
	int		fresh;			/* a file created since then */
};

static int	rrole_close(struct rrole *r, char *err, size_t errlen);

struct records {
	struct rrole	roles[RECORDS_ROLES];
};

struct records *
records_new(void)
{
	return calloc(1, sizeof(struct records));
}

void
records_free(struct records *rs)
{
	char err[256];
	size_t i;

	if (rs == NULL)
		return;
	for (i = 0; i < RECORDS_ROLES; i++)
		if (rs->roles[i].used)
			(void)rrole_close(&rs->roles[i], err, sizeof(err));
	free(rs);
}

/* Decimal V at P, then C (',' or '\n'); returns the end. */
static char *
put_i64(char *p, int64_t v, char c)
{
	char tmp[24];
	uint64_t u;
	int n = 0;

	if (v < 0) {
		*p++ = '-';
		u = (uint64_t)0 - (uint64_t)v;
	} else
		u = (uint64_t)v;
	do {
		tmp[n++] = (char)('0' + u % 10);
		u /= 10;
	} while (u != 0);
	while (n > 0)
		*p++ = tmp[--n];
	*p++ = c;
	return p;
}

size_t
records_row(char *buf, const struct pktrec *r)
{
	int rcvd = (r->flags & 2) != 0;
	char *p = buf;

	p = put_i64(p, r->seq, ',');
	p = put_i64(p, r->tx_ns, ',');
	if (rcvd) {
		p = put_i64(p, r->rx_ns, ',');
		p = put_i64(p, r->rx_ns - r->tx_ns, ',');
	} else {
		*p++ = ',';
		*p++ = ',';
	}
	p = put_i64(p, r->frame, ',');
	if (rcvd)
		p = put_i64(p, r->ttl, ',');
	else
		*p++ = ',';
	p = put_i64(p, rcvd, ',');
	/* tx_kernel 2: the probe's stamp, the kernel stamped it too. */
	p = put_i64(p, (r->flags & PKTREC_F_KTX) != 0 ? 1 :
	    (r->flags & PKTREC_F_KTX_SAMPLE) != 0 ? 2 : 0, '\n');
	return (size_t)(p - buf);
}

void
records_label(char *buf, size_t len, const char *variant, const char *label,
    unsigned rep)
{
	char safe[200];
	size_t i;

	for (i = 0; label[i] != '\0' && i < sizeof(safe) - 1; i++) {
		char ch = label[i];

		safe[i] = ch == '=' ? '-' : (ch >= 'a' && ch <= 'z') ||
		    (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
		    ch == '.' || ch == '-' ? ch : '_';
	}
	safe[i] = '\0';
	snprintf(buf, len, "%s%s%s_rep%u", variant, safe[0] ? "_" : "", safe,
	    rep);
}

static struct rrole *
find(struct records *rs, uint32_t role, const char *agent)
{
	struct rrole *roles = rs->roles;
	size_t i;

	for (i = 0; i < RECORDS_ROLES; i++)
		if (roles[i].used && roles[i].role == role &&
		    strcmp(roles[i].agent, agent) == 0)
			return &roles[i];
	return NULL;
}

/* Close R's files; -1 with ERR if one could not be written. */
static int
rrole_close(struct rrole *r, char *err, size_t errlen)
{
	size_t i;
	int rc = 0;

	for (i = 0; i <= RECORDS_FLOWS; i++) {
		if (r->f[i] == NULL)
			continue;
		if ((fflush(r->f[i]) != 0 || fsync(fileno(r->f[i])) != 0 ||
		    fclose(r->f[i]) != 0) && rc == 0) {
			snprintf(err, errlen, "%s-*.csv: %s", r->path,
			    strerror(errno));
			rc = -1;
		}
		r->f[i] = NULL;
	}
	r->used = 0;
	return rc;
}

int
records_expect(struct records *rs, uint32_t role, const char *agent,
    const char *dir, const char *label, const char *const *names, size_t nf,
    char *err, size_t errlen)
{
	struct rrole *roles = rs->roles, *r = NULL;
	char pdir[PATH_MAX];
	size_t i;
	int made;

	for (i = 0; i < RECORDS_ROLES; i++)
		if (roles[i].used && strcmp(roles[i].agent, agent) == 0)
			(void)rrole_close(&roles[i], err, errlen); /* failed */
	for (i = 0; i < RECORDS_ROLES && r == NULL; i++)
		if (!roles[i].used)
			r = &roles[i];
	snprintf(pdir, sizeof(pdir), "%s/packets", dir);
	made = r != NULL && mkdir(pdir, 0755) == 0;
	if (r == NULL || (!made && errno != EEXIST)) {
		snprintf(err, errlen, "%s: %s", pdir, r == NULL ?
		    "too many generator roles at once" : strerror(errno));
		return -1;
	}
	if (made && durable_dir(dir, err, errlen) == -1)
		return -1;	/* packets/ itself persists */
	memset(r, 0, sizeof(*r));
	r->used = 1;
	r->role = role;
	snprintf(r->agent, sizeof(r->agent), "%s", agent);
	snprintf(r->path, sizeof(r->path), "%s/%s", pdir, label);
	r->nf = nf < RECORDS_FLOWS ? nf : RECORDS_FLOWS;
	for (i = 0; i < r->nf; i++)
		snprintf(r->names[i], sizeof(r->names[i]), "%s", names[i]);
	return 0;
}

/* The file of flow FLOW_ID, created with its header when first used. */
static FILE *
flow_file(struct rrole *r, uint16_t flow_id, char *err, size_t errlen)
{
	size_t i = flow_id >= 1 && flow_id <= r->nf ? flow_id - 1U :
	    RECORDS_FLOWS;
	char path[PATH_MAX + 80];
	FILE *f;

	if (r->f[i] != NULL)
		return r->f[i];
	if (i < RECORDS_FLOWS)
		snprintf(path, sizeof(path), "%s-%s.csv", r->path,
		    r->names[i]);
	else
		snprintf(path, sizeof(path), "%s-other.csv", r->path);
	if ((f = fopen(path, "w")) == NULL ||
	    setvbuf(f, NULL, _IOFBF, 1 << 20) != 0 ||
	    fputs(records_header, f) == EOF) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		if (f != NULL)
			fclose(f);
		return NULL;
	}
	r->fresh = 1;		/* packets/ synced with it (rrole_sync) */
	return r->f[i] = f;
}

/* Flush and sync every file of R. */
static int
rrole_sync(struct rrole *r, char *err, size_t errlen)
{
	size_t i;

	for (i = 0; i <= RECORDS_FLOWS; i++)
		if (r->f[i] != NULL && (fflush(r->f[i]) != 0 ||
		    fdatasync(fileno(r->f[i])) != 0)) {
			snprintf(err, errlen, "%s-*.csv: %s", r->path,
			    strerror(errno));
			return -1;
		}
	if (r->fresh && durable_parent(r->path, err, errlen) == -1)
		return -1;
	r->fresh = 0;
	return 0;
}

int
records_take(struct records *rs, uint32_t role, const char *agent,
    const Hoplab__ResultBatch *b, char *err, size_t errlen)
{
	struct rrole *r = find(rs, role, agent);
	struct pktrec rec;
	char row[RECORDS_ROW_MAX];
	size_t i, n;
	FILE *f;

	if (r == NULL)
		return 0;
	if (b->batch_seq <= r->last_seq)
		return 1;			/* a resend: written before */
	for (i = 0; i + PKTREC_LEN <= b->records.len; i += PKTREC_LEN) {
		pktrec_decode(b->records.data + i, &rec);
		if ((f = flow_file(r, rec.flow_id, err, errlen)) == NULL)
			return -1;
		n = records_row(row, &rec);
		if (fwrite(row, 1, n, f) != n) {
			snprintf(err, errlen, "%s-*.csv: %s", r->path,
			    strerror(errno));
			return -1;
		}
		r->rows++;
	}
	for (i = 0; i <= RECORDS_FLOWS; i++)
		if (r->f[i] != NULL && fflush(r->f[i]) != 0) {
			snprintf(err, errlen, "%s-*.csv: %s", r->path,
			    strerror(errno));
			return -1;
		}
	r->dirty = 1;
	r->last_seq = b->batch_seq;
	return 1;
}

int
records_sync(struct records *rs, char *err, size_t errlen)
{
	struct rrole *roles = rs->roles;
	size_t i;

	for (i = 0; i < RECORDS_ROLES; i++) {
		if (!roles[i].used || !roles[i].dirty)
			continue;
		if (rrole_sync(&roles[i], err, errlen) == -1)
			return -1;
		roles[i].dirty = 0;
	}
	return 0;
}

uint64_t
records_rows(struct records *rs, uint32_t role, const char *agent)
{
	struct rrole *r = find(rs, role, agent);

	return r != NULL ? r->rows : 0;
}

int
records_end(struct records *rs, uint32_t role, const char *agent,
    const Hoplab__ResultBatch *b, char *err, size_t errlen)
{
	struct rrole *r = find(rs, role, agent);
	uint64_t rows;

	if (r == NULL)
		return 0;
	rows = r->rows;
	if (rrole_close(r, err, errlen) == -1)
		return -1;
	if (rows == b->records_total && b->records_dropped == 0)
		return 0;
	snprintf(err, errlen, "per-packet records incomplete: the generator "
	    "streamed %llu and dropped %llu (its buffer was full), %llu were "
	    "written", (unsigned long long)b->records_total,
	    (unsigned long long)b->records_dropped, (unsigned long long)rows);
	return 1;
}
