/*
 * events: `hoplab run --json-stream FILE`, the run as it goes, one JSON
 * object a line (JSON Lines), each written whole and flushed as it
 * happens, so that `hoplab run --json-stream - PLAN | jq` or a script
 * reading the pipe sees each event when the console would show it.
 *
 * The events, in the order a run makes them (docs/json.md, the schema
 * docs/hoplab-events.schema.json):
 *
 *	run_start	the run id, the plan, the results folder, the points
 *	point_start	a measured point's generator was started
 *	interval	a flow's interval from the generator's live batches
 *			(the console's "t=0.5s probe: sent ..." line)
 *	fault		a fault of the plan was carried out (faults.c)
 *	point_end	the point's rows are in summary.csv
 *	run_end		the run's status, as run.json's
 *
 * Every event has "event", "time_unix_s" (CLOCK_REALTIME, seconds since
 * 1970) and "elapsed_s" (CLOCK_MONOTONIC since run_start).  A point is
 * named as in faults.csv: "point" from 1 in run order, "variant",
 * "frame_bytes", "rep", and "label", its sweep values ("" without).
 * Numbers that JSON cannot hold are null (lib/json).
 *
 * Every function takes a NULL handle and then does nothing, so that the
 * run's parts call them without asking whether a stream was asked for.
 * A write error (a reader that went away: SIGPIPE is ignored) is sticky
 * and reported by events_close(); the run itself goes on.
 *
 * Deliberately not here: the bar, the tables (the document of --json,
 * rundoc.h, has the rows), an event per packet.
 */
#ifndef HOPLAB_EVENTS_H
#define HOPLAB_EVENTS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "proto/hoplab.pb-c.h"

struct events;
struct run_point;

/*
 * Open the stream on PATH ("-": stdout, which is then not closed).
 * NULL with ERR when the file cannot be created.
 */
struct events *events_open(const char *path, char *err, size_t errlen);
/* Close it: 0, or -1 with ERR when an event could not be written. */
int	events_close(struct events *ev, char *err, size_t errlen);

/*
 * The run begins (its clock, elapsed_s, starts here): RUN_ID, the plan's
 * NAME and PATH, the results folder DIR, NPOINTS measured points, of
 * which DONE were measured before (an attach; else 0).
 */
void	events_run_start(struct events *ev, const char *run_id,
	    const char *name, const char *path, const char *dir,
	    size_t npoints, size_t done);
/* Point N (from 0) PT, with sweep values LABEL, starts or has ended. */
void	events_point_start(struct events *ev, size_t n,
	    const struct run_point *pt, const char *label);
void	events_point_end(struct events *ev, size_t n,
	    const struct run_point *pt, const char *label);
/* Interval IV of flow F of point N (from 0). */
void	events_interval(struct events *ev, size_t n,
	    const Hoplab__FlowResult *f, const Hoplab__FlowInterval *iv);
/*
 * A fault of point N (from 0) at T_S from the point's first packet:
 * KIND "link" or "router", NAME the link or router, ACTION ("down",
 * "kill", ...), DETAIL the console's words, OK whether it was sent.
 */
void	events_fault(struct events *ev, size_t n, double t_s,
	    const char *kind, const char *name, const char *action,
	    const char *detail, int ok);
/* The run ends with STATUS ("completed", "failed: ..."), DONE points. */
void	events_run_end(struct events *ev, const char *status, size_t done,
	    size_t npoints);

#endif
