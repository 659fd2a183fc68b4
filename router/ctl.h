/*
 * ctl: hoplab-router's management side: the control socket's requests,
 * the reports to the agent, the exit summary and the `--ctl` client
 * (router/ctl.c; the sockets are lib/ctlsock's).  loop.c calls these;
 * ctl.c calls router.c for what a request asks (reload, routes,
 * interfaces), never loop.c.
 */
#ifndef HOPLAB_ROUTER_CTL_H
#define HOPLAB_ROUTER_CTL_H

#include <stddef.h>

struct router;

/*
 * Open the control and report sockets of -s and --report (none when
 * neither is given).  0, or -1 with the reason in ERR.
 */
int	rctl_open(struct router *r, char *err, size_t errlen);
void	rctl_close(struct router *r);
/* Answer the control requests waiting, up to 16; never blocks. */
void	rctl_serve(struct router *r);
/* Start the CPU-time clock of the reports and the summary. */
void	rctl_cpu_start(struct router *r);
/* Push a ResultBatch with the counters; FINAL when stopping. */
void	rctl_report(struct router *r, int final);
/* The counters since start, on stdout (at exit). */
void	rctl_print(struct router *r);
/*
 * `hoplab-router -s ENDPOINT --ctl COMMAND`: returns the exit status
 * (0 done, 1 bad command, 3 refused or no answer).
 */
int	rctl_client(const char *endpoint, const char *command);

#endif
