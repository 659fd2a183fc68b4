/*
 * plan: the experiment plan, a YAML file a user writes by hand (libyaml).
 *
 * Shape (docs/plans.md is the user's reference):
 *
 *   name: chain-delay
 *   topology: {chain: [A, B, C]}
 *   variants: [A, A-B, A-B-C]          # prefixes of the chain
 *   router: {impl: linux}              # linux | hoplab | external
 *   repeat: 1
 *   sweep: {frame: [64, 1518]}
 *   flows:
 *     - name: probe
 *       mode: l2
 *       frame: {dist: const, value: $frame}   # or frame: 128
 *       idt: {dist: const, value: 1ms}         # or idt: 1ms, idt: exp:1ms,
 *                                              # {dist: exp, value: 1ms}
 *       count: 2000
 *       dscp: BE                               # BE EF AFxy CSx or 0..63
 *       seed: 1                                # for distributions
 *     - name: call
 *       preset: voip-g711                      # lib/preset.h; keys given
 *       duration: 10s                          # beside it override it
 *     - {name: tv, preset: iptv, rate: 8, count: 5000}
 *
 * The loader is strict: an unknown key, a wrong type or an impossible value
 * is an error naming the file, the line and the key path
 * ("demo.yaml:9: flows[0].frame: expected 64..1518 (Ethernet frame incl.
 * FCS), got 1600"); every error found is reported, not only the first.
 * Features that later work will bring are refused with a message saying
 * they are not available yet, never silently ignored.  sweep: names any
 * values that flows and impairments use as "$name" (plansweep.c).
 *
 *   impairments:                       # hoplab-link spliced into links
 *     - {link: A-B, delay: 5ms, jitter: 1ms, loss: 0.1%}
 *     - {link: gen-A, direction: reverse, rate: 10mbit, limit: 100}
 *     - {link: B-gen, netem: "delay 20ms 5ms distribution normal"}
 */
#ifndef HOPLAB_PLAN_H
#define HOPLAB_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "cpulist.h"
#include "controller/plan/plantopo.h"

#define PLAN_NAME_MAX	64
#define PLAN_MAX_CHAIN	8
#define PLAN_MAX_FLOWS	64
#define PLAN_MAX_SWEEP	64
#define PLAN_MAX_IMPAIR	16
#define PLAN_PROFILE_MAX 512

enum plan_router_impl {
	PLAN_ROUTER_LINUX = 0,		/* kernel forwarding (the reference) */
	PLAN_ROUTER_HOPLAB,		/* hoplab-router */
	PLAN_ROUTER_EXTERNAL,		/* a box hoplab only sends through */
};

/* router.busy_poll of impl hoplab (docs/router.md, "Latency"). */
enum plan_busy {
	PLAN_BUSY_DEFAULT = 0,		/* not given: the router's (adaptive) */
	PLAN_BUSY_ADAPTIVE,
	PLAN_BUSY_OFF,
	PLAN_BUSY_FIXED,		/* spin busy_poll_ns after a frame */
};

/* The interfaces every chain router has, in this order: "in", "out". */
#define PLAN_ROUTER_IFS	2

/* router.queues and router.map (qos.queues, qos.map of docs/router.md). */
#define PLAN_ROUTER_CLASSES	8	/* traffic classes 0..7 */
#define PLAN_ROUTER_MAP_MAX	64	/* one entry per DSCP at most */

/* One of router.queues; a zero value keeps the router's default. */
struct plan_router_queue {
	unsigned	tclass;		/* 0..7 */
	unsigned	packets;	/* 1..65536 */
	unsigned	bytes;		/* 0..100000000, 0: no byte limit */
	unsigned	weight;		/* 1..1000, DRR quantum x 1514 bytes */
	int		red;		/* red: given: RED on */
	unsigned	red_min;	/* 1..100000 packets */
	unsigned	red_max;	/* 2..100000, above red_min */
	double		red_p;		/* (0, 1] */
	double		red_weight;	/* EWMA weight (0, 1] */
};

