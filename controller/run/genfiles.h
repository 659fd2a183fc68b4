/*
 * genfiles: the files a generator's flows name (csv:, pcap-sizes:,
 * pcap-gaps:), shipped with its StartRole from the plan's folder
 * (genfiles.c, issue 17), so that an agent reads nothing of its host's
 * but what the plan sent.
 */
#ifndef HOPLAB_CONTROLLER_GENFILES_H
#define HOPLAB_CONTROLLER_GENFILES_H

#include <stddef.h>

#include "proto/hoplab.pb-c.h"

#define GENFILES_MAX		16		/* files per generator */
#define GENFILES_BYTES		(512 * 1024)	/* their bytes in all */

/*
 * Read the files GP's flows name from folder DIR (the plan's) into
 * GP->files: every file once, by lib/datafile.h's rules.  Files that do
 * not fit GENFILES_BYTES are not shipped at all (the agent's data folder
 * must then hold them; *NOTE, when not NULL, says so).  0, or -1 with
 * ERR.  genfiles_free() frees what this attached, also after a failure.
 */
int	genfiles_attach(const char *dir, Hoplab__GenParams *gp, int *note,
	    char *err, size_t errlen);
void	genfiles_free(Hoplab__GenParams *gp);

#endif
