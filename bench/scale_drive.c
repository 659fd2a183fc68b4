/*
 * scale_drive: bench/mgmt_scale.sh's driver.  A plan has one generator
 * host, so a run through 32 generators cannot be written as a plan yet;
 * this program drives them with the controller's own modules instead:
 * controller/mgmt/peers.c (connect, CURVE), controller/mgmt/loop.c (the
 * handshake, heartbeats, the event loop and its dispatch) and
 * controller/results/records.c (the packets/ writer a plan with
 * `records: true` uses), so what it measures is the controller's code.
 *
 *   scale_drive -i INVENTORY -o DIR [-c COUNT] [-t IDT_US] [-f FRAME]
 *       [-l LEAD_MS] NAME...
 *
 * Every named agent gets one l2 generator role on its own looped veth
 * pair (tx -> rx, the generator's own addresses, gateway = its own
 * destination, so the ARP answer comes from itself), all with one
 * GenParams.start_at_ns = now + LEAD_MS, each streaming its per-packet
 * records, which are written to DIR/packets/<agent>-probe.csv and
 * acknowledged batch by batch as in a run.  At the end it prints the
 * spread of the actual first transmit times (max - min of first_tx_ns),
 * their offsets from start_at, the records written, and the rates.
 *
 * Deliberately not here: routers, sweeps, results beyond packets/ (a
 * real run's summary.csv comes from the runner).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "inventory.h"
#include "log.h"
#include "controller/mgmt/loop.h"
#include "controller/mgmt/peers.h"
#include "controller/results/records.h"

#define MAXG	64

struct g {
	struct peer	*p;
	uint32_t	role;
	int		exited, final, failed;
	int64_t		first_tx, last_tx;
	uint64_t	sent, received, total, rows;
};

static struct g gs[MAXG];
static struct records *rs;	/* packets/ */
/* Acks of written batches, sent after records_sync(rs, ) (as waitrole.c). */
static struct { struct peer *p; uint32_t role; uint64_t seq; } pend[1024];
static size_t npend;
static size_t ng;
static uint64_t nbatches;
static int64_t write_ns, first_batch, last_final;

static int
start_all(struct peers *ps, int64_t start_at, uint64_t count,
    uint64_t idt_ns, unsigned frame, const char *run_id, const char *dir)
{
	Hoplab__Envelope env = HOPLAB__ENVELOPE__INIT;
	Hoplab__StartRole sr = HOPLAB__START_ROLE__INIT;
	Hoplab__GenParams gp = HOPLAB__GEN_PARAMS__INIT;
	Hoplab__FlowSpec fs = HOPLAB__FLOW_SPEC__INIT, *fsp = &fs;
	const char *names[] = { "probe" };
	uint32_t base = (uint32_t)(clock_real_ns() / 1000000) & 0x3fffffff;
	char err[512];
	size_t i;

	fs.flow_id = 1;
	fs.name = "probe";
	fs.frame = frame;
	fs.count = count;
	fs.interval_ns = idt_ns;
	fs.dst_port = 9;
	gp.mode = "l2";
	gp.tx_iface = "tx";
	gp.rx_iface = "rx";
	gp.src_ip = "198.18.0.1";
	gp.dst_ip = "198.18.100.2";
	gp.gateway_ip = "198.18.100.2";
	gp.n_flows = 1;
	gp.flows = &fsp;
	gp.drain_ns = 500000000;
	gp.start_at_ns = start_at;
	gp.records = 1;
	sr.params_case = HOPLAB__START_ROLE__PARAMS_GEN;
	sr.gen = &gp;
	sr.run_id = (char *)run_id;
	env.body_case = HOPLAB__ENVELOPE__BODY_START_ROLE;
	env.start_role = &sr;
	for (i = 0; i < ng; i++) {
		gs[i].role = sr.role_id = base + (uint32_t)i;
		if (records_expect(rs, gs[i].role, gs[i].p->inv->name, dir,
		    gs[i].p->inv->name, names, 1, err, sizeof(err)) == -1 ||
		    peers_send(ps, gs[i].p, &env, err, sizeof(err)) == -1) {
			fprintf(stderr, "scale_drive: %s: %s\n",
			    gs[i].p->inv->name, err);
			return -1;
		}
	}
	return 0;
}

static struct g *
find(struct peer *p, uint32_t role)
{
	size_t i;

	for (i = 0; i < ng; i++)
		if (gs[i].p == p && gs[i].role == role)
			return &gs[i];
	return NULL;
}

static void
ack(struct peers *ps, struct peer *p, const Hoplab__ResultBatch *b)
{
	Hoplab__Envelope env = HOPLAB__ENVELOPE__INIT;
	Hoplab__Ack a = HOPLAB__ACK__INIT;
	char err[256];

	if (b->batch_seq == 0)
		return;
	a.role_id = b->role_id;
	a.batch_seq = b->batch_seq;
	env.body_case = HOPLAB__ENVELOPE__BODY_ACK;
	env.ack = &a;
	(void)peers_send(ps, p, &env, err, sizeof(err));
}

