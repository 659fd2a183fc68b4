/*
 * yamldoc: a strict reader of small hand-written YAML files (libyaml's
 * document API), shared by the plan and inventory loaders.
 *
 * A file is loaded whole into a node tree; the loaders walk it with the
 * helpers below and report every problem as
 *
 *   FILE:LINE: KEY.PATH: what was expected, got what
 *
 * where LINE is the 1-based line where the offending node starts.  Every
 * function that finds a problem fills ERR and returns -1 (or NULL); none
 * logs or exits.
 */
#ifndef HOPLAB_YAMLDOC_H
#define HOPLAB_YAMLDOC_H

#include <stddef.h>
#include <yaml.h>

#define YAMLDOC_MAX_BYTES	(1024 * 1024)	/* refuse bigger files */
#define YAMLDOC_PATH_MAX	128		/* "flows[12].frame.value" */

#define YAMLDOC_MAX_ERRS	50		/* errors kept; more are counted */
#define YAMLDOC_MSG_MAX		400

/* One error found in the file (see yamldoc_err). */
struct yamldoc_msg {
	unsigned long	line;
	char		path[YAMLDOC_PATH_MAX];
	char		text[YAMLDOC_MSG_MAX];	/* the whole message */
	int		muted;		/* only keeps others off the place */
	size_t		seq;		/* order found, for a stable sort */
};

struct yamldoc {
	yaml_document_t	doc;		/* the tree, valid when loaded */
	int		loaded;		/* doc must be deleted */
	char		file[256];	/* name used in messages */
	char		*text;		/* the file's text, owned */
	struct yamldoc_msg *msgs;	/* errors found, in order; owned */
	size_t		nmsgs;		/* kept in msgs */
	size_t		nerrs;		/* found, kept or not */
};

/*
 * Load the first document of PATH (or of the string YAML, called NAME in
 * messages) into YD.  A syntax error, a second document or an oversized
 * file is an error.  On success the caller owns YD and releases it with
 * yamldoc_free(); on failure nothing needs freeing.
 */
int	yamldoc_load_file(struct yamldoc *yd, const char *path, char *err,
	    size_t errlen);
int	yamldoc_load_string(struct yamldoc *yd, const char *yaml,
	    const char *name, char *err, size_t errlen);
void	yamldoc_free(struct yamldoc *yd);	/* not loaded is fine */

/*
 * The errors listed so far as one text: the messages one per line in
 * the order of their lines in the file (as found, within a line), then,
 * when there are two or more, a line "N errors".  Fills ERR (cut at
 * ERRLEN) and returns the number of errors.
 */
size_t	yamldoc_errors(const struct yamldoc *yd, char *err, size_t errlen);
/*
 * Keep later errors off NODE at PATH: the problem there was reported
 * elsewhere (a sweep value refused in the sweep: list, say).
 */
void	yamldoc_mute(struct yamldoc *yd, const yaml_node_t *node,
	    const char *path);
/* Take the file's text: the caller frees it; YD no longer holds it. */
char	*yamldoc_take_text(struct yamldoc *yd);

/* The root node, or NULL for an empty file. */
yaml_node_t *yamldoc_root(struct yamldoc *yd);
/* 1-based line where NODE starts. */
unsigned long yamldoc_line(const yaml_node_t *node);

/*
 * Fill ERR with "FILE:LINE: PATH: message" for NODE (PATH may be "" or
 * NULL; NODE may be NULL for line 1), and add it to YD's list of errors
 * unless an error was already listed for the same line and path (one
 * problem, one message: a loader that goes on after an error and meets
 * the same node again stays quiet).  Always returns -1 so that callers
 * can write "return yamldoc_err(...)".
 */
int	yamldoc_err(const struct yamldoc *yd, const yaml_node_t *node,
	    const char *path, char *err, size_t errlen, const char *fmt, ...)
	    __attribute__((format(printf, 6, 7)));

/*
 * What NODE is, for "got ..." in messages: "'abc'" (printable, cut at 40
 * characters) for a scalar, "nothing" for an empty value, "a list", "a
 * mapping".  Returns BUF.
 */
const char *yamldoc_got(const yaml_node_t *node, char *buf, size_t len);

/* Paths: "PARENT.KEY" (or "KEY" at the top) and "PARENT[I]". */
void	yamldoc_path_key(char *buf, size_t len, const char *parent,
	    const char *key);
void	yamldoc_path_index(char *buf, size_t len, const char *parent,
	    size_t i);

/*
 * Check that NODE is a mapping whose keys are all in KEYS (NKEYS of them)
 * and appear once, and store the value node of KEYS[i] in VALS[i] (NULL
 * when absent).  An unknown key is reported as
 * "PATH.key: unknown key (expected one of: a, b, c)".  Every bad key is
 * reported (then -1), and VALS is filled for the good ones all the same,
 * so that a loader may go on checking them; when NODE is not a mapping,
 * VALS is all NULL.
 */
int	yamldoc_map_fields(struct yamldoc *yd, yaml_node_t *node,
	    const char *path, const char *const *keys, size_t nkeys,
	    yaml_node_t **vals, char *err, size_t errlen);
/* The key node whose text is KEY in mapping NODE, or NULL. */
yaml_node_t *yamldoc_map_key(struct yamldoc *yd, yaml_node_t *node,
	    const char *key);

/*
 * Check that NODE is a list of MIN..MAX items.  Returns the item count,
 * or -1.  The items are then yamldoc_item(yd, node, i).
 */
int	yamldoc_seq(struct yamldoc *yd, yaml_node_t *node, const char *path,
	    size_t min, size_t max, char *err, size_t errlen);
yaml_node_t *yamldoc_item(struct yamldoc *yd, yaml_node_t *node, size_t i);

/*
 * A non-empty scalar shorter than LEN, copied into BUF.  WHAT says what
 * was expected ("a name").
 */
int	yamldoc_str(struct yamldoc *yd, yaml_node_t *node, const char *path,
	    const char *what, char *buf, size_t len, char *err, size_t errlen);
/*
 * A plain (unquoted) decimal integer in MIN..MAX.  HINT, if not NULL, is
 * added to the range message ("expected 64..1518 (HINT), got 1600").
 */
int	yamldoc_int(struct yamldoc *yd, yaml_node_t *node, const char *path,
	    long long min, long long max, const char *hint, long long *v,
	    char *err, size_t errlen);
/* Parse S as a whole decimal integer.  Returns 0 or -1. */
int	yamldoc_parse_ll(const char *s, long long *v);
/* 1 if NODE is a scalar with exactly the text S. */
int	yamldoc_is(const yaml_node_t *node, const char *s);
/* The text of scalar NODE, or NULL for other nodes. */
const char *yamldoc_text(const yaml_node_t *node);

#endif
