/*
 * ttlchanges: ttl_changes.csv rows (see ttlchanges.h).
 *
 * The times are the generator's: tx the probe's transmit stamp as it
 * was built (the probe header's; for an icmp flow the request's send
 * time), rx its receive stamp, both CLOCK_REALTIME, written from the
 * integer nanoseconds so that none is lost (a double holds a Unix time
 * to about 0.2 us only).  A flow that received nothing has no row.
 *
 * A resumed run (`hoplab attach`) keeps the rows it finds and appends:
 * a point measured again starts its flows over with a first-packet row
 * (ttl_from 0), and the readers (pathchange.c, recovery.c) keep a
 * flow's rows from its last first-packet row on.
 */
#include <inttypes.h>
#include <stdio.h>

#include "controller/results/ttlchanges.h"

const char *const ttlchanges_cols[] = {
	"point", "variant", "routers", "frame_bytes", "rep", "flow", "seq",
	"prev_seq", "tx_time_unix_s", "rx_time_unix_s", "ttl_from", "ttl_to",
	"changes_dropped",
};
const size_t ttlchanges_ncols = sizeof(ttlchanges_cols) /
    sizeof(ttlchanges_cols[0]);

const char *
ttlchanges_unix_s(int64_t ns, char *buf, size_t len)
{
	if (ns < 0)
		snprintf(buf, len, "-%" PRId64 ".%09" PRId64, -ns / 1000000000,
		    -ns % 1000000000);
	else
		snprintf(buf, len, "%" PRId64 ".%09" PRId64, ns / 1000000000,
		    ns % 1000000000);
	return buf;
}

int
ttlchanges_write(struct csvfile *tc, const struct point_key *k,
    const Hoplab__FlowResult *f, char *err, size_t errlen)
{
	const Hoplab__TtlChange *c;
	char tx[32], rx[32];
	size_t i;

	if (tc->f == NULL)
		return 0;		/* `hoplab report`: not written */
	for (i = 0; i < f->n_ttl_changes; i++) {
		c = f->ttl_changes[i];
		csv_u64(tc->c, k->run);
		csv_str(tc->c, k->variant);
		csv_u64(tc->c, k->routers);
		csv_u64(tc->c, f->frame);
		csv_u64(tc->c, k->rep);
		csv_str(tc->c, f->name);
		csv_u64(tc->c, c->seq);
		csv_u64(tc->c, c->prev_seq);
		csv_str(tc->c, ttlchanges_unix_s(c->tx_ns, tx, sizeof(tx)));
		csv_str(tc->c, ttlchanges_unix_s(c->rx_ns, rx, sizeof(rx)));
		csv_u64(tc->c, c->ttl_from);
		csv_u64(tc->c, c->ttl_to);
		csv_u64(tc->c, f->ttl_changes_dropped);
		if (csvfile_end_row(tc, err, errlen) == -1)
			return -1;
	}
	return 0;
}
