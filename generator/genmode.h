/*
 * genmode: the operations the packet modes l2 and udp share (genmode.c):
 * both run a struct gen, write records, send live batches and print
 * and report its results the same way.
 */
#ifndef HOPLAB_GEN_GENMODE_H
#define HOPLAB_GEN_GENMODE_H

#include <stdio.h>

#include "mode.h"

/*
 * The first step of a packet mode's open(): a struct gen for j->cfg in
 * j->run, writing j->rec's records.  0 or GEN_EXIT_IFACE, logged.
 */
int	genmode_new(struct gen_job *j);
/*
 * After the sockets: with --report, the live batches' socket
 * (interim batches, then the final one).  0 or GEN_EXIT_REPORT, logged.
 */
int	genmode_live(struct gen_job *j);
/*
 * The end of a packet mode's run(): RC is what its loop returned (-1
 * with ERR).  Logs, closes the records file with the timestamp source,
 * and returns 0 or GEN_EXIT_IFACE.
 */
int	genmode_ran(struct gen_job *j, int rc, const char *err);
/* The operations report and close of modes l2 and udp. */
int	genmode_report(struct gen_job *j);
void	genmode_close(struct gen_job *j);

#endif
