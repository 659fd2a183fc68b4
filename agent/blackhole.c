/*
 * blackhole: a link that fails without losing its carrier (blackhole.h).
 *
 * One table per interface, so that taking one blackhole away is one
 * `delete table` and never touches a user's tables.  The chain's
 * priority -500 runs it before any ingress chain of a user's.  The
 * interfaces this agent blackholed are remembered (at most
 * BLACKHOLE_MAX), so that blackhole_clear_all() knows what to remove.
 */
#include <net/if.h>
#include <stdio.h>
#include <string.h>

#include "agent/blackhole.h"
#include "agent/nft.h"
#include "log.h"

#define BLACKHOLE_MAX	64

static char holes[BLACKHOLE_MAX][IF_NAMESIZE];
static size_t nholes;

static long
find(const char *iface)
{
	size_t i;

	for (i = 0; i < nholes; i++)
		if (strcmp(holes[i], iface) == 0)
			return (long)i;
	return -1;
}

int
blackhole_on(const char *iface, char *err, size_t errlen)
{
	char text[512], what[64];
	char *argv[] = { "nft", text, NULL };

	if (find(iface) == -1 && nholes == BLACKHOLE_MAX) {
		snprintf(err, errlen, "blackhole %s: %d interfaces are "
		    "blackholed already", iface, BLACKHOLE_MAX);
		return -1;
	}
	/* Added, deleted and added again: an earlier agent's goes. */
	snprintf(text, sizeof(text),
	    "table netdev hoplab_bh_%s {}\n"
	    "delete table netdev hoplab_bh_%s\n"
	    "table netdev hoplab_bh_%s {\n"
	    "chain in {\n"
	    "type filter hook ingress device \"%s\" priority -500; "
	    "policy drop;\n"
	    "}\n}\n", iface, iface, iface, iface);
	snprintf(what, sizeof(what), "blackhole %s", iface);
	if (nft_run(argv, what, NULL, 0, err, errlen) == -1)
		return -1;
	if (find(iface) == -1)
		snprintf(holes[nholes++], IF_NAMESIZE, "%s", iface);
	return 0;
}

int
blackhole_off(const char *iface, char *err, size_t errlen)
{
	char table[64], what[64];
	char *argv[] = { "nft", "delete", "table", "netdev", table, NULL };
	long i = find(iface);

	if (i == -1)
		return 0;
	snprintf(table, sizeof(table), "hoplab_bh_%s", iface);
	snprintf(what, sizeof(what), "remove the blackhole of %s", iface);
	if (nft_run(argv, what, NULL, 0, err, errlen) == -1)
		return -1;
	memmove(holes[i], holes[nholes - 1], IF_NAMESIZE);
	nholes--;
	return 0;
}

void
blackhole_clear_all(void)
{
	char err[256], iface[IF_NAMESIZE];

	while (nholes > 0) {
		snprintf(iface, sizeof(iface), "%s", holes[nholes - 1]);
		if (blackhole_off(iface, err, sizeof(err)) == -1) {
			log_warn("%s", err);
			nholes--;	/* the interface may be gone */
		} else
			log_info("blackhole of %s removed", iface);
	}
}
