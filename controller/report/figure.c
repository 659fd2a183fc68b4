/*
 * figure: gnuplot figures and the CSV helpers they are built with (see
 * figure.h).
 *
 * Every number comes from the folder's CSV files read with lib/csvread;
 * a missing cell becomes gnuplot's missing-value mark "?".  gnuplot runs
 * with its output on ours (its warnings reach the user) and stdin from
 * /dev/null; a non-zero exit or a signal is an error, and so is a PNG
 * that did not appear.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "csvread.h"
#include "spawn.h"
#include "controller/report/figure.h"

static int
figure_fail(struct figure_dir *d, const char *what)
{
	snprintf(d->err, d->errlen, "%s: %s", what, strerror(errno));
	return -1;
}

int
figure_dir_init(struct figure_dir *d, const char *dir, FILE *out, char *err,
    size_t errlen)
{
	memset(d, 0, sizeof(*d));
	d->out = out;
	d->err = err;
	d->errlen = errlen;
	snprintf(d->data, sizeof(d->data), "%s", dir);
	snprintf(d->dir, sizeof(d->dir), "%s/plots", dir);
	if (mkdir(d->dir, 0755) == -1 && errno != EEXIST)
		return figure_fail(d, d->dir);
	return 0;
}

void
figure_text(char *dst, size_t len, const char *s)
{
	size_t i;

	for (i = 0; s[i] != '\0' && i + 1 < len; i++)
		dst[i] = s[i] == '\'' || s[i] == '\n' ? ' ' : s[i];
	dst[i] = '\0';
}

int
figure_open(struct figure_dir *d, struct figure *f, const char *name,
    const char *title)
{
	char path[PATH_MAX + 200], t[256];

	memset(f, 0, sizeof(*f));
	snprintf(f->name, sizeof(f->name), "%s", name);
	snprintf(path, sizeof(path), "%s/%s.dat", d->dir, name);
	if ((f->dat = fopen(path, "w")) == NULL)
		return figure_fail(d, path);
	snprintf(path, sizeof(path), "%s/%s.gp", d->dir, name);
	if ((f->gp = fopen(path, "w")) == NULL) {
		fclose(f->dat);
		return figure_fail(d, path);
	}
	figure_text(t, sizeof(t), title);
	fprintf(f->gp, "# %s.gp: drawn by hoplab report; run again with "
	    "`gnuplot %s.gp` in this folder\n", name, name);
	fprintf(f->gp, "set terminal pngcairo size 1000,640 noenhanced\n"
	    "set output '%s.png'\nset datafile missing '?'\nset grid\n"
	    "set key outside right top\nset title '%s'\n", name, t);
	return 0;
}

int
figure_series(struct figure *f, const char *title)
{
	if (f->nseries == FIGURE_MAX_SERIES) {
		f->dropped = 1;
		return -1;
	}
	if (f->nseries > 0)
		fputs("\n\n", f->dat);
	figure_text(f->title[f->nseries], sizeof(f->title[0]), title);
	f->nseries++;
	return 0;
}

void
figure_plot(struct figure *f, const char *using, const char *style)
{
	size_t i;

	for (i = 0; i < f->nseries; i++)
		fprintf(f->gp, "%s'%s.dat' index %zu using %s with %s lc %zu "
		    "title '%s'", i ? ", \\\n     " : "plot ", f->name, i,
		    using, style, i + 1, f->title[i]);
	fputc('\n', f->gp);
}

/* Run gnuplot on SCRIPT in plots/: lib/spawn, no shell. */
static int
figure_gnuplot(struct figure_dir *d, const char *script)
{
	char *const argv[] = { "gnuplot", (char *)script, NULL };
	struct spawn_opts o = { .inherit_output = 1, .dir = d->dir };
	struct spawn_result r;

	memset(&r, 0, sizeof(r));
	if (spawn_run(FIGURE_GNUPLOT, argv, &o, &r, d->err, d->errlen) == -1)
		return -1;
	if (WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0)
		return 0;
	if (WIFEXITED(r.status))
		snprintf(d->err, d->errlen, "%s %s/%s exited with %d",
		    FIGURE_GNUPLOT, d->dir, script, WEXITSTATUS(r.status));
	else
		snprintf(d->err, d->errlen, "%s %s/%s terminated by signal %d",
		    FIGURE_GNUPLOT, d->dir, script, WTERMSIG(r.status));
	return -1;
}

