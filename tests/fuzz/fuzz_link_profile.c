/*
 * fuzz_link_profile: libFuzzer target for hoplab-link's impairment
 * profiles (link/profile.c), the netem words a plan's link, a fault's
 * `set:` and `hoplab link HOST set` hand to the emulator.
 *
 * Each input is a profile text, parsed by lprofile_parse() and, as a
 * single word, by lprofile_time(), lprofile_percent() and
 * lprofile_rate().  A path to a netem .dist table (a '/') is left to
 * fuzz_link_table, so that the fuzzer never opens a path it made up.
 * What the target asserts, besides ASan/UBSan:
 *
 *   - a refused profile leaves a message;
 *   - a parsed one keeps every range profile.h promises and the
 *     emulator relies on without checking again: delay and jitter
 *     0..60 s, every probability and correlation 0..1, limit
 *     1..65536, a rate 0 or 8 bit/s..400 Gbit/s with an overhead of
 *     -64..4096 bytes, limit-bytes 0 or 64..2^40, a reorder gap >= 1
 *     exactly when reorder is on and reorder only with a delay, no
 *     table; its text as written; a transmit time that never decreases
 *     with the frame's size; a description that ends in the buffer.
 *
 * Built and run by tests/fuzz/run.sh (seeds: tests/fuzz/corpus/link_profile/).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "link/profile.h"

static int
prob(double v)
{
	return v >= 0 && v <= 1;
}

static void
check(const struct lprofile *p, const char *text)
{
	char d[256];
	int64_t t0, t1;

	if (p->delay_ns < 0 || p->delay_ns > LPROF_DELAY_MAX ||
	    p->jitter_ns < 0 || p->jitter_ns > LPROF_DELAY_MAX ||
	    !prob(p->delay_corr) || !prob(p->loss_p) || !prob(p->loss_corr) ||
	    !prob(p->ge_p) || !prob(p->ge_r) || !prob(p->ge_loss_bad) ||
	    !prob(p->ge_loss_good) || !prob(p->dup_p) || !prob(p->dup_corr) ||
	    !prob(p->corrupt_p) || !prob(p->corrupt_corr) ||
	    !prob(p->reorder_p) || !prob(p->reorder_corr))
		abort();
	if (p->limit < 1 || p->limit > LPROF_LIMIT_MAX ||
	    (p->rate_bps != 0 && (p->rate_bps < LPROF_RATE_MIN ||
	    p->rate_bps > LPROF_RATE_MAX)) || p->overhead < -64 ||
	    p->overhead > 4096 || (p->limit_bytes != 0 &&
	    (p->limit_bytes < 64 || p->limit_bytes > 1ULL << 40)) ||
	    (p->reorder_p > 0) != (p->gap >= 1) ||
	    (p->reorder_p > 0 && p->delay_ns == 0) ||
	    p->table != NULL || p->dist == LPROF_TABLE ||
	    strcmp(p->text, text) != 0)
		abort();
	t0 = lprofile_tx_time(p, 64);
	t1 = lprofile_tx_time(p, 9000);
	if (t0 < 0 || t1 < t0 || (p->rate_bps == 0 && t1 != 0))
		abort();
	memset(d, 'x', sizeof(d));
	if (memchr(lprofile_describe(p, d, sizeof(d)), '\0', sizeof(d)) ==
	    NULL)
		abort();
	(void)lprofile_is_null(p);
}

/* The single-word parsers, on the whole input. */
static void
words(const char *s)
{
	uint64_t bps;
	int64_t ns;
	double v;

	(void)lprofile_time(s, &ns);	/* any sign: duration() checks */
	if (lprofile_percent(s, &v) == 0 && !prob(v))
		abort();
	(void)lprofile_rate(s, &bps);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char text[LPROF_TEXT_MAX + 16], err[512];
	struct lprofile p;

	if (size >= sizeof(text) || memchr(data, '/', size) != NULL)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	words(text);
	err[0] = '\0';
	if (lprofile_parse(&p, text, err, sizeof(err)) == -1) {
		if (err[0] == '\0')
			abort();
		return 0;
	}
	check(&p, text);
	lprofile_free(&p);
	return 0;
}
