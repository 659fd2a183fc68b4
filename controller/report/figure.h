/*
 * figure: the gnuplot figure builder of `hoplab report`, and the helpers
 * that read a results folder's CSV files for it.  A leaf module: plot.c,
 * faultmarks.c and rfc2544plot.c call into it, it calls none of them.
 *
 * A figure is NAME.dat, one gnuplot data block per series (blocks are
 * separated by two blank lines and addressed by `index`; a single blank
 * line inside a block breaks the line, used to draw every repetition of
 * a series in its colour), and NAME.gp, a preamble and the plot commands
 * naming the blocks with their titles, both in DIR/plots/ and kept, so a
 * user can restyle a figure for a paper with `cd plots; gnuplot NAME.gp`.
 * figure_draw() runs /usr/bin/gnuplot NAME.gp in plots/ through
 * lib/spawn (fork + execv, no shell) and checks that NAME.png came out.
 *
 * Deliberately not here: what a figure shows (plot.c, faultmarks.c,
 * rfc2544plot.c), any statistics.
 */
#ifndef HOPLAB_FIGURE_H
#define HOPLAB_FIGURE_H

#include <limits.h>
#include <stddef.h>
#include <stdio.h>

#include "csvread.h"

#define FIGURE_GNUPLOT		"/usr/bin/gnuplot"
#define FIGURE_MAX_SERIES	48	/* series per figure; more are left out */

/* The plots folder being drawn into, and where its listing goes. */
struct figure_dir {
	char		dir[PATH_MAX];	/* DIR/plots */
	char		data[PATH_MAX];	/* DIR, where the CSV files are */
	FILE		*out;		/* the "drew" and "skipped" lines */
	int		drawn;		/* figures drawn so far */
	char		*err;		/* the caller's error buffer */
	size_t		errlen;
};

/* One figure being built. */
struct figure {
	char		name[160];	/* NAME of NAME.dat, .gp, .png */
	FILE		*dat, *gp;
	size_t		nseries;
	int		dropped;	/* series beyond FIGURE_MAX_SERIES */
	char		title[FIGURE_MAX_SERIES][96];
};

/*
 * Set D up for the results folder DIR (figures into DIR/plots/, which
 * is made if missing), listing on OUT, errors into ERR.  0, or -1 with
 * ERR when plots/ cannot be made.
 */
int	figure_dir_init(struct figure_dir *d, const char *dir, FILE *out,
	    char *err, size_t errlen);
/* S for a single-quoted gnuplot string (no quote, no newline). */
void	figure_text(char *dst, size_t len, const char *s);
/* Open plots/NAME.dat and NAME.gp with its preamble; 0 or -1. */
int	figure_open(struct figure_dir *d, struct figure *f, const char *name,
	    const char *title);
/* Start series TITLE; 0, or -1 when the figure has no room left. */
int	figure_series(struct figure *f, const char *title);
/* One plot command over every series: USING columns, STYLE. */
void	figure_plot(struct figure *f, const char *using, const char *style);
/* Close the figure's files, run gnuplot, check the PNG; 0 or -1. */
int	figure_draw(struct figure_dir *d, struct figure *f,
	    const char *what);
/* Close the figure's files and remove them (no data after all). */
void	figure_cancel(struct figure_dir *d, struct figure *f);
/* List plot NAME as skipped, and why. */
void	figure_skipped(struct figure_dir *d, const char *name,
	    const char *why);

/* DIR/NAME as a table; NULL with WHY when absent, bad or empty. */
struct csvtab *figure_load(struct figure_dir *d, const char *name, char *why,
	    size_t len);
/*
 * DIR/FILE as a table with every column of NEED (NULL-ended); NULL, with
 * PLOT listed as skipped and why, when it is absent, empty or lacks one.
 */
struct csvtab *figure_table(struct figure_dir *d, const char *file,
	    const char *const *need, const char *plot);
/* 1 if T has every column of NAMES (NULL-ended), else 0 with WHY. */
int	figure_has_cols(const struct csvtab *t, const char *file,
	    const char *const *names, char *why, size_t len);
/* Cell (R, COL) as a number, NAN when empty or not one. */
double	figure_num(const struct csvtab *t, size_t r, int col);
/* V and SEP into a .dat file; "?" (missing) when not finite. */
void	figure_put(FILE *f, double v, const char *sep);

#endif
