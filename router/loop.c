/*
 * loop: hoplab-router's single event loop and its life cycle: set up,
 * announce (gratuitous ARP), then until SIGTERM: router_poll() every
 * port, run the ARP timers, report to the agent, and either spin (see
 * busy.h: a bounded busy poll after traffic) or sleep in one poll() over
 * every ring's descriptor and the control socket's ZMQ_FD, its timeout
 * the next timer (STYLE.md: one loop, timers on CLOCK_MONOTONIC).  On the
 * way out: a final report, the counters on stdout, everything freed.
 *
 * poll(), not zmq_poll(): zmq_poll() polls twice (once with a zero
 * timeout) and asks the socket for ZMQ_EVENTS after each, which costs a
 * getpid() and a poll() inside libzmq every time: four system calls per
 * wake-up instead of one, two of them between a frame's arrival and its
 * forwarding (about 2 us each on the project's VM).  So the socket's
 * ZMQ_EVENTS is asked only when its ZMQ_FD signals, when a poll() timed
 * out (a missed edge waits at most 100 ms), and every millisecond while
 * spinning.
 *
 * Deliberately not here: threads, CPU pinning, real-time priorities.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "ctlsock.h"
#include "log.h"
#include "router/ctl.h"
#include "router/router.h"
#include "router/fastpath.h"
#include "router/xsk.h"

static int
poll_timeout(struct router *r, int64_t arp_next)
{
	int64_t next = arp_next, ms;
	unsigned i;

	for (i = 0; i < r->nports; i++)
		if (sched_backlog(r->ports[i].q) > 0 ||
		    pio_tx_pending(&r->ports[i]) > 0)
			return 1;
	if (r->cs.push != NULL && r->next_report < next)
		next = r->next_report;
	ms = (next - clock_mono_ns()) / NSEC_PER_MSEC + 1;
	if (ms > 100)
		ms = 100;
	return ms < 0 ? 0 : (int)ms;
}

/* This thread's time waiting on a run queue (ns), or -1. */
static int64_t
run_delay(struct router *r)
{
	char buf[96];
	unsigned long long cpu, delay;
	ssize_t n;

	if (r->schedfd == -1 ||
	    (n = pread(r->schedfd, buf, sizeof(buf) - 1, 0)) <= 0)
		return -1;
	buf[n] = '\0';
	if (sscanf(buf, "%llu %llu", &cpu, &delay) != 2)
		return -1;
	return (int64_t)delay;
}

static void
busy_setup(struct router *r)
{
	const struct router_opts *o = r->opts;

	busy_init(&r->busy, o->busy_set ? o->busy_adaptive :
	    r->conf->busy_adaptive, o->busy_set ? o->busy_ns :
	    r->conf->busy_poll_ns, clock_mono_ns(), run_delay(r));
}

/*
 * Spin once more instead of sleeping?  While spinning, the control
 * socket is still served every ROUTER_CTL_SPIN_NS.
 */
static int
spinning(struct router *r, int64_t *next_ctl)
{
	if (busy_window_due(&r->busy, r->now_mono))
		busy_window_end(&r->busy, r->now_mono, run_delay(r));
	if (!busy_spin(&r->busy, r->now_mono))
		return 0;
	if (r->now_mono >= *next_ctl) {
		*next_ctl = r->now_mono + ROUTER_CTL_SPIN_NS;
		rctl_serve(r);
	}
	busy_relax();
	return 1;
}

static void
loop(struct router *r)
{
	struct pollfd pfd[RCONF_IF_MAX + 1], *ctl = NULL;
	const struct rconf *busy_conf = r->conf;
	int64_t arp_next = 0, next_ctl = 0, spin_from = -1;
	unsigned i, n = 0;
	int rc;

	for (i = 0; i < r->nports; i++) {
		pfd[n].fd = r->ports[i].xo != NULL ?
		    r->ports[i].xo->fd(r->ports[i].xio) :
		    pktio_fd(r->ports[i].io);
		pfd[n++].events = POLLIN;
	}
	if ((pfd[n].fd = ctlsock_fd(&r->cs)) != -1) {
		ctl = &pfd[n];
		pfd[n++].events = POLLIN;
	}
	while (!*r->stop) {
		r->now_mono = clock_mono_ns();
		if (router_poll(r) > 0)
			busy_rx(&r->busy, r->now_mono);
		if (r->now_mono >= arp_next || r->timers_kick)
			arp_next = router_timers(r);
		if (r->cs.push != NULL && r->now_mono >= r->next_report) {
			rctl_report(r, 0);
			r->next_report = r->now_mono + r->opts->interval_ns;
		}
		if (r->conf != busy_conf) {	/* reloaded */
			busy_setup(r);
			busy_conf = r->conf;
		}
		if (spinning(r, &next_ctl)) {
			if (spin_from < 0)
				spin_from = r->now_mono;
			continue;
		}
		if (spin_from >= 0)
			r->busy.spun_ns += r->now_mono - spin_from;
		spin_from = -1;
		rc = poll(pfd, n, poll_timeout(r, arp_next));
		if (rc == -1 && errno != EINTR)
			break;
		if (rc == 0 || (ctl != NULL && (ctl->revents & POLLIN)))
			rctl_serve(r);
	}
}

