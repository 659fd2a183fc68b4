/*
 * log: leveled logging for hoplab's programs, the one lib module that
 * writes.  Other lib modules never log; they hand an error string back and
 * the program decides what to say.
 *
 * Every line goes to stderr as "prog: message", the way err(3) and the
 * BSD daemons print, so a CLI's errors read naturally.  After
 * log_set_file() each line is also appended to that file as
 *
 *	2026-11-30T02:31:05.123Z warn hoplab-agent[4242]: message
 *
 * (UTC, millisecond resolution, the level, the program and its pid), which
 * lets several processes share one log and keeps it sortable.  A line is
 * written with one write(2) on an O_APPEND descriptor, so lines from
 * concurrent processes do not interleave.  The -v count selects what is
 * written at all: 0 = errors and warnings, 1 = also info, 2 = also debug.
 *
 * Deliberately not here: syslog, log rotation (reopen by calling
 * log_set_file() again), rate limiting (the data path counts and logs
 * rarely by itself), thread safety (every process is single-threaded).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "log.h"

#define LOG_LINE_MAX	2048

static struct {
	char	prog[64];	/* prefix of every line */
	int	verbosity;	/* the -v count */
	int	fd;		/* log file, or -1 */
} logstate = { "", 0, -1 };

static const char *const log_level_names[] = {
	[LOG_LVL_ERROR] = "error",
	[LOG_LVL_WARN] = "warn",
	[LOG_LVL_INFO] = "info",
	[LOG_LVL_DEBUG] = "debug",
};

void
log_init(const char *progname, int verbosity)
{
	const char *slash;

	if (progname == NULL)
		progname = program_invocation_short_name;
	else if ((slash = strrchr(progname, '/')) != NULL)
		progname = slash + 1;
	snprintf(logstate.prog, sizeof(logstate.prog), "%s", progname);
	logstate.verbosity = verbosity < 0 ? 0 : verbosity;
}

/* Open PATH for appending; PATH NULL just closes the current file. */
int
log_set_file(const char *path)
{
	int fd = -1;

	if (path != NULL) {
		fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC,
		    0644);
		if (fd == -1)
			return -1;
	}
	if (logstate.fd != -1)
		close(logstate.fd);
	logstate.fd = fd;
	return 0;
}

int
log_verbosity(void)
{
	return logstate.verbosity;
}

/* write(2) all of BUF, retrying on EINTR and short writes. */
static void
log_write(int fd, const char *buf, size_t len)
{
	ssize_t n;

	while (len > 0) {
		n = write(fd, buf, len);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		buf += n;
		len -= (size_t)n;
	}
}

/* Format "MSG\n" after PREFIX into LINE; returns the length. */
static size_t
log_line(char *line, size_t size, const char *prefix, const char *msg)
{
	int n;

	n = snprintf(line, size, "%s%s\n", prefix, msg);
	if (n < 0)
		return 0;
	if ((size_t)n >= size) {
		/* Truncated: keep the newline. */
		line[size - 2] = '\n';
		return size - 1;
	}
	return (size_t)n;
}

static void
log_emit(enum log_level lvl, const char *fmt, va_list ap)
{
	char msg[LOG_LINE_MAX], prefix[160], line[LOG_LINE_MAX + 160];
	char ts[32];
	size_t len;
	int saved = errno;

	if ((int)lvl > LOG_LVL_WARN + logstate.verbosity)
		return;
	if (logstate.prog[0] == '\0')
		log_init(NULL, logstate.verbosity);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	len = strlen(msg);
	while (len > 0 && msg[len - 1] == '\n')
		msg[--len] = '\0';

	snprintf(prefix, sizeof(prefix), "%s: ", logstate.prog);
	len = log_line(line, sizeof(line), prefix, msg);
	log_write(STDERR_FILENO, line, len);

	if (logstate.fd != -1) {
		clock_format_utc(clock_real_ns(), 0, ts, sizeof(ts));
		snprintf(prefix, sizeof(prefix), "%s %s %s[%ld]: ", ts,
		    log_level_names[lvl], logstate.prog, (long)getpid());
		len = log_line(line, sizeof(line), prefix, msg);
		log_write(logstate.fd, line, len);
	}
	errno = saved;
}

void
log_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_emit(LOG_LVL_ERROR, fmt, ap);
	va_end(ap);
}

void
log_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_emit(LOG_LVL_WARN, fmt, ap);
	va_end(ap);
}

void
log_info(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_emit(LOG_LVL_INFO, fmt, ap);
	va_end(ap);
}

void
log_debug(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_emit(LOG_LVL_DEBUG, fmt, ap);
	va_end(ap);
}

void
log_fatal(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_emit(LOG_LVL_ERROR, fmt, ap);
	va_end(ap);
	exit(code);
}
