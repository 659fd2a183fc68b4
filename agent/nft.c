/*
 * nft: run nftables' command line (nft.h), through lib/spawn with an
 * explicit argv, killed after NFT_TIMEOUT_MS.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "agent/nft.h"
#include "clock.h"
#include "spawn.h"

#define NFT_ERR_MAX	512

static const char *
nft_path(void)
{
	if (access("/usr/sbin/nft", X_OK) == 0)
		return "/usr/sbin/nft";
	if (access("/sbin/nft", X_OK) == 0)
		return "/sbin/nft";
	return NULL;
}

int
nft_run(char *const argv[], const char *what, char *out, size_t outlen,
    char *err, size_t errlen)
{
	static const struct spawn_opts o = { .die_with_parent = 1 };
	const char *path = nft_path();
	char text[NFT_ERR_MAX] = "", why[256], st[64], *nl;
	struct spawn_result r = { .out = out, .outlen = outlen,
	    .errout = text, .errlen = sizeof(text),
	    .timeout_ns = NFT_TIMEOUT_MS * NSEC_PER_MSEC };

	if (path == NULL) {
		snprintf(err, errlen, "nft %s: nftables (nft) not found in "
		    "/usr/sbin or /sbin", what);
		return -1;
	}
	if (spawn_run(path, argv, &o, &r, why, sizeof(why)) == -1) {
		if (r.timed_out)
			snprintf(err, errlen, "nft %s: no answer in %d ms, "
			    "killed", what, NFT_TIMEOUT_MS);
		else
			snprintf(err, errlen, "nft %s: %s", what, why);
		return -1;
	}
	if (WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0)
		return 0;
	if ((nl = strchr(text, '\n')) != NULL)
		*nl = '\0';		/* nft's first line says it */
	snprintf(err, errlen, "nft %s: %s%s%s", what,
	    spawn_status_text(r.status, st, sizeof(st)), text[0] ? ": " : "",
	    text);
	return -1;
}
