/*
 * starts: starts.csv and the console's spread line (starts.h).  Column
 * late_us is first_tx_ns - start_at_ns: the generator's own stamp of its
 * first packet, so it includes the time to build and send that packet.
 * Names are plan names ([A-Za-z0-9._-]), written without quoting.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "controller/results/starts.h"
#include "durable.h"

void
starts_report(const char *dir, size_t point, unsigned rep, int64_t start_at,
    const struct start_row *rows, size_t n, int quiet)
{
	char path[PATH_MAX];
	int64_t lo = INT64_MAX, hi = INT64_MIN, t;
	size_t i;
	char err[PATH_MAX + 64];
	long start;
	FILE *f;

	snprintf(path, sizeof(path), "%s/starts.csv", dir);
	if ((f = durable_append(path, "point,rep,flow,host,start_at_ns,"
	    "first_tx_ns,late_us", &start, err, sizeof(err))) == NULL) {
		log_warn("%s", err);
		return;
	}
	for (i = 0; i < n; i++) {
		t = rows[i].first_tx_ns;
		fprintf(f, "%zu,%u,%s,%s,%lld,%lld,%.1f\n", point, rep,
		    rows[i].flow, rows[i].host, (long long)start_at,
		    (long long)t, (double)(t - start_at) / 1e3);
		lo = t < lo ? t : lo;
		hi = t > hi ? t : hi;
	}
	if (durable_append_end(f, path, start, err, sizeof(err)) == -1)
		log_warn("%s", err);
	if (n > 1 && !quiet)
		fprintf(stderr, "      start: %zu udp senders' first packets "
		    "within %.1f us of each other (%.1f to %.1f us after "
		    "the start instant; starts.csv)\n", n, (hi - lo) / 1e3,
		    (lo - start_at) / 1e3, (hi - start_at) / 1e3);
}
