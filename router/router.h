/*
 * router: the internals shared by hoplab-router's modules.
 *
 *   main.c        options only
 *   loop.c        the single event loop, busy polling (busy.h), run/stop
 *   busy.h        when to spin on the rings and when to sleep
 *   router.c      receive and forwarding (router_poll), the timers
 *   rtables.c     routes, filters, setup, reload, interfaces up/down
 *   port.c        one interface: its pktio rings (or its AF_XDP socket),
 *                 output queues, output rate, sending
 *   xsk.c         the AF_XDP back end (io.backend: xdp), reached through
 *                 struct port_xio and the pio_*() wrappers below
 *   fastpath.c    the XDP fast path (bpf/fastpath.bpf.c): program, maps,
 *                 counters; fpmirror.c mirrors the tables into its maps
 *   fwd.c         RFC 1812 header checks, TTL, fragmentation
 *   arp.c         the ARP cache and its waiting queue
 *   icmp.c        echo replies, ICMP errors, their rate limit
 *   nat.c         source NAT's connection table; natpkt.c the frames
 *   rip.c         RIPv2 (ripwire.c packets, ripauth.c RFC 4822), on the
 *                 interfaces through ripio.c; rtlog.c: the FIB's routes
 *                 by source and their changes, which ctlroute.c puts in
 *                 the reports and the control answers
 *   config.c      the YAML configuration (config_qos.c: qos, filters;
 *                 config_routes.c: routes_file)
 *   ctl.c         the control socket and the reports to the agent, on
 *                 lib/ctlsock (ctl.h; called by loop.c, calls router.c)
 *   fib.c classify.c sched.c filter.c sojourn.c   tables and queues
 *
 * One thread; the signal handlers only set flags.  Packets are processed
 * to completion in the loop: a burst is received, every frame is checked,
 * routed and either written straight into the output's transmit ring
 * (when its queues are empty) or copied into a packet buffer and queued;
 * then the queues are drained into the rings and the rings flushed.
 */
#ifndef HOPLAB_ROUTER_ROUTER_H
#define HOPLAB_ROUTER_ROUTER_H

#include <signal.h>
#include <stdint.h>

#include "ctlsock.h"
#include "pkt.h"
#include "pktio.h"
#include "router/arp.h"
#include "router/busy.h"
#include "router/classify.h"
#include "router/config.h"
#include "router/fib.h"
#include "router/filter.h"
#include "router/fpmirror.h"
#include "router/icmp.h"
#include "router/nat.h"
#include "router/rtlog.h"
#include "router/sched.h"
#include "router/sojourn.h"

#define ROUTER_BURST		64
#define ROUTER_NH_MAX		4096
#define ROUTER_POOL		8192	/* packet buffers for queues and ARP */
#define PBUF_SIZE		2048
#define ROUTER_REPORT_DEF	(1000 * 1000000LL)
#define ROUTER_CTL_SPIN_NS	(1000 * 1000LL)	/* control checks, spinning */

/* A packet copied out of the receive ring to wait (queue or ARP). */
struct pbuf {
	struct pbuf	*next;		/* free list */
	uint32_t	len;		/* frame bytes, Ethernet header on */
	uint16_t	port;		/* output interface */
	uint8_t		tc;
	int64_t		rx_ns;		/* RX ring timestamp */
	uint8_t		data[PBUF_SIZE];
};

struct nexthop {
	unsigned	port;
	uint32_t	gw;		/* host order; 0: destination itself */
};

/* A frame in the transmit ring, not yet flushed: for its sojourn time. */
struct txmeta {
	int64_t		rx_ns;
	uint32_t	len;
	uint8_t		tc;
};

/*
 * An I/O back end other than lib/pktio for a port (router/xsk.c: AF_XDP).
 * loop.c hands it to router_setup() in struct router, so that only the
 * program links it.  Open's MODE: 0 native, else SKB; 1 native only; 2 SKB
 * only.  FP: the fast path (fastpath.h) to attach as PORT, or NULL for
 * libxdp's default program.
 */
struct rip;
struct ripio_hooks;
struct fastpath;

