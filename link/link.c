/*
 * link: hoplab-link's setup and its single loop, a transparent two-port
 * element: every frame received on one interface leaves by the other,
 * byte for byte (no MAC rewrite, no TTL change), unless its direction's
 * profile drops, duplicates, corrupts or delays it (impair.h).
 *
 * Timing.  A frame's departure time is absolute: computed from its
 * kernel receive stamp, never from "now".  The loop sleeps (wait.c)
 * until LEAD before the next departure, then spins on the clock (vDSO)
 * and releases each frame as its time comes, so the release error is the
 * spin loop's granularity plus the send, not the timer's wakeup latency.
 * The error (release minus intended, CLOCK_REALTIME taken just before
 * the send() that hands the frame to the driver) goes into a histogram
 * per direction.  While frames are held within LEAD the loop uses a whole
 * core; that is the price of microseconds.
 *
 * Receiving.  A frame that finds the loop asleep waits for the kernel to
 * wake it (tens of us on a VM), and that wake-up would be the floor of
 * every frame's residence, `delay 0ms` included.  So after each burst the
 * loop keeps polling the rings for as long as the busy policy says
 * (busy.h, --busy-poll), and a frame that lands meanwhile is picked up
 * within a microsecond.  The truth file records what happened either way:
 * arrival is the kernel's receive stamp, actual the clock before send().
 *
 * Classes of frames (truth kinds): shorter than an Ethernet header or cut
 * by the ring: malformed, dropped; longer than the MTU: oversize; not
 * IPv4: nonip; shorter than 60 bytes (64 with FCS): runt; each goes
 * through its profile policy (impair, pass or drop); IPv4 frames are
 * impaired, and those carrying hoplab's probe header (lib/probe.h) have
 * their flow and sequence recorded in the truth file.
 *
 * Deliberately not done: VLAN tags (pktio does not see them), more than
 * two ports, learning or filtering by MAC (every frame is carried).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "clock.h"
#include "log.h"
#include "pkt.h"
#include "probe.h"
#include "link/ctl.h"
#include "link/dir.h"
#include "link/wait.h"
#include "link/link.h"

static const int64_t err_bounds[LINK_ERR_BUCKETS - 1] = { 1000, 2000,
    5000, 10000, 20000, 50000, 100000, 200000, 500000, 1000000, 10000000 };

static inline struct lpkt *
pkt_get(struct link *l)
{
	struct lpkt *p = l->freelist;

	if (p != NULL) {
		l->freelist = p->next;
		l->nfree--;
	}
	return p;
}

static inline void
pkt_put(struct link *l, struct lpkt *p)
{
	p->next = l->freelist;
	l->freelist = p;
	l->nfree++;
}

/* A truth record for a frame that is not (or no longer) held. */
static inline void
record(struct link *l, int dir, uint32_t index, int64_t arr, int64_t dep,
    int64_t act, uint32_t len, uint16_t flags, uint8_t kind, uint16_t flow,
    uint32_t seq)
{
	struct truthfile_rec r;

	if (l->truth == NULL)
		return;
	r.arr_ns = arr;
	r.intended_ns = act != 0 ? dep : 0;
	r.actual_ns = act;
	r.index = index;
	r.seq = seq;
	r.flow = flow;
	r.len = (uint16_t)(len > UINT16_MAX ? UINT16_MAX : len);
	r.flags = flags;
	r.dir = (uint8_t)dir;
	r.kind = kind;
	truth_add(l->truth, &r);
}

/* The kind of frame F (LEN bytes, CAPLEN captured); probe fields too. */
static inline uint8_t
classify(const struct link *l, unsigned in, const uint8_t *f, uint32_t len,
    uint32_t caplen, struct probe *pr)
{
	unsigned ihl;

	if (len < PKT_ETH_LEN || caplen < len)
		return TRUTHFILE_K_MALFORMED;
	if (len > l->mtu[in] + PKT_ETH_LEN || len > LINK_PBUF)
		return TRUTHFILE_K_OVERSIZE;
	if (f[12] != 0x08 || f[13] != 0x00)
		return TRUTHFILE_K_NONIP;
	if (len < PKT_FRAME_MIN - PKT_FCS_LEN)
		return TRUTHFILE_K_RUNT;
	ihl = (f[PKT_ETH_LEN] & 0x0f) * 4u;
	if ((f[PKT_ETH_LEN] >> 4) == 4 && ihl >= PKT_IP4_LEN &&
	    f[PKT_ETH_LEN + 9] == 17 && len >= PKT_ETH_LEN + ihl +
	    PKT_UDP_LEN && probe_read(f + PKT_ETH_LEN + ihl + PKT_UDP_LEN,
	    len - PKT_ETH_LEN - ihl - PKT_UDP_LEN, pr) == 0)
		return TRUTHFILE_K_PROBE;
	return TRUTHFILE_K_IPV4;
}

