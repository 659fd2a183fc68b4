/*
 * iface: the list of this host's network interfaces that a Welcome carries,
 * so that the controller can check a plan's interface names before it
 * starts anything.
 *
 * Names come from if_nameindex(3); MAC address, up flag and MTU from the
 * classic ioctls (SIOCGIFHWADDR, SIOCGIFFLAGS, SIOCGIFMTU) on a datagram
 * socket.  It deliberately reports no addresses: hoplab's routers and
 * generators own theirs in user space, so kernel addresses say little.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#include "agent/iface.h"

#define MAC_STRLEN	18	/* "aa:bb:cc:dd:ee:ff" and the NUL */

/* Fill IF from the kernel's view of NAME; missing facts stay zero. */
static int
iface_fill(int s, const char *name, Hoplab__Iface *ifc)
{
	struct ifreq ifr;
	const unsigned char *m;

	hoplab__iface__init(ifc);
	ifc->name = ifc->mac = NULL;	/* so that a failure frees cleanly */
	if ((ifc->name = strdup(name)) == NULL ||
	    (ifc->mac = calloc(1, MAC_STRLEN)) == NULL)
		return -1;
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", name);
	if (ioctl(s, SIOCGIFHWADDR, &ifr) == 0) {
		m = (const unsigned char *)ifr.ifr_hwaddr.sa_data;
		snprintf(ifc->mac, MAC_STRLEN,
		    "%02x:%02x:%02x:%02x:%02x:%02x",
		    m[0], m[1], m[2], m[3], m[4], m[5]);
	}
	if (ioctl(s, SIOCGIFFLAGS, &ifr) == 0)
		ifc->up = (ifr.ifr_flags & IFF_UP) != 0;
	if (ioctl(s, SIOCGIFMTU, &ifr) == 0)
		ifc->mtu = (uint32_t)ifr.ifr_mtu;
	return 0;
}

/*
 * Build the interface list into a new array *IFS of *N elements; the
 * caller frees it with iface_list_free().  Returns 0, or -1 with ERR.
 */
int
iface_list(Hoplab__Iface ***ifs, size_t *n, char *err, size_t errlen)
{
	struct if_nameindex *ni, *p;
	Hoplab__Iface **v;
	size_t cnt = 0, i = 0;
	int s;

	*ifs = NULL;
	*n = 0;
	if ((ni = if_nameindex()) == NULL) {
		snprintf(err, errlen, "if_nameindex: %s", strerror(errno));
		return -1;
	}
	for (p = ni; p->if_index != 0; p++)
		cnt++;
	s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	v = calloc(cnt + 1, sizeof(*v));
	if (s == -1 || v == NULL) {
		snprintf(err, errlen, "interface list: %s", strerror(errno));
		goto fail;
	}
	for (p = ni; p->if_index != 0; p++, i++) {
		if ((v[i] = malloc(sizeof(*v[i]))) == NULL ||
		    iface_fill(s, p->if_name, v[i]) == -1) {
			snprintf(err, errlen, "interface list: out of memory");
			i++;
			goto fail;
		}
	}
	close(s);
	if_freenameindex(ni);
	*ifs = v;
	*n = cnt;
	return 0;
fail:
	if (s != -1)
		close(s);
	if_freenameindex(ni);
	iface_list_free(v, i);
	return -1;
}

/* Free what iface_list() made; NULL does nothing. */
void
iface_list_free(Hoplab__Iface **ifs, size_t n)
{
	size_t i;

	if (ifs == NULL)
		return;
	for (i = 0; i < n; i++) {
		if (ifs[i] == NULL)
			continue;
		free(ifs[i]->name);
		free(ifs[i]->mac);
		free(ifs[i]);
	}
	free(ifs);
}