/* One of router.map: DSCP -> class, over the default class = DSCP >> 3. */
struct plan_router_map {
	unsigned	dscp;		/* 0..63 */
	unsigned	tclass;		/* 0..7 */
};

/*
 * router: options for impl hoplab (controller/plan/planrouter.c, docs/plans.md); a
 * zero value keeps the router's default.
 */
struct plan_router {
	char		scheduler[8];	/* "", "fifo", "prio", "drr" */
	char		rx_ring[4];	/* "", "v2", "v3" */
	enum plan_busy	busy_poll;
	int64_t		busy_poll_ns;	/* PLAN_BUSY_FIXED: 1 ns..1 s */
	unsigned	tx_batch;	/* 1..256 */
	int64_t		block_timeout_ns; /* whole ms 1..100 */
	int64_t		arp_timeout_ns;	/* 1 s..1 h */
	unsigned	arp_queue;	/* 1..4096 */
	int		icmp_rate;	/* 1..10000 per s; -1: send none */
	uint64_t	rate_bps[PLAN_ROUTER_IFS];	/* output limit */
	unsigned	mtu[PLAN_ROUTER_IFS];		/* 576..9000 */
	char		io[8];		/* "", "packet", "xdp" (AF_XDP) */
	char		cpus[CPULIST_TEXT_MAX]; /* "", or a CPU list */
	char		xdp_fill[12];	/* "", "adaptive", "full" */
	char		fastpath[4];	/* "", "on", "off": io.fastpath */
	struct plan_router_queue queues[PLAN_ROUTER_CLASSES]; /* qos.queues */
	size_t		nqueues;	/* in file order, classes distinct */
	struct plan_router_map map[PLAN_ROUTER_MAP_MAX]; /* qos.map */
	size_t		nmap;		/* in file order, DSCPs distinct */
};

struct plan_flow {
	char		name[PLAN_NAME_MAX];
	char		mode[8];	/* "l2"; topology plans: "udp", "tcp" */
	int		frame_from_sweep; /* value was "$frame" */
	unsigned	frame;		/* fixed frame length when not swept */
	int64_t		idt_ns;		/* mean gap between packets, over
					   bursts and pauses (count x idt_ns
					   is the flow's length) */
	char		idt_dist[128];	/* "exp:1ms" etc., "" when constant;
					   with bursts the gap within one */
	char		frame_dist[128]; /* "uniform:64:1518", "" when const */
	uint64_t	seed;		/* 0: the generator uses the flow id */
	uint64_t	count;		/* packets to send */
	unsigned	dscp;		/* 0..63 */
	int		line;		/* line of the flow in the file */
	char		preset[16];	/* lib/preset.h name, "" when none */
	double		rate_bps;	/* the preset's rate, 0: none */
	char		burst_dist[128]; /* packets per burst, "" none */
	char		off_dist[128];	/* pause after a burst */
	int64_t		duration_ns;	/* 0: bounded by count only; else
					   count is derived (a bound) unless
					   given too */
	char		dst[16];	/* dst: dotted quad in PLAN_DST_NET,
					   "" for the generator's default */
	int64_t		spin_ns;	/* spin: the least spin before each
					   deadline, 0: auto (hoplab-gen) */
	char		tx_io[8];	/* tx_io: "send", "ring"; "": not
					   given (send); l2 flows only, one
					   for the chain's generator */
	unsigned	tx_stamp_every;	/* tx_stamp_every: with ring, 1 frame
					   in N kernel-stamped; 0: not given
					   (hoplab-gen's default, 64) */
	char		from[PLANTOPO_NAME_MAX]; /* topology plans: the end */
	char		to[PLANTOPO_NAME_MAX];	/* hosts it goes between */
	int		from_host;	/* index in topo.hosts, -1: chain */
	int		to_host;
	unsigned	nreplicas;	/* replicas: N of the written flow, 1
					   without the key */
	unsigned	replica;	/* 1..N: copy NAME.K of group; 0: the
					   flow has no replicas: key */
	char		group[PLAN_NAME_MAX]; /* the written name of a copy's
					   flow, "" without replicas: */
	char		flowgroup[PLAN_NAME_MAX]; /* group: NAME, summed
					   with its other flows in
					   flows_total.csv; "" without */
	size_t		written;	/* its index in the file's flows: */
	uint64_t	tcp_bytes;	/* tcp: bytes: (a download), 0: none */
	unsigned	tcp_streams;	/* tcp: streams:, 1..128 (1) */
	char		tcp_cc[16];	/* tcp: cc:, "": the kernel's default */
};

