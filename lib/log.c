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

/*
 * Control characters of MSG (but newlines and tabs) become '?': a name
 * or an error text that came from a peer (a controller's run id, a
 * child's output) must not move the terminal's cursor or colour what
 * follows (issue 17).
 */
static void
log_clean(char *msg)
{
	unsigned char *p;

	for (p = (unsigned char *)msg; *p != '\0'; p++)
		if ((*p < 0x20 && *p != '\n' && *p != '\t') || *p == 0x7f)
			*p = '?';
}

/*
 * Format "MSG\n" after PREFIX into LINE; returns the length.  With
 * INDENT every further line of MSG starts with "  | ", so that a text
 * holding a newline cannot pass for a line of its own in a shared log
 * file (each real line starts with its time stamp).
 */
static size_t
log_line(char *line, size_t size, const char *prefix, const char *msg,
    int indent)
{
	size_t n = 0;
	int k;

	k = snprintf(line, size, "%s", prefix);
	n = k < 0 ? 0 : (size_t)k >= size ? size - 1 : (size_t)k;
	for (; *msg != '\0' && n + 2 < size; msg++) {
		line[n++] = *msg;
		if (*msg == '\n' && indent && msg[1] != '\0' && n + 6 < size) {
			memcpy(line + n, "  | ", 4);
			n += 4;
		}
	}
	line[n++] = '\n';	/* kept when truncated */
	line[n] = '\0';
	return n;
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
	log_clean(msg);

	snprintf(prefix, sizeof(prefix), "%s: ", logstate.prog);
	len = log_line(line, sizeof(line), prefix, msg, 0);
	log_write(STDERR_FILENO, line, len);

	if (logstate.fd != -1) {
		clock_format_utc(clock_real_ns(), 0, ts, sizeof(ts));
		snprintf(prefix, sizeof(prefix), "%s %s %s[%ld]: ", ts,
		    log_level_names[lvl], logstate.prog, (long)getpid());
		len = log_line(line, sizeof(line), prefix, msg, 1);
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
