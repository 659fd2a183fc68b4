/*
 * keygen: the `hoplab keygen` command.  One CURVE key pair per name, for
 * the controller ("controller" by convention) and for every agent; the
 * secret halves stay in DIR with mode 0600, the public halves (.pub) are
 * what the other side is given: agents get the controller's .pub as
 * --authorized, the inventory gets each agent's public_key.
 *
 * It never overwrites a key: replacing a key that agents trust would lock
 * the controller out, so that takes a deliberate rm.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "controller/mgmt/keygen.h"
#include "keys.h"
#include "log.h"

static int
name_ok(const char *s)
{
	size_t n = strlen(s);

	return n > 0 && n < 64 && s[0] != '.' && strspn(s,
	    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	    "._-") == n;
}

void
keygen_usage(FILE *f)
{
	fprintf(f,
"usage: hoplab keygen DIR NAME...\n"
"\n"
"Write a CURVE key pair for each NAME: DIR/NAME.key (both halves, mode\n"
"0600) and DIR/NAME.pub (the public half), and print each public key.\n"
"DIR is made (0700) when it is missing; an existing key is never\n"
"overwritten.  By convention the controller's pair is \"controller\":\n"
"agents get its .pub, the inventory gets each agent's public key, e.g.\n"
"\n"
"    hoplab keygen keys controller gen A B\n");
}

int
keygen_run(const char *dir, char *const *names, int nnames)
{
	struct keypair kp;
	char err[512];
	int i;

	for (i = 0; i < nnames; i++)
		if (!name_ok(names[i])) {
			log_error("keygen: name \"%s\": expected letters, "
			    "digits, '.', '_', '-'", names[i]);
			return 2;
		}
	if (mkdir(dir, 0700) == -1 && errno != EEXIST) {
		log_error("keygen: %s: %s", dir, strerror(errno));
		return 1;
	}
	for (i = 0; i < nnames; i++) {
		if (keys_generate(&kp, err, sizeof(err)) == -1 ||
		    keys_write(dir, names[i], &kp, err, sizeof(err)) == -1) {
			log_error("keygen: %s", err);
			return 1;
		}
		printf("%s/%s.key  public-key %s\n", dir, names[i],
		    kp.public_z85);
		explicit_bzero(&kp, sizeof(kp));
	}
	return 0;
}
