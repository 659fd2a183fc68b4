/*
 * capmatch: capture-based one-way delay.  Probes (lib/probe.h) seen in a
 * capture where they leave (TX) are matched by (flow id, sequence) with
 * the same probes seen where they arrive (RX); the delay of a match is the
 * RX capture stamp minus the TX capture stamp.  Both captures must come
 * from one clock.  Used by the controller (capdelay.csv) and by
 * tools/pcapdelay.
 *
 * Usage: capmatch_new(), capmatch_read() the TX file(s) then the RX
 * file(s) (or feed probes with capmatch_tx()/capmatch_rx()), then ask
 * capmatch_delay() for a flow's statistics or walk capmatch_recs().
 * A key seen twice in TX counts as a TX duplicate (the first copy is
 * kept); an RX copy of a key never sent is "rx only"; the first RX copy of
 * a key is its match, later ones are RX duplicates.  Reordering does not
 * matter: matching is by key.
 *
 * Deliberately not here: IPv6, later IP fragments, clock offset between
 * two machines.  Percentiles are exact (the delays are kept and sorted),
 * nearest rank.
 */
#ifndef HOPLAB_CAPMATCH_H
#define HOPLAB_CAPMATCH_H

#include <stddef.h>
#include <stdint.h>

#include "probe.h"

#define CAPMATCH_ANY	(-1)	/* a filter that takes everything */

/* One probe sent, as the TX capture saw it. */
struct capmatch_rec {
	uint16_t	flow;
	uint32_t	seq;
	int64_t		probe_tx;	/* the probe's own transmit stamp */
	int64_t		tx;		/* TX capture stamp, ns */
	int64_t		rx;		/* RX capture stamp, first copy */
	uint32_t	nrx;		/* copies seen in RX */
};

/* Counts over everything read so far. */
struct capmatch_counts {
	uint64_t	tx_probes, rx_probes;	/* probes read, copies too */
	uint64_t	tx_dup, rx_dup;
	uint64_t	rx_only;
	uint64_t	matched;
};

/* Statistics of a set of values (ns), see capmatch_summarize(). */
struct capmatch_summary {
	size_t		n;
	double		mean, std;	/* sample standard deviation */
	int64_t		min, p50, p99, p999, max;
};

/* What a read keeps: probes of FLOW to UDP destination PORT, or any. */
struct capmatch_filter {
	int		flow;		/* 0..65535 or CAPMATCH_ANY */
	int		port;		/* 0..65535 or CAPMATCH_ANY */
};

struct capmatch;

struct capmatch *capmatch_new(void);		/* NULL: out of memory */
void	capmatch_free(struct capmatch *cm);	/* NULL is fine */

/*
 * Add a probe seen in TX at capture time TS (ns).  Returns 0, or -1 when
 * out of memory.  A key already there is counted as a TX duplicate.
 */
int	capmatch_tx(struct capmatch *cm, const struct probe *p, int64_t ts);
/* A probe seen in RX at TS: matched, duplicate or rx only. */
void	capmatch_rx(struct capmatch *cm, const struct probe *p, int64_t ts);

/*
 * Read every probe of the capture file PATH that passes F (NULL: all) as
 * TX (IS_TX 1) or RX.  Nanosecond files keep their precision; microsecond
 * files are read in whole microseconds.  Returns the number of probes
 * read, or -1 with ERR ("PATH: why").
 */
long	capmatch_read(struct capmatch *cm, int is_tx, const char *path,
	    const struct capmatch_filter *f, char *err, size_t errlen);

const struct capmatch_counts *capmatch_counts(const struct capmatch *cm);
/* The records in TX order; *N gets their number. */
const struct capmatch_rec *capmatch_recs(const struct capmatch *cm,
	    size_t *n);
/*
 * The matched delays (RX - TX capture stamps) of flow FLOW
 * (CAPMATCH_ANY: all) summarised in *S, and in *SENT the TX records of
 * that flow.  Returns 0, -ENOENT when none matched (S zeroed), -1 when
 * out of memory.
 */
int	capmatch_delay(const struct capmatch *cm, int flow,
	    struct capmatch_summary *s, uint64_t *sent);
/* Flow ids seen in TX, ascending, into IDS (at most MAX); their number. */
size_t	capmatch_flows(const struct capmatch *cm, uint16_t *ids, size_t max);

/*
 * Sort V (N values) in place and summarise it: mean, sample standard
 * deviation (two passes), min, nearest-rank p50, p99, p99.9, max.  N may
 * be 0 (everything 0).
 */
void	capmatch_summarize(int64_t *v, size_t n, struct capmatch_summary *s);
/*
 * Offset of the UDP payload of one captured frame of link type LINKTYPE
 * (Ethernet with one 802.1Q tag, Linux cooked v1/v2, raw IPv4), with the
 * destination port in *DPORT; -1 if it is not IPv4/UDP, a later fragment
 * or cut short.
 */
long	capmatch_udp_payload(int linktype, const uint8_t *p, size_t len,
	    int *dport);

#endif
