/*
 * optcheck: hoplab-gen's options checked together (opts.h): what each
 * mode needs and refuses, and what only makes sense with something else;
 * every refusal names the option and exits with GEN_EXIT_USAGE.
 */
#include <arpa/inet.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flowspec.h"
#include "opts.h"
#include "tcp.h"
#include "udpio.h"

void
opts_usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "hoplab-gen: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'hoplab-gen --help' for more information.\n");
	exit(GEN_EXIT_USAGE);
}

void
opts_ip(const char *name, const char *v, struct in_addr *a)
{
	if (inet_pton(AF_INET, v, a) != 1)
		opts_usage_error("%s: expected an IPv4 address, got \"%s\"", name, v);
}

/* Modes other than tcp: no --bytes, --duration, --streams, --cc. */
static void
not_tcp(const struct opts *o)
{
	const struct tcp_config *t = &o->job.tcp;

	if (t->bytes || t->duration_ns || t->streams || t->cc[0])
		opts_usage_error("%s: only for --mode tcp", t->bytes ?
		    "--bytes" : t->duration_ns ? "--duration (flows take "
		    "duration=)" : t->streams ? "--streams" : "--cc");
}

/* Mode l2: two interfaces, three addresses, flows. */
void
optcheck_l2(struct opts *o)
{
	struct gen_config *c = &o->job.cfg;

	if (o->role_given || o->listen != NULL || c->wait_ns != 0)
		opts_usage_error("%s: only for --mode udp or tcp", o->role_given ?
		    "--role" : o->listen != NULL ? "--listen" : "--wait");
	not_tcp(o);
	if (c->tx[0] == '\0')
		opts_usage_error("--tx: missing (the sending interface)");
	if (c->rx[0] == '\0')
		opts_usage_error("--rx: missing (the receiving interface)");
	if (strcmp(c->tx, c->rx) == 0)
		opts_usage_error("--rx: must differ from --tx, got \"%s\" for both",
		    c->rx);
	if (o->src == NULL)
		opts_usage_error("--src: missing");
	opts_ip("--src", o->src, &c->src);
	if (o->dst == NULL)
		opts_usage_error("--dst: missing");
	opts_ip("--dst", o->dst, &c->dst);
	if (c->src.s_addr == INADDR_ANY)
		opts_usage_error("--src: missing or 0.0.0.0");
	if (c->dst.s_addr == INADDR_ANY)
		opts_usage_error("--dst: missing or 0.0.0.0");
	if (c->gateway.s_addr == INADDR_ANY)
		opts_usage_error("--gateway: missing or 0.0.0.0");
	for (size_t i = 0; i < c->nflows; i++)
		if (c->flows[i].dst.s_addr == c->src.s_addr)
			opts_usage_error("--flow %s: dst=%s is --src, owned on --tx",
			    c->flows[i].name, o->src);
	if (c->nflows == 0)
		opts_usage_error("--flow: at least one is required");
}

/* --src IP or IP:PORT for a udp or tcp sender. */
static void
opt_src_port(struct opts *o, struct sockaddr_in *sa)
{
	memset(sa, 0, sizeof(*sa));
	sa->sin_family = AF_INET;
	if (o->src == NULL)
		return;
	if (strchr(o->src, ':') != NULL) {
		if (udpio_parse_addr(o->src, sa) == -1)
			opts_usage_error("--src: expected IP or IP:PORT, got \"%s\"",
			    o->src);
	} else
		opts_ip("--src", o->src, &sa->sin_addr);
}

