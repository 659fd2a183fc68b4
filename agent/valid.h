/*
 * valid: the alphabet the agent accepts for names that reach a file
 * name or a command line (valid.c): agent and link names, run ids,
 * preset names.  No shell ever sees them; the check keeps a value from
 * smuggling a second key into a comma-separated option or a path.
 */
#ifndef HOPLAB_AGENT_VALID_H
#define HOPLAB_AGENT_VALID_H

#include <stddef.h>

/*
 * True when S is 1..MAX-1 letters, digits, '.', '_', '-' and ':', and
 * does not start with '.': the names become path components (run ids in
 * RUNDIR/links/RUN_ID/, truth files, link names), where "." and ".."
 * would name the folder itself or its parent, and a leading dot a file
 * nobody sees (issue 17).
 */
int	valid_token(const char *s, size_t max);

/*
 * True unless distribution SPEC (hoplab-gen's text form) names a file
 * (csv:, pcap-sizes:, pcap-gaps:) by anything but a plain file name of
 * the agent's data folder (lib/datafile.h): a controller may not point
 * the generator, which runs as root, at /etc/shadow or /dev/zero.
 */
int	valid_dist_file(const char *spec);


#endif
