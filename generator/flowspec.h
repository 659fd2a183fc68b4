/*
 * flowspec: the value of hoplab-gen's --flow option.
 *
 *   frame=64,count=2000,idt=1ms[,dscp=EF][,id=N][,name=S][,dport=N][,sport=N]
 *   [,seed=N][,duration=D][,burst=DIST,off=DIST][,dst=IP][,spin=D|auto]
 *   [,offset=D]
 *   preset=NAME[,rate=R][,key=value ...]
 *
 * frame is the Ethernet frame length including the FCS (RFC 2544, 64..1518),
 * idt the inter-departure time, count the packets to send.  Both frame and
 * idt may be a distribution (lib/dist.h): frame=uniform:64:1518,
 * idt=exp:1ms; seed=N seeds them (default: the flow id).  duration=D
 * bounds the flow by time instead of (or as well as) count.  burst= and
 * off= make it an on/off source: BURST packets IDT apart, then a pause
 * OFF.  preset=NAME (lib/preset.h) fills in frame, idt, burst, off and
 * dscp for a real service; keys given beside it override.  dst=IP (l2
 * mode) sends the flow to its own destination address instead of --dst.
 * spin=D makes the pacer spin at least D before each of the flow's
 * deadlines (pace.h; auto, the default, leaves the learnt lead).
 * offset=D (0..60s) sends its first packet D after the run's start.  The
 * parser is strict: unknown or repeated keys, missing required keys and
 * values out of range are errors whose message names the key and the value.
 */
#ifndef HOPLAB_GEN_FLOWSPEC_H
#define HOPLAB_GEN_FLOWSPEC_H

#include <stddef.h>
#include <stdint.h>
#include <netinet/in.h>

#include "dist.h"

#define FLOWSPEC_NAME_MAX	64		/* incl. the NUL */
#define FLOWSPEC_MAX_FLOWS	64
#define FLOWSPEC_COUNT_MAX	100000000ULL	/* per flow and in all */
#define FLOWSPEC_IDT_MIN	1000LL		/* 1 us */
#define FLOWSPEC_IDT_MAX	60000000000LL	/* 60 s */
#define FLOWSPEC_DURATION_MAX	86400000000000LL /* count * idt <= 24 h */
#define FLOWSPEC_DPORT_DEFAULT	7		/* RFC 2544 C.2.6.4: echo */
#define FLOWSPEC_SPORT_DEFAULT	49184		/* RFC 2544 C.2.6.4: 0xC020 */

#define FLOWSPEC_SEED_DEFAULT	UINT64_MAX	/* means: use the flow id */
#define FLOWSPEC_BURST_MAX	1000000		/* packets in one burst */
#define FLOWSPEC_DURATION_MIN	1000000LL	/* duration= at least 1 ms */
#define FLOWSPEC_PRESET_MAX	16

struct flowspec {
	char		name[FLOWSPEC_NAME_MAX]; /* default "flow<id>" */
	uint16_t	id;		/* probe flow id; default given by caller */
	unsigned	frame;		/* Ethernet frame incl. FCS, 64..1518;
					   a distribution's mean, clamped */
	uint64_t	count;		/* packets to send, 1..FLOWSPEC_COUNT_MAX */
	int64_t		idt_ns;		/* inter-departure time (mean) */
	char		frame_dist[DIST_SPEC_MAX]; /* "" when constant */
	char		idt_dist[DIST_SPEC_MAX];   /* "" when constant */
	uint64_t	seed;		/* FLOWSPEC_SEED_DEFAULT: the id */
	unsigned	dscp;		/* 0..63, default 0 (BE) */
	uint16_t	dport;		/* UDP destination port, host order */
	uint16_t	sport;		/* UDP source port, host order */
	char		burst_dist[DIST_SPEC_MAX]; /* packets per burst, "" */
	char		off_dist[DIST_SPEC_MAX];   /* pause after a burst */
	int64_t		duration_ns;	/* 0: bounded by count only */
	int		count_given;	/* count= was given (not derived) */
	int64_t		mean_gap_ns;	/* mean gap incl. bursts and pauses */
	char		preset[FLOWSPEC_PRESET_MAX]; /* "" or the preset */
	double		rate_bps;	/* the preset's rate, 0 if none */
	struct in_addr	dst;		/* l2: dst=, 0.0.0.0: the --dst */
	int64_t		spin_ns;	/* spin=: PACE_SPIN_AUTO or the
					   least spin before a deadline */
	int		spin_given;	/* spin= was given (else --spin's) */
	int64_t		offset_ns;	/* first packet after the start */
};

/*
 * Parse the --flow value S into *FS.  DEFAULT_ID is the flow id used when
 * S has no id= (main passes the flow's position, from 1).  Returns 0, or -1
 * with a message such as "frame: expected 64..1518 (Ethernet frame incl.
 * FCS), got 1600" in ERR.  *FS is filled only on success.
 */
int	flowspec_parse(const char *s, unsigned default_id, struct flowspec *fs,
	    char *err, size_t errlen);
/*
 * A spin value V, of spin= and of --spin: "auto" (PACE_SPIN_AUTO) or a
 * duration with its unit of 1us..100ms (PACE_SPIN_MAX) into *NS.
 * Returns 0, or -1 with "expected auto or ..., got ..." in ERR.
 */
int	flowspec_parse_spin(const char *v, int64_t *ns, char *err,
	    size_t errlen);
/*
 * Check a whole set of N flows: ids and names unique, total count bounded.
 * Returns 0, or -1 with a message in ERR.
 */
int	flowspec_check_set(const struct flowspec *fs, size_t n, char *err,
	    size_t errlen);
/*
 * The seeded distributions of flow FS: IDT in ns (random stream 2 * seed)
 * and FRAME in bytes (stream 2 * seed + 1).  Returns 0, or -1 with ERR;
 * on success the caller owns both and calls dist_free().
 */
int	flowspec_dists(const struct flowspec *fs, struct dist *idt,
	    struct dist *frame, char *err, size_t errlen);
uint64_t flowspec_seed(const struct flowspec *fs);
/*
 * The seeded burst distributions of an on/off flow (burst_dist set):
 * BURST in packets (stream 2 * seed + 2^63), OFF in ns (2 * seed + 1 +
 * 2^63).  Returns 0, or -1 with ERR; the caller owns both on success.
 */
int	flowspec_burst_dists(const struct flowspec *fs, struct dist *burst,
	    struct dist *off, char *err, size_t errlen);

#endif
