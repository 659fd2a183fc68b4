/*
 * genmode: what the packet modes share around their loops.  l2.c and
 * udp.c put these functions in their tables (mode.h) or call them from
 * their own operations, so that a struct gen is created, fed with
 * records and live batches, printed, reported and freed in one place.
 *
 * The order of a run is main.c's: open (genmode_new, the mode's sockets,
 * genmode_live), resolve, run (ending in genmode_ran), print (the
 * mode's own: report.c has a summary per kind of run), report, close.  The records file is closed at the end of the run, with the
 * timestamp source, before the summary is printed; after a failed open
 * close() closes it with source "none".
 *
 * Deliberately not here: the modes' sockets and loops (l2.c, udp.c),
 * mode tcp (tcp.c, which has no struct gen).
 */
#include <stdio.h>
#include <sys/prctl.h>

#include "log.h"
#include "genmode.h"
#include "live.h"
#include "resultmsg.h"

int
genmode_new(struct gen_job *j)
{
	struct gen *g;
	char err[512];

	/* Pacing wants the timer to fire when asked, not 50 us later. */
	(void)prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);
	if ((g = gen_new(&j->cfg, err, sizeof(err))) == NULL) {
		log_error("%s", err);
		return GEN_EXIT_IFACE;
	}
	g->rec = j->rec;
	j->run = g;
	return 0;
}

int
genmode_live(struct gen_job *j)
{
	struct gen *g = j->run;
	char err[512];

	if (j->report == NULL)
		return 0;
	if ((g->live = live_open(j->report, j->role_id, j->run_id,
	    j->stream, err, sizeof(err))) == NULL) {
		log_error("%s", err);
		return GEN_EXIT_REPORT;
	}
	g->ring = live_ring(g->live);
	return 0;
}

int
genmode_ran(struct gen_job *j, int rc, const char *err)
{
	struct gen *g = j->run;
	char err2[512];
	int status = 0;

	if (rc == -1) {
		log_error("%s (reporting what was measured)", err);
		status = GEN_EXIT_IFACE;
	}
	rc = recw_close(j->rec, gen_ts_source(g), err2, sizeof(err2));
	j->rec = g->rec = NULL;
	if (rc == -1) {
		log_error("%s", err2);
		status = GEN_EXIT_IFACE;
	}
	return status;
}

int
genmode_report(struct gen_job *j)
{
	struct gen *g = j->run;
	char err[512];
	int rc;

	rc = g->live != NULL ? live_finish(g->live, g, err, sizeof(err)) :
	    resultmsg_send(g, j->report, j->role_id, j->run_id, err,
	    sizeof(err));
	if (rc == -1) {
		log_error("%s", err);
		return GEN_EXIT_REPORT;
	}
	return 0;
}

void
genmode_close(struct gen_job *j)
{
	struct gen *g = j->run;
	char err[512];

	if (g != NULL)
		live_close(g->live);
	gen_free(g);
	j->run = NULL;
	(void)recw_close(j->rec, "none", err, sizeof(err));
	j->rec = NULL;
}
