/*
 * l2: hoplab-gen's l2 mode, one single-threaded loop that sends the
 * flows on tx and receives them back on rx (the two-NIC scheme: one clock
 * stamps both ends, so the one-way delay needs no clock synchronisation).
 *
 * The loop is send.h's, instantiated here with the l2 parts: packets are
 * built in build.c (a template per flow, per packet only the IPv4 id,
 * checksums and the probe change; the probe carries clock_real_ns() read
 * just before the send) and leave in batches through txq.c; while
 * waiting, rx.c services both sockets (ARP, transmit stamps, returning
 * probes).  At high rates (waits under L2_SHORT_WAIT) there is no sleep
 * to wake from: the rx ring is looked at without a system call and the
 * sockets are polled every L2_SERVICE_MAX.
 *
 * Timestamps (--tstamp kernel, the default): the kernel stamps each frame
 * as the driver takes it (SO_TIMESTAMPING software tx, read back from the
 * tx socket's error queue in batches of RX_TXS_BATCH sends and whenever
 * the socket reports one) and as it arrives on rx; tsmatch.c pairs the
 * two by flow and sequence, and the delay is kernel rx - kernel tx, free
 * of the syscall's own time.  A packet whose kernel tx stamp never came
 * uses the probe's user stamp and is counted, and gen_ts_source() says
 * so.  With --tstamp user both ends are clock_gettime() in user space.
 *
 * Before the run the gateway's MAC is resolved by ARP on tx; after it the
 * loop drains for --drain, so that the last packets arrive.
 *
 * Deliberately not here: rate ramps (paced probes leave one by one),
 * receiving (rx.c), frames (build.c), the send batch (txq.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>

#include "clock.h"
#include "log.h"
#include "build.h"
#include "genmode.h"
#include "live.h"
#include "mode.h"
#include "jsonout.h"
#include "report.h"
#include "rx.h"
#include "send.h"
#include "txq.h"
#include "txring.h"

#define L2_SHORT_WAIT	(50 * 1000LL)	/* shorter waits: no ppoll, spin */
#define L2_SERVICE_MAX	(1000 * 1000LL)	/* sockets looked at least this often */
#define L2_LIVE_WAIT	(100 * NSEC_PER_MSEC)	/* drain: live looks */

/* The tx interface, the send batch's frames, then the rx interface. */
static int
l2_open(struct gen_job *j)
{
	struct gen *g;
	char err[512];
	int rc;

	if ((rc = genmode_new(j)) != 0)
		return rc;
	g = j->run;
	g->ends = GEN_ENDS_BOTH;
	if (l2io_open(&g->tx, g->cfg.tx, g->cfg.src, g->cfg.tstamp ==
	    GEN_TS_KERNEL ? L2_TS_TX : 0, err, sizeof(err)) == -1 ||
	    rx_open(g, err, sizeof(err)) == -1) {
		log_error("%s", err);
		return GEN_EXIT_IFACE;
	}
	if ((g->txbuf = calloc(GEN_TXQ_MAX, sizeof(*g->txbuf))) == NULL) {
		log_error("out of memory");
		return GEN_EXIT_IFACE;
	}
	if (g->cfg.tx_io == GEN_TX_RING && txring_open(g, err,
	    sizeof(err)) == -1) {
		log_error("%s", err);
		return GEN_EXIT_IFACE;
	}
	return genmode_live(j);
}

/*
 * Resolve the gateway's MAC by ARP on tx: GEN_ARP_TRIES requests,
 * GEN_ARP_WAIT apart, answering ARP on both interfaces meanwhile.
 * Returns 0, or -1 with a message naming gateway and interface in ERR.
 */
static int
l2_arp(struct gen *g, volatile sig_atomic_t *signals, char *err,
    size_t errlen)
{
	char ip[INET_ADDRSTRLEN];
	int64_t end, now;
	int try;

	inet_ntop(AF_INET, &g->cfg.gateway, ip, sizeof(ip));
	for (try = 0; try < GEN_ARP_TRIES && !g->have_gw && !*signals;
	    try++) {
		if (l2io_arp_request(&g->tx, g->cfg.gateway) == -1) {
			snprintf(err, errlen, "interface %s: cannot send ARP "
			    "request for gateway %s: %s", g->tx.name, ip,
			    strerror(errno));
			return -1;
		}
		log_debug("ARP request %d for %s on %s", try + 1, ip,
		    g->tx.name);
		end = clock_mono_ns() + GEN_ARP_WAIT;
		while (!g->have_gw && !*signals &&
		    (now = clock_mono_ns()) < end)
			if (rx_service(g, end - now, err, errlen) == -1)
				return -1;
	}
	if (!g->have_gw) {
		snprintf(err, errlen, "gateway %s does not answer ARP on "
		    "interface %s (%d requests, 1 s apart)%s", ip, g->tx.name,
		    try, *signals ? "; interrupted" : "");
		return -1;
	}
	return 0;
}

