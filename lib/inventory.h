/*
 * inventory: which agents exist and how to reach them (YAML).
 *
 *   lab: hl                 # present when the netns lab wrote this file
 *   controller_key: keys/controller.key   # our CURVE key pair (keys.h)
 *   agents:
 *     - name: gen
 *       address: 198.19.0.10
 *       port: 7700
 *       interfaces: [tx, rx]
 *       public_key: "rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf7"
 *     - name: B
 *       address: 198.19.0.12
 *       public_key_file: keys/B.pub   # instead of public_key
 *     - name: A
 *       address: 198.19.0.11
 *
 * `hoplab lab up` writes one for the namespace lab; users write one for real
 * machines.  Errors name the file, line and key like the plan loader.
 * Relative key file paths are taken from the inventory file's folder.
 * Keys are optional here; the controller refuses to talk to an agent
 * without one unless it runs with --insecure.
 */
#ifndef HOPLAB_INVENTORY_H
#define HOPLAB_INVENTORY_H

#include <limits.h>
#include <stddef.h>

#include "keys.h"

#define INV_NAME_MAX	64
#define INV_MAX_AGENTS	256
#define INV_MAX_IFACES	16
#define INV_DEFAULT_PORT 7700

struct inv_agent {
	char		name[INV_NAME_MAX];
	char		address[64];	/* IPv4 literal or host name */
	unsigned	port;
	char		ifaces[INV_MAX_IFACES][16];
	size_t		nifaces;
	char		public_key[KEYS_Z85_LEN + 1];	/* "" if none */
};

struct inventory {
	char		path[256];
	char		lab[INV_NAME_MAX];	/* "" for real machines */
	char		controller_key[PATH_MAX];	/* "" if none */
	struct inv_agent agents[INV_MAX_AGENTS];
	size_t		nagents;
	int		insecure;	/* set by the controller's --insecure,
					   never read from the file */
};

struct inventory *inventory_load(const char *path, char *err, size_t errlen);
struct inventory *inventory_load_string(const char *yaml, const char *name,
	    char *err, size_t errlen);
void	inventory_free(struct inventory *inv);
/* The agent called NAME, or NULL. */
const struct inv_agent *inventory_find(const struct inventory *inv,
	    const char *name);

#endif