/* A tcp download's limit without duration: (docs/plans.md "Downloads"). */
#define PLAN_TCP_LIMIT_NS	(600 * 1000000000LL)
#define PLAN_TCP_BYTES_MAX	(1ULL << 40)	/* 1 TiB */
#define PLAN_TCP_STREAMS_MAX	128

/* The lab's subnet behind gen.rx (docs/architecture.md): 198.18.100/24. */
#define PLAN_DST_NET	0xc6126400U

/*
 * An impaired link (docs/plans.md "Impairments"): hoplab-link spliced
 * into the link FROM-TO of the chain (gen-A, A-B, ..., or C-gen), with a
 * netem-style profile per direction.  Forward is FROM -> TO, the way the
 * probes go; reverse is TO -> FROM.  hoplab-link parses the profiles; the
 * loader checks their form and ranges.
 */
struct plan_impair {
	char		link[PLAN_NAME_MAX * 2]; /* "A-B" as written */
	char		from[PLAN_NAME_MAX];	/* "gen" or a router */
	char		to[PLAN_NAME_MAX];
	size_t		hop;		/* 0: gen-R1, i: Ri-R(i+1); with */
	int		to_gen;		/* to_gen, i: Ri-gen (1-based) */
	char		forward[PLAN_PROFILE_MAX]; /* "" is "none" */
	char		reverse[PLAN_PROFILE_MAX];
	uint64_t	seed;		/* hoplab-link --seed, default 1 */
	int		line;		/* of the entry in the file */
	int		topo;		/* a topology link: HOP its index */
};

/*
 * A fault on every point's timeline (docs/plans.md "Faults"), AT_NS after
 * the point's traffic starts: a link down or up (both ends, or only END),
 * an impaired link's profile replaced (SET), a router's process killed,
 * started, or killed and started again DOWN_NS later (RESTART), or a
 * topology router's route to a prefix moved to another neighbour
 * (ROUTE_SET).  On a
 * chain a link is one of the chain's (HOP, TO_GEN) and a router one of
 * the chain (HOP: its position); with topology: hosts and links (TOPO
 * set), TLINK is the link's index in plan.topo.links and a router is a
 * topology host, and the fault applies to every point.
 */
#define PLAN_MAX_FAULTS	32

enum plan_fault_kind {
	PLAN_FAULT_LINK_DOWN = 0,
	PLAN_FAULT_LINK_UP,
	PLAN_FAULT_LINK_SET,		/* hoplab-link's profile */
	PLAN_FAULT_ROUTER_KILL,		/* SIGKILL (linux: forwarding off) */
	PLAN_FAULT_ROUTER_START,	/* again, with its saved params */
	PLAN_FAULT_ROUTER_RESTART,	/* KILL, then START DOWN_NS later */
	PLAN_FAULT_ROUTE_SET,		/* router's route to PREFIX via VIA
					   (topology plans, issue 15) */
	PLAN_FAULT_LINK_BLACKHOLE,	/* drops all, carrier up; up ends it */
};

