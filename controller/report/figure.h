/*
 * plotint: what plot.c shares with plotfault.c (fault markers) and
 * plotrfc.c (RFC 2544 curves): the figure builder and the table
 * helpers.  Not for use outside controller/plot*.c; plot.h is the
 * module's interface.
 */
#ifndef HOPLAB_PLOTINT_H
#define HOPLAB_PLOTINT_H

#include <limits.h>
#include <stddef.h>
#include <stdio.h>

#include "csvread.h"

#define FIG_MAX_SERIES	48	/* series per figure; more are left out */

struct plotter {
	char		dir[PATH_MAX];	/* DIR/plots */
	char		data[PATH_MAX];	/* DIR */
	FILE		*out;
	int		drawn;
	char		*err;
	size_t		errlen;
};

struct fig {
	char		name[160];
	FILE		*dat, *gp;
	size_t		nseries;
	int		dropped;	/* series beyond FIG_MAX_SERIES */
	char		title[FIG_MAX_SERIES][96];
};

/* S for a single-quoted gnuplot string (no quote, no newline). */
void	gp_text(char *dst, size_t len, const char *s);
/* Open plots/NAME.dat and NAME.gp with its preamble; 0 or -1. */
int	fig_open(struct plotter *p, struct fig *f, const char *name,
	    const char *title);
/* Start series TITLE; 0, or -1 when the figure has no room left. */
int	fig_series(struct fig *f, const char *title);
/* Close the figure's files, run gnuplot, check the PNG; 0 or -1. */
int	fig_draw(struct plotter *p, struct fig *f, const char *what);
/* Close the figure's files without drawing it (no data after all). */
void	fig_draw_cancel(struct plotter *p, struct fig *f);
/* List plot NAME as skipped, and why. */
void	skipped(struct plotter *p, const char *name, const char *why);
/* DIR/NAME as a table; NULL with WHY when absent, bad or empty. */
struct csvtab *load(struct plotter *p, const char *name, char *why,
	    size_t len);
/* 1 if T has every column of NAMES (NULL-ended), else 0 with WHY. */
int	has_cols(const struct csvtab *t, const char *file,
	    const char *const *names, char *why, size_t len);
/* Cell (R, COL) as a number, NAN when empty or not one. */
double	num(const struct csvtab *t, size_t r, int col);
/* V and SEP into a .dat file; "?" (missing) when not finite. */
void	put(FILE *f, double v, const char *sep);

/* plotfault.c: faults.csv's faults of FRAME as vertical lines in GP. */
int	plot_fault_marks(struct plotter *p, FILE *gp, const char *frame);
/* plotrfc.c: rfc2544.png from rfc2544.csv; 0 (drawn or skipped), -1. */
int	plot_rfc2544(struct plotter *p);

#endif
