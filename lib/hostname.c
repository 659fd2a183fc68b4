/*
 * hostname: RFC 1123 host name check (see hostname.h).  One pass over the
 * string, label by label; no allocation, no locale (isalnum would accept
 * other letters in some locales).
 */
#include <string.h>

#include "hostname.h"

static int
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int
is_ldh(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    is_digit(c) || c == '-';
}

/*
 * The label at S of length N: 1..63 letters, digits and '-', no '-' at
 * either end.  Sets *NUMERIC to 0 when it holds something but digits.
 */
static int
label_ok(const char *s, size_t n, int *numeric)
{
	size_t i;

	if (n == 0 || n > HOSTNAME_LABEL_MAX || s[0] == '-' || s[n - 1] == '-')
		return 0;
	for (i = 0; i < n; i++) {
		if (!is_ldh(s[i]))
			return 0;
		if (!is_digit(s[i]))
			*numeric = 0;
	}
	return 1;
}

int
hostname_valid(const char *s)
{
	const char *p = s, *dot;
	int numeric = 1;
	size_t n;

	if (strlen(s) > HOSTNAME_MAX)
		return 0;
	for (;;) {
		dot = strchr(p, '.');
		n = dot != NULL ? (size_t)(dot - p) : strlen(p);
		if (!label_ok(p, n, &numeric))
			return 0;
		if (dot == NULL)
			return !numeric;
		p = dot + 1;
	}
}
