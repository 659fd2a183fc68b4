/*
 * flowspec: parse hoplab-gen's --flow value, "key=value" pairs separated by
 * commas, into a struct flowspec, and check a set of flows for clashes.
 *
 * Required keys: frame (Ethernet frame length incl. FCS, RFC 2544, 64..1518),
 * count and idt (a duration with its unit, lib/clock.h).  frame and idt
 * may instead be distributions (lib/dist.h, e.g. exp:1ms): a frame
 * distribution must be able to give sizes in 64..1518 (samples outside
 * are clamped and counted at run time), an idt distribution needs a mean
 * (or, without one, a location) in 1us..60s; seed=N (0..2^63) seeds both.
 * Optional: dscp (a
 * name such as EF or AF41, or 0..63, via lib/dscp.h), id (probe flow id,
 * 0..65535), name (letters, digits, '.', '_', '-'), dport and sport (UDP
 * ports 1..65535; defaults from the RFC 2544 appendix C test frame: source
 * 0xC020, destination 7); dst (l2 mode: the flow's own destination
 * address, owned by the generator on rx; default --dst); spin (auto or
 * 1us..100ms: the least time the pacer spins before the flow's
 * deadlines, pace.h; default --spin's); offset (0..60s:
 * the flow's first packet that long after the run's start, so that
 * flows of one rate can be staggered; default 0).
 *
 * duration=D (1ms..24h) bounds the flow by time: without count, the count
 * is derived from it as a bound (preset_duration_count()).  burst=DIST
 * (packets, a mean of 1..1000000) and off=DIST (a duration, mean 0..60s)
 * make an on/off source; both or neither.  preset=NAME[,rate=R] fills
 * frame, idt, burst, off and dscp from lib/preset.h for every one of
 * those keys not given, so explicit keys override the preset.
 *
 * Everything is bounded: count * idt may not exceed 24 h and the flows of
 * one run may not send more than FLOWSPEC_COUNT_MAX packets together, so a
 * typo cannot start a run that never ends or exhausts memory.
 *
 * It knows nothing about interfaces; of addresses only that dst= is a
 * unicast IPv4 address (main.c checks the rest).  It never prints: errors go to the caller's buffer.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>

#include "clock.h"
#include "pkt.h"
#include "dscp.h"
#include "preset.h"
#include "flowspec.h"
#include "pace.h"

#define FLOWSPEC_PAIR_MAX	(DIST_SPEC_MAX + 8) /* longest key=value */

enum {
	KEY_FRAME = 0x01,
	KEY_COUNT = 0x02,
	KEY_IDT = 0x04,
	KEY_DSCP = 0x08,
	KEY_ID = 0x10,
	KEY_NAME = 0x20,
	KEY_DPORT = 0x40,
	KEY_SPORT = 0x80,
	KEY_SEED = 0x100,
	KEY_DURATION = 0x200,
	KEY_BURST = 0x400,
	KEY_OFF = 0x800,
	KEY_PRESET = 0x1000,
	KEY_RATE = 0x2000,
	KEY_DST = 0x4000,
	KEY_SPIN = 0x8000,
	KEY_OFFSET = 0x10000,
};

/* What a flow line is being built from: the keys met, the preset. */
struct fsctx {
	unsigned	seen;
	char		preset[FLOWSPEC_PRESET_MAX];
	double		rate_bps;
	double		burst_mean;	/* 0: no bursts */
	double		off_mean;	/* ns */
};

/* Strict unsigned decimal in MIN..MAX: no sign, no blanks, no junk. */
static int
parse_uint(const char *v, uint64_t min, uint64_t max, uint64_t *out)
{
	unsigned long long x;
	char *end;

	if (!isdigit((unsigned char)v[0]))
		return -1;
	errno = 0;
	x = strtoull(v, &end, 10);
	if (errno != 0 || *end != '\0' || x < min || x > max)
		return -1;
	*out = x;
	return 0;
}

