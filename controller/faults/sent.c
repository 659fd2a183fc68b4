/*
 * sent: the record of every message the faults sent (sent.h), until its
 * row of faults.csv is written: made by faults.c (links) and
 * faultrouter.c (routers), answered through faults.c's handlers, written
 * at the point's end, when a restore is answered, or when the record is
 * full (the oldest first).
 *
 * A leaf of controller/faults/: both fault files call it, it calls
 * neither, so that faults.c and faultrouter.c do not call each other in
 * a circle.
 */
#include <stdio.h>
#include <string.h>

#include "clock.h"
#include "log.h"
#include "controller/faults/sent.h"

void
sent_write_row(struct faults *fl, const struct sent *s)
{
	struct csv *c = fl->fcsv.c;
	int64_t at = s->answered && s->done_ns ? s->done_ns : s->real_ns;
	char err[256], res[300];

	csv_u64(c, s->point + 1);
	csv_str(c, s->variant);
	csv_u64(c, s->frame);
	csv_u64(c, s->rep);
	if (s->zero > 0)
		csv_f64(c, (double)(at - s->zero) / 1e9, 4);
	else
		csv_str(c, "");
	csv_str(c, s->link);
	csv_str(c, s->peer->inv->name);
	csv_str(c, s->action);
	csv_str(c, s->target);
	snprintf(res, sizeof(res), "%s%s", !s->answered ? "no answer" :
	    s->ok ? "ok" : "failed: ", s->answered && !s->ok ? s->error : "");
	csv_str(c, res);
	csv_f64(c, (double)at / 1e9, 6);	/* cpu.png's marks, routers.csv's clock */
	if (csvfile_end_row(&fl->fcsv, err, sizeof(err)) == -1)
		log_warn("faults.csv: %s", err);
}

struct sent *
sent_new(struct faults *fl, struct peer *p, size_t fault, const char *action,
    const char *target, const char *link)
{
	struct sent *s;

	if (fl->ns == SENT_MAX) {	/* full: write the oldest now */
		sent_write_row(fl, &fl->s[0]);
		memmove(&fl->s[0], &fl->s[1], (SENT_MAX - 1) * sizeof(*s));
		fl->ns--;
	}
	s = &fl->s[fl->ns++];
	memset(s, 0, sizeof(*s));
	s->peer = p;
	s->fault = fault;
	s->real_ns = clock_real_ns();
	s->point = fl->point;
	s->variant = fl->v != NULL ? fl->v->label : "";
	s->frame = fl->frame;
	s->rep = fl->rep;
	s->zero = fl->zero_real;
	snprintf(s->action, sizeof(s->action), "%s", action);
	snprintf(s->target, sizeof(s->target), "%s", target);
	snprintf(s->link, sizeof(s->link), "%s", link);
	return s;
}

struct sent *
sent_find(struct faults *fl, const struct peer *from, uint32_t id, int set)
{
	size_t i;

	for (i = 0; i < fl->ns; i++)
		if (fl->s[i].peer == from && !fl->s[i].answered &&
		    (set ? fl->s[i].id == 0 : fl->s[i].id == id))
			return &fl->s[i];
	return NULL;
}
