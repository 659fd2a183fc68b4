/*
 * model: what hoplab-gen sends, packet by packet: frame sizes and gaps
 * drawn from a flow's distributions (lib/dist.h), and for an on/off
 * source (burst=, off=; the web, vod and video-conf presets) bursts of a
 * drawn number of packets IDT apart, each followed by a drawn pause.
 *
 * Every draw is clamped to what can be sent (sizes 64..1518 incl. FCS,
 * gaps 0..60 s, bursts 1..FLOWSPEC_BURST_MAX packets, rounded to the
 * nearest integer) and every clamp is counted, so a heavy tail that was
 * cut shows in the results.  The pause replaces the gap after a burst's
 * last packet, so a flow's mean gap is ((B - 1) IDT + OFF) / B
 * (preset_mean_gap()).
 *
 * Deliberately not here: time (gen.c turns gaps into deadlines) and any
 * reaction to what comes back (the model is open loop).
 */
#include <math.h>
#include <string.h>

#include "pkt.h"
#include "model.h"

/* A new burst: its size drawn, rounded and clamped. */
static void
model_new_burst(struct model *m)
{
	double x = nearbyint(dist_sample(&m->burst));

	m->bursts++;
	if (x >= 1 && x <= FLOWSPEC_BURST_MAX)
		m->burst_left = (uint64_t)x;
	else {
		m->burst_clamped++;
		m->burst_left = x > FLOWSPEC_BURST_MAX ? FLOWSPEC_BURST_MAX : 1;
	}
	m->burst_size = m->burst_left;
}

int
model_init(struct model *m, const struct flowspec *fs, char *err,
    size_t errlen)
{
	memset(m, 0, sizeof(*m));
	m->frame_const = fs->frame;
	m->idt_const = fs->idt_ns;
	if (flowspec_dists(fs, &m->idt, &m->frame, err, errlen) == -1)
		return -1;
	m->have_dists = 1;
	if (fs->burst_dist[0] == '\0')
		return 0;
	if (flowspec_burst_dists(fs, &m->burst, &m->off, err, errlen) == -1)
		return -1;
	m->bursty = 1;
	model_new_burst(m);
	return 0;
}

void
model_free(struct model *m)
{
	if (m->have_dists) {
		dist_free(&m->idt);
		dist_free(&m->frame);
	}
	if (m->bursty) {
		dist_free(&m->burst);
		dist_free(&m->off);
	}
	m->have_dists = m->bursty = 0;
}

unsigned
model_frame(struct model *m)
{
	double x;

	if (dist_is_const(&m->frame))
		return m->frame_const;
	x = nearbyint(dist_sample(&m->frame));
	if (x >= PKT_FRAME_MIN && x <= PKT_FRAME_MAX)
		return (unsigned)x;
	m->frame_clamped++;
	return x < PKT_FRAME_MIN ? PKT_FRAME_MIN : PKT_FRAME_MAX;
}

/* A draw of D in ns, clamped to 0..60 s (counted). */
static int64_t
model_draw_ns(struct model *m, struct dist *d)
{
	double x = dist_sample(d);

	if (x >= 0 && x <= FLOWSPEC_IDT_MAX)
		return (int64_t)llround(x);
	m->idt_clamped++;
	return x < 0 || isnan(x) ? 0 : FLOWSPEC_IDT_MAX;
}

int64_t
model_gap(struct model *m)
{
	if (m->bursty && --m->burst_left == 0) {
		model_new_burst(m);
		return model_draw_ns(m, &m->off);
	}
	if (dist_is_const(&m->idt))
		return m->idt_const;
	return model_draw_ns(m, &m->idt);
}

uint64_t
model_bursts(const struct model *m)
{
	/* model_gap() draws the next burst before its first packet. */
	if (m->bursts > 0 && m->burst_left == m->burst_size)
		return m->bursts - 1;
	return m->bursts;
}
