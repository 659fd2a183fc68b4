/*
 * html: text and file names written safely into an HTML page
 * (htmlpage.c, the report page of a results folder).
 *
 * Everything the page shows comes from files a run wrote, which a plan
 * (a flow's name, a command's output) or a person may have filled with
 * anything: every such text goes through html_text, every file name put
 * in an src or href through html_url, so that no file can add markup,
 * script or an address outside the folder to the page.
 *
 * Deliberately not here: a template engine, UTF-8 validation (bytes
 * other than the five special characters pass as they are; the page
 * says it is UTF-8, as the files are).
 */
#ifndef HOPLAB_REPORT_HTML_H
#define HOPLAB_REPORT_HTML_H

#include <stddef.h>
#include <stdio.h>

/*
 * Write the LEN bytes at S to F as HTML text, fit for an element's
 * content and a quoted attribute value: & < > " ' as character
 * references, a NUL byte as U+FFFD.
 */
void	html_text_n(FILE *f, const char *s, size_t len);
void	html_text(FILE *f, const char *s);	/* S NUL-terminated */
/*
 * Write the relative path S to F for an src or href attribute: every
 * byte but letters, digits, "-._~" and "/" percent-encoded (RFC 3986),
 * so a name with a colon, quote or space stays a path in the folder.
 */
void	html_url(FILE *f, const char *s);
/*
 * 1 if S is wholly a decimal number (a cell shown right-aligned), as
 * strtod reads it in the C locale; "", "nan" and "inf" are not.
 */
int	html_is_number(const char *s);

#endif
