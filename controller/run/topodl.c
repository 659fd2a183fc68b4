/*
 * topodl: downloads of a topology point (see topodl.h).
 *
 * The receiver's own result gives the bytes that arrived; the sender's
 * gives the time, the streams, TCP_INFO and the congestion control the
 * kernel used.
 */
#include <stdio.h>
#include <string.h>

#include "controller/results/results.h"
#include "controller/run/topodl.h"

int
topodl_record(struct run *r, const struct plan_flow *pf, unsigned rep,
    const Hoplab__FlowResult *send, const struct wait_role *recv,
    char *err, size_t errlen)
{
	struct download_in d;
	int complete;

	if (strcmp(pf->mode, "tcp") != 0 || pf->tcp_bytes == 0)
		return 0;
	memset(&d, 0, sizeof(d));
	d.variant = r->plan->variants[0].label;
	d.point = r->label;
	d.rep = rep;
	d.flow = pf->name;
	d.bytes = pf->tcp_bytes;
	d.streams = pf->tcp_streams;
	d.send = send;
	d.recv = recv->have_result && recv->result->n_flows > 0 ?
	    recv->result->flows[0] : NULL;
	if (results_add_download(r->res, &d, &complete, err, errlen) == -1)
		return -1;
	if (!complete)
		fprintf(stderr, "      %s: download INCOMPLETE: %llu of %llu "
		    "bytes arrived within its limit of %.1f s (complete 0 in "
		    "downloads.csv)\n", pf->name, (unsigned long long)(d.recv ?
		    d.recv->rx_bytes : send->tcp_peer_bytes),
		    (unsigned long long)pf->tcp_bytes, pf->duration_ns / 1e9);
	else if (!r->opts->quiet)
		fprintf(stderr, "      %s: downloaded %llu bytes over %u "
		    "stream(s) in %.3f s, %.2f Mbit/s goodput, cc %s\n",
		    pf->name, (unsigned long long)pf->tcp_bytes,
		    pf->tcp_streams, send->tcp_transfer_ns / 1e9,
		    send->tcp_transfer_ns ? pf->tcp_bytes * 8e3 /
		    (double)send->tcp_transfer_ns : 0, send->tcp_cc[0] ?
		    send->tcp_cc : "?");
	return 0;
}
