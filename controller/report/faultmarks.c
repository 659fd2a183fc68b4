/*
 * faultmarks: the faults of a run marked on its delay-over-time and
 * loss-over-time figures (faultmarks.h, docs/report.md "Plots").
 *
 * faults.csv (docs/results.md) has a row per message a fault sent, with
 * time_s measured from the point's first packet, the same zero as the
 * time figures' axis (the flow's first send, to within the flows'
 * start-up offsets).  A figure covers every variant and repetition of
 * one flow and frame; the faults of that frame are marked once each, by
 * what they did ("link B-C down", "router B kill"), at the time of the
 * first point that had them: the two ends of a link, and the same fault
 * in later points, fall within a few ms of it.  A mark is a dashed
 * vertical line with its label, drawn over both panels.
 *
 * The user's timed commands (exec.csv's rows whose `at` is a time, issue
 * 14) are marked the same way in blue, "exec HOST: PROGRAM" at their
 * planned time (the agent starts them at the traffic's start plus it),
 * once each; setup and teardown commands fall outside the axis.
 *
 * Deliberately not done: one mark per point (the lines would pile up),
 * rows that failed or were not answered (not marked: the fault did not
 * happen as planned), and the restores after a point's end.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "controller/report/faultmarks.h"
#include "controller/report/figure.h"

#define MARKS_MAX	16	/* distinct faults marked on one figure */

struct mark {
	char		label[96];
	double		t;
};

/* The label of faults.csv's row R: "link B-C down", "router B kill". */
static void
mark_label(const struct csvtab *t, size_t r, char *buf, size_t len)
{
	const char *link = csvtab_cell(t, r, (size_t)csvtab_col(t, "link"));
	const char *host = csvtab_cell(t, r, (size_t)csvtab_col(t, "host"));
	const char *act = csvtab_cell(t, r, (size_t)csvtab_col(t, "action"));

	if (link[0] != '\0')
		snprintf(buf, len, "link %s %s", link, act);
	else
		snprintf(buf, len, "router %s %s", host, act);
}

/*
 * The marks of FRAME in faults.csv T, in its order: their count.  Frame
 * "0" is a tcp flow's (it sends no probes): it shares its points with the
 * probe flows, so every point's faults are its own.
 */
static size_t
marks_of(const struct csvtab *t, const char *frame, struct mark *m)
{
	int cf = csvtab_col(t, "frame"), ct = csvtab_col(t, "time_s");
	int ca = csvtab_col(t, "action"), cr = csvtab_col(t, "result");
	char label[96];
	size_t r, i, n = 0;
	double at;

	for (r = 0; r < csvtab_nrows(t) && n < MARKS_MAX; r++) {
		if ((strcmp(frame, "0") != 0 &&
		    strcmp(csvtab_cell(t, r, (size_t)cf), frame) != 0) ||
		    strcmp(csvtab_cell(t, r, (size_t)ca), "restore") == 0 ||
		    strcmp(csvtab_cell(t, r, (size_t)cr), "ok") != 0 ||
		    !isfinite(at = figure_num(t, r, ct)))
			continue;
		mark_label(t, r, label, sizeof(label));
		for (i = 0; i < n && strcmp(m[i].label, label) != 0; i++)
			;
		if (i < n)
			continue;
		snprintf(m[n].label, sizeof(m[n].label), "%s", label);
		m[n++].t = at;
	}
	return n;
}

/*
 * faults.csv with the columns NEED, or NULL: none (a run without
 * faults), or without them (said as PLOT's marks skipped).
 */
static struct csvtab *
faults_table(struct figure_dir *p, const char *const *need, const char *plot)
{
	struct csvtab *t;
	char why[600];

	if ((t = figure_load(p, "faults.csv", why, sizeof(why))) == NULL)
		return NULL;
	if (!figure_has_cols(t, "faults.csv", need, why, sizeof(why))) {
		figure_skipped(p, plot, why);
		csvtab_free(t);
		return NULL;
	}
	return t;
}

/* The N marks M as lines with ids 1..N: N. */
static int
draw_marks(FILE *gp, const struct mark *m, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		faultmarks_line(gp, i + 1, m[i].t, m[i].label);
	return (int)n;
}

/* faults.csv's marks of FRAME, ids 1..: their count. */
static int
fault_marks(struct figure_dir *p, FILE *gp, const char *frame)
{
	static const char *const need[] = { "frame", "time_s", "link", "host",
		"action", "result", NULL };
	struct mark m[MARKS_MAX];
	struct csvtab *t;
	size_t n;

	if ((t = faults_table(p, need, "fault marks on time_*.png")) == NULL)
		return 0;
	n = marks_of(t, frame, m);
	csvtab_free(t);
	return draw_marks(gp, m, n);
}

