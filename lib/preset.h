/*
 * preset: named traffic models of real services (multiservice presets),
 * shared by hoplab-gen's --flow preset=NAME and a plan's `preset: NAME`,
 * so that both expand a name to the same parameters.
 *
 *   voip-g711   G.711 at 20 ms: 160 B + RTP 12 B, frame 218, 20 ms, EF
 *   voip-g729   G.729 at 20 ms: 20 B + RTP 12 B, frame 78, 20 ms, EF
 *   video-conf  30 video frames/s, each a burst of RTP packets, AF41
 *   iptv        MPEG-TS 7 x 188 B per UDP packet, frame 1362, CBR, AF41
 *   vod         segments of 2 s fetched in bursts of 1518 B frames, AF31
 *   web         on/off: Pareto burst sizes, exponential think times, BE
 *   bulk        1518 B frames back to back up to a rate, AF11
 *
 * A preset is the texts of the flow keys it sets (frame, idt, burst, off,
 * dscp, dport), in the same forms a user writes them (docs/generator.md),
 * so the caller parses and checks them with its own key parsers; keys the
 * user gives override the preset's.  RATE (bit/s) scales the presets that
 * take one (video-conf, iptv, vod, web, bulk); 0 means the default.
 * Sources and the DSCP convention (RFC 4594, with IPTV in AF41): see
 * docs/generator.md.
 *
 * It deliberately does not model codecs' silence suppression, adaptive
 * bit rates or TCP's reaction to loss: the generator sends what the model
 * says, open loop.
 */
#ifndef HOPLAB_PRESET_H
#define HOPLAB_PRESET_H

#include <stddef.h>
#include <stdint.h>

#define PRESET_TEXT_MAX		64
#define PRESET_RATE_MIN		10e3		/* 10 kbit/s */
#define PRESET_RATE_MAX		10e9		/* 10 Gbit/s */

struct preset_flow {
	const char	*name;		/* the preset's name */
	double		 rate_bps;	/* rate used, 0 for fixed presets */
	char		 frame[PRESET_TEXT_MAX];	/* frame= value */
	char		 idt[PRESET_TEXT_MAX];	/* idt= value */
	char		 burst[PRESET_TEXT_MAX]; /* burst= value, "" none */
	char		 off[PRESET_TEXT_MAX];	/* off= value, "" none */
	char		 dscp[8];		/* dscp= value: EF, AF41 ... */
	unsigned	 dport;			/* UDP port, 0: the default */
};

/*
 * Expand preset NAME at RATE_BPS (0: the preset's default) into *PF.
 * Returns 0, or -1 with a message naming the preset or the rate in ERR
 * (unknown name, a rate for a preset without one, a rate out of
 * PRESET_RATE_MIN..PRESET_RATE_MAX or one the model cannot pace).
 */
int	preset_expand(const char *name, double rate_bps, struct preset_flow *pf,
	    char *err, size_t errlen);
/* The preset names, comma-separated, for messages and usage texts. */
const char *preset_names(void);
/*
 * Parse a rate: a number with an optional unit k, M or G (bit/s; "bps"
 * or "bit/s" may follow), a bare number being Mbit/s: "4", "1.5M",
 * "500k", "1Gbps".  Returns 0 with *BPS, or -1.
 */
int	preset_parse_rate(const char *s, double *bps);

/*
 * Flow bounds shared by plan.c and hoplab-gen.  preset_mean_gap(): the
 * mean gap between packets of a flow whose gaps have mean IDT_NS, sent in
 * bursts of mean BURST packets (0: no bursts) with a pause of
 * mean OFF_NS after each: ((BURST - 1) IDT + OFF) / BURST.
 * preset_duration_count(): the count that bounds a flow of DURATION_NS
 * with that mean gap when no count is given: 25 % above the expected
 * number plus 16, at most MAX.  Random gaps rarely sum to less; a flow
 * that reaches it ends early, and says so.
 */
double	preset_mean_gap(double idt_ns, double burst, double off_ns);
uint64_t preset_duration_count(int64_t duration_ns, double mean_gap_ns,
	    uint64_t max);

#endif
