/*
 * starts: how together generators given one start instant really began
 * (GenParams.start_at_ns): starts.csv in the results folder, a row per
 * sender, and the spread on the console.  Figures, not checks: a loaded
 * machine starts late, and that is what the file is for.
 */
#ifndef HOPLAB_STARTS_H
#define HOPLAB_STARTS_H

#include <stddef.h>
#include <stdint.h>

struct start_row {
	const char	*flow;
	const char	*host;
	int64_t		first_tx_ns;	/* FlowResult.first_tx_ns */
};

/*
 * Append point POINT (1-based), repetition REP's N rows to DIR/starts.csv
 * (created with its header), each against START_AT (CLOCK_REALTIME), and
 * unless QUIET print the spread of two or more.  Problems are logged.
 */
void	starts_report(const char *dir, size_t point, unsigned rep,
	    int64_t start_at, const struct start_row *rows, size_t n,
	    int quiet);

#endif
