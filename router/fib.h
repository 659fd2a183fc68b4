/*
 * fib: the IPv4 forwarding table of hoplab-router, longest prefix match
 * (RFC 1812 section 5.2.4.3) with DIR-24-8 (Gupta, Lin, McKeown,
 * "Routing lookups in hardware at memory access speeds", INFOCOM 1998;
 * the layout DPDK's rte_lpm uses).
 *
 * - tbl24: 2^24 32-bit entries, one per /24, indexed by the top 24 bits of
 *   the address (64 MiB, allocated zeroed so untouched pages cost nothing
 *   until written).  An entry is either a result (valid, depth, next hop)
 *   or a pointer to an extension group.
 * - tbl8: groups of 256 entries, one group per /24 that holds a prefix
 *   longer than /24, indexed by the last address byte.  Groups are taken
 *   from a free list and given back when the last long prefix in them is
 *   deleted.
 * - a rule table (hash on prefix and length) remembers every route, so a
 *   delete can restore the next shorter covering prefix and a dump can
 *   list the routes.
 *
 * A lookup is one memory read, two for addresses under a prefix longer
 * than /24; it never fails loudly and allocates nothing.  fib_add() and
 * fib_del() run in the same thread as the lookups (between bursts), so a
 * lookup always sees a consistent table: there is no locking and no RCU.
 *
 * Addresses are uint32_t in HOST byte order (ntohl of the header field).
 * Next hops are small integers (0 .. FIB_NH_MAX) that index a next-hop
 * table the caller owns; the fib never interprets them.
 *
 * Deliberately not here: IPv6, ECMP (one next hop per prefix), route
 * preference between sources (the caller decides which route is installed;
 * adding an existing prefix replaces its next hop), and thread safety.
 */
#ifndef HOPLAB_ROUTER_FIB_H
#define HOPLAB_ROUTER_FIB_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>

#define FIB_NH_MAX	0x00ffffffU	/* largest next-hop index */
#define FIB_NH_NONE	0xffffffffU	/* "no route" in fib_lookup_burst() */

/* ------------------------------------------------------------ internals
 * Visible only so that fib_lookup() can be inline (as rte_lpm does);
 * callers use the functions below and never touch these fields.
 *
 * Entry layout (tbl24 and tbl8 alike):
 *   bit 31      valid
 *   bit 30      extended: bits 0..23 index a tbl8 group (tbl24 only)
 *   bits 24..29 depth: the prefix length this entry came from (0..32)
 *   bits 0..23  next hop (or tbl8 group index when extended)
 */
#define FIB_E_VALID	0x80000000U
#define FIB_E_EXT	0x40000000U
#define FIB_E_DEPTH_SHIFT 24
#define FIB_E_DEPTH_MASK 0x3f000000U
#define FIB_E_DATA	0x00ffffffU
#define FIB_TBL8_SIZE	256

struct fib_rules;			/* private to fib.c */

struct fib {
	uint32_t	*tbl24;		/* 2^24 entries */
	uint32_t	*tbl8;		/* ngroups * 256 entries */
	uint32_t	 ngroups;	/* groups allocated in tbl8 */
	uint32_t	 maxgroups;	/* limit given to fib_new() */
	uint32_t	 usedgroups;	/* groups in use */
	uint32_t	*freegroups;	/* stack of free group indices */
	uint32_t	 nfree;
	struct fib_rules *rules;	/* every installed route */
};

/* ------------------------------------------------------------ interface */

/*
 * Create an empty table.  MAXGROUPS bounds the tbl8 groups (one per /24
 * that contains a prefix longer than /24, 1 KiB each); 0 means the
 * default FIB_DEFAULT_GROUPS.  Groups are allocated as they are needed,
 * up to that bound.  Returns NULL with errno set (ENOMEM, EINVAL).
 * Setup-time; the caller owns the result and frees it with fib_free().
 */
#define FIB_DEFAULT_GROUPS	65536U
struct fib *fib_new(uint32_t maxgroups);
void	fib_free(struct fib *fib);	/* NULL is fine */

/*
 * Install PREFIX/LEN -> NH, replacing the next hop if PREFIX/LEN is
 * already there.  PREFIX is in host byte order and must have no bits set
 * beyond LEN (0..32); NH at most FIB_NH_MAX.  Returns 0, or -1 with errno
 * EINVAL (bad length, host bits set, NH too big), ENOSPC (no tbl8 group
 * left under MAXGROUPS) or ENOMEM; on failure the table is unchanged.
 * Control path: call between bursts, in the thread that looks up.
 */
int	fib_add(struct fib *fib, uint32_t prefix, unsigned len, uint32_t nh);
/*
 * Remove PREFIX/LEN; addresses it covered fall back to the next shorter
 * installed prefix that covers them, or to no route.  Returns 0, or -1
 * with errno ENOENT (not installed) or EINVAL.
 */
int	fib_del(struct fib *fib, uint32_t prefix, unsigned len);
/* Exact match: the next hop of PREFIX/LEN if installed; 0 or -ENOENT. */
int	fib_get(const struct fib *fib, uint32_t prefix, unsigned len,
	    uint32_t *nh);
/* Remove every route (config reload).  Keeps the memory. */
void	fib_flush(struct fib *fib);
/* Number of installed routes. */
size_t	fib_count(const struct fib *fib);
/* Bytes of memory the table uses now (tables + rule hash). */
size_t	fib_memory(const struct fib *fib);
/*
 * Call FN once per installed route, in no particular order, with ARG.
 * FN must not add or delete routes; a non-zero return stops the walk and
 * is returned.  For dumps over the control socket.
 */
int	fib_walk(const struct fib *fib,
	    int (*fn)(uint32_t prefix, unsigned len, uint32_t nh, void *arg),
	    void *arg);

/*
 * Longest prefix match for ADDR (host byte order).  Returns 0 and writes
 * the next hop to *NH, or returns -ENOENT when no prefix covers ADDR.
 * Per packet.
 */
static inline int
fib_lookup(const struct fib *fib, uint32_t addr, uint32_t *nh)
{
	uint32_t	e = fib->tbl24[addr >> 8];

	if ((e & FIB_E_EXT) != 0)
		e = fib->tbl8[(e & FIB_E_DATA) * FIB_TBL8_SIZE + (addr & 0xff)];
	if ((e & FIB_E_VALID) == 0)
		return -ENOENT;
	*nh = e & FIB_E_DATA;
	return 0;
}

/*
 * Look up N addresses at once; NH[i] is the next hop or FIB_NH_NONE.
 * Per burst (as l3fwd): the first-level reads of the whole burst are
 * issued before any second-level read.
 */
static inline void
fib_lookup_burst(const struct fib *fib, const uint32_t *addr, uint32_t *nh,
    unsigned n)
{
	unsigned	i;
	uint32_t	e;

	for (i = 0; i < n; i++)
		nh[i] = fib->tbl24[addr[i] >> 8];
	for (i = 0; i < n; i++) {
		e = nh[i];
		if ((e & FIB_E_EXT) != 0)
			e = fib->tbl8[(e & FIB_E_DATA) * FIB_TBL8_SIZE +
			    (addr[i] & 0xff)];
		nh[i] = (e & FIB_E_VALID) != 0 ? (e & FIB_E_DATA) :
		    FIB_NH_NONE;
	}
}

#endif
