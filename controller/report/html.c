/*
 * html: escaping for the report page (see html.h).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "controller/report/html.h"

void
html_text_n(FILE *f, const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		switch (s[i]) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&#39;", f);
			break;
		case '\0':
			fputs("&#xFFFD;", f);
			break;
		default:
			fputc(s[i], f);
		}
	}
}

void
html_text(FILE *f, const char *s)
{
	html_text_n(f, s, strlen(s));
}

void
html_url(FILE *f, const char *s)
{
	const unsigned char *p;

	for (p = (const unsigned char *)s; *p != '\0'; p++) {
		if (isalnum(*p) && *p < 0x80)
			fputc(*p, f);
		else if (strchr("-._~/", *p) != NULL)
			fputc(*p, f);
		else
			fprintf(f, "%%%02X", *p);
	}
}

int
html_is_number(const char *s)
{
	char *end;
	const char *p;

	if (*s == '\0')
		return 0;
	/* strtod takes "nan", "inf" and hex: only digits, sign, dot, exponent. */
	for (p = s; *p != '\0'; p++)
		if (!isdigit((unsigned char)*p) && strchr("+-.eE", *p) == NULL)
			return 0;
	(void)strtod(s, &end);
	return *end == '\0';
}