/* Sync what was written, then acknowledge it. */
static void
flush(struct peers *ps)
{
	Hoplab__ResultBatch b = HOPLAB__RESULT_BATCH__INIT;
	int64_t t0 = clock_mono_ns();
	char err[512];
	size_t i;

	if (npend == 0)
		return;
	if (records_sync(rs, err, sizeof(err)) == -1) {
		fprintf(stderr, "scale_drive: %s\n", err);
		exit(1);
	}
	write_ns += clock_mono_ns() - t0;
	for (i = 0; i < npend; i++) {
		b.role_id = pend[i].role;
		b.batch_seq = pend[i].seq;
		ack(ps, pend[i].p, &b);
	}
	npend = 0;
}

static void
on_batch(struct peers *ps, struct peer *p, const Hoplab__ResultBatch *b)
{
	struct g *g = find(p, b->role_id);
	int64_t t0 = clock_mono_ns();
	char err[512];

	if (g == NULL)
		return;
	if (first_batch == 0)
		first_batch = t0;
	if (!b->final) {
		if (b->records.len > 0 && records_take(rs, b->role_id,
		    p->inv->name, b, err, sizeof(err)) == -1) {
			fprintf(stderr, "scale_drive: %s\n", err);
			g->failed = 1;
			return;
		}
		nbatches += b->records.len > 0;
		write_ns += clock_mono_ns() - t0;
		if (b->batch_seq == 0)
			return;
		if (npend == sizeof(pend) / sizeof(pend[0]))
			flush(ps);
		pend[npend].p = p;
		pend[npend].role = b->role_id;
		pend[npend++].seq = b->batch_seq;
		return;
	}
	flush(ps);
	g->rows = records_rows(rs, b->role_id, p->inv->name);
	if (records_end(rs, b->role_id, p->inv->name, b, err, sizeof(err)) != 0)
		fprintf(stderr, "scale_drive: %s: %s\n", p->inv->name, err);
	write_ns += clock_mono_ns() - t0;
	if (b->n_flows > 0) {
		g->first_tx = b->flows[0]->first_tx_ns;
		g->last_tx = b->flows[0]->last_tx_ns;
		g->sent = b->flows[0]->sent;
		g->received = b->flows[0]->received;
	}
	g->total = b->records_total;
	g->final = 1;
	last_final = clock_mono_ns();
	ack(ps, p, b);
}

static int
all_done(void)
{
	size_t i;

	for (i = 0; i < ng; i++)
		if (!gs[i].failed && !(gs[i].final && gs[i].exited))
			return 0;
	return 1;
}

static void
on_status(struct peer *p, const Hoplab__RoleStatus *st)
{
	struct g *g = find(p, st->role_id);

	if (g == NULL)
		return;
	if (st->state == HOPLAB__ROLE_STATUS__STATE__FAILED ||
	    (st->state == HOPLAB__ROLE_STATUS__STATE__EXITED &&
	    (st->exit_code != 0 || st->signal != 0))) {
		fprintf(stderr, "scale_drive: %s: role failed: %s (exit %d, "
		    "signal %d)\n", p->inv->name, st->error, st->exit_code,
		    st->signal);
		g->failed = 1;
	} else if (st->state != HOPLAB__ROLE_STATUS__STATE__STARTED)
		g->exited = 1;
}

static int
role_status(void *arg, struct peer *from, const Hoplab__RoleStatus *st,
    char *err, size_t errlen)
{
	(void)arg;
	(void)err;
	(void)errlen;
	on_status(from, st);
	return LOOP_TAKEN;
}

static int
role_batch(void *arg, struct peer *from, Hoplab__Envelope *env, char *err,
    size_t errlen)
{
	(void)err;
	(void)errlen;
	on_batch(arg, from, env->result_batch);
	return LOOP_TAKEN;
}

static const struct loop_role_ops gen_ops = {
	.status = role_status,
	.batch = role_batch,
};

static int
check(void *arg, int64_t *wake, char *err, size_t errlen)
{
	(void)arg;
	(void)wake;
	(void)err;
	(void)errlen;
	return all_done();
}

static int
idle(void *arg, char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	flush(arg);
	return 0;
}

static int
loop(struct loop *l, struct peers *ps, int64_t deadline)
{
	struct loop_wait w = { .check = check, .idle = idle, .arg = ps };
	char err[512];
	size_t i;

	for (i = 0; i < ng; i++)
		if (loop_own_role(l, gs[i].p, gs[i].role, &gen_ops, ps, err,
		    sizeof(err)) == -1) {
			fprintf(stderr, "scale_drive: %s\n", err);
			return -1;
		}
	if (loop_run_until(l, &w, deadline, err, sizeof(err)) == -1) {
		fprintf(stderr, "scale_drive: %s\n", err);
		return -1;
	}
	flush(ps);
	return all_done() ? 0 : -1;
}

static int
cmp64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

/* The median offset of the first sends from START_AT, us. */
static double
median_offset(int64_t start_at)
{
	int64_t v[MAXG];
	size_t i, n = 0;

	for (i = 0; i < ng; i++)
		if (gs[i].final && gs[i].first_tx != 0)
			v[n++] = gs[i].first_tx - start_at;
	if (n == 0)
		return 0;
	qsort(v, n, sizeof(v[0]), cmp64);
	return (double)v[n / 2] / 1e3;
}

