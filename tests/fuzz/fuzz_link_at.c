/*
 * fuzz_link_at: libFuzzer target for hoplab-link's control commands and
 * their times (link/ctl.c): `hoplab-link --ctl "at +10s set a-b delay
 * 5ms"` parsed by lctl_parse_command(), and the `at` of every
 * LinkControl (from a plan's link fault or `hoplab link HOST set ...
 * --at`) by lctl_parse_at(), then the direction and the profile as the
 * link's control side takes them (do_set).
 *
 * Each input is a command line.  What the target asserts, besides
 * ASan/UBSan (an instant that overflows is UB):
 *
 *   - a parsed command is counters or set, its strings inside the
 *     buffer it was given;
 *   - an accepted `at` is now for "", not before now for "+DURATION",
 *     and for "@S.F" within S and S + 1 s; anything else is refused;
 *   - the profile gets the checks of lprofile_parse() (no table files:
 *     see fuzz_link_table).
 *
 * Built and run by tests/fuzz/run.sh (seeds: tests/fuzz/corpus/link_at/).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "msg.h"
#include "link/ctl.h"
#include "link/dir.h"
#include "link/profile.h"

#define NOW	(1764470000LL * 1000000000LL)

static int
inside(const char *s, const char *buf, size_t len)
{
	return s >= buf && s + strlen(s) < buf + len;
}

static void
check_at(const char *at)
{
	long long sec;
	int64_t t;

	if (lctl_parse_at(at, NOW, &t) == -1) {
		if (at[0] == '\0')
			abort();
		return;
	}
	if ((at[0] == '\0' && t != NOW) || (at[0] == '+' && t < NOW) ||
	    (at[0] != '\0' && at[0] != '+' && at[0] != '@'))
		abort();
	if (at[0] == '@') {
		sec = strtoll(at + 1, NULL, 10);
		if (t < sec * 1000000000LL || t >= (sec + 1) * 1000000000LL)
			abort();
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	Hoplab__LinkControl rc = HOPLAB__LINK_CONTROL__INIT;
	char cmd[1024], buf[1024], err[512];
	struct lprofile p;

	if (size >= sizeof(cmd))
		return 0;
	memcpy(cmd, data, size);
	cmd[size] = '\0';
	/* An `at` alone, as a LinkControl from the controller carries it. */
	check_at(cmd);
	if (lctl_parse_command(cmd, &rc, buf, sizeof(buf)) == -1)
		return 0;
	if (rc.op == HOPLAB__LINK_CONTROL__OP__COUNTERS)
		return 0;
	if (rc.op != HOPLAB__LINK_CONTROL__OP__SET ||
	    (rc.at[0] != '\0' && !inside(rc.at, buf, sizeof(buf))))
		abort();
	if (!inside(rc.dir, buf, sizeof(buf)) ||
	    (rc.profile[0] != '\0' && !inside(rc.profile, buf, sizeof(buf))))
		abort();
	check_at(rc.at);
	(void)ldir_parse(rc.dir);
	if (strchr(rc.profile, '/') == NULL &&
	    lprofile_parse(&p, rc.profile, err, sizeof(err)) == 0)
		lprofile_free(&p);
	return 0;
}
