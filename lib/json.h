/*
 * json: a small streaming JSON writer (RFC 8259) over a FILE *, the one
 * that hoplab-gen --json, run.json and state.json are written with.
 *
 * The writer keeps the nesting itself: it puts the commas, the colons
 * and the indentation, and refuses what would not be JSON (a value
 * without its key inside an object, a key inside an array, an end with
 * nothing open, a second top-level value).  A refusal, like a write
 * error of the stream, sets a sticky error that json_finish() returns;
 * every call after it does nothing, so a caller checks once, at the end.
 *
 * Two layouts.  JSON_COMPACT has no white space at all
 * ({"a":1,"b":[2,3]}, hoplab-gen's).  JSON_PRETTY has ": " after a key
 * and ", " between members, and a container opened with JSON_BLOCK puts
 * each member on its own line, indented two spaces a level (run.json's
 * and state.json's layout):
 *
 *	{
 *	  "status": "completed",
 *	  "hosts": [
 *	    {"name": "A", "clock_offset_ns": 0}
 *	  ]
 *	}
 *
 * Strings are escaped as RFC 8259 section 7 requires: quote and
 * backslash with a backslash, newline and tab as \n and \t, every other
 * control character (U+0000 to U+001F) as \u00XX; other bytes, UTF-8
 * included, are written as they are.  Numbers that JSON cannot hold (NaN,
 * infinities) are written as null.
 *
 * Deliberately not here: a reader (hoplab reads its JSON back with
 * libyaml, lib/yamldoc), UTF-8 validation, keys checked for duplicates.
 * Like every lib/ module it never logs and never exits.
 */
#ifndef HOPLAB_JSON_H
#define HOPLAB_JSON_H

#include <stddef.h>
#include <stdio.h>

#define JSON_DEPTH_MAX	16	/* containers open at once */

enum json_layout {
	JSON_COMPACT = 0,	/* no white space */
	JSON_PRETTY,		/* ": ", ", ", JSON_BLOCK containers indented */
};

enum json_style {
	JSON_INLINE = 0,	/* members on one line */
	JSON_BLOCK,		/* one member a line (JSON_PRETTY only) */
};

/* A writer; its fields are the module's, the caller only holds it. */
struct json {
	FILE		*f;
	enum json_layout layout;
	int		 err;		/* sticky: a refusal or a write error */
	int		 done;		/* the top-level value is complete */
	int		 want_value;	/* a key was written, its value not */
	int		 depth;		/* containers open */
	struct {
		char	 close;		/* '}' or ']' */
		char	 block;		/* JSON_BLOCK */
		size_t	 n;		/* members written so far */
	} lv[JSON_DEPTH_MAX];
};

/* Start writing one JSON value to F in LAYOUT. */
void	json_init(struct json *j, FILE *f, enum json_layout layout);
/* Open an object or an array, STYLE JSON_INLINE or JSON_BLOCK. */
void	json_object(struct json *j, enum json_style style);
void	json_array(struct json *j, enum json_style style);
/* Close the innermost object or array. */
void	json_end(struct json *j);
/* The key of the next member of the innermost object. */
void	json_key(struct json *j, const char *key);
/* Values: S NUL-terminated, escaped; V with DECIMALS digits ("%.*f"). */
void	json_string(struct json *j, const char *s);
void	json_int(struct json *j, long long v);
void	json_uint(struct json *j, unsigned long long v);
void	json_double(struct json *j, double v, int decimals);
void	json_bool(struct json *j, int v);
void	json_null(struct json *j);
/*
 * A number given as text S, written as it is (a CSV cell, a number read
 * back from a JSON file: no digits lost or added); S must be an RFC 8259
 * number ("-0.5", "12", "1e-05"; not "+1", ".5", "007", "nan"): other
 * text is refused (the sticky error).  json_is_number() tells first.
 */
void	json_number_text(struct json *j, const char *s);
int	json_is_number(const char *s);
/* Key and value in one call. */
void	json_kstring(struct json *j, const char *key, const char *s);
void	json_kint(struct json *j, const char *key, long long v);
void	json_kuint(struct json *j, const char *key, unsigned long long v);
void	json_kdouble(struct json *j, const char *key, double v,
	    int decimals);
void	json_kbool(struct json *j, const char *key, int v);
/*
 * End the document: a newline after the value, and the stream flushed.
 * 0, or -1 when a call was refused, a container is still open, nothing
 * was written, or the stream had an error.  The caller closes F.
 */
int	json_finish(struct json *j);

#endif
