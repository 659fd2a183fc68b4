/*
 * keygen: `hoplab keygen DIR NAME...`, CURVE key pairs for a controller
 * and its agents (lib/keys.h has the file format).
 */
#ifndef HOPLAB_KEYGEN_H
#define HOPLAB_KEYGEN_H

#include <stdio.h>

/* The usage of `hoplab keygen`, to F. */
void	keygen_usage(FILE *f);

/*
 * Make DIR (0700) if needed and write DIR/NAME.key and DIR/NAME.pub for
 * each of the NNAMES names (the command line gives at least one),
 * printing each public key to stdout.  Stops at the first name whose
 * files exist already.  Returns 0, 1 on failure, 2 on a bad name
 * (messages on stderr).
 */
int	keygen_run(const char *dir, char *const *names, int nnames);

#endif