static int
l2_resolve(struct gen_job *j, volatile sig_atomic_t *signals)
{
	struct gen *g = j->run;
	char err[512], ip[INET_ADDRSTRLEN], mac[18];

	if (l2_arp(g, signals, err, sizeof(err)) == -1) {
		log_error("%s", err);
		return GEN_EXIT_ARP;
	}
	inet_ntop(AF_INET, &g->cfg.gateway, ip, sizeof(ip));
	log_info("gateway %s is at %s on %s", ip,
	    pkt_mac_format(g->gw_mac, mac, sizeof(mac)), g->tx.name);
	return 0;
}

/*
 * Wait for DEADLINE, spinning at least SPIN before it.  High rates, and
 * a spin that covers the whole wait: no sleep to wake from.  The rx ring
 * costs no system call to look at; the sockets are polled (without
 * waiting) every L2_SERVICE_MAX for ARP and stamps.
 */
static int
l2_wait(struct gen *g, int64_t deadline, int64_t spin,
    volatile sig_atomic_t *signals, char *err, size_t errlen)
{
	int64_t now = clock_mono_ns();

	if (deadline - now >= L2_SHORT_WAIT && deadline - now >
	    pace_lead(&g->pace, deadline - now, spin))
		return send_wait(g, now, deadline, spin, signals, rx_service,
		    err, errlen);
	if (now - g->last_service >= L2_SERVICE_MAX) {
		if (rx_service(g, 0, err, errlen) == -1)
			return -1;
	} else
		(void)rx_ring(g);
	(void)pace_spin(&g->pace, deadline, signals);
	return 0;
}

/* After a send: the stamps, in batches (waits read them too). */
static int
l2_stamps(struct gen *g, char *err, size_t errlen)
{
	if (g->txs_unread < RX_TXS_BATCH)
		return 0;
	return rx_drain_txstamps(g, err, errlen);
}

/*
 * --tx-io ring, after a batch: the sampled frames' stamps at once (a
 * few per batch at most), so that a sample's tsmatch slot is not reused
 * before its stamp came.
 */
static int
l2_ring_stamps(struct gen *g, char *err, size_t errlen)
{
	if (g->txs_unread == 0)
		return 0;
	return rx_drain_txstamps(g, err, errlen);
}

/* After the last send: receive for --drain, live batches going on. */
static int
l2_drain(struct gen *g, volatile sig_atomic_t *signals, char *err,
    size_t errlen)
{
	int64_t end, now;

	end = clock_mono_ns() + g->cfg.drain_ns;
	log_debug("draining for %lld ms", (long long)(g->cfg.drain_ns /
	    NSEC_PER_MSEC));
	while (*signals < 2 && (now = clock_mono_ns()) < end) {
		if (live_due(g->live, now))
			live_tick(g->live, g, now);
		/* Short waits, so that live intervals keep coming. */
		if (rx_service(g, g->live != NULL && end - now >
		    L2_LIVE_WAIT ? L2_LIVE_WAIT : end - now, err,
		    errlen) == -1)
			return -1;
	}
	return rx_drain_txstamps(g, err, errlen);
}

/*
 * Send every flow and receive, then wait the drain time.  The first signal
 * counted in *SIGNALS stops sending (the drain still runs), a second one
 * ends the drain.  Returns 0, or -1 with ERR on a socket error; in both
 * cases what was measured stays readable through gen_flows().
 */
static int
l2_loop(struct gen *g, volatile sig_atomic_t *signals, char *err,
    size_t errlen)
{
	size_t i;
	int rc;

	for (i = 0; i < g->nflows; i++)
		if (build_template(g, i, g->flows[i].spec.frame, err,
		    errlen) == -1)
			return -1;
	if (g->cfg.tx_io == GEN_TX_RING)
		rc = send_run_batched(g, signals, l2_wait, txring_queue,
		    txring_kick, txring_drop, l2_ring_stamps, err, errlen);
	else
		rc = send_run(g, signals, l2_wait, txq_queue, txq_flush,
		    l2_stamps, err, errlen);
	if (rc == -1)
		return -1;
	if (*signals)
		log_warn("signal received: sending stopped, draining");
	rc = l2_drain(g, signals, err, errlen);
	gen_flush(g);
	return rc;
}

static int
l2_run(struct gen_job *j, volatile sig_atomic_t *signals)
{
	char err[512];

	return genmode_ran(j, l2_loop(j->run, signals, err, sizeof(err)),
	    err);
}

static void
l2_print(const struct gen_job *j, FILE *out)
{
	if (j->json)
		jsonout_print(out, j->run, &j->cfg);
	else
		report_print_l2(out, j->run, &j->cfg, j->show);
}

const struct gen_mode l2_mode = {
	.name = "l2",
	.open = l2_open,
	.resolve = l2_resolve,
	.run = l2_run,
	.print = l2_print,
	.report = genmode_report,
	.close = genmode_close,
};