struct port_xio {
	void	*(*open)(const char *ifname, int mode, int fill_full,
		    struct fastpath *fp, unsigned port, uint8_t mac[6],
		    unsigned *mtu, char *err, size_t errlen);
	void	(*close)(void *x);
	int	(*fd)(void *x);
	const char *(*mode)(void *x);
	unsigned (*rx_burst)(void *x, struct pktio_pkt *pk, unsigned max);
	void	(*rx_release)(void *x);
	int	(*tx)(void *x, const void *data, size_t len);
	unsigned (*tx_pending)(void *x);
	unsigned (*tx_room)(void *x);
	int	(*tx_flush)(void *x);
	void	(*stats)(void *x, struct pktio_stats *st);
	/* 1 when the fast path's program runs in the driver here */
	int	(*native)(void *x);
};

struct port {
	char		name[RCONF_IFNAME_MAX];
	unsigned	idx;
	struct pktio	*io;		/* AF_PACKET, or NULL when XO */
	const struct port_xio *xo;	/* another back end, or NULL */
	void		*xio;		/* its state */
	uint8_t		mac[6];
	uint32_t	addr;		/* host order */
	unsigned	plen;
	unsigned	mtu;		/* IPv4 MTU used for forwarding */
	unsigned	ifindex;	/* the kernel's */
	int		up;
	int		fast;		/* frames in and out of it may take
					   the fast path (fpm_port_fast()) */
	struct sched	*q;
	double		rate;		/* output limit, bytes/ns; 0: none */
	double		tokens;		/* bytes the limit allows now */
	double		depth;		/* bucket size, bytes */
	int64_t		tok_at;		/* monotonic, last refill */
	unsigned	nmeta;
	struct txmeta	meta[PKTIO_BURST_MAX];
};

struct router_opts {
	const char	*config;	/* -c */
	const char	*control;	/* -s endpoint, or NULL */
	const char	*report;	/* --report endpoint, or NULL */
	uint32_t	role_id;
	const char	*run_id;
	int64_t		interval_ns;
	int		busy_set;	/* --busy-poll given: overrides io */
	int		busy_adaptive;
	int64_t		busy_ns;
	uint64_t	batch_base;	/* --batch-base: first report is +1 */
	int		io_set;		/* --io given: overrides io.backend */
	int		io_backend;	/* RCONF_IO_PACKET or RCONF_IO_XDP */
	int		ncpus;		/* --cpus given: overrides io.cpus */
	cpu_set_t	cpus;
	const char	*cpus_text;
};

struct router {
	const struct router_opts *opts;
	const struct port_xio *xdp_io;	/* io.backend xdp, or NULL: refused */
	struct fastpath	*fp;		/* the XDP fast path, or NULL */
	struct fpmirror	*fpm;		/* its maps' mirror, or NULL */
	struct rconf	*conf;
	struct port	ports[RCONF_IF_MAX];
	unsigned	nports;
	struct fib	*fib;
	struct rtlog	rtlog;		/* the FIB by source, its changes */
	int		rtlog_initial;	/* the first report listed it */
	struct rip	*rip;		/* RIP (ripio.c), or NULL */
	const struct ripio_hooks *rip_hooks;	/* router.c's, for ripio.c */
	int		timers_kick;	/* run router_timers() now */
	int64_t		timers_due;	/* router_timers()' last answer */
	uint32_t	rip_rng;
	int64_t		rip_log_at;	/* next drop may be logged (mono) */
	unsigned	rip_ipid;
	struct nexthop	nh[ROUTER_NH_MAX];
	unsigned	nnh;
	struct arp	*arp;
	struct icmp_rl	rl;
	struct filter	*filter;
	int		filtering;	/* rules or a deny default */
	struct nat	*nat;		/* nat: source NAT (nat.c), or NULL */
	unsigned	nat_port;	/* its outside interface */
	struct sojourn	*soj;
	struct sojourn_snap *snap;	/* for reports, allocated once */
	struct pbuf	*pool;
	struct pbuf	*freelist;
	unsigned	nfree;
	struct pbuf	*unreach;	/* ARP failed: ICMP to send, then free */
	uint64_t	icmp_sent, icmp_limited;
	uint64_t	arp_requests, arp_replies;
	uint64_t	frag_fwd, frag_made;
	uint64_t	fwd_proto[4];	/* forwarded, by fwd.h fwd_proto_class() */
	int64_t		now_mono;	/* at the top of the loop iteration */
	struct busy	busy;		/* spin or sleep (busy.h) */
	int		schedfd;	/* /proc/self/schedstat, or -1 */
	int64_t		started_ns;	/* monotonic, when the loop began */
	int64_t		cpu_ns, cpu_at;	/* CPU time and when, last report */
	double		cpu_pct;	/* CPU % of one core, last interval */
	volatile sig_atomic_t *stop;
	/* ctl.c */
	struct ctlsock	cs;		/* control REP and report PUSH */
	uint64_t	seq, batch_seq;
	int64_t		next_report;
	char		hostname[64];
	uint8_t		scratch[PBUF_SIZE];
	uint8_t		ripbuf[PBUF_SIZE];	/* RIP's frame being sent */
};