int
figure_draw(struct figure_dir *d, struct figure *f, const char *what)
{
	char script[200], png[PATH_MAX + 200];
	struct stat st;
	int bad;

	fputs("unset multiplot\n", f->gp);
	bad = ferror(f->dat) | ferror(f->gp);
	bad |= fclose(f->dat) == EOF;
	bad |= fclose(f->gp) == EOF;
	f->dat = f->gp = NULL;
	if (bad)
		return figure_fail(d, f->name);
	snprintf(script, sizeof(script), "%s.gp", f->name);
	if (figure_gnuplot(d, script) == -1)
		return -1;
	snprintf(png, sizeof(png), "%s/%s.png", d->dir, f->name);
	if (stat(png, &st) == -1 || st.st_size == 0) {
		snprintf(d->err, d->errlen, "gnuplot made no %s", png);
		return -1;
	}
	fprintf(d->out, "  drew    plots/%s.png: %s%s\n", f->name, what,
	    f->dropped ? " (first 48 series only)" : "");
	d->drawn++;
	return 0;
}

void
figure_cancel(struct figure_dir *d, struct figure *f)
{
	char path[PATH_MAX + 200];

	fclose(f->dat);
	fclose(f->gp);
	f->dat = f->gp = NULL;
	snprintf(path, sizeof(path), "%s/%s.dat", d->dir, f->name);
	unlink(path);
	snprintf(path, sizeof(path), "%s/%s.gp", d->dir, f->name);
	unlink(path);
}

void
figure_skipped(struct figure_dir *d, const char *name, const char *why)
{
	fprintf(d->out, "  skipped %s: %s\n", name, why);
}

/* Tables --------------------------------------------------------------- */

struct csvtab *
figure_load(struct figure_dir *d, const char *name, char *why, size_t len)
{
	char path[PATH_MAX + 32], err[512];
	struct csvtab *t;

	snprintf(path, sizeof(path), "%s/%s", d->data, name);
	if (access(path, F_OK) == -1) {
		snprintf(why, len, "no %s in the folder", name);
		return NULL;
	}
	if ((t = csvread_file(path, err, sizeof(err))) == NULL) {
		snprintf(why, len, "%s", err);
		return NULL;
	}
	if (csvtab_nrows(t) == 0) {
		snprintf(why, len, "%s has no rows", name);
		csvtab_free(t);
		return NULL;
	}
	return t;
}

struct csvtab *
figure_table(struct figure_dir *d, const char *file, const char *const *need,
    const char *plot)
{
	struct csvtab *t;
	char why[600];

	if ((t = figure_load(d, file, why, sizeof(why))) == NULL ||
	    !figure_has_cols(t, file, need, why, sizeof(why))) {
		figure_skipped(d, plot, why);
		csvtab_free(t);
		return NULL;
	}
	return t;
}

int
figure_has_cols(const struct csvtab *t, const char *file,
    const char *const *names, char *why, size_t len)
{
	for (; *names != NULL; names++)
		if (csvtab_col(t, *names) < 0) {
			snprintf(why, len, "%s has no column %s", file, *names);
			return 0;
		}
	return 1;
}

double
figure_num(const struct csvtab *t, size_t r, int col)
{
	double v;

	return csvtab_num(t, r, (size_t)col, &v) == 0 ? v : NAN;
}

void
figure_put(FILE *f, double v, const char *sep)
{
	if (isfinite(v))
		fprintf(f, "%.6g%s", v, sep);
	else
		fprintf(f, "?%s", sep);
}