/* Hold a copy of frame F until DEP (REALTIME). */
static inline void
hold(struct link *l, struct ldir *d, const uint8_t *f, uint32_t len,
    int64_t arr, int64_t dep, uint32_t index, uint16_t flags, uint8_t kind,
    const struct probe *pr)
{
	struct lpkt *p;

	if ((p = pkt_get(l)) == NULL) {
		d->st.pool_drop++;
		record(l, (int)(d - l->d), index, arr, dep, 0, len,
		    flags | TRUTHFILE_F_POOLDROP, kind, pr->flow_id, pr->seq);
		return;
	}
	memcpy(p->data, f, len);
	p->arr_ns = arr;
	p->dep_ns = dep;
	p->index = index;
	p->seq = pr->seq;
	p->flow = pr->flow_id;
	p->len = (uint16_t)len;
	p->flags = flags;
	p->dir = (uint8_t)(d - l->d);
	p->kind = kind;
	/* the queue holds as many entries as the pool has buffers */
	depq_push(&d->q, dep - l->off, l->ord++, p);
}

static inline void
frame_in(struct link *l, struct ldir *d, const struct pktio_pkt *pk)
{
	const struct lprofile *prof = &d->m.prof;
	struct probe pr = { 0, 0, 0, 0 };
	struct impair_res res;
	enum lprof_policy pol = LPROF_IMPAIR;
	uint32_t index = d->next_index++;
	uint8_t kind;
	unsigned k;

	d->st.rx_pkts++;
	d->st.rx_bytes += pk->len;
	kind = classify(l, d->in, pk->data, pk->len, pk->caplen, &pr);
	switch (kind) {
	case TRUTHFILE_K_MALFORMED: pol = LPROF_DROP; break;
	case TRUTHFILE_K_OVERSIZE: pol = prof->oversize; break;
	case TRUTHFILE_K_NONIP: pol = prof->nonip; break;
	case TRUTHFILE_K_RUNT: pol = prof->runt; break;
	default: break;
	}
	if (pol == LPROF_DROP) {
		d->st.kind_drop[kind]++;
		record(l, (int)(d - l->d), index, pk->ts_ns, 0, 0, pk->len,
		    TRUTHFILE_F_PDROP, kind, pr.flow_id, pr.seq);
		return;
	}
	if (pol == LPROF_PASS) {
		d->st.passed++;
		hold(l, d, pk->data, pk->len, pk->ts_ns, pk->ts_ns, index,
		    TRUTHFILE_F_PASS, kind, &pr);
		return;
	}
	impair_frame(&d->m, pk->ts_ns, pk->len, &res);
	if (res.corrupt_off >= 0)
		pk->data[res.corrupt_off] ^= res.corrupt_mask;
	for (k = res.n; k-- > 0;) {	/* the copy is made before the flip */
		if (res.c[k].flags & (TRUTHFILE_F_LOST | TRUTHFILE_F_QDROP)) {
			record(l, (int)(d - l->d), index, pk->ts_ns, 0, 0,
			    pk->len, res.c[k].flags, kind, pr.flow_id, pr.seq);
			continue;
		}
		if (k == 1 && res.corrupt_off >= 0)
			pk->data[res.corrupt_off] ^= res.corrupt_mask;
		hold(l, d, pk->data, pk->len, pk->ts_ns, res.c[k].dep_ns,
		    index, res.c[k].flags, kind, &pr);
		if (k == 1 && res.corrupt_off >= 0)
			pk->data[res.corrupt_off] ^= res.corrupt_mask;
	}
}