static int
parse_name(const char *v, struct flowspec *fs, char *err, size_t errlen)
{
	size_t i, len = strlen(v);

	if (len >= sizeof(fs->name)) {
		snprintf(err, errlen, "name: longer than %zu characters, "
		    "got \"%s\"", sizeof(fs->name) - 1, v);
		return -1;
	}
	for (i = 0; i < len; i++) {
		if (!isalnum((unsigned char)v[i]) && v[i] != '.' &&
		    v[i] != '_' && v[i] != '-') {
			snprintf(err, errlen, "name: expected letters, digits, "
			    "'.', '_' or '-', got \"%s\"", v);
			return -1;
		}
	}
	memcpy(fs->name, v, len + 1);
	return 0;
}

static int
parse_idt(const char *v, struct flowspec *fs, char *err, size_t errlen)
{
	char why[192];
	struct dist d;
	double m;
	int64_t ns;

	if (strchr(v, ':') == NULL) {
		if (clock_parse_duration(v, &ns, why, sizeof(why)) == -1) {
			snprintf(err, errlen, "idt: %s", why);
			return -1;
		}
		m = (double)ns;
	} else {
		if (dist_parse(&d, v, DIST_TIME, 1, why, sizeof(why)) == -1) {
			snprintf(err, errlen, "idt: %s", why);
			return -1;
		}
		m = dist_mean(&d);
		if (!isfinite(m))	/* cauchy, heavy pareto: location */
			m = d.p[d.ops->shape_first ? 1 : 0];
		dist_free(&d);
		snprintf(fs->idt_dist, sizeof(fs->idt_dist), "%s", v);
	}
	if (!(m >= FLOWSPEC_IDT_MIN && m <= FLOWSPEC_IDT_MAX)) {
		snprintf(err, errlen, "idt: expected %s1us..60s, got \"%s\"",
		    fs->idt_dist[0] ? "a mean of " : "", v);
		return -1;
	}
	fs->idt_ns = (int64_t)llround(m);
	return 0;
}

static int
parse_frame(const char *v, struct flowspec *fs, char *err, size_t errlen)
{
	char why[192];
	struct dist d;
	uint64_t x;
	double m;

	if (strchr(v, ':') == NULL) {
		if (parse_uint(v, PKT_FRAME_MIN, PKT_FRAME_MAX, &x) == -1) {
			snprintf(err, errlen, "frame: expected 64..1518 "
			    "(Ethernet frame incl. FCS), got \"%s\"", v);
			return -1;
		}
		fs->frame = x;
		return 0;
	}
	if (dist_parse(&d, v, DIST_BYTES, 1, why, sizeof(why)) == -1) {
		snprintf(err, errlen, "frame: %s", why);
		return -1;
	}
	m = dist_mean(&d);
	if (dist_cdf(&d, PKT_FRAME_MAX + 0.5) - dist_cdf(&d,
	    PKT_FRAME_MIN - 0.5) <= 0) {
		snprintf(err, errlen, "frame: %s gives no size in 64..1518 "
		    "(Ethernet frame incl. FCS)", v);
		dist_free(&d);
		return -1;
	}
	if (!isfinite(m))
		m = d.p[d.ops->shape_first ? 1 : 0];
	dist_free(&d);
	fs->frame = m < PKT_FRAME_MIN ? PKT_FRAME_MIN : m > PKT_FRAME_MAX ?
	    PKT_FRAME_MAX : (unsigned)lround(m);
	snprintf(fs->frame_dist, sizeof(fs->frame_dist), "%s", v);
	return 0;
}

/*
 * The nominal value of V, a number (UNIT's form) or a distribution: its
 * mean, or its location when it has none.  0 or -1 with ERR naming KEY.
 */
