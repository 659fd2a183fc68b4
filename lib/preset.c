/*
 * preset: the multiservice presets, one table entry per service
 * (STYLE.md: a table of function pointers with designated initializers).
 *
 * Each expand function writes the texts of the flow keys, in the forms
 * hoplab-gen's --flow takes (docs/generator.md), from a rate in bit/s.
 * Frame lengths count every header down to the Ethernet FCS (RFC 2544):
 * payload + RTP 12 (RFC 3550, when the service uses RTP) + UDP 8 + IPv4 20
 * + Ethernet 14 + FCS 4.  DSCP classes follow RFC 4594 section 4 (figure
 * 3), except IPTV, which the issue puts in AF41 where RFC 4594 would
 * say CS3 (broadcast video); docs/generator.md says so.
 *
 * The burst model (burst=, off=) is an on/off source: BURST packets IDT
 * apart, then a pause OFF after the burst's last packet.  Sources for the
 * numbers: ITU-T G.711 (64 kbit/s) and G.729 (8 kbit/s) at 20 ms
 * packetisation (RFC 3551 section 4.5: 20 ms is the default packet time
 * for both); ETSI TS 102 034 / SMPTE 2022 (7 TS packets of 188 bytes per
 * IP packet); Crovella and Bestavros 1997 and Barford and Crovella 1998
 * (SURGE) for heavy-tailed web transfer sizes (Pareto, alpha about 1.1 to
 * 1.2) with think times between them.
 *
 * Deliberately not here: parsing keys or checking the values against the
 * generator's limits (flowspec.c and plan.c do that with their own
 * parsers, on the texts written here).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "preset.h"

#define HDR_UDP		(8 + 20 + 14 + 4)	/* UDP+IPv4+Ethernet+FCS */
#define RTP_HDR		12
#define FRAME_MAX	1518
#define NS		1e9

struct preset_ops {
	const char	*name;
	double		 rate_default;	/* bit/s; 0: takes no rate */
	double		 rate_max;	/* the model's own limit */
	const char	*rate_means;	/* for messages */
	void		(*expand)(double rate, struct preset_flow *pf);
};

/* Gap in ns for BYTES at RATE bit/s, as text: "121440ns". */
static void
gap_text(char *buf, double bytes, double rate)
{
	snprintf(buf, PRESET_TEXT_MAX, "%lldns", (long long)llround(bytes *
	    8 * NS / rate));
}

static void
voip_g711(double rate, struct preset_flow *pf)
{
	(void)rate;
	/* 64 kbit/s x 20 ms = 160 bytes of samples. */
	snprintf(pf->frame, sizeof(pf->frame), "%d", 160 + RTP_HDR + HDR_UDP);
	snprintf(pf->idt, sizeof(pf->idt), "20ms");
	snprintf(pf->dscp, sizeof(pf->dscp), "EF");
}

static void
voip_g729(double rate, struct preset_flow *pf)
{
	(void)rate;
	/* 8 kbit/s x 20 ms = 20 bytes (two 10 ms frames). */
	snprintf(pf->frame, sizeof(pf->frame), "%d", 20 + RTP_HDR + HDR_UDP);
	snprintf(pf->idt, sizeof(pf->idt), "20ms");
	snprintf(pf->dscp, sizeof(pf->dscp), "EF");
}

/*
 * 30 video frames a second; a video frame of RATE / 8 / 30 bytes is sent
 * as a burst of RTP packets with 1200-byte payloads, 100 us apart; the
 * number of packets per video frame is lognormal with a standard
 * deviation of half its mean (I frames are larger than P frames).
 */
#define VC_FPS		30
#define VC_PAYLOAD	1200
#define VC_GAP_NS	100000LL

static void
video_conf(double rate, struct preset_flow *pf)
{
	double m = rate / 8 / VC_FPS / VC_PAYLOAD;
	long long off;

	snprintf(pf->frame, sizeof(pf->frame), "%d", VC_PAYLOAD + RTP_HDR +
	    HDR_UDP);
	snprintf(pf->idt, sizeof(pf->idt), "%lldns", VC_GAP_NS);
	snprintf(pf->burst, sizeof(pf->burst), "lognormal:%.3f:%.3f", m,
	    m / 2);
	off = llround(NS / VC_FPS - (m - 1) * VC_GAP_NS);
	snprintf(pf->off, sizeof(pf->off), "%lldns", off);
	snprintf(pf->dscp, sizeof(pf->dscp), "AF41");
}

/* Constant bit rate MPEG-TS, 7 x 188 bytes per UDP packet, no RTP. */
#define TS_PAYLOAD	(7 * 188)

static void
iptv(double rate, struct preset_flow *pf)
{
	snprintf(pf->frame, sizeof(pf->frame), "%d", TS_PAYLOAD + HDR_UDP);
	gap_text(pf->idt, TS_PAYLOAD, rate);
	snprintf(pf->dscp, sizeof(pf->dscp), "AF41");
}

/*
 * HTTP adaptive streaming: every 2 s a segment of RATE x 2 s (frame
 * bytes incl. FCS) is fetched as a burst of 1518-byte frames at 100
 * Mbit/s, then the link is idle until the next segment.
 */
#define VOD_SEGMENT_NS	2000000000LL
#define VOD_BURST_RATE	100e6

