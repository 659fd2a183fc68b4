/*
 * fastpath: hoplab-router's XDP fast path, the kernel side (docs/
 * router.md, "The fast path"): it loads the BPF program
 * (router/bpf/fastpath.bpf.c, embedded in the binary), attaches it to
 * each interface of io.backend xdp in place of libxdp's default XSK
 * program, puts each interface's AF_XDP socket into its XSKMAP, fills
 * the maps through fpmirror (fpmirror.h) and sums its per-CPU counters.
 *
 * One program and one set of maps for all interfaces (the maps are
 * shared: a route names the output port, the device map holds every
 * port), attached with libbpf's bpf_xdp_attach() rather than libxdp's
 * dispatcher, which would load a copy of the program per interface.
 *
 * Linked only into the program (loop.c, xsk.c, ctl.c call it); the
 * modules the fuzz target links reach it through fpmirror and
 * struct port_xio.
 *
 * Deliberately not here: zero-copy, several queues, pinning the maps
 * (they live as long as the router), a program left behind on exit.
 */
#ifndef HOPLAB_ROUTER_FASTPATH_H
#define HOPLAB_ROUTER_FASTPATH_H

#include <stddef.h>
#include <stdint.h>

#include "router/bpf/fastpath_abi.h"
#include "router/fpmirror.h"

struct fastpath;

/*
 * Load the program and make its maps.  EXPLICIT: io.fastpath was "on"
 * in the file PATH at LINE (an interface without native XDP is then an
 * error naming them), else the default (it falls back).  A program the
 * verifier refuses is an error whose text ends with the verifier's own
 * message.  The object is the embedded one unless the environment names
 * another in HOPLAB_ROUTER_BPF_OBJ (for tests).  NULL with ERR.
 */
struct fastpath *fastpath_open(int explicit, const char *path,
	    unsigned long line, char *err, size_t errlen);
/* Detach from every interface, free the maps.  NULL is fine. */
void	fastpath_free(struct fastpath *fp);
/*
 * Attach the program to IFNAME, the router's PORT, in MODE (0 native
 * else SKB, 1 native, 2 SKB; io.xdp_mode).  *NATIVE: whether it runs in
 * the driver (only then may the port be fast).  0, or -1 with ERR.
 */
int	fastpath_attach(struct fastpath *fp, unsigned port, const char *ifname,
	    int mode, int *native, char *err, size_t errlen);
/* Take the program off PORT's interface again (the port closes). */
void	fastpath_detach(struct fastpath *fp, unsigned port);
/* PORT's AF_XDP socket XSK_FD gets what the program punts.  0 or -1. */
int	fastpath_set_xsk(struct fastpath *fp, unsigned port, int xsk_fd,
	    char *err, size_t errlen);
/* The maps' mirror, for the router's tables to write through. */
struct fpmirror *fastpath_mirror(struct fastpath *fp);
/*
 * The counters of ports 0 .. NPORTS - 1 summed over the CPUs into
 * OUT[port][counter] (fastpath_abi.h's enum fp_ctr).  0 or -1.
 */
int	fastpath_counters(struct fastpath *fp, unsigned nports,
	    uint64_t out[][FP_NCTR]);

#endif
