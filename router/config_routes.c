/*
 * config_routes: the routes_file of hoplab-router's configuration (see
 * config_routes.h).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "router/config.h"
#include "router/config_routes.h"

/* PATH, or PATH in the folder of CONF when it is relative, into BUF. */
static void
resolve(const char *conf, const char *path, char *buf, size_t len)
{
	const char *slash = strrchr(conf, '/');

	if (path[0] == '/' || slash == NULL)
		snprintf(buf, len, "%s", path);
	else
		snprintf(buf, len, "%.*s/%s", (int)(slash - conf), conf, path);
}

/* One line "PREFIX/LEN VIA" of FILE at LINE into R; 0, 1 (none) or -1. */
static int
parse_line(const struct rconf *c, char *s, const char *file,
    unsigned long line, struct rconf_route *r, char *err, size_t errlen)
{
	char *pfx, *via, *rest;
	struct in_addr ia;
	int port;

	pfx = strtok_r(s, " \t\r\n", &rest);
	if (pfx == NULL || pfx[0] == '#')
		return 1;
	via = strtok_r(NULL, " \t\r\n", &rest);
	if (via == NULL || strtok_r(NULL, " \t\r\n", &rest) != NULL ||
	    rconf_parse_prefix(pfx, 1, &r->prefix, &r->plen) == -1 ||
	    inet_pton(AF_INET, via, &ia) != 1) {
		snprintf(err, errlen, "%s:%lu: expected PREFIX/LEN VIA such "
		    "as 20.0.0.0/24 198.18.1.2 (no host bits), got '%.40s'",
		    file, line, pfx);
		return -1;
	}
	r->via = ntohl(ia.s_addr);
	port = rconf_iface_for(c, r->via);
	if (port < 0 || c->ifs[port].addr == r->via) {
		snprintf(err, errlen, "%s:%lu: next hop %s is %s", file, line,
		    via, port < 0 ? "not in the subnet of any interface" :
		    "the router's own address");
		return -1;
	}
	r->port = (unsigned)port;
	r->line = line;
	return 0;
}

/* Room for one more route in C->bulk; 0 or -1. */
static int
grow(struct rconf *c, size_t *cap)
{
	struct rconf_route *n;
	size_t want = *cap == 0 ? 4096 : 2 * *cap;

	if (c->nbulk < *cap)
		return 0;
	if ((n = realloc(c->bulk, want * sizeof(*n))) == NULL)
		return -1;
	c->bulk = n;
	*cap = want;
	return 0;
}

int
rconf_routes_file(struct rconf *c, const char *path, char *err,
    size_t errlen)
{
	char file[512], buf[256];
	unsigned long line = 0;
	struct stat st;
	size_t cap = 0;
	FILE *f;
	int rc = 0;

	resolve(c->path, path, file, sizeof(file));
	if ((f = fopen(file, "r")) == NULL || fstat(fileno(f), &st) == -1 ||
	    !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "routes_file %s: %s", file, f == NULL ?
		    strerror(errno) : "not a regular file");
		if (f != NULL)
			fclose(f);
		return -1;
	}
	snprintf(c->routes_file, sizeof(c->routes_file), "%s", file);
	while (rc != -1 && fgets(buf, sizeof(buf), f) != NULL) {
		line++;
		if (grow(c, &cap) == -1) {
			snprintf(err, errlen, "%s: out of memory", file);
			rc = -1;
		} else if (c->nbulk == RCONF_BULK_MAX) {
			snprintf(err, errlen, "%s:%lu: more than %d routes",
			    file, line, RCONF_BULK_MAX);
			rc = -1;
		} else if ((rc = parse_line(c, buf, file, line,
		    &c->bulk[c->nbulk], err, errlen)) == 0)
			c->nbulk++;
	}
	fclose(f);
	return rc == -1 ? -1 : 0;
}