/* The marks of T at time_unix_s - T0, one per fault and point. */
static size_t
marks_at(const struct csvtab *t, double t0, struct mark *m)
{
	int ct = csvtab_col(t, "time_unix_s"), cp = csvtab_col(t, "point");
	int ca = csvtab_col(t, "action"), cr = csvtab_col(t, "result");
	char base[80], label[96];
	size_t r, i, n = 0;
	double at;

	for (r = 0; r < csvtab_nrows(t) && n < MARKS_MAX; r++) {
		if (strcmp(csvtab_cell(t, r, (size_t)ca), "restore") == 0 ||
		    strcmp(csvtab_cell(t, r, (size_t)cr), "ok") != 0 ||
		    !isfinite(at = figure_num(t, r, ct)))
			continue;
		mark_label(t, r, base, sizeof(base));
		snprintf(label, sizeof(label), "%s (point %s)", base,
		    csvtab_cell(t, r, (size_t)cp));
		for (i = 0; i < n && strcmp(m[i].label, label) != 0; i++)
			;
		if (i < n)	/* the other end of the link, same point */
			continue;
		snprintf(m[n].label, sizeof(m[n].label), "%s", label);
		m[n].t = at - t0;
		n++;
	}
	return n;
}

int
faultmarks_add_at(struct figure_dir *p, FILE *gp, double t0)
{
	static const char *const need[] = { "point", "time_unix_s", "link",
		"host", "action", "result", NULL };
	struct mark m[MARKS_MAX];
	struct csvtab *t;
	size_t n;

	if ((t = faults_table(p, need, "fault marks on cpu.png")) == NULL)
		return 0;
	n = marks_at(t, t0, m);
	csvtab_free(t);
	return draw_marks(gp, m, n);
}

/*
 * exec.csv's timed commands (issue 14) as marks, ids FIRST + 1..: their
 * count.  Every point runs them at the same time, so each is marked once.
 */
static int
exec_marks(struct figure_dir *p, FILE *gp, int first)
{
	static const char *const need[] = { "host", "at", "cmd", NULL };
	struct mark m[MARKS_MAX];
	struct csvtab *t;
	char why[600], text[96], prog[64];
	size_t r, i, n = 0;
	double at;

	if ((t = figure_load(p, "exec.csv", why, sizeof(why))) == NULL)
		return 0;		/* a run without commands */
	if (!figure_has_cols(t, "exec.csv", need, why, sizeof(why))) {
		figure_skipped(p, "exec marks on time_*.png", why);
		csvtab_free(t);
		return 0;
	}
	for (r = 0; r < csvtab_nrows(t) && first + (int)n < MARKS_MAX; r++) {
		if (!isfinite(at = figure_num(t, r, csvtab_col(t, "at"))))
			continue;	/* setup, teardown */
		snprintf(prog, sizeof(prog), "%s", csvtab_cell(t, r,
		    (size_t)csvtab_col(t, "cmd")));
		prog[strcspn(prog, " ")] = '\0';
		snprintf(m[n].label, sizeof(m[n].label), "exec %s: %s",
		    csvtab_cell(t, r, (size_t)csvtab_col(t, "host")), prog);
		for (i = 0; i < n && (strcmp(m[i].label, m[n].label) != 0 ||
		    m[i].t != at); i++)
			;
		if (i == n)
			m[n++].t = at;
	}
	for (i = 0; i < n; i++) {
		figure_text(text, sizeof(text), m[i].label);
		fprintf(gp, "set arrow %zu from %.6g, graph 0 to %.6g, graph 1 "
		    "nohead dt 3 lw 1.5 lc rgb '#0055cc' front\n",
		    (size_t)first + i + 1, m[i].t, m[i].t);
		fprintf(gp, "set label %zu '%s' at %.6g, graph 0.98 rotate by "
		    "90 right offset -0.6,0 tc rgb '#0055cc' front\n",
		    (size_t)first + i + 1, text, m[i].t);
	}
	csvtab_free(t);
	return (int)n;
}

int
faultmarks_add(struct figure_dir *p, FILE *gp, const char *frame)
{
	int n = fault_marks(p, gp, frame);

	return n + exec_marks(p, gp, n);	/* issue 14: exec.csv */
}

void
faultmarks_line(FILE *gp, size_t i, double x, const char *label)
{
	char text[96];

	figure_text(text, sizeof(text), label);
	fprintf(gp, "set arrow %zu from %.6g, graph 0 to %.6g, graph 1 "
	    "nohead dt 2 lw 1.5 lc rgb '#cc0000' front\n", i, x, x);
	fprintf(gp, "set label %zu '%s' at %.6g, graph 0.98 rotate by "
	    "90 right offset -0.6,0 tc rgb '#cc0000' front\n", i, text, x);
}
