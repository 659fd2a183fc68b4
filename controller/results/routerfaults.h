/*
 * routerfaults: the routers' forwarded packets per second around each
 * fault (routerfaults.c): router_faults.csv, and the series that
 * plots/routers_fwd.png draws (controller/report/routerplot.c).
 *
 * Both come from the results folder's files only, routers.csv's
 * forwarded counts (fwd_tcp ... fwd_other, cumulative per router role)
 * and faults.csv's faults with their time_unix_s, so that `hoplab report
 * DIR` makes them again exactly as the run did.  Pure computation over
 * what the files say; nothing here talks to an agent.
 */
#ifndef HOPLAB_ROUTERFAULTS_H
#define HOPLAB_ROUTERFAULTS_H

#include <stddef.h>
#include <stdint.h>

#define ROUTERFAULTS_NCLASS	4	/* tcp, udp, icmp, other */
#define ROUTERFAULTS_WINDOW_S	5.0	/* seconds before and after */
#define ROUTERFAULTS_SAME_S	0.1	/* a fault's rows (its ends) within */

/* One report of a router: its time and cumulative forwarded counts. */
struct routerfaults_sample {
	double		t;			/* time_unix_s */
	double		n[ROUTERFAULTS_NCLASS];	/* packets so far */
};

/* The reports of one router role, in time order. */
struct routerfaults_series {
	char		router[64];
	uint32_t	role;
	char		variant[128];
	char		impl[16];
	struct routerfaults_sample *s;
	size_t		n;
};

/* A fault as faults.csv has it, once per point (its earliest row). */
struct routerfaults_fault {
	size_t		point;
	char		label[96];		/* "link B-C down" */
	double		t;			/* time_unix_s */
};

struct routerfaults {
	struct routerfaults_series *series;
	size_t		nseries;
	struct routerfaults_fault *faults;	/* in time order */
	size_t		nfaults;
};

/*
 * Load DIR/routers.csv's forwarded counts and DIR/faults.csv's faults
 * into RF (zeroed by the caller).  A file that is missing, or has none of
 * those columns (a run without faults, a folder of an older hoplab),
 * adds nothing.  0, or -1 with ERR (a file that cannot be read); free RF
 * with routerfaults_free() either way.
 */
int	routerfaults_load(const char *dir, struct routerfaults *rf, char *err,
	    size_t errlen);
void	routerfaults_free(struct routerfaults *rf);
/*
 * Rates of series S between its samples A and B (indices, A < B): the
 * forwarded packets per second of each class into PPS[0..3] and of all
 * into PPS[4].  0, or -1 when a counter went down in between (the router
 * counted again from 0) or no time passed.
 */
int	routerfaults_rate(const struct routerfaults_series *s, size_t a,
	    size_t b, double pps[ROUTERFAULTS_NCLASS + 1]);
/*
 * Write DIR/router_faults.csv: for each fault and each router role with
 * reports around it, the mean forwarded rates before and after it
 * (docs/results.md "router_faults.csv").  No faults or no forwarded
 * counts: no file (an old one is removed).  0, or -1 with ERR.
 */
int	routerfaults_write(const char *dir, char *err, size_t errlen);

#endif
