/*
 * clock: the two clocks hoplab uses, as int64 nanoseconds.
 *
 * Timestamps that leave a process (probe tx stamps, results) are
 * CLOCK_REALTIME; pacing and timers are CLOCK_MONOTONIC with absolute
 * deadlines so that they never drift.
 */
#ifndef HOPLAB_CLOCK_H
#define HOPLAB_CLOCK_H

#include <stdint.h>
#include <stddef.h>
#include <time.h>

#define NSEC_PER_USEC	1000LL
#define NSEC_PER_MSEC	1000000LL
#define NSEC_PER_SEC	1000000000LL

int64_t	clock_real_ns(void);		/* CLOCK_REALTIME */
int64_t	clock_mono_ns(void);		/* CLOCK_MONOTONIC */
struct timespec clock_ts_from_ns(int64_t ns);
int64_t	clock_ns_from_ts(const struct timespec *ts);
/*
 * SEC seconds and NSEC nanoseconds (|NSEC| < 2^42) from a file: a
 * capture's stamp, which a classic pcap may put before 1970 and a pcapng
 * far beyond 2262.  Into *NS: 0, or -1 when it is not within
 * CLOCK_NS_FILE_MAX of 1970 (1824..2116), so that the difference of any
 * two such stamps fits.
 */
#define CLOCK_NS_FILE_MAX	(1LL << 62)
int	clock_ns_checked(int64_t sec, int64_t nsec, int64_t *ns);
/*
 * Sleep until the CLOCK_MONOTONIC time DEADLINE_NS (TIMER_ABSTIME), retrying
 * on EINTR unless *STOP becomes non-zero (STOP may be NULL).
 */
void	clock_sleep_until(int64_t deadline_ns, volatile int *stop);
/*
 * Format a CLOCK_REALTIME instant as UTC: "2026-11-30T02:31:05.123Z" (ISO)
 * or, with COMPACT, "20261130T023105Z" for folder names.  Returns BUF.
 */
char	*clock_format_utc(int64_t real_ns, int compact, char *buf, size_t len);
/*
 * Parse a duration such as "10ms", "1.5s", "250us", "100ns", "2m" into
 * nanoseconds.  A bare number is an error (the unit is mandatory).
 * Returns 0, or -1 and a message in ERR.
 */
int	clock_parse_duration(const char *s, int64_t *ns, char *err, size_t errlen);
/*
 * Parse a rate in bit/s as hoplab-router reads it (its config file and
 * plans): a number with a unit bit, kbit, Mbit or Gbit (or bps, kbps,
 * Mbps, Gbps; k, M, G in either case): "50Mbit".  0 with *BPS, or -1.
 */
int	clock_parse_bitrate(const char *s, uint64_t *bps);

#endif
