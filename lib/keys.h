/*
 * keys: CURVE key pairs (ZeroMQ's CurveZMQ, RFC 32/ZMTP-CURVE) in Z85 text
 * files, for the management plane.
 *
 * A key pair file NAME.key (mode 0600) and its public half NAME.pub:
 *
 *   # hoplab CURVE key pair "A"; keep this file secret
 *   public-key = "rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf7"
 *   secret-key = "JTKVSB%%)wK0E.X)V>+}o?pNmC{O&4W4b!Ni{Lh6"
 *
 * Keys are 40 Z85 characters (32 bytes).  Loading a secret key refuses a
 * file that group or others can read, as ssh does.  This module does no
 * ZeroMQ socket setup and never logs; errors go to the caller's buffer.
 */
#ifndef HOPLAB_KEYS_H
#define HOPLAB_KEYS_H

#include <stddef.h>

#define KEYS_Z85_LEN	40		/* characters, without the NUL */
#define KEYS_MAX_AUTH	64		/* authorized keys an agent holds */

struct keypair {
	char	public_z85[KEYS_Z85_LEN + 1];
	char	secret_z85[KEYS_Z85_LEN + 1];	/* "" when only public */
};

/* 1 when libzmq was built with CURVE (libsodium), else 0. */
int	keys_have_curve(void);
/* A fresh key pair in KP.  0, or -1 with ERR. */
int	keys_generate(struct keypair *kp, char *err, size_t errlen);
/* 1 when S is exactly 40 valid Z85 characters that decode to a key. */
int	keys_valid_z85(const char *s);
/*
 * Write DIR/NAME.key (0600, both halves) and DIR/NAME.pub (0644, public
 * only) for KP.  An existing file is never overwritten: -1 and ERR.
 */
int	keys_write(const char *dir, const char *name, const struct keypair *kp,
	    char *err, size_t errlen);
/*
 * Read PATH.  With NEED_SECRET the file must hold both halves and must
 * not be readable by group or others.  0, or -1 with ERR naming the file
 * and line.
 */
int	keys_load(const char *path, int need_secret, struct keypair *kp,
	    char *err, size_t errlen);
/*
 * Load the public keys of PATH into OUT (at most MAX of them): PATH is
 * one key file, or a folder whose *.pub files are read.  Returns how many
 * were loaded (>= 1), or -1 with ERR (none is an error).
 */
int	keys_load_public(const char *path, char out[][KEYS_Z85_LEN + 1],
	    size_t max, char *err, size_t errlen);

#endif
