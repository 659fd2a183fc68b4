/*
 * log: leveled logging for the programs (never called from lib/ modules,
 * which return errors through a caller-supplied buffer instead).
 *
 * Lines go to stderr as "prog: message" (CLI style) and, once
 * log_set_file() is called, also to a file as
 * "2026-11-30T02:31:05.123Z warn prog[pid]: message" (UTC).  Verbosity
 * follows the -v count: 0 = warnings and errors, 1 = info, 2 = debug; it
 * applies to both outputs.  A trailing newline in the message is dropped.
 * errno is preserved, so log_error("...: %s", strerror(errno)) style and
 * %m both work.
 */
#ifndef HOPLAB_LOG_H
#define HOPLAB_LOG_H

#include <stdarg.h>

enum log_level {
	LOG_LVL_ERROR = 0,
	LOG_LVL_WARN,
	LOG_LVL_INFO,
	LOG_LVL_DEBUG,
};

/*
 * Set once from main(): program name for the prefix (a path is cut to its
 * last component; NULL means the executable's name) and the -v count.
 * Logging before log_init() works, with the executable's name.
 */
void	log_init(const char *progname, int verbosity);
/*
 * Also write every line to PATH (appended, created 0644, close-on-exec);
 * a second call replaces the file (reopen after rotation), NULL stops
 * file logging.  Returns 0, or -1 with errno and the old file kept.
 */
int	log_set_file(const char *path);
int	log_verbosity(void);

void	log_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void	log_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void	log_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void	log_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* log_error() then exit(code). */
void	log_fatal(int code, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3), noreturn));

#endif
