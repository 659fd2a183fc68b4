/*
 * ctl: hoplab-link's management side: the control socket's requests and
 * scheduled profile changes, the reports to the agent, the exit summary
 * and the `--ctl` client (link/ctl.c; the sockets are lib/ctlsock's).
 * link.c and wait.c call these.
 */
#ifndef HOPLAB_LINK_CTL_H
#define HOPLAB_LINK_CTL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct link;
typedef struct Hoplab__LinkControl Hoplab__LinkControl;

/*
 * Open the control and report sockets of -s and --report (none when
 * neither is given).  0, or -1 with the reason in ERR.
 */
int	lctl_open(struct link *l, char *err, size_t errlen);
void	lctl_close(struct link *l);
/* Answer every request waiting on the control socket; never blocks. */
void	lctl_poll(struct link *l);
/* Push a ResultBatch with both directions' counters; FINAL at the end. */
void	lctl_report(struct link *l, int final);
/* The counters and the release error of the whole run, as text. */
void	lctl_print(struct link *l, FILE *f);
/* Apply the scheduled profile changes due at NOW_REAL (CLOCK_REALTIME). */
void	lctl_sched_run(struct link *l, int64_t now_real);
/* The next scheduled change (CLOCK_REALTIME), or INT64_MAX. */
int64_t	lctl_sched_next(const struct link *l);
/*
 * `hoplab-link -s ENDPOINT --ctl COMMAND`: returns the exit status (0
 * done, 1 bad command, 3 refused or no answer).
 */
int	lctl_client(const char *endpoint, const char *command);
/*
 * The `at` of a LinkControl: "" (NOW), "+DURATION" after NOW or
 * "@UNIXSECONDS[.FRACTION]", into *AT (CLOCK_REALTIME ns).  0 or -1.
 * Public for tests/fuzz/fuzz_link_at.c.
 */
int	lctl_parse_at(const char *s, int64_t now, int64_t *at);
/*
 * A `--ctl` COMMAND ("counters", "[at TIME] set DIR PROFILE") into RC,
 * whose strings point into BUF (LEN bytes, the command is copied there
 * and cut).  0 or -1.  Public for tests/fuzz/fuzz_link_at.c.
 */
int	lctl_parse_command(const char *cmd, Hoplab__LinkControl *rc,
	    char *buf, size_t len);

#endif