static void
report(int64_t start_at, int64_t lead)
{
	int64_t lo = INT64_MAX, hi = INT64_MIN, last_tx = 0;
	uint64_t rows = 0, total = 0, sent = 0, recv = 0;
	size_t i, ok = 0;
	double span;

	for (i = 0; i < ng; i++) {
		if (!gs[i].final || gs[i].first_tx == 0)
			continue;
		ok++;
		lo = gs[i].first_tx < lo ? gs[i].first_tx : lo;
		hi = gs[i].first_tx > hi ? gs[i].first_tx : hi;
		last_tx = gs[i].last_tx > last_tx ? gs[i].last_tx : last_tx;
		rows += gs[i].rows;
		total += gs[i].total;
		sent += gs[i].sent;
		recv += gs[i].received;
	}
	if (ok == 0) {
		printf("no generator reported\n");
		return;
	}
	(void)lead;
	span = (double)(last_final - first_batch) / 1e9;
	printf("generators            %zu of %zu reported\n", ok, ng);
	printf("start spread          %.1f us (max - min of first_tx_ns)\n",
	    (double)(hi - lo) / 1e3);
	printf("start offset          %+.1f .. %+.1f us after start_at, "
	    "median %+.1f us\n", (double)(lo - start_at) / 1e3,
	    (double)(hi - start_at) / 1e3, median_offset(start_at));
	printf("packets               sent %" PRIu64 ", received %" PRIu64
	    "\n", sent, recv);
	printf("records               %" PRIu64 " streamed, %" PRIu64
	    " written, in %" PRIu64 " batches\n", total, rows, nbatches);
	printf("ingest                %.0f records/s over %.2f s (first "
	    "batch to last final batch)\n", span > 0 ? rows / span : 0, span);
	printf("writer                %.0f records/s of writing time "
	    "(decode, CSV, group fdatasync: %.3f s)\n", write_ns > 0 ?
	    rows / (write_ns / 1e9) : 0, write_ns / 1e9);
	printf("lag                   %.3f s from the last packet sent to "
	    "the last final batch written\n", (double)(clock_real_ns() -
	    (clock_mono_ns() - last_final) - last_tx) / 1e9);
}

int
main(int argc, char **argv)
{
	const char *inv_path = NULL, *dir = NULL;
	uint64_t count = 5000, idt_us = 1000;
	unsigned frame = 64;
	int64_t lead_ms = 2000, start_at;
	struct inventory *inv;
	struct peers *ps;
	struct loop *l = NULL;
	char err[2048], run_id[64];
	size_t i;
	int ch;

	while ((ch = getopt(argc, argv, "c:f:i:l:o:t:")) != -1) {
		switch (ch) {
		case 'c': count = strtoull(optarg, NULL, 10); break;
		case 'f': frame = (unsigned)atoi(optarg); break;
		case 'i': inv_path = optarg; break;
		case 'l': lead_ms = atoll(optarg); break;
		case 'o': dir = optarg; break;
		case 't': idt_us = strtoull(optarg, NULL, 10); break;
		default: goto usage;
		}
	}
	argc -= optind;
	argv += optind;
	if (inv_path == NULL || dir == NULL || argc < 1 || argc > MAXG ||
	    count < 1 || idt_us < 1 || lead_ms < 100)
		goto usage;
	log_init("scale_drive", 0);
	if ((rs = records_new()) == NULL ||
	    (inv = inventory_load(inv_path, err, sizeof(err))) == NULL ||
	    (ps = peers_connect(inv, (const char *const *)argv, (size_t)argc,
	    err, sizeof(err))) == NULL || (l = loop_new(ps)) == NULL ||
	    loop_handshake(l, 10 * NSEC_PER_SEC, err, sizeof(err)) == -1) {
		fprintf(stderr, "scale_drive: %s\n", err);
		return 1;
	}
	for (ng = 0; ng < (size_t)argc; ng++)
		gs[ng].p = peers_find(ps, argv[ng]);
	snprintf(run_id, sizeof(run_id), "scale-%lld",
	    (long long)(clock_real_ns() / NSEC_PER_SEC));
	loop_set_run(l, run_id);
	start_at = clock_real_ns() + lead_ms * 1000000LL;
	if (start_all(ps, start_at, count, idt_us * 1000, frame, run_id,
	    dir) == -1)
		return 1;
	i = (size_t)(lead_ms / 1000 + count * idt_us / 1000000 + 30);
	if (loop(l, ps, clock_mono_ns() + (int64_t)i * NSEC_PER_SEC) == -1)
		fprintf(stderr, "scale_drive: not every generator ended "
		    "with its results\n");
	report(start_at, lead_ms);
	loop_free(l);
	peers_free(ps);
	records_free(rs);
	inventory_free(inv);
	return all_done() ? 0 : 1;
usage:
	fprintf(stderr, "usage: scale_drive -i INVENTORY -o DIR [-c COUNT] "
	    "[-t IDT_US] [-f FRAME] [-l LEAD_MS] NAME...\n");
	return 2;
}