/* Send what is queued on port I and record it: one send(). */
static void
flush_port(struct link *l, unsigned i)
{
	struct lpkt *p;
	struct ldir *d;
	int64_t now, e;
	unsigned k, b;

	if (l->ntx[i] == 0)
		return;
	now = clock_real_ns();
	if (pktio_tx_flush(l->io[i]) == -1)
		now = 0;		/* kept queued by pktio; see below */
	for (k = 0; k < l->ntx[i]; k++) {
		p = l->txq[i][k];
		d = &l->d[p->dir];
		if (now == 0) {
			d->st.tx_drop++;
			record(l, p->dir, p->index, p->arr_ns, p->dep_ns, 0,
			    p->len, p->flags | TRUTHFILE_F_TXDROP, p->kind,
			    p->flow, p->seq);
			pkt_put(l, p);
			continue;
		}
		if (d->sent_any && p->index < d->max_index) {
			p->flags |= TRUTHFILE_F_LATE;
			d->st.late++;
		} else {
			d->max_index = p->index;
			d->sent_any = 1;
		}
		e = now - p->dep_ns;
		hist_add(d->err_total, e);
		hist_add(d->err_ival, e);
		hist_add(d->delay_ival, now - p->arr_ns);
		welford_add(&d->err_w, e);
		welford_add(&d->err_wi, e);
		welford_add(&d->delay_wi, now - p->arr_ns);
		for (b = 0; b < LINK_ERR_BUCKETS - 1 && e >= err_bounds[b]; b++)
			;
		d->st.err_bucket[b]++;
		if (e > d->st.err_max)
			d->st.err_max = e;
		d->st.tx_pkts++;
		d->st.tx_bytes += p->len;
		record(l, p->dir, p->index, p->arr_ns, p->dep_ns, now, p->len,
		    p->flags, p->kind, p->flow, p->seq);
		pkt_put(l, p);
	}
	l->ntx[i] = 0;
}

/* Release every frame of D due at NOW (MONOTONIC). */
static inline void
release(struct link *l, struct ldir *d, int64_t now)
{
	const struct heap_ent *top;
	struct heap_ent e;
	struct lpkt *p;

	while ((top = depq_top(&d->q)) != NULL && top->t <= now) {
		depq_pop(&d->q, &e);
		p = e.p;
		/*
		 * A frame held for milliseconds is out of the caches by now:
		 * fetch the next one's header and first bytes while this
		 * one is copied.
		 */
		if ((top = depq_top(&d->q)) != NULL && top->t <= now) {
			__builtin_prefetch(top->p);
			__builtin_prefetch((const uint8_t *)top->p + 64);
		}
		if (pktio_tx(l->io[d->out], p->data, p->len) == -1) {
			flush_port(l, d->out);	/* make room, then retry */
			if (pktio_tx(l->io[d->out], p->data, p->len) == -1) {
				d->st.tx_drop++;
				record(l, p->dir, p->index, p->arr_ns,
				    p->dep_ns, 0, p->len,
				    p->flags | TRUTHFILE_F_TXDROP, p->kind,
				    p->flow, p->seq);
				pkt_put(l, p);
				continue;
			}
		}
		l->txq[d->out][l->ntx[d->out]++] = p;
		if (l->ntx[d->out] == PKTIO_BURST_MAX)
			flush_port(l, d->out);
	}
}

/*
 * Receive a burst on both ports at NOW (MONOTONIC); the number of frames.
 * The busy policy learns when the first frame of the pass was seen
 * against its receive stamp, and whether the loop was POLLING then.
 */
static unsigned
receive(struct link *l, int64_t now, int polling)
{
	struct pktio_pkt pk[LINK_BURST];
	unsigned i, j, n, total = 0;

	for (i = 0; i < 2; i++) {
		n = pktio_rx_burst(l->io[i], pk, LINK_BURST);
		if (n > 0 && total == 0)
			lbusy_rx(&l->busy, now, clock_real_ns() - pk[0].ts_ns,
			    polling);
		for (j = 0; j < n; j++)
			frame_in(l, &l->d[i], &pk[j]);
		pktio_rx_release(l->io[i]);
		total += n;
	}
	return total;
}

/* ------------------------------------------------------------ the loop */

