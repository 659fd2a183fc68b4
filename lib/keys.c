/*
 * keys: make, write and read CURVE key pairs as Z85 text (see keys.h for
 * the file format).
 *
 * Key generation is libzmq's zmq_curve_keypair(), which uses libsodium's
 * random source; Z85 is ZeroMQ RFC 32.  Files are created with O_EXCL so
 * that keygen never replaces a key a deployment already trusts, written
 * whole and fsync'ed.  Reading is strict: unknown keys, duplicate keys
 * and keys that are not 40 Z85 characters are errors naming the line, and
 * a pair whose public half is not the one its secret half gives is
 * refused.
 *
 * Deliberately not done: passphrases, key rotation, any certificate
 * metadata beyond the comment line.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zmq.h>

#include "keys.h"

#define KEYS_FILE_MAX	65536	/* bytes: a key file is a few lines */

int
keys_have_curve(void)
{
	return zmq_has("curve") ? 1 : 0;
}

int
keys_valid_z85(const char *s)
{
	uint8_t bin[32];

	if (s == NULL || strlen(s) != KEYS_Z85_LEN)
		return 0;
	return zmq_z85_decode(bin, s) != NULL;
}

int
keys_generate(struct keypair *kp, char *err, size_t errlen)
{
	memset(kp, 0, sizeof(*kp));
	if (!keys_have_curve()) {
		snprintf(err, errlen, "this libzmq has no CURVE support "
		    "(built without libsodium)");
		return -1;
	}
	if (zmq_curve_keypair(kp->public_z85, kp->secret_z85) == -1) {
		snprintf(err, errlen, "zmq_curve_keypair: %s",
		    zmq_strerror(errno));
		return -1;
	}
	return 0;
}

/* Create PATH exclusively with MODE and write TEXT, fsync'ed. */
static int
write_new(const char *path, mode_t mode, const char *text, char *err,
    size_t errlen)
{
	size_t len = strlen(text), off = 0;
	ssize_t n;
	int fd;

	if ((fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
	    mode)) == -1) {
		snprintf(err, errlen, "%s: %s%s", path, strerror(errno),
		    errno == EEXIST ? " (keygen never overwrites a key; "
		    "remove it first)" : "");
		return -1;
	}
	fchmod(fd, mode);	/* the umask may have cut it */
	while (off < len) {
		if ((n = write(fd, text + off, len - off)) == -1) {
			if (errno == EINTR)
				continue;
			goto fail;
		}
		off += (size_t)n;
	}
	if (fsync(fd) == -1)
		goto fail;
	close(fd);
	return 0;
fail:
	snprintf(err, errlen, "%s: %s", path, strerror(errno));
	close(fd);
	unlink(path);
	return -1;
}

int
keys_write(const char *dir, const char *name, const struct keypair *kp,
    char *err, size_t errlen)
{
	char path[PATH_MAX], text[512];

	snprintf(text, sizeof(text), "# hoplab CURVE key pair \"%s\"; keep "
	    "this file secret\npublic-key = \"%s\"\nsecret-key = \"%s\"\n",
	    name, kp->public_z85, kp->secret_z85);
	snprintf(path, sizeof(path), "%s/%s.key", dir, name);
	if (write_new(path, 0600, text, err, errlen) == -1)
		return -1;
	snprintf(text, sizeof(text), "# hoplab CURVE public key \"%s\"\n"
	    "public-key = \"%s\"\n", name, kp->public_z85);
	snprintf(path, sizeof(path), "%s/%s.pub", dir, name);
	return write_new(path, 0644, text, err, errlen);
}

/* Split 'NAME = "VALUE"' in LINE; 0 or -1. */
static int
split_line(char *line, char **name, char **value)
{
	char *eq, *end, *q;

	if ((eq = strchr(line, '=')) == NULL)
		return -1;
	*eq = '\0';
	for (end = eq; end > line && (end[-1] == ' ' || end[-1] == '\t');)
		*--end = '\0';
	for (*name = line; **name == ' ' || **name == '\t'; (*name)++)
		;
	for (q = eq + 1; *q == ' ' || *q == '\t'; q++)
		;
	if (*q != '"' || (end = strchr(q + 1, '"')) == NULL)
		return -1;
	*end = '\0';
	if (strspn(end + 1, " \t\r\n") != strlen(end + 1))
		return -1;
	*value = q + 1;
	return 0;
}

