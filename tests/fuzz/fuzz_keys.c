/*
 * fuzz_keys: libFuzzer target for the CURVE key files (lib/keys.c): the
 * controller's and the agents' key pairs and the public halves an agent
 * trusts.
 *
 * Each input is written as a file (tests/fuzz/fztmp.c) and read three
 * ways: keys_load() as a key pair (mode 0600, secret needed), keys_load()
 * as a public key, and keys_load_public() on the folder that holds it as
 * its only *.pub file.  What the target asserts, besides ASan/UBSan:
 *
 *   - a refusal leaves a message that names the file (or the folder);
 *   - a loaded key is 40 valid Z85 characters and stands in the file
 *     between double quotes (nothing made up), a secret key comes with
 *     its public half, and the folder gives the same key as the file.
 *
 * Built and run by tests/fuzz/run.sh (seeds: tests/fuzz/corpus/keys/).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keys.h"
#include "tests/fuzz/fztmp.h"

/* KEY stands in DATA as "KEY". */
static int
in_input(const uint8_t *data, size_t size, const char *key)
{
	char q[KEYS_Z85_LEN + 3];

	snprintf(q, sizeof(q), "\"%s\"", key);
	return memmem(data, size, q, KEYS_Z85_LEN + 2) != NULL;
}

static void
check_loaded(const uint8_t *data, size_t size, const struct keypair *kp)
{
	if (!keys_valid_z85(kp->public_z85) ||
	    !in_input(data, size, kp->public_z85) ||
	    (kp->secret_z85[0] != '\0' && (!keys_valid_z85(kp->secret_z85) ||
	    !in_input(data, size, kp->secret_z85))))
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char out[2][KEYS_Z85_LEN + 1], err[512];
	struct keypair kp, pub;
	const char *path;
	int rc;

	path = fztmp_file("k.pub", data, size, 0600);
	if (keys_load(path, 1, &kp, err, sizeof(err)) == 0) {
		check_loaded(data, size, &kp);
		if (kp.secret_z85[0] == '\0')
			abort();
	} else if (strstr(err, path) == NULL)
		abort();
	rc = keys_load(path, 0, &pub, err, sizeof(err));
	if (rc == 0)
		check_loaded(data, size, &pub);
	else if (strstr(err, path) == NULL)
		abort();
	if (keys_load_public(fztmp_dir(), out, 2, err, sizeof(err)) == 1) {
		if (rc != 0 || strcmp(out[0], pub.public_z85) != 0)
			abort();
	} else if (rc == 0 || strstr(err, fztmp_dir()) == NULL)
		abort();
	return 0;
}