/* Modes udp and tcp: a role, an address, no interfaces. */
static void
check_sock(struct opts *o)
{
	struct gen_config *c = &o->job.cfg;
	const char *m = o->mode->ops->name;
	size_t i;

	if (!o->role_given)
		opts_usage_error("--role: missing (send or recv) for --mode %s", m);
	if (c->tx[0] || c->rx[0] || c->gateway.s_addr != INADDR_ANY)
		opts_usage_error("%s: only for --mode l2 (in mode %s the kernel "
		    "routes)", c->tx[0] ? "--tx" : c->rx[0] ? "--rx" :
		    "--gateway", m);
	if (c->role == GEN_ROLE_SEND) {
		if (o->dst == NULL || udpio_parse_addr(o->dst, &c->peer) == -1)
			opts_usage_error("--dst: expected IP:PORT for --mode %s "
			    "--role send, got \"%s\"", m, o->dst ? o->dst :
			    "(nothing)");
		if (o->listen != NULL || c->wait_ns != 0)
			opts_usage_error("%s: only for --role recv", o->listen ?
			    "--listen" : "--wait");
		opt_src_port(o, &c->bind);
	} else {
		if (o->listen == NULL ||
		    udpio_parse_addr(o->listen, &c->peer) == -1)
			opts_usage_error("--listen: expected IP:PORT for --mode %s "
			    "--role recv, got \"%s\"", m, o->listen ?
			    o->listen : "(nothing)");
		if (o->dst != NULL || o->src != NULL)
			opts_usage_error("%s: only for --role send", o->dst ?
			    "--dst" : "--src");
	}
	if (o->ttl_given)
		opts_usage_error("--ttl: only for --mode l2");
	for (i = 0; i < c->nflows; i++)
		if (c->flows[i].dport != FLOWSPEC_DPORT_DEFAULT ||
		    c->flows[i].sport != FLOWSPEC_SPORT_DEFAULT ||
		    c->flows[i].dst.s_addr != INADDR_ANY)
			opts_usage_error("--flow %s: dport=, sport= and dst= are for mode "
			    "l2; in mode udp every flow goes to --dst from "
			    "one socket", c->flows[i].name);
}

void
optcheck_udp(struct opts *o)
{
	struct gen_config *c = &o->job.cfg;

	check_sock(o);
	not_tcp(o);
	if (c->role == GEN_ROLE_SEND && c->nflows == 0)
		opts_usage_error("--flow: at least one is required");
	if (c->role == GEN_ROLE_SEND && o->records != NULL)
		opts_usage_error("--records: only for --role recv in mode udp "
		    "(the receiver knows both stamps)");
	if (c->role == GEN_ROLE_RECV && o->records != NULL && c->nflows == 0)
		opts_usage_error("--records: give the receiver the sender's --flow "
		    "options too (the file names its flows)");
	if (c->role == GEN_ROLE_RECV) {
		c->dynamic = c->nflows == 0;
		if (c->wait_ns == 0)
			c->wait_ns = GEN_WAIT_DEFAULT;
	}
}

void
optcheck_tcp(struct opts *o)
{
	struct gen_config *c = &o->job.cfg;
	struct tcp_config *t = &o->job.tcp;

	check_sock(o);
	if (c->nflows > 0 || o->records != NULL || o->job.show != 0)
		opts_usage_error("%s: not for --mode tcp (a bulk transfer)",
		    c->nflows > 0 ? "--flow" : o->records ? "--records" :
		    "--show");
	if (c->role == GEN_ROLE_SEND && !t->bytes && !t->duration_ns)
		opts_usage_error("--bytes or --duration: one is required for "
		    "--mode tcp --role send");
	if (c->role == GEN_ROLE_RECV && (t->bytes || t->duration_ns))
		opts_usage_error("%s: only for --role send (the receiver takes "
		    "what comes)", t->bytes ? "--bytes" : "--duration");
	t->role = c->role;
	t->peer = c->peer;
	t->bind = c->bind;
	t->interval_ns = c->interval_ns > 0 ? c->interval_ns :
	    SERIES_WIDTH_DEFAULT;
	t->wait_ns = c->wait_ns > 0 ? c->wait_ns : GEN_WAIT_DEFAULT;
	t->dscp = 0;
	if (t->streams == 0)
		t->streams = 1;
	if (t->streams > 1 && t->bind.sin_port != 0)
		opts_usage_error("--src: a port only with --streams 1 (each "
		    "stream binds its own)");
	if (c->role == GEN_ROLE_RECV && t->cc[0] != '\0')
		opts_usage_error("--cc: only for --role send (the sender's "
		    "congestion control decides)");
}

/*
 * Mode icmp: echo requests to --dst IP from --src IP (or the kernel's
 * source), flows without ports or dst=, no interfaces, no role.
 */
