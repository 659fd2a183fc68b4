/*
 * debstep: `hoplab deploy --deb FILE`, the agent from hoplab's Debian
 * package (make deb) instead of copied programs.
 *
 * The controller checks FILE once with dpkg-deb (a Debian package, named
 * hoplab; its version, architecture and sha256); for each host the probe
 * says dpkg's architecture there, the installed hoplab version and the
 * sha256 of the .deb deploy installed last (etc/hoplab/MANIFEST).  The
 * .deb is copied and `apt-get install`ed (remote.sh install-deb) only
 * when that version or checksum differs, so a second deploy of the same
 * file says unchanged; the agent's options and keys are copied as
 * without --deb.  Undeploy purges the package (remote.sh undeploy).
 *
 * apt-get, not dpkg -i: the package's libraries (libzmq5, libsodium23,
 * ...) come from the target's own repositories, as on any Debian machine.
 */
#ifndef HOPLAB_DEBSTEP_H
#define HOPLAB_DEBSTEP_H

#include <stddef.h>

#include "controller/deploy/deploystep.h"

/*
 * --deb FILE into O (its absolute path), checked later by debstep_local().
 * Returns 0, or -1 with the reason logged.
 */
int	debstep_option(struct dopts *o, const char *arg);
/*
 * Read O->deb.path with dpkg-deb (package, version, architecture), its
 * sha256, and link it as O->tmp/hoplab.deb for scp.  Returns 0, or -1
 * with the reason logged (not a .deb, not hoplab's, no dpkg-deb here).
 */
int	debstep_local(struct dopts *o, const char *hosts);
/*
 * Whether H, as PR describes it, can take the package: dpkg there, of the
 * package's architecture, not deployed by copying, and no hoplab package
 * that deploy did not install.  Returns 0, or -1 with the reason in MSG.
 */
int	debstep_target(const struct dopts *o, const struct probe *pr,
	    char *msg, size_t msglen);
/*
 * Copy the .deb to PR's stage unless the target has it installed (same
 * version and sha256); *COPIED says whether it did.
 */
int	debstep_copy(const struct dopts *o, const struct dhost *h,
	    const struct probe *pr, int *copied, char *msg, size_t msglen);

#endif
