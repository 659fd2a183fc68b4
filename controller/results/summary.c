/*
 * summary: summary.csv's column table (see summary.h).  Each entry names
 * a column, the struct flow_row field it holds and how it is printed;
 * writing and reading walk a layout's entries, so the two cannot
 * disagree.  Delays keep 3 decimals (1 ns), which hops.c relies on when
 * it recomputes from a file what it computed at the end of a run.
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "controller/results/csvfile.h"
#include "controller/results/summary.h"

enum sumkind {
	SK_STR,			/* char array */
	SK_SIZE,		/* size_t */
	SK_UINT,		/* unsigned */
	SK_U64,			/* uint64_t */
	SK_F64,			/* double, NaN when not measured */
	SK_LOSS,		/* derived from sent and lost; not read back */
};

struct sumcol {
	const char	*name;
	enum sumkind	kind;
	size_t		off;
	size_t		len;		/* SK_STR: the array's size */
	int		decimals;	/* SK_F64 */
};

#define FIELD(f)	offsetof(struct flow_row, f)
#define STR(n, f)	{ n, SK_STR, FIELD(f), sizeof(((struct flow_row *)0)->f), 0 }
#define SIZE(n, f)	{ n, SK_SIZE, FIELD(f), 0, 0 }
#define UINT(n, f)	{ n, SK_UINT, FIELD(f), 0, 0 }
#define U64(n, f)	{ n, SK_U64, FIELD(f), 0, 0 }
#define F64(n, f, d)	{ n, SK_F64, FIELD(f), 0, d }

static const struct sumcol cols[] = {
	STR("variant", variant), SIZE("routers", routers),
	UINT("frame_bytes", frame), UINT("rep", rep), STR("flow", flow),
	U64("sent", sent), U64("received", received), U64("lost", lost),
	{ "loss_pct", SK_LOSS, 0, 0, 4 },
	U64("duplicates", duplicates), U64("reordered", reordered),
	F64("delay_min_us", delay_min_us, 3),
	F64("delay_mean_us", delay_mean_us, 3),
	F64("delay_p50_us", delay_p50_us, 3),
	F64("delay_p90_us", delay_p90_us, 3),
	F64("delay_p99_us", delay_p99_us, 3),
	F64("delay_p999_us", delay_p999_us, 3),
	F64("delay_max_us", delay_max_us, 3),
	F64("delay_std_us", delay_std_us, 3),
	F64("jitter_us", jitter_us, 3),
	F64("throughput_mbps", throughput_mbps, 4),
	UINT("ttl_min", ttl_min), UINT("ttl_max", ttl_max),
	STR("ts_source", ts_source),
	/* appended: readers of the first 24 columns keep working */
	F64("ipdv_abs_mean_us", ipdv_abs_mean_us, 3),
	F64("ipdv_abs_p99_us", ipdv_abs_p99_us, 3),
	F64("pdv_p999_us", pdv_p999_us, 3),
	U64("idt_clamped", idt_clamped), U64("frame_clamped", frame_clamped),
	F64("tx_idt_std_us", tx_idt_std_us, 3),
	F64("tx_idt_err_p99_us", tx_idt_err_p99_us, 3),
	STR("point", point),	/* only for plans that sweep beyond frame */
	UINT("run", run),
	F64("tx_idt_err_p50_us", tx_idt_err_p50_us, 3),
	F64("tx_idt_err_p999_us", tx_idt_err_p999_us, 3),
	UINT("disturbed", disturbed),
	STR("replica_of", replica_of),
	STR("delay_kind", delay_kind),	/* only for plans with icmp flows */
	STR("group", group),		/* only for plans with group: */
};
#define NCOLS		(sizeof(cols) / sizeof(cols[0]))

static void
layout_add(struct summary_layout *l, size_t i)
{
	l->col[l->n] = (unsigned char)i;
	l->names[l->n] = cols[i].name;
	l->n++;
}

