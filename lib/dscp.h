/*
 * dscp: the one DSCP vocabulary of plans, hoplab-router's configuration
 * and hoplab-gen's --flow dscp=: names to code points and back.
 *
 * Names, case-insensitive: BE and DF (0), CS0..CS7 (RFC 2474: 8x),
 * AF11..AF43 (RFC 2597: AFxy = 8x + 2y), EF (RFC 3246: 46), VOICE-ADMIT
 * with its alias VA (RFC 5865: 44) and LE (RFC 8622: 1); or a decimal
 * number 0..63.  Nothing else: no hexadecimal, no sign, no spaces.
 */
#ifndef HOPLAB_DSCP_H
#define HOPLAB_DSCP_H

#include <stddef.h>

#define DSCP_COUNT	64	/* code points 0..63 */
/* What dscp_parse() takes, for error messages. */
#define DSCP_EXPECTED	"BE, EF, AF11..AF43, CS0..CS7 or 0..63"

/* Parse S: 0 and *DSCP written, or -1 with *DSCP untouched. */
int	dscp_parse(const char *s, unsigned *dscp);
/*
 * The name reports use for DSCP ("EF", "AF41", "CS0", "VOICE-ADMIT"), a
 * static string; or, when it has none, its number written into BUF
 * (BUFLEN at least 3), and BUF returned.
 */
const char *dscp_name(unsigned dscp, char *buf, size_t buflen);

#endif