static int64_t
next_due(struct link *l)
{
	const struct heap_ent *t0 = depq_top(&l->d[0].q);
	const struct heap_ent *t1 = depq_top(&l->d[1].q);
	int64_t n = INT64_MAX;

	if (t0 != NULL)
		n = t0->t;
	if (t1 != NULL && t1->t < n)
		n = t1->t;
	return n;
}

/* Sleep until the next departure's lead, a timer, a frame or a request. */
static void
idle(struct link *l, int64_t now)
{
	int64_t next = next_due(l), t = 100 * NSEC_PER_MSEC;

	if (l->truth != NULL)
		truth_flush(l->truth);	/* idle: write */
	if (next != INT64_MAX && next - lwait_lead(l) - now < t)
		t = next - lwait_lead(l) - now;
	if ((next = lctl_sched_next(l)) != INT64_MAX &&
	    next - l->off - now < t)
		t = next - l->off - now;
	if (l->cs.push != NULL && l->next_report - now < t)
		t = l->next_report - now;
	now = clock_mono_ns();
	if (next_due(l) - lwait_lead(l) > now)
		lwait_sleep(l, t);
}

/*
 * The loop: receive, release what is due, serve the control socket;
 * then poll again while a departure is within the lead or the busy
 * policy says frames are coming (busy.h), else sleep.
 */
static void
loop(struct link *l)
{
	int64_t now, next_ctl = 0, spin_from = -1;
	int polling = 0;

	while (!*l->stop) {
		now = clock_mono_ns();
		receive(l, now, polling);
		now = clock_mono_ns();
		release(l, &l->d[0], now);
		release(l, &l->d[1], now);
		flush_port(l, 0);
		flush_port(l, 1);
		if (now >= next_ctl) {
			lctl_poll(l);
			lctl_sched_run(l, now + l->off);
			next_ctl = now + 10 * NSEC_PER_MSEC;
		}
		if (l->cs.push != NULL && now >= l->next_report) {
			lctl_report(l, 0);
			l->next_report = now + l->o->interval_ns;
		}
		lbusy_tick(&l->busy, now);
		polling = lbusy_poll(&l->busy, now) ||
		    next_due(l) - now <= lwait_lead(l);
		if (polling) {
			if (spin_from < 0)
				spin_from = now;
			continue;
		}
		if (spin_from >= 0)
			l->busy.spun_ns += now - spin_from;
		spin_from = -1;
		idle(l, now);
	}
	if (spin_from >= 0)
		l->busy.spun_ns += clock_mono_ns() - spin_from;
}

/* ------------------------------------------------------------ setup */

static int
open_ports(struct link *l, char *err, size_t errlen)
{
	struct pktio_conf pc;
	unsigned i;

	for (i = 0; i < 2; i++) {
		memset(&pc, 0, sizeof(pc));
		pc.ifname = l->o->ifname[i];
		pc.rx_ring = l->o->rx_ring;
		pc.tx_path = l->o->tx_path;
		pc.promisc = 1;
		if ((l->io[i] = pktio_open(&pc, err, errlen)) == NULL)
			return -1;
		l->mtu[i] = pktio_mtu(l->io[i]);
	}
	return 0;
}

static int
setup(struct link *l, char *err, size_t errlen)
{
	const struct link_opts *o = l->o;
	struct lprofile p;
	struct truthfile_hdr th;
	unsigned i;

	if ((l->pool = calloc(o->pool, sizeof(*l->pool))) == NULL) {
		snprintf(err, errlen, "%u packet buffers: out of memory",
		    o->pool);
		return -1;
	}
	for (i = 0; i < o->pool; i++)
		pkt_put(l, &l->pool[i]);
	for (i = 0; i < 2; i++) {
		l->d[i].name = i == 0 ? "a-b" : "b-a";
		l->d[i].in = i;
		l->d[i].out = 1 - i;
		welford_init(&l->d[i].err_w);
		welford_init(&l->d[i].err_wi);
		welford_init(&l->d[i].delay_wi);
		if (impair_init(&l->d[i].m, 2 * o->seed + i) == -1 ||
		    depq_init(&l->d[i].q, o->pool) == -1 ||
		    (l->d[i].err_total = hist_new()) == NULL ||
		    (l->d[i].err_ival = hist_new()) == NULL ||
		    (l->d[i].delay_ival = hist_new()) == NULL) {
			snprintf(err, errlen, "setup: out of memory");
			return -1;
		}
		if (lprofile_parse(&p, o->profile[i] != NULL ?
		    o->profile[i] : "none", err, errlen) == -1)
			return -1;
		ldir_install(l, (int)i, &p);
	}
	if (open_ports(l, err, errlen) == -1)
		return -1;
	if (o->truth != NULL) {
		memset(&th, 0, sizeof(th));
		th.start_ns = l->start_ns;
		th.seed = o->seed;
		for (i = 0; i < 2; i++) {
			snprintf(th.ifname[i], sizeof(th.ifname[i]), "%s",
			    o->ifname[i]);
			snprintf(th.profile[i], sizeof(th.profile[i]), "%s",
			    l->d[i].m.prof.text);
		}
		if ((l->truth = truth_open(o->truth, &th, err, errlen)) == NULL)
			return -1;
		for (i = 0; i < 2; i++)
			truth_add_profile(l->truth, i, 0, l->start_ns,
			    l->start_ns, l->d[i].m.prof.text);
	}
	return 0;
}

