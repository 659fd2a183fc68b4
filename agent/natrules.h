/*
 * natrules: a kernel router's source NAT (natrules.c, issue 16,
 * docs/nat.md): an nftables table the agent owns,
 *
 *   table ip hoplab_nat_rROLE {
 *   chain post {
 *   type nat hook postrouting priority 100; policy accept;
 *   oifname "Out" counter masquerade          # or: snat to 198.18.3.100
 *   }
 *   }
 *
 * installed by the linux router role after its routes and deleted at
 * its stop (also when it failed, and at the agent's exit), and the
 * count of the connections it translated, read from the router's own
 * conntrack table (/proc/net/nf_conntrack of the agent's namespace,
 * which is the router's).  A leaf of the agent: nft and ip run through
 * nft.c and iproute.c with an explicit argv.
 */
#ifndef HOPLAB_AGENT_NATRULES_H
#define HOPLAB_AGENT_NATRULES_H

#include <stddef.h>
#include <stdint.h>

#define NATRULES_NAME_MAX	32	/* "hoplab_nat_r4294967295" + NUL */
#define NATRULES_TEXT_MAX	512	/* the whole transaction */

/* The table name of role ROLE: "hoplab_nat_rROLE". */
void	natrules_name(char *buf, size_t len, uint32_t role);
/*
 * The nft transaction that installs table NAME afresh (adds and deletes
 * one an earlier agent left, then the table) for what leaves IFACE, to
 * TO_ADDR ("" or NULL: masquerade), into BUF of LEN.  0, or -1 with ERR
 * when IFACE is not a plain interface name ([A-Za-z0-9_.-], 1..15),
 * TO_ADDR not an IPv4 address, or BUF too short.
 */
int	natrules_text(const char *name, const char *iface, const char *to_addr,
	    char *buf, size_t len, char *err, size_t errlen);
/*
 * Install table NAME (natrules_text) on the host; with TO_ADDR not ""
 * and not OWN_ADDR (the router's address on IFACE), first add
 * TO_ADDR/32 to IFACE, so that the far end's ARP finds it (the role's
 * flush of IFACE removes it).  0, or -1 with ERR (nft's message).
 */
int	natrules_install(const char *name, const char *iface,
	    const char *to_addr, const char *own_addr, char *err,
	    size_t errlen);
/* Delete table NAME; 0, or -1 with ERR. */
int	natrules_delete(const char *name, char *err, size_t errlen);
/*
 * The connections of conntrack TEXT (/proc/net/nf_conntrack's format,
 * one entry a line) translated to ADDR: IPv4 entries whose reply goes
 * to ADDR while their original source was another address.
 */
uint32_t natrules_count(const char *text, const char *addr);
/*
 * natrules_count() of this host's /proc/net/nf_conntrack into *N; 0, or
 * -1 with ERR (the file missing: a kernel without
 * CONFIG_NF_CONNTRACK_PROCFS).
 */
int	natrules_active(const char *addr, uint32_t *n, char *err,
	    size_t errlen);

#endif