struct plan_fault {
	int64_t		at_ns;
	enum plan_fault_kind kind;
	char		link[PLAN_NAME_MAX * 2]; /* "B-C" as written */
	char		from[PLAN_NAME_MAX];	/* "gen" or a router */
	char		to[PLAN_NAME_MAX];
	size_t		hop;		/* as struct plan_impair; a router */
	int		to_gen;		/* fault: its position in the chain */
	char		end[PLAN_NAME_MAX];	/* down/up: "" both ends */
	char		forward[PLAN_PROFILE_MAX]; /* set: new profiles, */
	char		reverse[PLAN_PROFILE_MAX]; /* "-": left as is */
	int		line;
	char		router[PLAN_NAME_MAX];	/* ROUTER_*: its host */
	int64_t		down_ns;	/* RESTART: kill to start */
	int		topo;		/* on plan.topo: every point */
	int		tlink;		/* topology link index, -1: none */
	/* ROUTE_SET: ROUTER's route to PREFIX goes via VIA (VIA_HOST's
	   address on their link), metric 1, until the point's end; then
	   back to ORIG_VIA (its plan route), or removed when "". */
	char		prefix[20];	/* "198.18.6.0/24" */
	char		via[16];
	char		via_host[PLAN_NAME_MAX];
	char		orig_via[16];
};

/*
 * issue 14 (exec): a user's command on a host (docs/plans.md "exec",
 * planexec.c): at setup (before every point's traffic, waited for), at
 * AT_NS on the point's timeline (like a fault), or at teardown (after
 * every point, also after a failure).  FILES are paths resolved against
 * the plan's folder, shipped to the agent with the command.
 */
#define PLAN_MAX_EXECS		32
#define PLAN_EXEC_ARGS		32
#define PLAN_EXEC_ARG_MAX	256
#define PLAN_EXEC_FILES		8
#define PLAN_EXEC_PATH_MAX	512
#define PLAN_EXEC_FILES_BYTES	(512 * 1024)	/* all files of a command */

enum plan_exec_at {
	PLAN_EXEC_SETUP = 0,
	PLAN_EXEC_TIMED,
	PLAN_EXEC_TEARDOWN,
};

struct plan_exec {
	char		host[PLAN_NAME_MAX];
	enum plan_exec_at at;
	int64_t		at_ns;		/* TIMED: from the traffic's start */
	char		argv[PLAN_EXEC_ARGS][PLAN_EXEC_ARG_MAX];
	size_t		argc;
	char		files[PLAN_EXEC_FILES][PLAN_EXEC_PATH_MAX];
	size_t		nfiles;
	int64_t		timeout_ns;	/* default 30 s */
	int		line;
};

/* 1 for the router kinds (router: X, route changes too), 0 for links. */
#define PLAN_FAULT_IS_ROUTER(f)	((f)->kind >= PLAN_FAULT_ROUTER_KILL && \
	    (f)->kind <= PLAN_FAULT_ROUTE_SET)

/*
 * variants_mode: (plan.c); not given: concurrent where the run allows it
 * (runner.c resolve_concurrent), else sequential.
 */
enum plan_variants_mode {
	PLAN_VARIANTS_DEFAULT = 0,	/* not given: concurrent if it can */
	PLAN_VARIANTS_SEQUENTIAL,
	PLAN_VARIANTS_CONCURRENT,	/* runner.c: where nothing stops it */
};

struct plan_variant {
	char		label[PLAN_NAME_MAX * 2]; /* "A-B" as written */
	size_t		nrouters;	/* length of the chain prefix */
};

/*
 * A swept parameter (docs/plans.md "Sweeps"): sweep: {NAME: [v1, v2]},
 * used as "$NAME" in flows and impairments.  The values are kept as
 * written and put in place of "$NAME" before a flow or an impairment is
 * read, so each one is checked as if the file said it.
 */
#define PLAN_MAX_SWEEP_KEYS	8
#define PLAN_SWEEP_NAME_MAX	16
#define PLAN_SWEEP_VAL_MAX	32
#define PLAN_MAX_POINTS		100000	/* variants x values x repeat */

