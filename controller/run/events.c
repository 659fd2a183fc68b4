/*
 * events: the run's JSON Lines stream (see events.h).
 *
 * Each event is one lib/json document in its compact layout: json_finish
 * ends it with the newline and flushes the stream, so a line is never
 * left half-written in the buffer while the run waits.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "json.h"
#include "controller/results/results.h"
#include "controller/run/events.h"

struct events {
	FILE		*f;
	int		 own;		/* f is ours to close */
	int		 err;		/* an event was not written (errno) */
	int64_t		 t0_mono;	/* run_start's */
};

struct events *
events_open(const char *path, char *err, size_t errlen)
{
	struct events *ev;

	if ((ev = calloc(1, sizeof(*ev))) == NULL) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	ev->t0_mono = clock_mono_ns();
	if (strcmp(path, "-") == 0) {
		ev->f = stdout;
		return ev;
	}
	if ((ev->f = fopen(path, "w")) == NULL) {
		snprintf(err, errlen, "--json-stream %s: %s", path,
		    strerror(errno));
		free(ev);
		return NULL;
	}
	ev->own = 1;
	return ev;
}

int
events_close(struct events *ev, char *err, size_t errlen)
{
	int rc;

	if (ev == NULL)
		return 0;
	if (fflush(ev->f) == EOF && ev->err == 0)
		ev->err = errno != 0 ? errno : EIO;
	if (ev->own && fclose(ev->f) == EOF && ev->err == 0)
		ev->err = errno != 0 ? errno : EIO;
	rc = ev->err != 0 ? -1 : 0;
	if (rc == -1)
		snprintf(err, errlen, "--json-stream: %s", strerror(ev->err));
	free(ev);
	return rc;
}

/* Open event NAME's object: its name and times. */
static void
begin(struct events *ev, struct json *j, const char *name)
{
	errno = 0;
	json_init(j, ev->f, JSON_COMPACT);
	json_object(j, JSON_INLINE);
	json_kstring(j, "event", name);
	json_kdouble(j, "time_unix_s", (double)clock_real_ns() / 1e9, 6);
	json_kdouble(j, "elapsed_s", (double)(clock_mono_ns() -
	    ev->t0_mono) / 1e9, 6);
}

/* Close the object, end the line; a failure is kept for events_close. */
static void
end(struct events *ev, struct json *j)
{
	json_end(j);
	if (json_finish(j) == -1 && ev->err == 0)
		ev->err = errno != 0 ? errno : EIO;
}

void
events_run_start(struct events *ev, const char *run_id, const char *name,
    const char *path, const char *dir, size_t npoints, size_t done)
{
	struct json j;

	if (ev == NULL)
		return;
	ev->t0_mono = clock_mono_ns();
	begin(ev, &j, "run_start");
	json_kstring(&j, "run_id", run_id);
	json_kstring(&j, "plan", name);
	json_kstring(&j, "plan_path", path);
	json_kstring(&j, "results_dir", dir);
	json_kuint(&j, "points", npoints);
	json_kuint(&j, "points_done", done);
	json_kint(&j, "results_format", RESULTS_FORMAT);
	end(ev, &j);
}

/*
 * Point N's point_start (START) or point_end: its members as faults.csv
 * names a point; the start's also says which generator role measures it.
 */
static void
point_event(struct events *ev, int start, size_t n,
    const struct run_point *pt, const char *label)
{
	struct json j;

	if (ev == NULL)
		return;
	begin(ev, &j, start ? "point_start" : "point_end");
	json_kuint(&j, "point", n + 1);
	json_kstring(&j, "variant", pt->variant);
	json_kuint(&j, "frame_bytes", pt->frame);
	json_kuint(&j, "rep", pt->rep);
	json_kstring(&j, "label", label != NULL ? label : "");
	if (start) {
		json_kstring(&j, "agent", pt->agent);
		json_kuint(&j, "role", pt->role);
	}
	end(ev, &j);
}

void
events_point_start(struct events *ev, size_t n, const struct run_point *pt,
    const char *label)
{
	point_event(ev, 1, n, pt, label);
}

void
events_point_end(struct events *ev, size_t n, const struct run_point *pt,
    const char *label)
{
	point_event(ev, 0, n, pt, label);
}

void
events_interval(struct events *ev, size_t n, const Hoplab__FlowResult *f,
    const Hoplab__FlowInterval *iv)
{
	int rx = iv->received > 0;
	struct json j;

	if (ev == NULL)
		return;
	begin(ev, &j, "interval");
	json_kuint(&j, "point", n + 1);
	json_kstring(&j, "flow", f->name);
	json_kuint(&j, "interval", iv->index);
	json_kdouble(&j, "t_s", (double)(iv->index + 1) *
	    (double)iv->length_ns / 1e9, 3);
	json_kdouble(&j, "length_s", (double)iv->length_ns / 1e9, 3);
	json_kdouble(&j, "start_unix_s", (double)iv->start_ns / 1e9, 6);
	json_kuint(&j, "sent", iv->sent);
	json_kuint(&j, "received", iv->received);
	json_kuint(&j, "lost", iv->lost);
	json_kdouble(&j, "delay_mean_us", rx ? iv->delay_mean_ns / 1e3 : NAN,
	    3);
	json_kdouble(&j, "delay_min_us", rx ? (double)iv->delay_min_ns / 1e3 :
	    NAN, 3);
	json_kdouble(&j, "delay_max_us", rx ? (double)iv->delay_max_ns / 1e3 :
	    NAN, 3);
	json_kdouble(&j, "rx_mbps", iv->rx_mbps, 4);
	end(ev, &j);
}

void
events_fault(struct events *ev, size_t n, double t_s, const char *kind,
    const char *name, const char *action, const char *detail, int ok)
{
	struct json j;

	if (ev == NULL)
		return;
	begin(ev, &j, "fault");
	json_kuint(&j, "point", n + 1);
	json_kdouble(&j, "t_s", t_s, 3);
	json_kstring(&j, "kind", kind);
	json_kstring(&j, "name", name);
	json_kstring(&j, "action", action);
	json_kstring(&j, "detail", detail);
	json_kbool(&j, "ok", ok);
	end(ev, &j);
}

void
events_run_end(struct events *ev, const char *status, size_t done,
    size_t npoints)
{
	struct json j;

	if (ev == NULL)
		return;
	begin(ev, &j, "run_end");
	json_kstring(&j, "status", status);
	json_kuint(&j, "points", npoints);
	json_kuint(&j, "points_done", done);
	end(ev, &j);
}
