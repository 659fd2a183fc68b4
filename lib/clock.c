/*
 * clock: the two clocks hoplab uses, as int64 nanoseconds, and the text
 * forms of instants, durations and bit rates.
 *
 * CLOCK_REALTIME stamps everything that leaves a process (probe transmit
 * times, result records); CLOCK_MONOTONIC drives pacing and timers, always
 * with absolute deadlines (clock_nanosleep with TIMER_ABSTIME) so that the
 * time spent between sleeps never accumulates as drift.
 *
 * Durations are parsed exactly, in integer arithmetic: "1.5s" is
 * 1500000000 ns, not whatever a double rounds it to.  The unit is
 * mandatory ("10" alone is an error: ten what?), signs are rejected and a
 * value finer than one nanosecond ("1.5ns") is refused rather than
 * silently truncated.  Units: ns, us, ms, s, m (minutes), h.
 *
 * Deliberately not here: time zones other than UTC (results and folder
 * names are UTC everywhere), leap-second handling beyond what gmtime does,
 * clock synchronisation.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "clock.h"

static int64_t
clock_get(clockid_t id)
{
	struct timespec ts;

	/* Cannot fail for these two clocks on Linux. */
	clock_gettime(id, &ts);
	return clock_ns_from_ts(&ts);
}

int64_t
clock_real_ns(void)
{
	return clock_get(CLOCK_REALTIME);
}

int64_t
clock_mono_ns(void)
{
	return clock_get(CLOCK_MONOTONIC);
}

/* Split NS into seconds and a tv_nsec in 0..999999999 (floor division). */
struct timespec
clock_ts_from_ns(int64_t ns)
{
	struct timespec ts;
	int64_t sec = ns / NSEC_PER_SEC, rem = ns % NSEC_PER_SEC;

	if (rem < 0) {
		rem += NSEC_PER_SEC;
		sec--;
	}
	ts.tv_sec = (time_t)sec;
	ts.tv_nsec = (long)rem;
	return ts;
}

int64_t
clock_ns_from_ts(const struct timespec *ts)
{
	return (int64_t)ts->tv_sec * NSEC_PER_SEC + ts->tv_nsec;
}

int
clock_ns_checked(int64_t sec, int64_t nsec, int64_t *ns)
{
	const int64_t lim = CLOCK_NS_FILE_MAX / NSEC_PER_SEC;

	/*
	 * |sec| <= lim + 1 and |NSEC| below 2^42 (a file's 32-bit fraction
	 * in us or ns, which libpcap hands over signed and unchecked) keep
	 * the sum from overflow.
	 */
	if (nsec <= -(1LL << 42) || nsec >= 1LL << 42 || sec < -lim - 1 ||
	    sec > lim ||
	    sec * NSEC_PER_SEC + nsec <= -CLOCK_NS_FILE_MAX ||
	    sec * NSEC_PER_SEC + nsec >= CLOCK_NS_FILE_MAX)
		return -1;
	*ns = sec * NSEC_PER_SEC + nsec;
	return 0;
}

void
clock_sleep_until(int64_t deadline_ns, volatile int *stop)
{
	struct timespec ts = clock_ts_from_ns(deadline_ns);

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
	    EINTR) {
		if (stop != NULL && *stop)
			break;
	}
}

/*
 * ISO 8601 with milliseconds, "2026-11-30T02:31:05.123Z", or the compact
 * basic form "20261130T023105Z" used in folder names.  On a failure of
 * gmtime (a year beyond what struct tm holds) BUF gets "invalid-time".
 */
char *
clock_format_utc(int64_t real_ns, int compact, char *buf, size_t len)
{
	struct timespec ts = clock_ts_from_ns(real_ns);
	struct tm tm;

	if (len == 0)
		return buf;
	if (gmtime_r(&ts.tv_sec, &tm) == NULL) {
		snprintf(buf, len, "invalid-time");
		return buf;
	}
	if (compact)
		snprintf(buf, len, "%04d%02d%02dT%02d%02d%02dZ",
		    tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
		    tm.tm_hour, tm.tm_min, tm.tm_sec);
	else
		snprintf(buf, len, "%04d-%02d-%02dT%02d:%02d:%02d.%03ldZ",
		    tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
		    tm.tm_hour, tm.tm_min, tm.tm_sec,
		    (long)(ts.tv_nsec / NSEC_PER_MSEC));
	return buf;
}

