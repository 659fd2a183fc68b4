/*
 * fastpath: the XDP fast path's program, maps and counters (see
 * fastpath.h).
 *
 * The object file is linked into the binary (router/bpf/fastpath_obj.S,
 * .incbin of build/router/bpf/fastpath.bpf.o): no path to look up at run
 * time, and the program always matches the binary's idea of the maps.
 *
 * libbpf reports a verifier rejection only through its print callback
 * (the kernel's log between "BEGIN PROG LOAD LOG" and "END PROG LOAD
 * LOG"); while the object loads, that callback collects everything into
 * a buffer, and the last lines of the log, where the verifier says what
 * it refused, become the error.
 */
#include <errno.h>
#include <inttypes.h>
#include <net/if.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <linux/ethtool.h>
#include <linux/if_link.h>
#include <linux/sockios.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "log.h"
#include "router/fastpath.h"

#define FP_LOG_MAX	(256 * 1024)

extern const char fastpath_bpf_obj[], fastpath_bpf_obj_end[];

struct fastpath {
	struct bpf_object *obj;
	int		prog_fd;
	int		fd[FPM_NMAPS];
	int		xsks_fd, stats_fd;
	int		ncpus;
	int		explicit;	/* io.fastpath: on */
	char		path[256];	/* ... in this file */
	unsigned long	line;		/* ... at this line */
	unsigned	ifindex[FP_PORTS_MAX];	/* attached; 0: not */
	uint32_t	flags[FP_PORTS_MAX];	/* its XDP mode flags */
	struct fpmirror	m;
	uint64_t	*vals;		/* ncpus counters, for lookups */
};

static const char *const map_names[FPM_NMAPS] = {
	[FPM_IFINDEX] = "fp_ifindex",
	[FPM_PORTS] = "fp_ports",
	[FPM_ROUTES] = "fp_routes",
	[FPM_NEIGH] = "fp_neigh",
	[FPM_LOCAL] = "fp_local",
	[FPM_TX] = "fp_tx",
};

/* ------------------------------------------------------------ maps */

/*
 * A failed map operation is logged the first time and then every
 * FP_LOG_EVERY times (a routes_file larger than fp_routes holds fails
 * once a route beyond it): the count is in the mirror's errors.
 */
#define FP_LOG_EVERY	65536

static int
op_update(void *arg, enum fpm_map map, const void *key, const void *val)
{
	struct fastpath *fp = arg;

	if (bpf_map_update_elem(fp->fd[map], key, val, BPF_ANY) == 0)
		return 0;
	if (fp->m.errors % FP_LOG_EVERY == 0)
		log_warn("fast path: %s: update: %s (its packets take the "
		    "slow path; %" PRIu64 " map errors before)",
		    map_names[map], strerror(errno), fp->m.errors);
	return -1;
}

static int
op_del(void *arg, enum fpm_map map, const void *key)
{
	struct fastpath *fp = arg;

	if (bpf_map_delete_elem(fp->fd[map], key) == 0 || errno == ENOENT)
		return 0;
	if (fp->m.errors % FP_LOG_EVERY == 0)
		log_warn("fast path: %s: delete: %s (%" PRIu64 " map errors "
		    "before)", map_names[map], strerror(errno),
		    fp->m.errors);
	return -1;
}

static const struct fpm_ops map_ops = {
	.update = op_update,
	.del = op_del,
};

/* ------------------------------------------------------------ loading */

static char *load_log;		/* libbpf's messages while loading */
static size_t load_len;

static int
collect(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	int n;

	(void)level;
	if (load_log == NULL || load_len >= FP_LOG_MAX - 1)
		return 0;
	n = vsnprintf(load_log + load_len, FP_LOG_MAX - load_len, fmt, ap);
	if (n > 0)
		load_len += (size_t)n < FP_LOG_MAX - load_len ? (size_t)n :
		    FP_LOG_MAX - 1 - load_len;
	return n;
}

static int
quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	return log_verbosity() >= 2 ? vfprintf(stderr, fmt, ap) : 0;
}

/*
 * The verifier's last words in LOG: up to three lines before "-- END
 * PROG LOAD LOG --" (or the log's last lines) but its closing statistics
 * ("processed N insns"), joined by " | ".
 */
static void
verifier_message(char *log, char *out, size_t outlen)
{
	char *end = strstr(log, "-- END PROG LOAD LOG --"), *p, *lines[3];
	int n = 0, i;

	if (end == NULL)
		end = log + strlen(log);
	*end = '\0';
	while (end > log && n < 3) {
		while (end > log && (end[-1] == '\n' || end[-1] == ' '))
			*--end = '\0';
		for (p = end; p > log && p[-1] != '\n'; p--)
			;
		if (p == end || strstr(p, "BEGIN PROG LOAD LOG") != NULL)
			break;
		if (strncmp(p, "processed ", 10) != 0)	/* the statistics */
			lines[n++] = p;
		end = p;
	}
	out[0] = '\0';
	for (i = n - 1; i >= 0; i--)
		snprintf(out + strlen(out), outlen - strlen(out), "%s%s",
		    lines[i], i > 0 ? " | " : "");
	if (n == 0)
		snprintf(out, outlen, "(no verifier log)");
}