static int
nominal(const char *key, const char *v, enum dist_unit unit, double *m,
    char *err, size_t errlen)
{
	char why[192];
	struct dist d;

	if (dist_parse(&d, v, unit, 1, why, sizeof(why)) == -1) {
		snprintf(err, errlen, "%s: %s", key, why);
		return -1;
	}
	*m = dist_mean(&d);
	if (!isfinite(*m))
		*m = d.p[d.ops->shape_first ? 1 : 0];
	dist_free(&d);
	return 0;
}

/* burst=N|DIST: packets per burst, a mean of 1..FLOWSPEC_BURST_MAX. */
static int
parse_burst(const char *v, struct flowspec *fs, struct fsctx *x, char *err,
    size_t errlen)
{
	if (nominal("burst", v, DIST_BYTES, &x->burst_mean, err, errlen) == -1)
		return -1;
	if (!(x->burst_mean >= 1 && x->burst_mean <= FLOWSPEC_BURST_MAX)) {
		snprintf(err, errlen, "burst: expected %s1..%d packets, got "
		    "\"%s\"", strchr(v, ':') ? "a mean of " : "",
		    FLOWSPEC_BURST_MAX, v);
		return -1;
	}
	snprintf(fs->burst_dist, sizeof(fs->burst_dist), "%s", v);
	return 0;
}

/* off=DURATION|DIST: the pause after a burst, a mean of 0..60s. */
static int
parse_off(const char *v, struct flowspec *fs, struct fsctx *x, char *err,
    size_t errlen)
{
	if (nominal("off", v, DIST_TIME, &x->off_mean, err, errlen) == -1)
		return -1;
	if (!(x->off_mean >= 0 && x->off_mean <= FLOWSPEC_IDT_MAX)) {
		snprintf(err, errlen, "off: expected %s0..60s, got \"%s\"",
		    strchr(v, ':') ? "a mean of " : "", v);
		return -1;
	}
	snprintf(fs->off_dist, sizeof(fs->off_dist), "%s", v);
	return 0;
}

static int
parse_duration(const char *v, struct flowspec *fs, char *err, size_t errlen)
{
	char why[128];

	if (clock_parse_duration(v, &fs->duration_ns, why, sizeof(why)) == -1) {
		snprintf(err, errlen, "duration: %s", why);
		return -1;
	}
	if (fs->duration_ns < FLOWSPEC_DURATION_MIN ||
	    fs->duration_ns > FLOWSPEC_DURATION_MAX) {
		snprintf(err, errlen, "duration: expected 1ms..24h, got \"%s\"",
		    v);
		return -1;
	}
	return 0;
}

static int
parse_preset_key(const char *v, struct fsctx *x, char *err, size_t errlen)
{
	struct preset_flow pf;

	if (preset_expand(v, 0, &pf, err, errlen) == -1)
		return -1;
	snprintf(x->preset, sizeof(x->preset), "%s", pf.name);
	return 0;
}

static int
parse_rate(const char *v, struct fsctx *x, char *err, size_t errlen)
{
	if (preset_parse_rate(v, &x->rate_bps) == -1) {
		snprintf(err, errlen, "rate: expected a bit rate such as 4 "
		    "(Mbit/s), 500k, 1.5M or 1G, got \"%s\"", v);
		return -1;
	}
	return 0;
}

static int
parse_seed(const char *v, struct flowspec *fs, char *err, size_t errlen)
{
	uint64_t n;

	if (parse_uint(v, 0, INT64_MAX, &n) == -1) {
		snprintf(err, errlen, "seed: expected 0..%lld, got \"%s\"",
		    (long long)INT64_MAX, v);
		return -1;
	}
	fs->seed = n;
	return 0;
}

static int
parse_count(const char *v, struct flowspec *fs, char *err, size_t errlen)
{
	uint64_t n;

	if (parse_uint(v, 1, FLOWSPEC_COUNT_MAX, &n) == -1) {
		snprintf(err, errlen, "count: expected 1..%llu, got \"%s\"",
		    FLOWSPEC_COUNT_MAX, v);
		return -1;
	}
	fs->count = n;
	return 0;
}