/*
 * Keep the process on the CPUs of --cpus or io.cpus, before its rings
 * and tables are allocated (so that they come from those CPUs' memory).
 */
static int
pin(struct router *r, char *err, size_t errlen)
{
	int cli = r->opts->ncpus > 0;
	const cpu_set_t *set = cli ? &r->opts->cpus : &r->conf->cpus;
	const char *text = cli ? r->opts->cpus_text : r->conf->cpus_text;

	if ((cli ? r->opts->ncpus : r->conf->ncpus) == 0)
		return 0;
	if (sched_setaffinity(0, sizeof(*set), set) == -1) {
		snprintf(err, errlen, "%s %s: cannot run there (%s): none of "
		    "those CPUs is online%s", cli ? "--cpus" : "io.cpus", text,
		    strerror(errno), cli ? "" : " (config file)");
		return -1;
	}
	log_info("running on CPUs %s", text);
	return 0;
}

/*
 * The XDP fast path when the back end is xdp and io.fastpath is not off
 * (nor io.xdp_mode skb, where it could not forward), loaded before the
 * interfaces open: they attach its program.  0, or -1 with ERR (the
 * verifier's message among others).
 */
static int
fastpath_start(struct router *r, char *err, size_t errlen)
{
	const struct rconf *c = r->conf;
	int xdp = (r->opts->io_set ? r->opts->io_backend : c->backend) ==
	    RCONF_IO_XDP;

	if (!xdp || c->fastpath == 0) {
		if (xdp)
			log_info("fast path: off (io.fastpath off)");
		return 0;
	}
	if (c->xdp_mode == 2) {
		log_info("fast path: off (io.xdp_mode skb)");
		return 0;
	}
	if ((r->fp = fastpath_open(c->fastpath == 1, c->path,
	    c->fastpath_line, err, errlen)) == NULL)
		return -1;
	r->fpm = fastpath_mirror(r->fp);
	return 0;
}

/*
 * Run the router described by O until *STOP.  Returns 0 after a clean
 * stop, 1 for a bad configuration, 2 when an interface or socket could
 * not be opened.
 */
int
router_run(const struct router_opts *o, volatile sig_atomic_t *stop)
{
	struct router *r;
	char err[512];
	unsigned i;
	int rc = 0;

	if ((r = calloc(1, sizeof(*r))) == NULL) {
		log_error("out of memory");
		return 2;
	}
	r->opts = o;
	r->xdp_io = &xsk_xio;
	r->batch_seq = o->batch_base;
	r->stop = stop;
	r->schedfd = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
	if ((r->conf = rconf_load(o->config, err, sizeof(err))) == NULL ||
	    rconf_check_host(r->conf, err, sizeof(err)) == -1) {
		log_error("%s", err);
		rc = 1;
	} else if (pin(r, err, sizeof(err)) == -1 ||
	    fastpath_start(r, err, sizeof(err)) == -1 ||
	    router_setup(r, err, sizeof(err)) == -1 ||
	    rctl_open(r, err, sizeof(err)) == -1) {
		log_error("%s", err);
		rc = 2;
	}
	if (rc == 0) {
		for (i = 0; i < r->nports; i++) {
			port_garp(r, &r->ports[i]);
			log_info("interface %s: %s ring, mtu %u", r->ports[i].name,
			    r->ports[i].xo != NULL ?
			    r->ports[i].xo->mode(r->ports[i].xio) :
			    pktio_backend(r->ports[i].io), r->ports[i].mtu);
		}
		log_info("forwarding on %u interfaces, %zu routes", r->nports,
		    fib_count(r->fib));
		busy_setup(r);
		log_info("busy poll: %s, up to %lld us after a frame",
		    r->busy.adaptive ? "adaptive" : "fixed",
		    (long long)(r->busy.max_ns / 1000));
		rctl_cpu_start(r);
		r->next_report = r->cpu_at + o->interval_ns;
		loop(r);
		log_info("busy poll: spun %.3f s, budget now %lld us, %llu "
		    "back-offs", r->busy.spun_ns / 1e9,
		    (long long)(r->busy.budget_ns / 1000),
		    (unsigned long long)r->busy.backoffs);
		if (r->cs.push != NULL)
			rctl_report(r, 1);
		rctl_print(r);
	}
	rctl_close(r);
	router_teardown(r);
	fastpath_free(r->fp);
	if (r->schedfd != -1)
		close(r->schedfd);
	free(r);
	return rc;
}