static const struct {
	const char	*name;
	int64_t		 ns;
} clock_units[] = {
	{ "ns", 1 },
	{ "us", NSEC_PER_USEC },
	{ "ms", NSEC_PER_MSEC },
	{ "s", NSEC_PER_SEC },
	{ "m", 60 * NSEC_PER_SEC },
	{ "h", 3600 * NSEC_PER_SEC },
};

/* Nanoseconds in the unit UNIT, or 0 if it is not one we know. */
static int64_t
clock_unit_ns(const char *unit)
{
	size_t i;

	for (i = 0; i < sizeof(clock_units) / sizeof(clock_units[0]); i++)
		if (strcmp(unit, clock_units[i].name) == 0)
			return clock_units[i].ns;
	return 0;
}

static int64_t
clock_gcd(int64_t a, int64_t b)
{
	int64_t t;

	while (b != 0) {
		t = a % b;
		a = b;
		b = t;
	}
	return a;
}

/*
 * Read decimal digits at *P into *V (at most MAXDIGITS of them, so that
 * the value fits), counting them in *N.  Returns -1 on too many digits.
 */
static int
clock_digits(const char **p, int maxdigits, int64_t *v, int *n)
{
	*v = 0;
	*n = 0;
	while (**p >= '0' && **p <= '9') {
		if (++*n > maxdigits)
			return -1;
		*v = *v * 10 + (**p - '0');
		(*p)++;
	}
	return 0;
}

int
clock_parse_duration(const char *s, int64_t *ns, char *err, size_t errlen)
{
	const char *p = s;
	int64_t ip, fp, unit, scale = 1, whole, frac, g;
	int ni, nf = 0, i;

	if (clock_digits(&p, 18, &ip, &ni) == -1)
		goto toolarge;
	if (*p == '.') {
		p++;
		if (clock_digits(&p, 18, &fp, &nf) == -1 || nf == 0)
			goto bad;
	} else
		fp = 0;
	if (ni == 0)
		goto bad;
	if (*p == '\0') {
		snprintf(err, errlen, "duration \"%s\" has no unit "
		    "(ns, us, ms, s, m, h)", s);
		return -1;
	}
	if ((unit = clock_unit_ns(p)) == 0)
		goto bad;
	for (i = 0; i < nf; i++)
		scale *= 10;
	if (ip > INT64_MAX / unit)
		goto toolarge;
	whole = ip * unit;
	if (nf > 0) {
		/*
		 * fp / scale of a unit is exact iff scale / g divides fp,
		 * g = gcd(unit, scale); the result is below one unit, so
		 * it cannot overflow.
		 */
		g = clock_gcd(unit, scale);
		if (fp % (scale / g) != 0) {
			snprintf(err, errlen, "duration \"%s\" is finer "
			    "than a nanosecond", s);
			return -1;
		}
		frac = fp / (scale / g) * (unit / g);
		if (whole > INT64_MAX - frac)
			goto toolarge;
		whole += frac;
	}
	*ns = whole;
	return 0;
bad:
	snprintf(err, errlen, "invalid duration \"%s\" (expected a "
	    "non-negative number and a unit, e.g. 10ms, 1.5s)", s);
	return -1;
toolarge:
	snprintf(err, errlen, "duration \"%s\" is too large", s);
	return -1;
}

int
clock_parse_bitrate(const char *s, uint64_t *bps)
{
	char *end;
	double x, mul = 1;

	x = strtod(s, &end);
	if (end == s || !(x > 0) || x > 1e15)
		return -1;
	if (*end == 'k' || *end == 'K')
		mul = 1e3, end++;
	else if (*end == 'm' || *end == 'M')
		mul = 1e6, end++;
	else if (*end == 'g' || *end == 'G')
		mul = 1e9, end++;
	if (strcasecmp(end, "bit") != 0 && strcasecmp(end, "bps") != 0)
		return -1;
	*bps = (uint64_t)(x * mul + 0.5);
	return 0;
}