static int
parse_dscp(const char *v, struct flowspec *fs, char *err, size_t errlen)
{
	if (dscp_parse(v, &fs->dscp) == -1 || fs->dscp > 63) {
		snprintf(err, errlen, "dscp: expected BE, EF, AF11..AF43, "
		    "CS0..CS7 or 0..63, got \"%s\"", v);
		return -1;
	}
	return 0;
}

static int
parse_id(const char *v, struct flowspec *fs, char *err, size_t errlen)
{
	uint64_t n;

	if (parse_uint(v, 0, UINT16_MAX, &n) == -1) {
		snprintf(err, errlen, "id: expected 0..65535, got \"%s\"", v);
		return -1;
	}
	fs->id = n;
	return 0;
}

static int
parse_dst(const char *v, struct flowspec *fs, char *err, size_t errlen)
{
	if (inet_pton(AF_INET, v, &fs->dst) != 1 ||
	    fs->dst.s_addr == INADDR_ANY ||
	    fs->dst.s_addr == INADDR_BROADCAST ||
	    IN_MULTICAST(ntohl(fs->dst.s_addr))) {
		snprintf(err, errlen, "dst: expected a unicast IPv4 address, "
		    "got \"%s\"", v);
		return -1;
	}
	return 0;
}

int
flowspec_parse_spin(const char *v, int64_t *ns, char *err, size_t errlen)
{
	char why[128];

	if (strcmp(v, "auto") == 0) {
		*ns = PACE_SPIN_AUTO;
		return 0;
	}
	if (clock_parse_duration(v, ns, why, sizeof(why)) == -1 ||
	    *ns < NSEC_PER_USEC || *ns > PACE_SPIN_MAX) {
		snprintf(err, errlen, "expected auto or a duration of "
		    "1us..100ms with its unit, got \"%s\"", v);
		return -1;
	}
	return 0;
}

/* offset=D: the flow's first packet D after the run's start, 0..60s. */
static int
parse_offset(const char *v, struct flowspec *fs, char *err, size_t errlen)
{
	char why[128];

	if (clock_parse_duration(v, &fs->offset_ns, why, sizeof(why)) == -1) {
		snprintf(err, errlen, "offset: %s", why);
		return -1;
	}
	if (fs->offset_ns < 0 || fs->offset_ns > FLOWSPEC_IDT_MAX) {
		snprintf(err, errlen, "offset: expected 0ns..60s, got \"%s\"",
		    v);
		return -1;
	}
	return 0;
}

static int
parse_spin(const char *v, struct flowspec *fs, char *err, size_t errlen)
{
	char why[160];

	if (flowspec_parse_spin(v, &fs->spin_ns, why, sizeof(why)) == -1) {
		snprintf(err, errlen, "spin: %s", why);
		return -1;
	}
	fs->spin_given = 1;
	return 0;
}

/* dport= or sport= (KEY, named in messages). */
static int
parse_port(const char *key, const char *v, uint16_t *port, char *err,
    size_t errlen)
{
	uint64_t n;

	if (parse_uint(v, 1, UINT16_MAX, &n) == -1) {
		snprintf(err, errlen, "%s: expected a UDP port 1..65535, got "
		    "\"%s\"", key, v);
		return -1;
	}
	*port = n;
	return 0;
}

/*
 * Split PAIR ("key=value", written into) at the '=': *V gets the value.
 * Returns the key's KEY_* bit, marked in x->seen, or 0 with ERR (no
 * '=', an unknown key, a key given twice, an empty value).
 */
