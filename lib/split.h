/*
 * split: a total divided into N parts as evenly as whole units go, as a
 * download's bytes are over its streams (hoplab-gen --streams, and the
 * controller's downloads_streams.csv, which must agree on every share).
 */
#ifndef HOPLAB_SPLIT_H
#define HOPLAB_SPLIT_H

#include <stdint.h>

/*
 * Part I (0..N-1) of TOTAL over N parts: TOTAL / N, one more for the
 * first TOTAL % N parts, so the parts differ by at most one and add up
 * to TOTAL.  0 when N is 0 or I is not below N.
 */
uint64_t split_share(uint64_t total, unsigned n, unsigned i);

#endif
