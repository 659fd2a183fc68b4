/*
 * summary: the columns of summary.csv, in one table, and its rows written
 * and read back by column name.
 *
 * A file's layout is the list of columns its header names, in order.  A
 * run writes every column this hoplab knows ("point" only for plans that
 * sweep more than the frame); a folder written by an older hoplab is read
 * with its own layout, and rewritten (attach, `hoplab report`) with the
 * same layout, so its bytes do not change.  A column the file lacks reads
 * as "not measured": NaN, 0 or "".  A new column is one entry at the end
 * of the table in summary.c and one field of struct flow_row.
 */
#ifndef HOPLAB_SUMMARY_H
#define HOPLAB_SUMMARY_H

#include <stddef.h>

#include "csv.h"
#include "controller/results/results.h"

#define SUMMARY_MAX_COLS	64

struct summary_layout {
	size_t		n;
	unsigned char	col[SUMMARY_MAX_COLS];	/* indices into the table */
	const char	*names[SUMMARY_MAX_COLS];	/* for csv_open */
};

/*
 * Every column; "point" only if HAS_POINT, "delay_kind" only if HAS_KIND
 * (a plan with icmp flows), "group" only if HAS_GROUP (a plan with a
 * group: key), so other files keep their header.
 */
void	summary_layout_all(struct summary_layout *l, int has_point,
	    int has_kind, int has_group);
/*
 * The layout of HEADER (summary.csv's first line, without its line end):
 * 0, or -1 with ERR naming a column this hoplab does not know.
 */
int	summary_layout_parse(struct summary_layout *l, char *header,
	    char *err, size_t errlen);
/* 1 if the layout has column NAME. */
int	summary_layout_has(const struct summary_layout *l, const char *name);
/* ROW as one line in L's columns (then csv_end_row). */
void	summary_write(struct csv *c, const struct summary_layout *l,
	    const struct flow_row *row);
/* One line in L's columns back into ROW; -1 if it is not L's width. */
int	summary_parse(const struct summary_layout *l, char *line,
	    struct flow_row *row);
/*
 * Whether column NAME holds text (1) or a number (0); -1 when summary.csv
 * has no such column.  For readers that type the cells (rundoc.c).
 */
int	summary_col_is_text(const char *name);
/* Loss as summary.csv's loss_pct shows it; NaN when nothing was sent. */
double	summary_loss_pct(const struct flow_row *r);

#endif