/* A port's I/O, through lib/pktio or its other back end. Per packet. */
static inline unsigned
pio_rx_burst(struct port *p, struct pktio_pkt *pk, unsigned max)
{
	return p->xo != NULL ? p->xo->rx_burst(p->xio, pk, max) :
	    pktio_rx_burst(p->io, pk, max);
}

static inline void
pio_rx_release(struct port *p)
{
	if (p->xo != NULL)
		p->xo->rx_release(p->xio);
	else
		pktio_rx_release(p->io);
}

static inline int
pio_tx(struct port *p, const void *data, size_t len)
{
	return p->xo != NULL ? p->xo->tx(p->xio, data, len) :
	    pktio_tx(p->io, data, len);
}

static inline unsigned
pio_tx_pending(const struct port *p)
{
	return p->xo != NULL ? p->xo->tx_pending(p->xio) :
	    pktio_tx_pending(p->io);
}

static inline unsigned
pio_tx_room(struct port *p)
{
	return p->xo != NULL ? p->xo->tx_room(p->xio) : pktio_tx_room(p->io);
}

static inline int
pio_tx_flush(struct port *p)
{
	return p->xo != NULL ? p->xo->tx_flush(p->xio) :
	    pktio_tx_flush(p->io);
}

/* loop.c */
int	router_run(const struct router_opts *o, volatile sig_atomic_t *stop);

/* router.c */
unsigned router_poll(struct router *r);
int64_t	router_timers(struct router *r);
/* Send FRAME (Ethernet header's type set) out of P towards GW via ARP. */
void	router_output(struct router *r, struct port *p, uint32_t gw,
	    uint8_t *frame, uint32_t len, uint8_t tc);
/* The ARP cache's callbacks into the data path, for rtables.c. */
struct arp_cb router_arp_cb(struct router *r);
/* ICMP host unreachable for every packet ARP gave up on, then free them. */
void	router_unreach_flush(struct router *r);

/* rtables.c */
int	router_setup(struct router *r, char *err, size_t errlen);
void	router_teardown(struct router *r);
int	router_route_add(struct router *r, uint32_t prefix, unsigned plen,
	    uint32_t via, char *err, size_t errlen);
int	router_route_del(struct router *r, uint32_t prefix, unsigned plen,
	    char *err, size_t errlen);
/* router_route_add() with its source and metric, for rtlog (RIP). */
int	router_route_set(struct router *r, uint32_t prefix, unsigned plen,
	    uint32_t via, enum rtlog_proto proto, unsigned metric, char *err,
	    size_t errlen);
int	router_reload(struct router *r, char *err, size_t errlen);
int	router_iface_set(struct router *r, const char *name, int up,
	    char *err, size_t errlen);
/* Every port's entries in the fast path's maps, after any change. */
void	router_fastpath_ports(struct router *r);

/* port.c */
int	port_open(struct router *r, struct port *p, const struct rconf_iface *c,
	    char *err, size_t errlen);
void	port_close(struct router *r, struct port *p);
void	port_set_rate(struct port *p, uint64_t bps, int64_t now);
void	port_send(struct router *r, struct port *p, const uint8_t *frame,
	    uint32_t len, uint8_t tc, int64_t rx_ns);
void	port_drain(struct router *r, struct port *p);
void	port_flush(struct router *r, struct port *p);
void	port_arp_request(struct router *r, struct port *p, uint32_t ip);
void	port_garp(struct router *r, struct port *p);
void	port_arp_reply(struct router *r, struct port *p,
	    const struct pkt_arp *a, uint32_t addr);
struct pbuf *pbuf_get(struct router *r);
void	pbuf_put(struct router *r, struct pbuf *b);

#endif
