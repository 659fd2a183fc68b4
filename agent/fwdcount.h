/*
 * fwdcount: packets a kernel router forwards, by protocol, counted by
 * nftables rules the agent installs in a table of its own (fwdcount.c):
 *
 *   table inet NAME { chain count { type filter hook forward priority
 *       100; policy accept; one counter rule per class } }
 *
 * installed at a kernel router role's start, read every report
 * interval (`nft -j list table inet NAME`), deleted at its end.  A leaf
 * of the agent; nft runs through lib/spawn with an explicit argv.
 */
#ifndef HOPLAB_AGENT_FWDCOUNT_H
#define HOPLAB_AGENT_FWDCOUNT_H

#include <stddef.h>
#include <stdint.h>

/* The classes, in RouterCounters' order (fwd_tcp ... fwd_other). */
enum fwdcount_class {
	FWDCOUNT_TCP,
	FWDCOUNT_UDP,
	FWDCOUNT_ICMP,		/* ICMP and ICMPv6 */
	FWDCOUNT_OTHER,		/* every other layer-4 protocol */
	FWDCOUNT_NCLASS
};

#define FWDCOUNT_NAME_MAX	32	/* "hoplab_fwd_r4294967295" + NUL */

/* The table name of role ROLE: "hoplab_fwd_rROLE". */
void	fwdcount_name(char *buf, size_t len, uint32_t role);
/*
 * Install table NAME afresh (one nft transaction that first removes a
 * table of that name an earlier agent left).  0, or -1 with ERR (nft's
 * own message, or that nft is not installed).
 */
int	fwdcount_install(const char *name, char *err, size_t errlen);
/* Read table NAME's counters into PKTS; 0, or -1 with ERR. */
int	fwdcount_read(const char *name, uint64_t pkts[FWDCOUNT_NCLASS],
	    char *err, size_t errlen);
/* Delete table NAME; 0, or -1 with ERR. */
int	fwdcount_delete(const char *name, char *err, size_t errlen);
/*
 * The counters of `nft -j list table inet NAME`'s output JSON: of each
 * rule of table NAME whose comment is a class ("tcp", "udp", "icmp",
 * "other"), its counter's packets.  0 when every class was found, -1
 * with ERR (a JSON error, a class missing or given twice).
 */
int	fwdcount_parse(const char *json, const char *name,
	    uint64_t pkts[FWDCOUNT_NCLASS], char *err, size_t errlen);

#endif
