/*
 * natrules: a kernel router's source NAT in an nftables table of the
 * agent's own (natrules.h).
 *
 * One table per role, `ip hoplab_nat_rROLE`, so that removing it is one
 * `delete table` that never touches a user's tables nor the role's
 * counting table (fwdcount.c).  One base chain in the postrouting hook
 * at priority 100 (srcnat), type nat: the kernel consults it for the
 * first packet of each connection only and keeps the mapping in
 * conntrack, which also translates the replies back (so the rule's
 * counter counts connections, not packets).  masquerade takes the
 * outgoing interface's address; snat to ADDR a fixed one.  Both keep
 * the source port when it is free, and change it (and ICMP ids) when
 * two inside hosts would collide.
 *
 * How many connections are translated now (NatCounters.active) comes
 * from the kernel's own table: the lines of /proc/net/nf_conntrack whose
 * reply tuple goes to the NAT address and whose original source was
 * another one.  Not nf_conntrack_count: once a nat table exists the
 * namespace tracks every connection, the agent's own management one
 * among them.  The kernel's table has no created / expired / exhausted
 * counters of its own (conntrack -S has per-CPU statistics, not per
 * NAT), so NatCounters.valid_detail stays false on kernel routers.
 *
 * Deliberately not here: IPv6 NAT, port forwarding (DNAT), hairpinning,
 * the kernel's conntrack timeouts (net.netfilter.nf_conntrack_*, left as
 * they are).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "agent/iproute.h"
#include "agent/natrules.h"
#include "agent/nft.h"

#define LINE_MAX_LEN	1024	/* a conntrack line is about 200 bytes */

void
natrules_name(char *buf, size_t len, uint32_t role)
{
	snprintf(buf, len, "hoplab_nat_r%" PRIu32, role);
}

/* 1 if S is an interface name nft can take quoted: [A-Za-z0-9_.-]. */
static int
plain_iface(const char *s)
{
	size_t i, n = s != NULL ? strlen(s) : 0;

	if (n == 0 || n > 15)
		return 0;
	for (i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' &&
		    s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9') ||
		    s[i] == '_' || s[i] == '.' || s[i] == '-'))
			return 0;
	return 1;
}

int
natrules_text(const char *name, const char *iface, const char *to_addr,
    char *buf, size_t len, char *err, size_t errlen)
{
	struct in_addr a;
	char action[64];
	int n;

	if (!plain_iface(iface)) {
		snprintf(err, errlen, "nat: outside interface \"%.32s\" is "
		    "not a plain interface name", iface ? iface : "");
		return -1;
	}
	if (to_addr != NULL && to_addr[0] != '\0') {
		if (inet_pton(AF_INET, to_addr, &a) != 1) {
			snprintf(err, errlen, "nat: \"%.40s\" is not an IPv4 "
			    "address", to_addr);
			return -1;
		}
		snprintf(action, sizeof(action), "snat to %s", to_addr);
	} else
		snprintf(action, sizeof(action), "masquerade");
	n = snprintf(buf, len,
	    "table ip %s {}\n"
	    "delete table ip %s\n"
	    "table ip %s {\n"
	    "chain post {\n"
	    "type nat hook postrouting priority 100; policy accept;\n"
	    "oifname \"%s\" counter %s\n"
	    "}\n}\n", name, name, name, iface, action);
	if (n < 0 || (size_t)n >= len) {
		snprintf(err, errlen, "nat: table %s: text too long", name);
		return -1;
	}
	return 0;
}

int
natrules_install(const char *name, const char *iface, const char *to_addr,
    const char *own_addr, char *err, size_t errlen)
{
	char text[NATRULES_TEXT_MAX], what[64], cidr[24];
	char *argv[] = { "nft", text, NULL };
	char *add[] = { "ip", "addr", "add", cidr, "dev", (char *)iface,
	    NULL };

	if (natrules_text(name, iface, to_addr, text, sizeof(text), err,
	    errlen) == -1)
		return -1;
	if (to_addr != NULL && to_addr[0] != '\0' && (own_addr == NULL ||
	    strcmp(to_addr, own_addr) != 0)) {
		snprintf(cidr, sizeof(cidr), "%s/32", to_addr);
		if (iproute_run(add, err, errlen) == -1)
			return -1;
	}
	snprintf(what, sizeof(what), "add table ip %s", name);
	return nft_run(argv, what, NULL, 0, err, errlen);
}

int
natrules_delete(const char *name, char *err, size_t errlen)
{
	char *argv[] = { "nft", "delete", "table", "ip", (char *)name, NULL };
	char what[64];

	snprintf(what, sizeof(what), "delete table ip %s", name);
	return nft_run(argv, what, NULL, 0, err, errlen);
}

/*
 * The K-th (0-based) value of KEY ("src=", "dst=") in conntrack LINE
 * into V (16 bytes); 0, or -1 when there are fewer.
 */
static int
field(const char *line, const char *key, int k, char *v)
{
	const char *p = line;
	size_t n, klen = strlen(key);

	while ((p = strstr(p, key)) != NULL) {
		if (p != line && p[-1] != ' ') {
			p += klen;
			continue;
		}
		p += klen;
		if (k-- > 0)
			continue;
		n = strcspn(p, " \n");
		if (n == 0 || n >= INET_ADDRSTRLEN)
			return -1;
		memcpy(v, p, n);
		v[n] = '\0';
		return 0;
	}
	return -1;
}

/* 1 if conntrack LINE is an IPv4 connection translated to ADDR. */
static int
translated(const char *line, const char *addr)
{
	char osrc[INET_ADDRSTRLEN], rdst[INET_ADDRSTRLEN];

	if (strncmp(line, "ipv4 ", 5) != 0 || field(line, "src=", 0,
	    osrc) == -1 || field(line, "dst=", 1, rdst) == -1)
		return 0;
	return strcmp(rdst, addr) == 0 && strcmp(osrc, addr) != 0;
}

uint32_t
natrules_count(const char *text, const char *addr)
{
	char line[LINE_MAX_LEN];
	const char *p = text, *nl;
	uint32_t n = 0;
	size_t len;

	while (p != NULL && *p != '\0') {
		nl = strchr(p, '\n');
		len = nl != NULL ? (size_t)(nl - p) : strlen(p);
		if (len < sizeof(line)) {
			memcpy(line, p, len);
			line[len] = '\0';
			n += (uint32_t)translated(line, addr);
		}
		p = nl != NULL ? nl + 1 : NULL;
	}
	return n;
}

int
natrules_active(const char *addr, uint32_t *n, char *err, size_t errlen)
{
	static const char path[] = "/proc/net/nf_conntrack";
	char line[LINE_MAX_LEN];
	FILE *f;

	if ((f = fopen(path, "re")) == NULL) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	*n = 0;
	while (fgets(line, sizeof(line), f) != NULL)
		*n += (uint32_t)translated(line, addr);
	fclose(f);
	return 0;
}
