/*
 * xsk: hoplab-router's AF_XDP I/O back end (io.backend: xdp), an
 * alternative to lib/pktio's AF_PACKET rings for one interface.
 *
 * One XSK socket per interface, bound to queue 0 in copy mode (veth has
 * no zero-copy) with need_wakeup, on one UMEM of its own; libxdp loads
 * its default XSK program (it redirects every frame of the queue to the
 * socket), in native (driver) mode or, if the kernel refuses that, in
 * SKB (generic) mode; or, with the XDP fast path (fastpath.h), that
 * path's program in its place, which punts to the socket what it does
 * not forward itself.  Frames are received from the XSK RX ring
 * (zero-copy out of the UMEM) and sent through the XSK TX ring: copied
 * into a UMEM frame, one sendto() kick per flush.
 *
 * The router reaches it only through struct port_xio (router.h), a table
 * of functions loop.c hands to router_setup(), so that the modules that
 * do not link libxdp (the fuzz target) keep working unchanged.
 *
 * Deliberately not here: zero-copy mode, several queues per interface,
 * receive timestamps from the kernel (the frame is
 * stamped when the router reads it), checksum-offload flags.
 */
#ifndef HOPLAB_ROUTER_XSK_H
#define HOPLAB_ROUTER_XSK_H

struct port_xio;

/* The AF_XDP back end's function table (router.h: struct port_xio). */
extern const struct port_xio xsk_xio;

#endif