static unsigned
pair_key(char *pair, char **v, struct fsctx *x, char *err, size_t errlen)
{
	static const struct {
		const char	*key;
		unsigned	 bit;
	} keys[] = {
		{ "frame", KEY_FRAME }, { "count", KEY_COUNT },
		{ "idt", KEY_IDT }, { "dscp", KEY_DSCP }, { "id", KEY_ID },
		{ "name", KEY_NAME }, { "dport", KEY_DPORT },
		{ "sport", KEY_SPORT }, { "seed", KEY_SEED },
		{ "duration", KEY_DURATION }, { "burst", KEY_BURST },
		{ "off", KEY_OFF }, { "preset", KEY_PRESET }, { "rate", KEY_RATE },
		{ "dst", KEY_DST }, { "spin", KEY_SPIN }, { "offset", KEY_OFFSET },
	};
	size_t i;
	unsigned bit = 0;

	if ((*v = strchr(pair, '=')) == NULL) {
		snprintf(err, errlen, "expected key=value, got \"%s\"", pair);
		return 0;
	}
	*(*v)++ = '\0';
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (strcmp(pair, keys[i].key) == 0)
			bit = keys[i].bit;
	if (bit == 0) {
		snprintf(err, errlen, "unknown key \"%s\" (expected frame, "
		    "count, idt, dscp, id, name, dport, sport, seed, duration, "
		    "burst, off, preset, rate, dst, spin or offset)", pair);
		return 0;
	}
	if (x->seen & bit) {
		snprintf(err, errlen, "%s: given twice", pair);
		return 0;
	}
	x->seen |= bit;
	if (**v == '\0') {
		snprintf(err, errlen, "%s: empty value", pair);
		return 0;
	}
	return bit;
}

/* Apply one key=value pair; x->seen collects the keys met so far. */
static int
apply_pair(char *pair, struct flowspec *fs, struct fsctx *x, char *err,
    size_t errlen)
{
	unsigned bit;
	char *v;

	if ((bit = pair_key(pair, &v, x, err, errlen)) == 0)
		return -1;
	switch (bit) {
	case KEY_FRAME:
		return parse_frame(v, fs, err, errlen);
	case KEY_DURATION:
		return parse_duration(v, fs, err, errlen);
	case KEY_BURST:
		return parse_burst(v, fs, x, err, errlen);
	case KEY_OFF:
		return parse_off(v, fs, x, err, errlen);
	case KEY_PRESET:
		return parse_preset_key(v, x, err, errlen);
	case KEY_RATE:
		return parse_rate(v, x, err, errlen);
	case KEY_SEED:
		return parse_seed(v, fs, err, errlen);
	case KEY_COUNT:
		return parse_count(v, fs, err, errlen);
	case KEY_IDT:
		return parse_idt(v, fs, err, errlen);
	case KEY_DSCP:
		return parse_dscp(v, fs, err, errlen);
	case KEY_ID:
		return parse_id(v, fs, err, errlen);
	case KEY_NAME:
		return parse_name(v, fs, err, errlen);
	case KEY_DST:
		return parse_dst(v, fs, err, errlen);
	case KEY_SPIN:
		return parse_spin(v, fs, err, errlen);
	case KEY_OFFSET:
		return parse_offset(v, fs, err, errlen);
	case KEY_DPORT:
		return parse_port(pair, v, &fs->dport, err, errlen);
	default:			/* KEY_SPORT */
		return parse_port(pair, v, &fs->sport, err, errlen);
	}
}

/*
 * The preset's texts for every key of frame, idt, burst, off and dscp
 * not given, through the same parsers as the user's own keys.
 */
static int
apply_preset(struct flowspec *fs, struct fsctx *x, char *err, size_t errlen)
{
	struct preset_flow pf;
	char pair[FLOWSPEC_PAIR_MAX];
	const struct {
		unsigned	 bit;
		const char	*key;
		const char	*val;
	} k[] = {
		{ KEY_FRAME, "frame", pf.frame }, { KEY_IDT, "idt", pf.idt },
		{ KEY_BURST, "burst", pf.burst }, { KEY_OFF, "off", pf.off },
		{ KEY_DSCP, "dscp", pf.dscp },
	};
	size_t i;

	if (x->seen & KEY_RATE && !(x->seen & KEY_PRESET)) {
		snprintf(err, errlen, "rate: only with preset= (set idt for "
		    "a rate of your own)");
		return -1;
	}
	if (!(x->seen & KEY_PRESET))
		return 0;
	if (preset_expand(x->preset, x->rate_bps, &pf, err, errlen) == -1)
		return -1;
	snprintf(fs->preset, sizeof(fs->preset), "%s", pf.name);
	fs->rate_bps = pf.rate_bps;
	for (i = 0; i < sizeof(k) / sizeof(k[0]); i++) {
		if (x->seen & k[i].bit || k[i].val[0] == '\0')
			continue;
		snprintf(pair, sizeof(pair), "%s=%s", k[i].key, k[i].val);
		if (apply_pair(pair, fs, x, err, errlen) == -1)
			return -1;
	}
	return 0;
}