static void
teardown(struct link *l)
{
	unsigned i;

	for (i = 0; i < 2; i++) {
		pktio_free(l->io[i]);
		impair_free(&l->d[i].m);
		depq_free(&l->d[i].q);
		hist_free(l->d[i].err_total);
		hist_free(l->d[i].err_ival);
		hist_free(l->d[i].delay_ival);
	}
	for (i = 0; i < LINK_SCHED_MAX; i++)
		if (l->sched[i].used)
			lprofile_free(&l->sched[i].prof);
	free(l->pool);
}

/* Frames still held at the end leave as they would have, then we stop. */
static void
drain(struct link *l)
{
	int64_t deadline = clock_mono_ns() + NSEC_PER_SEC, now;

	while ((depq_top(&l->d[0].q) != NULL || depq_top(&l->d[1].q) !=
	    NULL) && (now = clock_mono_ns()) < deadline) {
		release(l, &l->d[0], now);
		release(l, &l->d[1], now);
		flush_port(l, 0);
		flush_port(l, 1);
	}
}

/*
 * Run the link described by O (profiles already checked by the caller)
 * until *STOP.  Returns 0 after a clean stop, 2 when an interface, the
 * truth file or a socket could not be opened or the truth file could not
 * be written.
 */
int
link_run(const struct link_opts *o, volatile sig_atomic_t *stop)
{
	struct link *l;
	char err[512];
	int rc = 0;

	if ((l = calloc(1, sizeof(*l))) == NULL) {
		log_error("out of memory");
		return 2;
	}
	l->o = o;
	l->stop = stop;
	l->tfd = -1;
	l->start_ns = clock_real_ns();
	l->off = clock_real_ns() - clock_mono_ns();
	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	if (setup(l, err, sizeof(err)) == -1 ||
	    lctl_open(l, err, sizeof(err)) == -1 ||
	    lwait_tune(l, err, sizeof(err)) == -1) {
		log_error("%s", err);
		rc = 2;
	}
	if (rc == 0) {
		log_info("carrying %s <-> %s (%s rings, %s transmit, mtu "
		    "%u/%u), %u buffers", o->ifname[0], o->ifname[1],
		    pktio_backend(l->io[0]), o->tx_path == PKTIO_TX_COPY ?
		    "copy" : "ring", l->mtu[0], l->mtu[1], o->pool);
		l->next_report = clock_mono_ns() + o->interval_ns;
		lbusy_init(&l->busy, o->busy_adaptive, o->busy_ns,
		    clock_mono_ns());
		log_info("busy poll: %s, up to %lld us after a frame",
		    o->busy_adaptive ? "adaptive" : o->busy_ns > 0 ? "fixed" :
		    "off", (long long)(o->busy_ns / 1000));
		loop(l);
		drain(l);
		if (l->cs.push != NULL)
			lctl_report(l, 1);
		lctl_print(l, stdout);
		if (l->truth != NULL && truth_close(l->truth) == -1) {
			log_error("truth file %s: write errors", o->truth);
			rc = 2;
		}
		l->truth = NULL;
	}
	truth_close(l->truth);
	lwait_untune(l);
	lctl_close(l);
	teardown(l);
	free(l);
	return rc;
}
