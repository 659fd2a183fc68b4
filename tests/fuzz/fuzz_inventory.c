/*
 * fuzz_inventory: libFuzzer target for the inventory loader
 * (lib/inventory.c): which agents exist and how to reach them, the file
 * every real lab starts from and `hoplab lab up` writes.
 *
 * Each input is a YAML document loaded as "inv.yaml" by
 * inventory_load_string() (key file paths are taken as written, from the
 * current folder).  What the target asserts, besides ASan/UBSan:
 *
 *   - a refused document leaves a message that starts with the file's
 *     name, never an empty one;
 *   - a loaded one keeps what the controller relies on without checking
 *     again: 1..INV_MAX_AGENTS agents with unique non-empty names that
 *     fit, each found by inventory_find(), ports 1..65535, at most
 *     INV_MAX_IFACES interfaces, a public key that is "" or 40 valid
 *     Z85 characters.
 *
 * Built and run by tests/fuzz/run.sh (seeds: tests/fuzz/corpus/inventory/).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "inventory.h"

static void
check_agent(const struct inventory *inv, const struct inv_agent *a)
{
	if (a->name[0] == '\0' || memchr(a->name, '\0', sizeof(a->name)) ==
	    NULL || memchr(a->address, '\0', sizeof(a->address)) == NULL ||
	    a->address[0] == '\0' || a->port < 1 || a->port > 65535 ||
	    a->nifaces > INV_MAX_IFACES || inventory_find(inv, a->name) != a ||
	    (a->public_key[0] != '\0' && !keys_valid_z85(a->public_key)))
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct inventory *inv;
	char *yaml, err[1024];
	size_t i;

	if ((yaml = malloc(size + 1)) == NULL)
		return 0;
	memcpy(yaml, data, size);
	yaml[size] = '\0';
	err[0] = '\0';
	inv = inventory_load_string(yaml, "inv.yaml", err, sizeof(err));
	free(yaml);
	if (inv == NULL) {
		if (strncmp(err, "inv.yaml", 8) != 0)
			abort();
		return 0;
	}
	if (inv->nagents < 1 || inv->nagents > INV_MAX_AGENTS ||
	    inv->insecure || memchr(inv->lab, '\0', sizeof(inv->lab)) == NULL)
		abort();
	for (i = 0; i < inv->nagents; i++)
		check_agent(inv, &inv->agents[i]);
	inventory_free(inv);
	return 0;
}