static int
check_required(struct flowspec *fs, struct fsctx *x, char *err,
    size_t errlen)
{
	unsigned seen = x->seen;

	if ((seen & KEY_FRAME) == 0 || (seen & KEY_IDT) == 0 ||
	    (seen & (KEY_COUNT | KEY_DURATION)) == 0) {
		snprintf(err, errlen, "missing %s (frame, idt and count or "
		    "duration are required, or a preset and count or "
		    "duration)", (seen & KEY_FRAME) == 0 ? "frame" :
		    (seen & KEY_IDT) == 0 ? "idt" : "count or duration");
		return -1;
	}
	if (!(seen & KEY_BURST) != !(seen & KEY_OFF)) {
		snprintf(err, errlen, "%s: needs %s too (an on/off source "
		    "has both)", seen & KEY_BURST ? "burst" : "off",
		    seen & KEY_BURST ? "off" : "burst");
		return -1;
	}
	fs->mean_gap_ns = llround(preset_mean_gap((double)fs->idt_ns,
	    x->burst_mean, x->off_mean));
	if (fs->mean_gap_ns < 1)
		fs->mean_gap_ns = 1;
	fs->count_given = (seen & KEY_COUNT) != 0;
	if (!fs->count_given)
		fs->count = preset_duration_count(fs->duration_ns,
		    (double)fs->mean_gap_ns, FLOWSPEC_COUNT_MAX);
	else if (fs->duration_ns == 0 && fs->count >
	    (uint64_t)(FLOWSPEC_DURATION_MAX / fs->mean_gap_ns)) {
		snprintf(err, errlen, "count * idt: %llu packets every "
		    "%lld ns (mean) take longer than 24 h",
		    (unsigned long long)fs->count, (long long)fs->mean_gap_ns);
		return -1;
	}
	return 0;
}

int
flowspec_parse(const char *s, unsigned default_id, struct flowspec *fs,
    char *err, size_t errlen)
{
	struct flowspec f;
	struct fsctx x;
	char pair[FLOWSPEC_PAIR_MAX];
	const char *p = s, *comma;
	size_t len;

	memset(&f, 0, sizeof(f));
	memset(&x, 0, sizeof(x));
	f.id = default_id > UINT16_MAX ? 0 : default_id;
	f.dport = FLOWSPEC_DPORT_DEFAULT;
	f.sport = FLOWSPEC_SPORT_DEFAULT;
	f.seed = FLOWSPEC_SEED_DEFAULT;
	if (*s == '\0') {
		snprintf(err, errlen, "empty flow spec (expected e.g. "
		    "frame=64,count=2000,idt=1ms or preset=voip-g711,"
		    "duration=10s)");
		return -1;
	}
	for (;;) {
		comma = strchr(p, ',');
		len = comma != NULL ? (size_t)(comma - p) : strlen(p);
		if (len == 0) {
			snprintf(err, errlen, "empty item between commas");
			return -1;
		}
		if (len >= sizeof(pair)) {
			snprintf(err, errlen, "item \"%.20s...\" is too long", p);
			return -1;
		}
		memcpy(pair, p, len);
		pair[len] = '\0';
		if (apply_pair(pair, &f, &x, err, errlen) == -1)
			return -1;
		if (comma == NULL)
			break;
		p = comma + 1;
	}
	if (apply_preset(&f, &x, err, errlen) == -1 ||
	    check_required(&f, &x, err, errlen) == -1)
		return -1;
	if ((x.seen & KEY_NAME) == 0)
		snprintf(f.name, sizeof(f.name), "%s%s%u", f.preset[0] ?
		    f.preset : "flow", f.preset[0] ? "-" : "", (unsigned)f.id);
	*fs = f;
	return 0;
}

