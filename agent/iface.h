/*
 * iface: this host's network interfaces, for the Welcome (iface.c).
 */
#ifndef HOPLAB_AGENT_IFACE_H
#define HOPLAB_AGENT_IFACE_H

#include <stddef.h>

#include "msg.h"

/* The interface list into *IFS (*N entries); 0, or -1 with ERR. */
int	iface_list(Hoplab__Iface ***ifs, size_t *n, char *err, size_t errlen);
void	iface_list_free(Hoplab__Iface **ifs, size_t n);

#endif