/* Store VALUE of key NAME (line LINENO of PATH) into KP. */
static int
take(const char *path, int lineno, const char *name, const char *value,
    struct keypair *kp, char *err, size_t errlen)
{
	char *dst;

	if (strcmp(name, "public-key") == 0)
		dst = kp->public_z85;
	else if (strcmp(name, "secret-key") == 0)
		dst = kp->secret_z85;
	else {
		snprintf(err, errlen, "%s:%d: unknown key '%.32s' (expected "
		    "public-key or secret-key)", path, lineno, name);
		return -1;
	}
	if (dst[0] != '\0') {
		snprintf(err, errlen, "%s:%d: %s given twice", path, lineno,
		    name);
		return -1;
	}
	if (!keys_valid_z85(value)) {
		snprintf(err, errlen, "%s:%d: %s: expected 40 Z85 characters",
		    path, lineno, name);
		return -1;
	}
	memcpy(dst, value, KEYS_Z85_LEN + 1);
	return 0;
}

static int
parse(FILE *f, const char *path, struct keypair *kp, char *err,
    size_t errlen)
{
	char line[256], *name, *value, *s;
	int lineno = 0;

	while (fgets(line, sizeof(line), f) != NULL) {
		lineno++;
		for (s = line; *s == ' ' || *s == '\t'; s++)
			;
		if (*s == '#' || *s == '\n' || *s == '\r' || *s == '\0')
			continue;
		if (split_line(s, &name, &value) == -1) {
			snprintf(err, errlen, "%s:%d: expected "
			    "'public-key = \"...\"' or 'secret-key = "
			    "\"...\"'", path, lineno);
			return -1;
		}
		if (take(path, lineno, name, value, kp, err, errlen) == -1)
			return -1;
	}
	return 0;
}

/* The public half must be the one the secret half gives. */
static int
check_pair(const char *path, const struct keypair *kp, char *err,
    size_t errlen)
{
	char derived[KEYS_Z85_LEN + 1];

	if (zmq_curve_public(derived, kp->secret_z85) == -1) {
		snprintf(err, errlen, "%s: cannot derive the public key: %s",
		    path, zmq_strerror(errno));
		return -1;
	}
	if (strcmp(derived, kp->public_z85) != 0) {
		snprintf(err, errlen, "%s: public-key does not belong to "
		    "secret-key (edited by hand?)", path);
		return -1;
	}
	return 0;
}

/*
 * PATH opened for reading if it is a regular file of at most
 * KEYS_FILE_MAX bytes (its status in *ST): /dev/zero never ends and a
 * FIFO blocks the open, from an inventory's public_key_file or an
 * agent's key folder.  NULL with ERR otherwise.
 */
static FILE *
open_key(const char *path, struct stat *st, char *err, size_t errlen)
{
	FILE *f;
	int fd;

	if ((fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) == -1) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	if (fstat(fd, st) == -1) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		close(fd);
		return NULL;
	}
	if (!S_ISREG(st->st_mode) || st->st_size > KEYS_FILE_MAX) {
		snprintf(err, errlen, "%s: not a key file (%s)", path,
		    S_ISREG(st->st_mode) ? "larger than 64 KB" :
		    "not a regular file");
		close(fd);
		return NULL;
	}
	if ((f = fdopen(fd, "r")) == NULL) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		close(fd);
	}
	return f;
}