static void
vod(double rate, struct preset_flow *pf)
{
	long long b, gap;

	b = llround(rate * (VOD_SEGMENT_NS / NS) / 8 / FRAME_MAX);
	if (b < 1)
		b = 1;
	gap = llround(FRAME_MAX * 8 * NS / VOD_BURST_RATE);
	snprintf(pf->frame, sizeof(pf->frame), "%d", FRAME_MAX);
	snprintf(pf->idt, sizeof(pf->idt), "%lldns", gap);
	snprintf(pf->burst, sizeof(pf->burst), "%lld", b);
	snprintf(pf->off, sizeof(pf->off), "%lldns", VOD_SEGMENT_NS - (b - 1) *
	    gap);
	snprintf(pf->dscp, sizeof(pf->dscp), "AF31");
}

/*
 * Web browsing as an on/off source: a transfer of Pareto(alpha 1.2,
 * minimum 4) packets of 1518 bytes at RATE (the access rate; mean 24
 * packets, about 36 KB), then an exponential think time of mean 1 s.
 */
static void
web(double rate, struct preset_flow *pf)
{
	snprintf(pf->frame, sizeof(pf->frame), "%d", FRAME_MAX);
	gap_text(pf->idt, FRAME_MAX, rate);
	snprintf(pf->burst, sizeof(pf->burst), "pareto:1.2:4");
	snprintf(pf->off, sizeof(pf->off), "exp:1s");
	snprintf(pf->dscp, sizeof(pf->dscp), "BE");
}

/* Bulk data: 1518-byte frames back to back at RATE (frame bytes). */
static void
bulk(double rate, struct preset_flow *pf)
{
	snprintf(pf->frame, sizeof(pf->frame), "%d", FRAME_MAX);
	gap_text(pf->idt, FRAME_MAX, rate);
	snprintf(pf->dscp, sizeof(pf->dscp), "AF11");
}

static const struct preset_ops presets[] = {
	{ .name = "voip-g711", .expand = voip_g711 },
	{ .name = "voip-g729", .expand = voip_g729 },
	{ .name = "video-conf", .rate_default = 1.5e6, .rate_max = 50e6,
	  .rate_means = "RTP payload bit rate of the video",
	  .expand = video_conf },
	{ .name = "iptv", .rate_default = 4e6, .rate_max = 1e9,
	  .rate_means = "MPEG-TS bit rate", .expand = iptv },
	{ .name = "vod", .rate_default = 4e6, .rate_max = 50e6,
	  .rate_means = "mean bit rate of the frames", .expand = vod },
	{ .name = "web", .rate_default = 100e6, .rate_max = 10e9,
	  .rate_means = "bit rate within a transfer", .expand = web },
	{ .name = "bulk", .rate_default = 100e6, .rate_max = 10e9,
	  .rate_means = "bit rate of the frames", .expand = bulk },
};
#define NPRESETS	(sizeof(presets) / sizeof(presets[0]))

const char *
preset_names(void)
{
	return "voip-g711, voip-g729, video-conf, iptv, vod, web, bulk";
}

int
preset_expand(const char *name, double rate_bps, struct preset_flow *pf,
    char *err, size_t errlen)
{
	const struct preset_ops *op = NULL;
	double lo;
	size_t i;

	for (i = 0; i < NPRESETS; i++)
		if (strcasecmp(name, presets[i].name) == 0)
			op = &presets[i];
	if (op == NULL) {
		snprintf(err, errlen, "preset: expected one of %s, got \"%s\"",
		    preset_names(), name);
		return -1;
	}
	if (op->rate_default == 0 && rate_bps != 0) {
		snprintf(err, errlen, "rate: preset %s has a fixed rate (its "
		    "codec's); remove rate", op->name);
		return -1;
	}
	lo = strcmp(op->name, "video-conf") == 0 ? VC_FPS * VC_PAYLOAD * 8 :
	    PRESET_RATE_MIN;
	if (op->rate_default != 0 && rate_bps != 0 &&
	    (rate_bps < lo || rate_bps > op->rate_max)) {
		snprintf(err, errlen, "rate: preset %s takes %g..%g Mbit/s "
		    "(%s), got %g Mbit/s", op->name, lo / 1e6,
		    op->rate_max / 1e6, op->rate_means, rate_bps / 1e6);
		return -1;
	}
	memset(pf, 0, sizeof(*pf));
	pf->name = op->name;
	pf->rate_bps = rate_bps != 0 ? rate_bps : op->rate_default;
	op->expand(pf->rate_bps, pf);
	return 0;
}

int
preset_parse_rate(const char *s, double *bps)
{
	char *end;
	double x, mul = 1e6;

	x = strtod(s, &end);
	if (end == s || !isfinite(x) || x <= 0)
		return -1;
	if (*end == 'k' || *end == 'K')
		mul = 1e3, end++;
	else if (*end == 'M')
		mul = 1e6, end++;
	else if (*end == 'G')
		mul = 1e9, end++;
	else if (*end != '\0')
		mul = 1;		/* "4000bps" */
	if (*end != '\0' && strcmp(end, "bps") != 0 &&
	    strcmp(end, "bit/s") != 0)
		return -1;
	*bps = x * mul;
	return 0;
}

double
preset_mean_gap(double idt_ns, double burst, double off_ns)
{
	if (!(burst > 0))
		return idt_ns;		/* no bursts */
	if (burst < 1)
		burst = 1;
	return ((burst - 1) * idt_ns + off_ns) / burst;
}

uint64_t
preset_duration_count(int64_t duration_ns, double mean_gap_ns, uint64_t max)
{
	double n;

	if (!(mean_gap_ns > 0))
		return max;
	n = ceil((double)duration_ns / mean_gap_ns * 1.25) + 16;
	return n >= (double)max ? max : (uint64_t)n;
}
