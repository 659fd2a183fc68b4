/*
 * flowmerge: a topology flow's row from its two ends (flowmerge.c).
 */
#ifndef HOPLAB_CONTROLLER_RUN_FLOWMERGE_H
#define HOPLAB_CONTROLLER_RUN_FLOWMERGE_H

#include "msg.h"

/*
 * M, a copy of the udp receiver's result RCV, when RCV never got the
 * sender's end message (sent_unknown; else M is left alone): the sent
 * count of the sender's result SND, lost as the difference.  RCV's
 * intervals are right up to the one holding the last packet it
 * received; from there on an interval's sent count is SND's (SND's bins
 * start at the run's start instant, RCV's at the first packet's stamp, a
 * fraction of a ms to a few ms later: an interval may be off by a
 * packet), and SND's intervals after RCV's last follow, all lost.  *IVS
 * is the interval array M then points to (the caller frees it; NULL
 * when M keeps RCV's); M's intervals point into RCV and SND, whose
 * intervals may be changed: they must outlive M.  M keeps RCV's TTL
 * changes (ttl_changes, ttl_changes_dropped) either way: only the
 * receiver sees a TTL (path_changes.csv, recovery.csv read them).
 */
void	flowmerge_sent(Hoplab__FlowResult *m, const Hoplab__FlowResult *rcv,
	    const Hoplab__FlowResult *snd, Hoplab__FlowInterval ***ivs);

/*
 * A tcp flow's row M (a copy of the sender's result, its intervals the
 * sender's bytes written) given the bytes the receiver read: M's
 * rx_bytes become RCV's total (the sender's result has none), interval k's
 * rx_bytes and rx_mbps become the receiver RCV's interval k's (RCV's rows
 * start at the first connection it accepted, half a round trip after the
 * sender's first connect); receiver rows past M's last are added to M's
 * last, so that M's rx_bytes add up to what the receiver read.  M's
 * intervals are changed in place (they are the sender's result's).
 */
void	flowmerge_tcp(Hoplab__FlowResult *m, const Hoplab__FlowResult *rcv);

#endif