struct plan_sweep_key {
	char		name[PLAN_SWEEP_NAME_MAX];
	char		vals[PLAN_MAX_SWEEP][PLAN_SWEEP_VAL_MAX];
	int		styles[PLAN_MAX_SWEEP];	/* yaml_scalar_style_t */
	size_t		nvals;
	int		line;
};

/* One run of the plan: a variant, a value of every sweep key, a rep. */
struct plan_point {
	size_t		variant;	/* index in plan.variants */
	unsigned	val[PLAN_MAX_SWEEP_KEYS]; /* index in sweep[k].vals */
	unsigned	rep;		/* 1..repeat */
};

/*
 * RFC 2544 benchmarking (docs/plans.md "RFC 2544", controller/plan/planrfc.c):
 * rfc2544: {tests: [throughput, latency, loss, back-to-back], trial: 2s,
 * resolution: 1%, loss_tolerance: 0%, max_rate: 100000, frames: [64]}.
 * Each trial runs the plan's single flow at one rate and frame size.
 */
#define PLAN_RFC_MAX_FRAMES	16
#define PLAN_RFC_THROUGHPUT	0x1
#define PLAN_RFC_LATENCY	0x2
#define PLAN_RFC_LOSS		0x4
#define PLAN_RFC_B2B		0x8

struct plan_rfc2544 {
	int		enabled;	/* the key is there */
	unsigned	tests;		/* PLAN_RFC_* bits */
	int64_t		trial_ns;	/* one trial's length */
	double		resolution;	/* search stop, fraction of max_rate */
	double		loss_tolerance;	/* fraction of sent, 0: none lost */
	double		max_rate;	/* frames/s, the search's top */
	unsigned	frames[PLAN_RFC_MAX_FRAMES];
	size_t		nframes;
};

/*
 * The throughput search (RFC 2544 26.1): a trial at max_rate, then
 * halving [lo, hi] (lo passed, hi failed) until hi - lo is at most
 * resolution x max_rate.  The throughput is lo, the highest rate passed.
 * Back-to-back (26.4) searches the same way over burst lengths
 * 1..NMAX frames, whole ones, to the frame (plan_rfc_b2b_init).
 */
struct plan_rfc_search {
	double		lo, hi, step, rate;
	int		done;
	int		whole;		/* midpoints rounded down */
	unsigned	trials;
};

void	plan_rfc_search_init(struct plan_rfc_search *s,
	    const struct plan_rfc2544 *rfc);
void	plan_rfc_b2b_init(struct plan_rfc_search *s, uint64_t nmax);
/* The next rate to try in *RATE: 0, or 1 when the search is done. */
int	plan_rfc_search_next(struct plan_rfc_search *s, double *rate);
/* The trial at the last rate given passed (loss within tolerance) or not. */
void	plan_rfc_search_result(struct plan_rfc_search *s, int passed);
/* Loss of a trial within the tolerance? */
int	plan_rfc_passed(const struct plan_rfc2544 *rfc, uint64_t sent,
	    uint64_t received);

/*
 * Captures (docs/plans.md "Captures", controller/plan/plancap.c): libpcap on each
 * HOST:IFACE at every measured point, shipped to the results' captures/;
 * the first interface is matched against each later one (capdelay.csv).
 */
#define PLAN_CAP_MAX_IFACES	8
#define PLAN_CAP_IFNAME		16	/* IFNAMSIZ */
#define PLAN_CAP_SNAP_DEFAULT	128
#define PLAN_CAP_LIMIT_DEFAULT	(64ULL * 1000 * 1000)	/* 64MB */

struct plan_capture {
	int		enabled;	/* the key is there */
	char		host[PLAN_CAP_MAX_IFACES][PLAN_NAME_MAX]; /* "gen" */
	char		iface[PLAN_CAP_MAX_IFACES][PLAN_CAP_IFNAME];
	size_t		nifaces;	/* >= 2 */
	unsigned	snaplen;	/* bytes kept per frame */
	uint64_t	limit_bytes;	/* per file */
	int		line;
};