int
keys_load(const char *path, int need_secret, struct keypair *kp, char *err,
    size_t errlen)
{
	struct stat st;
	FILE *f;
	int rc;

	memset(kp, 0, sizeof(*kp));
	if ((f = open_key(path, &st, err, errlen)) == NULL)
		return -1;
	if (need_secret && (st.st_mode & 077) != 0) {
		snprintf(err, errlen, "%s: permissions %04o are too open for "
		    "a secret key (chmod 600 %s)", path,
		    (unsigned)(st.st_mode & 07777), path);
		fclose(f);
		return -1;
	}
	rc = parse(f, path, kp, err, errlen);
	fclose(f);
	if (rc == -1)
		return -1;
	if (kp->public_z85[0] == '\0') {
		snprintf(err, errlen, "%s: no public-key line", path);
		return -1;
	}
	if (need_secret && kp->secret_z85[0] == '\0') {
		snprintf(err, errlen, "%s: no secret-key line (this is a "
		    "public key; give the .key file)", path);
		return -1;
	}
	return kp->secret_z85[0] != '\0' ? check_pair(path, kp, err,
	    errlen) : 0;
}

static int
is_pub(const char *name)
{
	size_t n = strlen(name);

	return n > 4 && name[0] != '.' && strcmp(name + n - 4, ".pub") == 0;
}

static int
name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Free the NE names of ENTS and the array. */
static void
names_free(char **ents, size_t ne)
{
	size_t i;

	for (i = 0; i < ne; i++)
		free(ents[i]);
	free(ents);
}

/*
 * The names of DIR's *.pub files, sorted, into *ENTS and *NE (freed with
 * names_free): 0, or -1 with ERR and nothing to free.  All of them: the
 * caller refuses more than it holds rather than cut some off in readdir
 * order (issue 17).
 */
static int
pub_names(const char *dir, char ***ents, size_t *ne, char *err, size_t errlen)
{
	struct dirent *de;
	char **nv;
	DIR *d;

	*ents = NULL;
	*ne = 0;
	if ((d = opendir(dir)) == NULL) {
		snprintf(err, errlen, "%s: %s", dir, strerror(errno));
		return -1;
	}
	while ((de = readdir(d)) != NULL) {
		if (!is_pub(de->d_name))
			continue;
		if ((nv = reallocarray(*ents, *ne + 1, sizeof(**ents))) != NULL)
			*ents = nv;
		if (nv == NULL || ((*ents)[*ne] = strdup(de->d_name)) == NULL) {
			snprintf(err, errlen, "%s: out of memory listing the "
			    "key files", dir);
			closedir(d);
			names_free(*ents, *ne);
			return -1;
		}
		(*ne)++;
	}
	closedir(d);
	if (*ents != NULL)
		qsort(*ents, *ne, sizeof(**ents), name_cmp);
	return 0;
}

/* The *.pub files of DIR, loaded in name order: all of them, or none. */
static int
load_dir(const char *dir, char out[][KEYS_Z85_LEN + 1], size_t max,
    char *err, size_t errlen)
{
	char **ents, path[PATH_MAX];
	struct keypair kp;
	size_t n = 0, ne, i;
	int rc = 0;

	if (pub_names(dir, &ents, &ne, err, errlen) == -1)
		return -1;
	if (ne > max) {
		snprintf(err, errlen, "%s: %zu *.pub key files, more than the "
		    "%zu that can be held", dir, ne, max);
		rc = -1;
	}
	for (i = 0; i < ne && rc == 0; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, ents[i]);
		if (keys_load(path, 0, &kp, err, errlen) == -1)
			rc = -1;
		else
			memcpy(out[n++], kp.public_z85, KEYS_Z85_LEN + 1);
	}
	names_free(ents, ne);
	if (rc == 0 && n == 0) {
		snprintf(err, errlen, "%s: no *.pub key files in this folder",
		    dir);
		return -1;
	}
	return rc == 0 ? (int)n : -1;
}

int
keys_load_public(const char *path, char out[][KEYS_Z85_LEN + 1], size_t max,
    char *err, size_t errlen)
{
	struct keypair kp;
	struct stat st;

	if (max == 0) {
		snprintf(err, errlen, "%s: no room for keys", path);
		return -1;
	}
	if (stat(path, &st) == -1) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (S_ISDIR(st.st_mode))
		return load_dir(path, out, max, err, errlen);
	if (keys_load(path, 0, &kp, err, errlen) == -1)
		return -1;
	memcpy(out[0], kp.public_z85, KEYS_Z85_LEN + 1);
	return 1;
}
