/*
 * rolefiles: the files a generator's StartRole ships with it
 * (GenParams.files, issue 17), written into a folder of the role's own
 * (rolefiles.c); hoplab-gen reads its csv:, pcap-sizes: and pcap-gaps:
 * there (--data-dir) instead of in the agent's data folder.
 */
#ifndef HOPLAB_AGENT_ROLEFILES_H
#define HOPLAB_AGENT_ROLEFILES_H

#include <stddef.h>
#include <stdint.h>

#include "proto/hoplab.pb-c.h"

#define ROLEFILES_MAX		16		/* files per role */
#define ROLEFILES_BYTES		(512 * 1024)	/* their bytes in all */

/*
 * GP's files: at most ROLEFILES_MAX of ROLEFILES_BYTES in all, plain
 * names (lib/datafile.h), each once, and every file a flow names among
 * them when there are any.  0, or -1 with ERR.
 */
int	rolefiles_check(const Hoplab__GenParams *gp, char *err, size_t errlen);

/*
 * Write GP's files into a new folder RUNDIR/gen/ROLE-XXXXXX (mkdtemp,
 * 0700), each created O_EXCL and O_NOFOLLOW, mode 0600; its path into
 * DIR (LEN bytes).  0, or -1 with ERR (DIR then holds what to remove).
 */
int	rolefiles_write(const char *rundir, uint32_t role,
	    const Hoplab__GenParams *gp, char *dir, size_t len, char *err,
	    size_t errlen);

/*
 * Write F into folder DIR as DIR/NAME, mode 0600, never through a link
 * (O_NOFOLLOW); EXCL: it must not exist (O_EXCL), else it is truncated
 * (an exec role's folder, kept per role id).  0, or -1 with ERR.
 */
int	rolefiles_put(const char *dir, const Hoplab__ExecFile *f, int excl,
	    char *err, size_t errlen);

/* Remove folder DIR that rolefiles_write made, with GP's files in it. */
void	rolefiles_remove(const char *dir);

#endif
