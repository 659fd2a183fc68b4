/*
 * plandl: a tcp flow as a download (see plandl.h).
 *
 *   - name: get
 *     mode: tcp
 *     from: H1
 *     to: H2
 *     bytes: 100MB        # exactly this many (plansize.h units), or $size
 *     streams: 4          # parallel connections of the one flow, 1..128
 *     cc: cubic           # TCP_CONGESTION on the sender, the kernel's name
 *     duration: 30s       # the limit; without it PLAN_TCP_LIMIT_NS (600 s)
 *
 * The loader cannot know the agents' kernels: a cc that looks like a
 * name passes here, and a kernel without it fails the run with the
 * sender's message (generator/tcpconn.c).
 */
#include <stdio.h>
#include <string.h>

#include "controller/plan/plan.h"
#include "controller/plan/plandl.h"
#include "controller/plan/plansize.h"
#include "yamldoc.h"

#define CC_CHARS	"abcdefghijklmnopqrstuvwxyz0123456789_"

static int
parse_bytes(struct parse_ctx *c, yaml_node_t *node, const char *fpath,
    struct plan_flow *f)
{
	char path[YAMLDOC_PATH_MAX], got[64];

	yamldoc_path_key(path, sizeof(path), fpath, "bytes");
	if (plansize_parse(yamldoc_text(node), &f->tcp_bytes) == -1 ||
	    f->tcp_bytes < 1 || f->tcp_bytes > PLAN_TCP_BYTES_MAX)
		return PERR(c, node, path, "expected a size of 1B..1TiB such "
		    "as 100MB (a whole number of B, kB, MB, GB, TB, KiB, MiB, "
		    "GiB, TiB), got %s", yamldoc_got(node, got, sizeof(got)));
	return 0;
}

static int
parse_cc(struct parse_ctx *c, yaml_node_t *node, const char *fpath,
    struct plan_flow *f)
{
	char path[YAMLDOC_PATH_MAX], got[64];
	const char *s = yamldoc_text(node);
	size_t n = s ? strlen(s) : 0;

	yamldoc_path_key(path, sizeof(path), fpath, "cc");
	if (n == 0 || n >= sizeof(f->tcp_cc) || strspn(s, CC_CHARS) != n)
		return PERR(c, node, path, "expected a congestion control's "
		    "kernel name, 1..15 of a-z, 0-9 and _ (cubic, reno, bbr), "
		    "got %s", yamldoc_got(node, got, sizeof(got)));
	memcpy(f->tcp_cc, s, n + 1);
	return 0;
}

int
plandl_parse(struct parse_ctx *c, yaml_node_t *bytes, yaml_node_t *streams,
    yaml_node_t *cc, const char *fpath, struct plan_flow *f)
{
	char path[YAMLDOC_PATH_MAX];
	long long n = 1;
	int rc = 0;

	f->tcp_bytes = 0;
	f->tcp_streams = 1;
	f->tcp_cc[0] = '\0';
	if (bytes != NULL && parse_bytes(c, bytes, fpath, f) == -1)
		rc = -1;
	yamldoc_path_key(path, sizeof(path), fpath, "streams");
	if (streams != NULL && yamldoc_int(c->yd, streams, path, 1,
	    PLAN_TCP_STREAMS_MAX, "parallel connections of the flow", &n,
	    c->err, c->errlen) == -1)
		rc = -1;
	f->tcp_streams = (unsigned)n;
	if (cc != NULL && parse_cc(c, cc, fpath, f) == -1)
		rc = -1;
	return rc;
}

int
plandl_refuse(struct parse_ctx *c, yaml_node_t *bytes, yaml_node_t *streams,
    yaml_node_t *cc, const char *fpath, const struct plan_flow *f)
{
	char path[YAMLDOC_PATH_MAX];
	yaml_node_t *v = bytes ? bytes : streams ? streams : cc;

	if (v == NULL)
		return 0;
	yamldoc_path_key(path, sizeof(path), fpath, bytes ? "bytes" :
	    streams ? "streams" : "cc");
	return PERR(c, v, path, "only for a tcp flow (mode: tcp, a "
	    "download), not for mode %s", f->mode);
}

int
plan_has_download(const struct plan *p)
{
	size_t i;

	for (i = 0; i < p->nflows; i++)
		if (strcmp(p->flows[i].mode, "tcp") == 0 &&
		    p->flows[i].tcp_bytes > 0)
			return 1;
	return 0;
}
