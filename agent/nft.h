/*
 * nft: run nftables' command line for the agent's own tables (nft.c):
 * the kernel router's counters (fwdcount.c) and the link blackholes of
 * faults (blackhole.c).  nft reads its argv as commands, so a whole
 * transaction is one argument: no shell, no file.
 */
#ifndef HOPLAB_AGENT_NFT_H
#define HOPLAB_AGENT_NFT_H

#include <stddef.h>

#define NFT_TIMEOUT_MS	900	/* an nft that hangs is killed: the loop waits */

/*
 * nft with ARGV (ARGV[0] "nft"); its stdout into OUT (OUTLEN, may be
 * NULL).  0 when it exited with 0, else -1 with ERR naming WHAT and
 * nft's first line of complaint.
 */
int	nft_run(char *const argv[], const char *what, char *out,
	    size_t outlen, char *err, size_t errlen);

#endif