/*
 * disturbance: (docs/plans.md "Disturbance", plandisturb.c): above which
 * share, run queue or pacing error a measured point is flagged; -1: off.
 */
#define PLAN_DISTURB_STEAL	5.0	/* % of all CPU time */
#define PLAN_DISTURB_SOFTIRQ	30.0
#define PLAN_DISTURB_IRQ	10.0
#define PLAN_DISTURB_RUNQ	1.5	/* runnable tasks per CPU */
#define PLAN_DISTURB_PACING_NS	1000000	/* 1 ms */

struct plan_disturb {
	double		steal_pct, softirq_pct, irq_pct;	/* 0..100 */
	double		runq;		/* mean runnable tasks per CPU */
	int64_t		pacing_p99_ns;	/* the generator's p99 |error| */
	int		line;		/* of the key, 0: absent */
};

/* cpu: (docs/plans.md "CPU", plancpu.c): cpu.csv's sampling. */
#define PLAN_CPU_DEFAULT_NS	(1000 * 1000000LL)	/* 1 s */
#define PLAN_CPU_MIN_NS		(100 * 1000000LL)
#define PLAN_CPU_MAX_NS		(60 * 1000000000LL)

struct plan_cpu {
	int		on;		/* default 1; cpu: false */
	int64_t		interval_ns;	/* default 1 s */
	int		line;		/* of the key, 0: absent */
};

struct plan {
	char		path[256];	/* file it was loaded from */
	char		*text;		/* its text, owned: plan_bind */
	struct plan_sweep_key sweep[PLAN_MAX_SWEEP_KEYS]; /* in file order */
	size_t		nsweep;
	int		order_random;	/* order: {random: true, seed: S} */
	uint64_t	order_seed;
	char		name[PLAN_NAME_MAX];
	char		chain[PLAN_MAX_CHAIN][PLAN_NAME_MAX];
	size_t		nchain;
	struct plan_variant variants[PLAN_MAX_CHAIN];
	size_t		nvariants;
	enum plan_router_impl router_impl;
	struct plan_router router;	/* router: options (impl hoplab) */
	unsigned	repeat;		/* >= 1 */
	unsigned	sweep_frames[PLAN_MAX_SWEEP];
	size_t		nsweep_frames;	/* 0: no frame sweep */
	struct plan_flow flows[PLAN_MAX_FLOWS];	/* replicas: as copies */
	size_t		nflows;
	size_t		nflows_max;	/* the most flows at any sweep value
					   (each key's values in turn) */
	struct plan_impair impairs[PLAN_MAX_IMPAIR];
	size_t		nimpairs;
	struct plan_fault faults[PLAN_MAX_FAULTS];	/* by at_ns */
	size_t		nfaults;
	struct plan_rfc2544 rfc;	/* rfc2544: (planrfc.c) */
	struct plantopo	topo;		/* topology: {hosts:, links:} */
	struct plan_capture capture;	/* captures: (plancap.c) */
	int		records;	/* records: true: packets/ per point */
	int		residence;	/* residence: true (planres.c) */
	struct plan_disturb disturb;	/* disturbance: (plandisturb.c) */
	struct plan_cpu	cpu;		/* cpu: (plancpu.c) */
	enum plan_variants_mode variants_mode;
	struct plan_exec execs[PLAN_MAX_EXECS];	/* exec: in file order */
	size_t		nexecs;			/* (issue 14, planexec.c) */
};

/*
 * Load and validate PATH.  Returns a plan the caller frees with plan_free(),
 * or NULL with "file:line: key: what was expected, got what" in ERR.
 */
struct plan *plan_load(const char *path, char *err, size_t errlen);
/* Same, from a string; NAME stands in for the file name in messages. */
struct plan *plan_load_string(const char *yaml, const char *name, char *err,
	    size_t errlen);