void
summary_layout_all(struct summary_layout *l, int has_point, int has_kind,
    int has_group)
{
	size_t i;

	l->n = 0;
	for (i = 0; i < NCOLS; i++)
		if ((has_point || strcmp(cols[i].name, "point") != 0) &&
		    (has_kind || strcmp(cols[i].name, "delay_kind") != 0) &&
		    (has_group || strcmp(cols[i].name, "group") != 0))
			layout_add(l, i);
}

int
summary_layout_parse(struct summary_layout *l, char *header, char *err,
    size_t errlen)
{
	char *f[SUMMARY_MAX_COLS + 1];
	size_t n = csvfile_split(header, f, SUMMARY_MAX_COLS), i, j;

	l->n = 0;
	for (i = 0; i < n; i++) {
		for (j = 0; j < NCOLS; j++)
			if (strcmp(f[i], cols[j].name) == 0)
				break;
		if (j == NCOLS) {
			snprintf(err, errlen, "column %zu is \"%s\", not one "
			    "of summary.csv's", i + 1, f[i]);
			return -1;
		}
		layout_add(l, j);
	}
	return 0;
}

int
summary_layout_has(const struct summary_layout *l, const char *name)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (strcmp(l->names[i], name) == 0)
			return 1;
	return 0;
}

int
summary_col_is_text(const char *name)
{
	size_t i;

	for (i = 0; i < NCOLS; i++)
		if (strcmp(cols[i].name, name) == 0)
			return cols[i].kind == SK_STR;
	return -1;
}

double
summary_loss_pct(const struct flow_row *r)
{
	return r->sent ? 100.0 * (double)r->lost / (double)r->sent : NAN;
}

static void
write_col(struct csv *c, const struct sumcol *k, const struct flow_row *r)
{
	const char *p = (const char *)r + k->off;

	switch (k->kind) {
	case SK_STR:
		csv_str(c, p);
		break;
	case SK_SIZE:
		csv_u64(c, *(const size_t *)(const void *)p);
		break;
	case SK_UINT:
		csv_u64(c, *(const unsigned *)(const void *)p);
		break;
	case SK_U64:
		csv_u64(c, *(const uint64_t *)(const void *)p);
		break;
	case SK_F64:
		csv_f64(c, *(const double *)(const void *)p, k->decimals);
		break;
	case SK_LOSS:
		csv_f64(c, summary_loss_pct(r), k->decimals);
		break;
	}
}

void
summary_write(struct csv *c, const struct summary_layout *l,
    const struct flow_row *row)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		write_col(c, &cols[l->col[i]], row);
}

static void
read_col(const struct sumcol *k, const char *s, struct flow_row *r)
{
	char *p = (char *)r + k->off;

	switch (k->kind) {
	case SK_STR:
		snprintf(p, k->len, "%s", s);
		break;
	case SK_SIZE:
		*(size_t *)(void *)p = strtoul(s, NULL, 10);
		break;
	case SK_UINT:
		*(unsigned *)(void *)p = (unsigned)strtoul(s, NULL, 10);
		break;
	case SK_U64:
		*(uint64_t *)(void *)p = strtoull(s, NULL, 10);
		break;
	case SK_F64:
		*(double *)(void *)p = *s == '\0' ? NAN : strtod(s, NULL);
		break;
	case SK_LOSS:
		break;
	}
}

/* What a column the file lacks reads as: NaN for measurements. */
static void
row_defaults(struct flow_row *r)
{
	size_t i;

	memset(r, 0, sizeof(*r));
	for (i = 0; i < NCOLS; i++)
		if (cols[i].kind == SK_F64)
			*(double *)(void *)((char *)r + cols[i].off) = NAN;
}

int
summary_parse(const struct summary_layout *l, char *line,
    struct flow_row *row)
{
	char *f[SUMMARY_MAX_COLS + 1];
	size_t i;

	if (csvfile_split(line, f, SUMMARY_MAX_COLS) != l->n)
		return -1;
	row_defaults(row);
	for (i = 0; i < l->n; i++)
		read_col(&cols[l->col[i]], f[i], row);
	return 0;
}