void
optcheck_icmp(struct opts *o)
{
	struct gen_config *c = &o->job.cfg;
	size_t i;

	if (o->role_given || o->listen != NULL || c->wait_ns != 0)
		opts_usage_error("%s: not for --mode icmp (one process sends the "
		    "requests and reads the replies)", o->role_given ?
		    "--role" : o->listen != NULL ? "--listen" : "--wait");
	not_tcp(o);
	if (c->tx[0] || c->rx[0] || c->gateway.s_addr != INADDR_ANY)
		opts_usage_error("%s: only for --mode l2 (in mode icmp the kernel "
		    "routes)", c->tx[0] ? "--tx" : c->rx[0] ? "--rx" :
		    "--gateway");
	if (o->dst == NULL)
		opts_usage_error("--dst: missing (the address to ping)");
	opts_ip("--dst", o->dst, &c->peer.sin_addr);
	if (c->peer.sin_addr.s_addr == INADDR_ANY)
		opts_usage_error("--dst: 0.0.0.0 is no destination");
	c->peer.sin_family = AF_INET;
	memset(&c->bind, 0, sizeof(c->bind));
	c->bind.sin_family = AF_INET;
	if (o->src != NULL)
		opts_ip("--src", o->src, &c->bind.sin_addr);
	c->role = GEN_ROLE_SEND;
	if (c->nflows == 0)
		opts_usage_error("--flow: at least one is required");
	for (i = 0; i < c->nflows; i++)
		if (c->flows[i].dport != FLOWSPEC_DPORT_DEFAULT ||
		    c->flows[i].sport != FLOWSPEC_SPORT_DEFAULT ||
		    c->flows[i].dst.s_addr != INADDR_ANY)
			opts_usage_error("--flow %s: dport=, sport= and dst= are for "
			    "mode l2; in mode icmp every flow pings --dst",
			    c->flows[i].name);
}

/* --spin: the spin of every flow without spin= of its own (senders). */
static void
opt_spin(struct opts *o)
{
	struct gen_config *c = &o->job.cfg;
	char err[192];
	int64_t ns;
	size_t i;

	if (o->spin == NULL)
		return;
	if (c->mode == GEN_MODE_TCP || c->role == GEN_ROLE_RECV)
		opts_usage_error("--spin: only for senders (mode l2, or udp --role "
		    "send): it paces the sends");
	if (flowspec_parse_spin(o->spin, &ns, err, sizeof(err)) == -1)
		opts_usage_error("--spin: %s", err);
	for (i = 0; i < c->nflows; i++)
		if (!c->flows[i].spin_given)
			c->flows[i].spin_ns = ns;
}

/*
 * --tx-io and --tx-stamp-every: mode l2 only; the sample only with the
 * ring and kernel stamps, 1 in GEN_TX_STAMP_EVERY frames by default.
 */
static void
opt_tx_io(struct opts *o)
{
	struct gen_config *c = &o->job.cfg;

	if (o->tx_io_given && c->mode != GEN_MODE_L2)
		opts_usage_error("--tx-io: only in mode l2");
	if (c->tx_stamp_every != 0 && c->tx_io != GEN_TX_RING)
		opts_usage_error("--tx-stamp-every: only with --tx-io ring (with "
		    "--tx-io send every frame has its kernel stamp)");
	if (c->tx_stamp_every != 0 && c->tstamp != GEN_TS_KERNEL)
		opts_usage_error("--tx-stamp-every: kernel stamps of a sample, "
		    "not with --tstamp user");
	if (c->tx_io == GEN_TX_RING && c->tx_stamp_every == 0 &&
	    c->tstamp == GEN_TS_KERNEL)
		c->tx_stamp_every = GEN_TX_STAMP_EVERY;
}

/* Options that only make sense together. */
void
optcheck_all(struct opts *o)
{
	struct gen_config *c = &o->job.cfg;
	char err[256];

	o->mode->check(o);
	opt_spin(o);
	opt_tx_io(o);
	if (c->nflows > 0 &&
	    flowspec_check_set(c->flows, c->nflows, err, sizeof(err)) == -1)
		opts_usage_error("--flow: %s", err);
	if (o->job.report != NULL && (o->role_id < 0 || o->job.run_id == NULL))
		opts_usage_error("--report: needs --role-id and --run-id");
	if (o->job.report == NULL && (o->role_id >= 0 || o->job.run_id != NULL))
		opts_usage_error("%s: only meaningful with --report",
		    o->role_id >= 0 ? "--role-id" : "--run-id");
	if (o->job.stream && (o->job.report == NULL || !o->mode->stream))
		opts_usage_error("--stream-records: only with --report in mode l2 "
		    "or icmp");
	/* l2 takes no --role: its role is GEN_ROLE_SEND. */
	if (c->start_at_ns != 0 && !(o->mode->start_at &&
	    c->role == GEN_ROLE_SEND))
		opts_usage_error("--start-at: only in mode l2 and for udp senders");
	o->job.role_id = (unsigned)o->role_id;
}

