/*
 * downloads: downloads.csv, downloads_streams.csv and
 * downloads_summary.csv (see downloads.h).
 *
 * A download is complete when the sender says every stream's share was
 * counted by the receiver within the limit and the receiver's own total
 * is the plan's bytes.  Its time (download_time_s) is the sender's: the
 * first connect to the receiver's count of the last byte; an incomplete
 * one has none (an empty cell, left out of the summary's statistics) and
 * its goodput is the bytes that arrived over the time until it was cut.
 *
 * Deliberately not here: statistics of their own (aggregate.c pools the
 * repetitions exactly as for summary.csv), per-interval rows (the
 * flow's intervals.csv rows are the download's goodput over time).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "controller/results/aggregate.h"
#include "controller/results/csvfile.h"
#include "controller/results/downloads.h"
#include "csvread.h"
#include "split.h"

struct downloads {
	struct csvfile	dl;		/* downloads.csv */
	struct csvfile	st;		/* downloads_streams.csv */
};

static const char *const dl_cols[] = {
	"variant", "point", "rep", "flow", "bytes", "bytes_sent",
	"bytes_received", "complete", "download_time_s", "goodput_mbps",
	"retransmits", "rtt_ms", "streams", "cc",
};
static const char *const st_cols[] = {
	"variant", "point", "rep", "flow", "stream", "bytes", "bytes_sent",
	"bytes_received", "complete", "download_time_s", "goodput_mbps",
	"retransmits", "rtt_ms",
};
#define NCOLS(a)	(sizeof(a) / sizeof((a)[0]))

/* DIR/NAME's size, 0 when it is missing (created anew). */
static uint64_t
file_size(const char *dir, const char *name)
{
	char path[4096 + 64];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return stat(path, &st) == 0 ? (uint64_t)st.st_size : 0;
}

static struct downloads *
dl_open(const char *dir, int resume, char *err, size_t errlen)
{
	struct downloads *dl;

	if ((dl = calloc(1, sizeof(*dl))) == NULL) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (csvfile_reopen(&dl->dl, dir, "downloads.csv", resume ?
	    file_size(dir, "downloads.csv") : 0, dl_cols, NCOLS(dl_cols), err,
	    errlen) == -1 || csvfile_reopen(&dl->st, dir,
	    "downloads_streams.csv", resume ? file_size(dir,
	    "downloads_streams.csv") : 0, st_cols, NCOLS(st_cols), err,
	    errlen) == -1) {
		downloads_close(dl, NULL, 0);
		return NULL;
	}
	return dl;
}

struct downloads *
downloads_open(const char *dir, char *err, size_t errlen)
{
	return dl_open(dir, 0, err, errlen);
}

struct downloads *
downloads_reopen(const char *dir, char *err, size_t errlen)
{
	return dl_open(dir, 1, err, errlen);
}

/* The key columns of D's rows. */
static void
put_key(struct csv *c, const struct download_in *d)
{
	csv_str(c, d->variant);
	csv_str(c, d->point);
	csv_u64(c, d->rep);
	csv_str(c, d->flow);
}

/* Time (empty when incomplete), goodput over TIME_NS, retransmits, RTT. */
static void
put_numbers(struct csv *c, uint64_t received, int complete, uint64_t time_ns,
    uint64_t retrans, uint32_t rtt_us)
{
	if (complete)
		csv_f64(c, time_ns / 1e9, 6);
	else
		csv_str(c, "");
	csv_f64(c, time_ns > 0 ? received * 8e3 / (double)time_ns : 0, 3);
	csv_u64(c, retrans);
	csv_f64(c, rtt_us / 1e3, 3);
}

static int
put_streams(struct downloads *dl, const struct download_in *d, char *err,
    size_t errlen)
{
	const Hoplab__TcpStream *s;
	uint64_t share;
	size_t i, n = d->send->n_tcp_streams;
	int done;

	for (i = 0; i < n; i++) {
		s = d->send->tcp_streams[i];
		share = split_share(d->bytes, (unsigned)n, (unsigned)i);
		done = d->send->tcp_complete && s->bytes_peer == share;
		put_key(dl->st.c, d);
		csv_u64(dl->st.c, s->index);
		csv_u64(dl->st.c, share);
		csv_u64(dl->st.c, s->bytes_sent);
		csv_u64(dl->st.c, s->bytes_peer);
		csv_u64(dl->st.c, (uint64_t)done);
		put_numbers(dl->st.c, s->bytes_peer, done, done ?
		    s->transfer_ns : d->send->tcp_transfer_ns, s->retransmits,
		    s->rtt_us);
		if (csvfile_end_row(&dl->st, err, errlen) == -1)
			return -1;
	}
	return 0;
}

int
downloads_add(struct downloads *dl, const struct download_in *d,
    int *complete, char *err, size_t errlen)
{
	const Hoplab__FlowResult *s = d->send;
	uint64_t got = d->recv != NULL ? d->recv->rx_bytes : s->tcp_peer_bytes;
	int done = s->tcp_complete && d->recv != NULL && got == d->bytes;

	if (complete != NULL)
		*complete = done;
	if (dl == NULL)
		return 0;		/* `hoplab report`: not written */
	put_key(dl->dl.c, d);
	csv_u64(dl->dl.c, d->bytes);
	csv_u64(dl->dl.c, s->tx_bytes);
	csv_u64(dl->dl.c, got);
	csv_u64(dl->dl.c, (uint64_t)done);
	put_numbers(dl->dl.c, got, done, s->tcp_transfer_ns,
	    s->tcp_retransmits, s->tcp_rtt_us);
	csv_u64(dl->dl.c, d->streams);
	csv_str(dl->dl.c, s->tcp_cc);
	if (csvfile_end_row(&dl->dl, err, errlen) == -1)
		return -1;
	return put_streams(dl, d, err, errlen);
}

int
downloads_close(struct downloads *dl, char *err, size_t errlen)
{
	int rc = 0;

	if (dl == NULL)
		return 0;
	if (csvfile_close(&dl->dl, err, errlen) == -1)
		rc = -1;
	if (csvfile_close(&dl->st, rc ? NULL : err, errlen) == -1)
		rc = -1;
	free(dl);
	return rc;
}

int
downloads_summary(const char *dir, char *err, size_t errlen)
{
	char path[4096 + 64];
	struct csvtab *t;
	int rc;

	if (file_size(dir, "downloads.csv") == 0)
		return 0;
	snprintf(path, sizeof(path), "%s/downloads.csv", dir);
	if ((t = csvread_file(path, err, errlen)) == NULL)
		return -1;
	snprintf(path, sizeof(path), "%s/downloads_summary.csv", dir);
	rc = aggregate_write(t, path, err, errlen);
	csvtab_free(t);
	return rc;
}
