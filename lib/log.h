/*
 * log: leveled logging for the programs (never called from lib/ modules,
 * which return errors through a caller-supplied buffer instead).
 *
 * Lines go to stderr as "prog: message" (CLI style) or, once log_set_file()
 * is called, to a file with an ISO-8601 UTC timestamp.  Verbosity follows
 * the -v count: 0 = warnings and errors, 1 = info, 2 = debug.
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

/* Set once from main(): program name for the prefix and the -v count. */
void	log_init(const char *progname, int verbosity);
/* Also write every line to PATH (appended); returns 0 or -1 with errno. */
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
