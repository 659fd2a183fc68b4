/*
 * config_value: the values of hoplab-router's configuration that are
 * read elsewhere too (config_value.h): an IPv4 prefix (interfaces,
 * routes and filters in the file, a route added on the control socket),
 * io.busy_poll and io.backend (the file and the command line), and the
 * interface whose subnet holds an address (routes in the file and in a
 * routes_file).  Plain strings in, values out: no YAML and no messages,
 * so the file's parsers (config.c, config_qos.c, config_routes.c),
 * main.c and ctl.c all call down to it and it calls only lib/.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

#include "clock.h"
#include "yamldoc.h"
#include "router/config.h"

int
rconf_iface_for(const struct rconf *c, uint32_t addr)
{
	size_t i;

	for (i = 0; i < c->nifs; i++)
		if (((addr ^ c->ifs[i].addr) & rconf_mask(c->ifs[i].plen)) == 0)
			return (int)i;
	return -1;
}

int
rconf_parse_prefix(const char *s, int strict, uint32_t *prefix,
    unsigned *len)
{
	char buf[32], *slash;
	struct in_addr a;
	long long l;

	if (strlen(s) >= sizeof(buf))
		return -1;
	strcpy(buf, s);
	if ((slash = strchr(buf, '/')) == NULL)
		return -1;
	*slash = '\0';
	if (inet_pton(AF_INET, buf, &a) != 1 ||
	    yamldoc_parse_ll(slash + 1, &l) == -1 || l < 0 || l > 32)
		return -1;
	if (strict && (ntohl(a.s_addr) & ~rconf_mask((unsigned)l)) != 0)
		return -1;
	*prefix = ntohl(a.s_addr);
	*len = (unsigned)l;
	return 0;
}

int
rconf_parse_busy(const char *s, int *adaptive, int64_t *ns)
{
	char e[128];
	int64_t v;

	if (strcmp(s, "adaptive") == 0) {
		*adaptive = 1;
		*ns = RCONF_BUSY_ADAPT_NS;
		return 0;
	}
	if (strcmp(s, "off") == 0 || strcmp(s, "0") == 0)
		v = 0;
	else if (clock_parse_duration(s, &v, e, sizeof(e)) == -1 || v < 0 ||
	    v > RCONF_BUSY_MAX_NS)
		return -1;
	*adaptive = 0;
	*ns = v;
	return 0;
}

int
rconf_parse_backend(const char *s)
{
	if (s == NULL)
		return -1;
	if (strcmp(s, "packet") == 0)
		return RCONF_IO_PACKET;
	if (strcmp(s, "xdp") == 0)
		return RCONF_IO_XDP;
	return -1;
}