void	plan_free(struct plan *p);		/* NULL is fine */
/*
 * The folder of P's file into BUF (LEN bytes): where the files a plan
 * names are (its distributions' csv:, pcap-sizes:, pcap-gaps:); "." for
 * a plan given without a folder.
 */
void	plan_dir(const struct plan *p, char *buf, size_t len);

/*
 * A topology plan's flow F goes to: its dst: (an icmp flow's), else its
 * to: host's address; NULL when neither is known.
 */
const char *plan_flow_target(const struct plan *p, const struct plan_flow *f);

/* 1 if a flow of P has mode MODE ("icmp", ...). */
int	plan_has_mode(const struct plan *p, const char *mode);
/* 1 if a flow of P is a download (tcp with bytes:, plandl.c). */
int	plan_has_download(const struct plan *p);

/* Runs in the plan: variants x every sweep key's values x repeat. */
size_t	plan_npoints(const struct plan *p);
/*
 * The I-th run in the order they are run (0-based): variants outermost,
 * then the sweep keys in file order, repetitions innermost; with
 * order: {random: true} the same list shuffled by the seed (the same
 * seed, the same order).  ORDER, if not NULL, is a plan_point_order()
 * array.  Returns 0, or -1 when I is out of range.
 */
int	plan_point(const struct plan *p, const size_t *order, size_t i,
	    struct plan_point *pt);
/*
 * The run order: an array of plan_npoints() indices into the
 * deterministic list, shuffled when the plan says random, or NULL for
 * the deterministic order itself (and when out of memory: check
 * plan_npoints).  The caller frees it.
 */
size_t	*plan_point_order(const struct plan *p);
/*
 * The order the runner goes: plan_point_order() with order: {random:
 * true}; else, with two variants or more, interleaved: per value of the
 * sweep keys and repetition (in listed order) every variant once, in a
 * rotation shuffled by the plan's seed (docs/plans.md "order"); NULL
 * (the listed order) with one variant, or when out of memory (check
 * plan_npoints and nvariants).  The caller frees it.
 */
size_t	*plan_run_order(const struct plan *p);
/* 1 when plan_run_order(P) is an array (NULL from it is out of memory). */
#define PLAN_RUN_ORDERED(p)	((p)->order_random || (p)->nvariants > 1)
/*
 * "frame=64;idt=1ms": the swept values of PT in file order ("" without a
 * sweep); ';' so that it is one CSV field without quotes.
 */
void	plan_point_label(const struct plan *p, const struct plan_point *pt,
	    char *buf, size_t len);
/*
 * The plan as run at point PT: its text read again with every "$NAME"
 * replaced by PT's value, so that its flows and impairments are those of
 * that point.  The caller frees it with plan_free(); NULL with ERR.
 */
struct plan *plan_bind(const struct plan *p, const struct plan_point *pt,
	    char *err, size_t errlen);
/* 1 if the plan sweeps something else than frame, or in random order. */
int	plan_sweeps_beyond_frame(const struct plan *p);
const char *plan_router_impl_name(enum plan_router_impl impl);
/* 1 if variant V (its first NROUTERS routers) contains impaired link I. */
int	plan_impair_in_variant(const struct plan_impair *i,
	    const struct plan_variant *v);
/* 1 if variant V crosses the link (or has the router) of fault F. */
int	plan_fault_in_variant(const struct plan_fault *f,
	    const struct plan_variant *v);
/*
 * End I (0: the link's first-written end, or FROM; 1: the other) of
 * link fault F of plan P: its host in HOST and that host's interface on
 * the link in IFACE (a chain router's "in" faces the generator, "out"
 * the far side; the generator's "tx" is on gen-R1, "rx" on Rn-gen; a
 * topology host's is named after the far end).  0, or -1 when F is not
 * a link fault or I is not 0 or 1.
 */
int	plan_fault_end(const struct plan *p, const struct plan_fault *f,
	    int i, char *host, size_t hostlen, char *iface, size_t ifacelen);
#endif
