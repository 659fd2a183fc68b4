/*
 * hostname: the one check of a host name's shape (RFC 1123 section 2.1,
 * RFC 952), for the inventory's addresses and `hoplab deploy`'s targets.
 *
 * A host name is 1 to 253 characters (255 octets in DNS wire form, RFC
 * 1035 2.3.4) of dot-separated labels; a label is 1 to 63 letters,
 * digits and '-', neither starting nor ending with '-'.  RFC 1123 lets a
 * label start with a digit and be all digits, but "a valid host name can
 * never have the dotted-decimal form": a name whose labels are all digits
 * is refused (it would read as an IPv4 address).
 *
 * Deliberately not here: a trailing dot (absolute names), '_' (service
 * labels are not host names), internationalised names other than their
 * xn-- ASCII form, resolving the name.
 */
#ifndef HOPLAB_HOSTNAME_H
#define HOPLAB_HOSTNAME_H

#define HOSTNAME_MAX		253	/* characters, without a trailing dot */
#define HOSTNAME_LABEL_MAX	63

/* 1 when S is a host name as above, 0 otherwise. */
int	hostname_valid(const char *s);

#endif