static struct bpf_object *
obj_open(char *err, size_t errlen)
{
	LIBBPF_OPTS(bpf_object_open_opts, oo, .object_name = "hoplab_fp");
	const char *alt = getenv("HOPLAB_ROUTER_BPF_OBJ");
	struct bpf_object *o;

	libbpf_set_print(quiet);
	if (alt != NULL && alt[0] != '\0')
		o = bpf_object__open_file(alt, NULL);
	else
		o = bpf_object__open_mem(fastpath_bpf_obj,
		    (size_t)(fastpath_bpf_obj_end - fastpath_bpf_obj), &oo);
	if (o == NULL || libbpf_get_error(o) != 0) {
		snprintf(err, errlen, "XDP fast path: cannot open the BPF "
		    "object%s%s: %s", alt != NULL ? " " : "",
		    alt != NULL ? alt : "", strerror(errno));
		return NULL;
	}
	return o;
}

/* Load FP->obj, the verifier's message in ERR when it refuses. */
static int
obj_load(struct fastpath *fp, char *err, size_t errlen)
{
	char msg[768];
	int rc;

	if ((load_log = calloc(1, FP_LOG_MAX)) == NULL) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	load_len = 0;
	libbpf_set_print(collect);
	rc = bpf_object__load(fp->obj);
	libbpf_set_print(quiet);
	if (rc != 0) {
		if (strstr(load_log, "PROG LOAD LOG") != NULL) {
			verifier_message(load_log, msg, sizeof(msg));
			snprintf(err, errlen, "XDP fast path: the kernel's "
			    "verifier refused the program: %s", msg);
		} else
			snprintf(err, errlen, "XDP fast path: cannot load the "
			    "BPF program: %s", strerror(-rc));
	} else if (log_verbosity() >= 2)
		fputs(load_log, stderr);
	free(load_log);
	load_log = NULL;
	return rc != 0 ? -1 : 0;
}

static int
find_fds(struct fastpath *fp, char *err, size_t errlen)
{
	struct bpf_program *p;
	unsigned i;

	p = bpf_object__find_program_by_name(fp->obj, "hoplab_fastpath");
	fp->prog_fd = p != NULL ? bpf_program__fd(p) : -1;
	for (i = 0; i < FPM_NMAPS; i++)
		fp->fd[i] = bpf_object__find_map_fd_by_name(fp->obj,
		    map_names[i]);
	fp->xsks_fd = bpf_object__find_map_fd_by_name(fp->obj, "fp_xsks");
	fp->stats_fd = bpf_object__find_map_fd_by_name(fp->obj, "fp_stats");
	for (i = 0; i < FPM_NMAPS; i++)
		if (fp->fd[i] < 0)
			break;
	if (fp->prog_fd < 0 || i < FPM_NMAPS || fp->xsks_fd < 0 ||
	    fp->stats_fd < 0) {
		snprintf(err, errlen, "XDP fast path: the BPF object lacks "
		    "the program hoplab_fastpath or one of its maps");
		return -1;
	}
	return 0;
}

struct fastpath *
fastpath_open(int explicit, const char *path, unsigned long line, char *err,
    size_t errlen)
{
	struct fastpath *fp;

	if ((fp = calloc(1, sizeof(*fp))) == NULL) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	fp->explicit = explicit;
	snprintf(fp->path, sizeof(fp->path), "%s", path);
	fp->line = line;
	fp->m.ops = &map_ops;
	fp->m.arg = fp;
	if ((fp->ncpus = libbpf_num_possible_cpus()) <= 0 ||
	    (fp->vals = calloc((size_t)fp->ncpus, sizeof(uint64_t))) ==
	    NULL) {
		snprintf(err, errlen, "XDP fast path: cannot count the CPUs");
		goto fail;
	}
	if ((fp->obj = obj_open(err, errlen)) == NULL ||
	    obj_load(fp, err, errlen) == -1 || find_fds(fp, err, errlen) == -1)
		goto fail;
	return fp;
fail:
	fastpath_free(fp);
	return NULL;
}

void
fastpath_free(struct fastpath *fp)
{
	unsigned i;

	if (fp == NULL)
		return;
	for (i = 0; i < FP_PORTS_MAX; i++)
		fastpath_detach(fp, i);
	if (fp->obj != NULL)
		bpf_object__close(fp->obj);
	free(fp->vals);
	free(fp);
}