int
flowspec_check_set(const struct flowspec *fs, size_t n, char *err,
    size_t errlen)
{
	uint64_t total = 0;
	size_t i, j;

	if (n == 0) {
		snprintf(err, errlen, "no flow given (use --flow)");
		return -1;
	}
	if (n > FLOWSPEC_MAX_FLOWS) {
		snprintf(err, errlen, "%zu flows, at most %d are allowed", n,
		    FLOWSPEC_MAX_FLOWS);
		return -1;
	}
	for (i = 0; i < n; i++) {
		for (j = 0; j < i; j++) {
			if (fs[i].id == fs[j].id) {
				snprintf(err, errlen, "flows %zu and %zu both "
				    "have id %u", j + 1, i + 1, fs[i].id);
				return -1;
			}
			if (strcmp(fs[i].name, fs[j].name) == 0) {
				snprintf(err, errlen, "flows %zu and %zu both "
				    "have name \"%s\"", j + 1, i + 1,
				    fs[i].name);
				return -1;
			}
		}
		total += fs[i].count;
	}
	if (total > FLOWSPEC_COUNT_MAX) {
		snprintf(err, errlen, "the flows send %llu packets together, "
		    "at most %llu are allowed", (unsigned long long)total,
		    FLOWSPEC_COUNT_MAX);
		return -1;
	}
	return 0;
}

uint64_t
flowspec_seed(const struct flowspec *fs)
{
	return fs->seed == FLOWSPEC_SEED_DEFAULT ? fs->id : fs->seed;
}

int
flowspec_dists(const struct flowspec *fs, struct dist *idt, struct dist *frame,
    char *err, size_t errlen)
{
	char v[DIST_SPEC_MAX], why[192];
	uint64_t seed = flowspec_seed(fs);

	if (fs->idt_dist[0] != '\0')
		snprintf(v, sizeof(v), "%s", fs->idt_dist);
	else
		snprintf(v, sizeof(v), "%lldns", (long long)fs->idt_ns);
	if (dist_parse(idt, v, DIST_TIME, 2 * seed, why, sizeof(why)) == -1) {
		snprintf(err, errlen, "flow %s: idt: %s", fs->name, why);
		return -1;
	}
	if (fs->frame_dist[0] != '\0')
		snprintf(v, sizeof(v), "%s", fs->frame_dist);
	else
		snprintf(v, sizeof(v), "%u", fs->frame);
	if (dist_parse(frame, v, DIST_BYTES, 2 * seed + 1, why,
	    sizeof(why)) == -1) {
		dist_free(idt);
		snprintf(err, errlen, "flow %s: frame: %s", fs->name, why);
		return -1;
	}
	return 0;
}

int
flowspec_burst_dists(const struct flowspec *fs, struct dist *burst,
    struct dist *off, char *err, size_t errlen)
{
	uint64_t seed = 2 * flowspec_seed(fs) + (UINT64_C(1) << 63);
	char why[192];

	if (dist_parse(burst, fs->burst_dist, DIST_BYTES, seed, why,
	    sizeof(why)) == -1) {
		snprintf(err, errlen, "flow %s: burst: %s", fs->name, why);
		return -1;
	}
	if (dist_parse(off, fs->off_dist, DIST_TIME, seed + 1, why,
	    sizeof(why)) == -1) {
		dist_free(burst);
		snprintf(err, errlen, "flow %s: off: %s", fs->name, why);
		return -1;
	}
	return 0;
}