/* ------------------------------------------------------------ ports */

/* Is IFNAME a veth (its driver, as ethtool -i says)? */
static int
is_veth(const char *ifname)
{
	struct ethtool_drvinfo di;
	struct ifreq ifr;
	int s, rc;

	if ((s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0)) == -1)
		return 0;
	memset(&ifr, 0, sizeof(ifr));
	memset(&di, 0, sizeof(di));
	di.cmd = ETHTOOL_GDRVINFO;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	ifr.ifr_data = (void *)&di;
	rc = ioctl(s, SIOCETHTOOL, &ifr) == 0 && strcmp(di.driver, "veth") == 0;
	close(s);
	return rc;
}

int
fastpath_attach(struct fastpath *fp, unsigned port, const char *ifname,
    int mode, int *native, char *err, size_t errlen)
{
	unsigned ifx = if_nametoindex(ifname);
	int rc = -EINVAL;

	if (port >= FP_PORTS_MAX || ifx == 0) {
		snprintf(err, errlen, "interface %s: %s", ifname,
		    ifx == 0 ? "no such interface" : "too many interfaces");
		return -1;
	}
	*native = 0;
	if (mode != 2) {
		rc = bpf_xdp_attach((int)ifx, fp->prog_fd, XDP_FLAGS_DRV_MODE,
		    NULL);
		*native = rc == 0;
	}
	if (rc != 0 && fp->explicit) {
		snprintf(err, errlen, "%s:%lu: io.fastpath: on: interface %s "
		    "cannot run XDP in its driver (%s); set io.fastpath off "
		    "or leave it out", fp->path, fp->line, ifname,
		    strerror(-rc));
		return -1;
	}
	if (rc != 0 && mode == 1) {
		snprintf(err, errlen, "interface %s: XDP (native mode): %s",
		    ifname, strerror(-rc));
		return -1;
	}
	if (rc != 0) {
		log_info("fast path: interface %s: no native XDP (%s), every "
		    "packet takes the slow path", ifname, strerror(-rc));
		if ((rc = bpf_xdp_attach((int)ifx, fp->prog_fd,
		    XDP_FLAGS_SKB_MODE, NULL)) != 0) {
			snprintf(err, errlen, "interface %s: XDP (skb mode): "
			    "%s", ifname, strerror(-rc));
			return -1;
		}
	}
	/*
	 * A veth delivers a redirected frame to its peer only when the peer
	 * polls with NAPI (GRO on, threaded NAPI, or an XDP program of its
	 * own); otherwise the kernel drops it and counts it nowhere we see.
	 */
	if (*native && is_veth(ifname))
		log_info("fast path: interface %s is a veth: its peer must "
		    "have GRO on (ethtool -K PEER gro on) or an XDP program, "
		    "or the frames the fast path sends out of it are lost",
		    ifname);
	fp->ifindex[port] = ifx;
	fp->flags[port] = *native ? XDP_FLAGS_DRV_MODE : XDP_FLAGS_SKB_MODE;
	return 0;
}

void
fastpath_detach(struct fastpath *fp, unsigned port)
{
	if (fp == NULL || port >= FP_PORTS_MAX || fp->ifindex[port] == 0)
		return;
	(void)bpf_map_delete_elem(fp->xsks_fd, &port);
	(void)bpf_xdp_detach((int)fp->ifindex[port], fp->flags[port], NULL);
	fp->ifindex[port] = 0;
}

int
fastpath_set_xsk(struct fastpath *fp, unsigned port, int xsk_fd, char *err,
    size_t errlen)
{
	uint32_t k = port, v = (uint32_t)xsk_fd;

	if (bpf_map_update_elem(fp->xsks_fd, &k, &v, BPF_ANY) != 0) {
		snprintf(err, errlen, "XDP fast path: socket of port %u into "
		    "the XSKMAP: %s", port, strerror(errno));
		return -1;
	}
	return 0;
}

struct fpmirror *
fastpath_mirror(struct fastpath *fp)
{
	return fp != NULL ? &fp->m : NULL;
}

int
fastpath_counters(struct fastpath *fp, unsigned nports,
    uint64_t out[][FP_NCTR])
{
	uint32_t k;
	unsigned p, c;

	for (p = 0; p < nports && p < FP_PORTS_MAX; p++)
		for (c = 0; c < FP_NCTR; c++) {
			k = p * FP_NCTR + c;
			if (bpf_map_lookup_elem(fp->stats_fd, &k,
			    fp->vals) != 0)
				return -1;
			fpm_sum(fp->vals, (unsigned)fp->ncpus, 1, &out[p][c]);
		}
	return 0;
}
