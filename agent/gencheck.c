/*
 * gencheck: the agent's checks of a generator role's GenParams before
 * genrole.c turns them into hoplab-gen's command line: every field a
 * peer sends is bounded and shaped here (interfaces, addresses, flows,
 * modes, tx_io), so that what reaches the command line is known good.
 * Split from genrole.c, which keeps the command line alone.
 */
#include <arpa/inet.h>
#include <inttypes.h>
#include <limits.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/gencheck.h"
#include "agent/genrole.h"
#include "agent/role.h"
#include "agent/valid.h"
#include "clock.h"

#define FRAME_MIN	64
#define FRAME_MAX	1518
#define COUNT_MAX	100000000ULL
#define IDT_MIN		1000ULL			/* 1 us */
#define IDT_MAX		60000000000ULL		/* 60 s */
#define DRAIN_MAX	60000000000ULL		/* 60 s */
#define RUN_MAX		86400000000000ULL	/* count * idt: 24 h */
#define SPIN_MAX	100000000ULL	/* spin_ns: 100 ms (pace.h) */
#define FLOWS_MAX	64
#define RATE_MAX	10e9			/* bit/s, lib/preset.h */
#define START_AHEAD_MAX	3600000000000LL		/* start_at_ns: 1 h ahead */
#define TX_STAMP_MAX	1000000		/* --tx-stamp-every (gen.h) */

_Static_assert(GENROLE_FLOWS_MAX == FLOWS_MAX, "genrole.h's flow count");

static int
check_iface(const char *what, const char *name, char *err, size_t errlen)
{
	if (name[0] == '\0' || strlen(name) >= IF_NAMESIZE ||
	    if_nametoindex(name) == 0) {
		snprintf(err, errlen, "%s: no interface \"%.32s\" in this host",
		    what, name);
		return -1;
	}
	return 0;
}

static int
check_ip(const char *what, const char *ip, char *err, size_t errlen)
{
	struct in_addr a;

	if (inet_pton(AF_INET, ip, &a) != 1) {
		snprintf(err, errlen, "%s: expected an IPv4 address, got "
		    "\"%.32s\"", what, ip);
		return -1;
	}
	return 0;
}

/* A distribution spec: empty, or a token that cannot add a --flow key. */
static int
valid_dist(const char *s)
{
	size_t n = strlen(s);

	return n < 128 && strspn(s, "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-:/") == n;
}

static int
check_flow(size_t i, const Hoplab__FlowSpec *f, char *err, size_t errlen)
{
	const char *why = NULL;
	struct in_addr dst;

	if (f->frame < FRAME_MIN || f->frame > FRAME_MAX)
		why = "frame: expected 64..1518 bytes (Ethernet frame incl. "
		    "FCS)";
	else if (f->count < 1 || f->count > COUNT_MAX)
		why = "count: expected 1..100000000";
	else if (f->interval_ns < IDT_MIN || f->interval_ns > IDT_MAX)
		why = "interval: expected 1us..60s";
	else if (f->duration_ns == 0 && f->count > RUN_MAX / f->interval_ns)
		why = "count * interval: longer than 24 h";
	else if (f->duration_ns > RUN_MAX || (f->duration_ns > 0 &&
	    f->duration_ns < 1000000))
		why = "duration: expected 1ms..24h";
	else if (f->dscp > 63)
		why = "dscp: expected 0..63";
	else if (f->flow_id > 65535)
		why = "flow_id: expected 0..65535";
	else if (f->dst_port > 65535 || f->src_port > 65535)
		why = "port: expected 1..65535 (0 for the default)";
	else if (f->name[0] != '\0' && !valid_token(f->name, 64))
		why = "name: expected up to 63 letters, digits, '.', '_', '-'";
	else if (!valid_dist(f->idt_dist) || !valid_dist(f->frame_dist) ||
	    !valid_dist(f->burst_dist) || !valid_dist(f->off_dist))
		why = "idt/frame/burst/off_dist: expected up to 127 letters, "
		    "digits, '.', '_', '-', ':', '/'";
	else if (!valid_dist_file(f->idt_dist) ||
	    !valid_dist_file(f->frame_dist) ||
	    !valid_dist_file(f->burst_dist) || !valid_dist_file(f->off_dist))
		why = "idt/frame/burst/off_dist: a csv:, pcap-sizes: or "
		    "pcap-gaps: file is a plain file name of the agent's data "
		    "folder (no '/', not starting with '.')";
	else if (!f->burst_dist[0] != !f->off_dist[0])
		why = "burst_dist and off_dist: both or neither";
	else if (f->preset[0] != '\0' && !valid_token(f->preset, 16))
		why = "preset: expected up to 15 letters, digits, '.', '_', '-'";
	else if (!(f->rate_bps >= 0 && f->rate_bps <= RATE_MAX))
		why = "rate_bps: expected 0..10e9";
	else if (f->seed > INT64_MAX)
		why = "seed: expected 0..2^63-1";
	else if (f->dst_ip[0] != '\0' && inet_pton(AF_INET, f->dst_ip,
	    &dst) != 1)
		why = "dst_ip: expected an IPv4 address or empty";
	else if (f->spin_ns != 0 && (f->spin_ns < 1000 ||
	    f->spin_ns > SPIN_MAX))
		why = "spin_ns: expected 0 (auto) or 1us..100ms";
	else if (f->start_offset_ns > 60 * UINT64_C(1000000000))
		why = "start_offset_ns: expected 0..60 s";
	if (why != NULL) {
		snprintf(err, errlen, "flow %zu: %s", i + 1, why);
		return -1;
	}
	return 0;
}

/* "IP:PORT" (PORT 1..65535), or with OPTIONAL_PORT also "IP". */
static int
check_addr(const char *what, const char *s, int optional_port, char *err,
    size_t errlen)
{
	char ip[INET_ADDRSTRLEN];
	const char *colon = strrchr(s, ':');
	struct in_addr a;
	unsigned long port = 1;
	size_t n = colon ? (size_t)(colon - s) : strlen(s);
	char *end = NULL;

	if (n < sizeof(ip)) {
		memcpy(ip, s, n);
		ip[n] = '\0';
		if (colon != NULL && colon[1] >= '0' && colon[1] <= '9')
			port = strtoul(colon + 1, &end, 10);
	}
	if (n >= sizeof(ip) || inet_pton(AF_INET, ip, &a) != 1 ||
	    (colon == NULL && !optional_port) || (colon != NULL &&
	    (end == NULL || *end != '\0' || port < 1 || port > 65535))) {
		snprintf(err, errlen, "%s: expected %s, got \"%.32s\"", what,
		    optional_port ? "IP or IP:PORT" : "IP:PORT", s);
		return -1;
	}
	return 0;
}

static int
check_flows(const Hoplab__GenParams *gp, int need, char *err, size_t errlen)
{
	uint64_t total = 0;
	size_t i;

	if (gp->n_flows < (size_t)need || gp->n_flows > FLOWS_MAX) {
		snprintf(err, errlen, "flows: expected %d..%d, got %zu", need,
		    FLOWS_MAX, gp->n_flows);
		return -1;
	}
	for (i = 0; i < gp->n_flows; i++) {
		if (check_flow(i, gp->flows[i], err, errlen) == -1)
			return -1;
		total += gp->flows[i]->count;
	}
	if (total > COUNT_MAX) {
		snprintf(err, errlen, "flows: %" PRIu64 " packets in all, "
		    "at most 100000000", total);
		return -1;
	}
	return 0;
}

/* Mode tcp: tcp_streams 0..128; tcp_cc a plausible name, send only. */
static int
check_tcp_streams(const Hoplab__GenParams *gp, int send, char *err,
    size_t errlen)
{
	size_t n = strlen(gp->tcp_cc);

	if (gp->tcp_streams > 128) {
		snprintf(err, errlen, "tcp_streams: 1..128 (0: 1), got %u",
		    gp->tcp_streams);
		return -1;
	}
	if (n > 0 && (!send || n > 15 || strspn(gp->tcp_cc,
	    "abcdefghijklmnopqrstuvwxyz0123456789_") != n)) {
		snprintf(err, errlen, "tcp_cc: role send only, 1..15 of "
		    "[a-z0-9_], got \"%.16s\"", gp->tcp_cc);
		return -1;
	}
	return 0;
}

/* Modes udp and tcp: a role, a peer, flows (udp) or a bound (tcp). */
static int
check_sock(const Hoplab__GenParams *gp, char *err, size_t errlen)
{
	int udp = strcmp(gp->mode, "udp") == 0;
	int send = strcmp(gp->role, "send") == 0;
	size_t i;

	if (!send && strcmp(gp->role, "recv") != 0) {
		snprintf(err, errlen, "role: expected \"send\" or \"recv\", "
		    "got \"%.16s\"", gp->role);
		return -1;
	}
	if (check_addr("peer", gp->peer, 0, err, errlen) == -1)
		return -1;
	if (gp->bind[0] != '\0' && !send) {
		snprintf(err, errlen, "bind: only for role send");
		return -1;
	}
	if (gp->bind[0] != '\0' &&
	    check_addr("bind", gp->bind, 1, err, errlen) == -1)
		return -1;
	if (gp->wait_ns > 3600 * 1000000000ULL || gp->drain_ns > DRAIN_MAX) {
		snprintf(err, errlen, "wait: at most 1h; drain: at most 60s");
		return -1;
	}
	if (udp) {
		for (i = 0; i < gp->n_flows; i++)
			if (gp->flows[i]->dst_port || gp->flows[i]->src_port ||
			    gp->flows[i]->dst_ip[0] != '\0') {
				snprintf(err, errlen, "flow %zu: ports and "
				    "dst_ip are for mode l2 (udp flows go to "
				    "peer)", i + 1);
				return -1;
			}
		return check_flows(gp, send, err, errlen);
	}
	if (gp->n_flows > 0 || (send && !gp->tcp_bytes &&
	    !gp->tcp_duration_ns) || (!send && (gp->tcp_bytes ||
	    gp->tcp_duration_ns)) || gp->tcp_bytes > (1ULL << 40) ||
	    gp->tcp_duration_ns > RUN_MAX || (gp->tcp_duration_ns &&
	    gp->tcp_duration_ns < 1000000)) {
		snprintf(err, errlen, "tcp: no flows; role send needs "
		    "tcp_bytes (1..2^40) or tcp_duration_ns (1ms..24h), role "
		    "recv neither");
		return -1;
	}
	return check_tcp_streams(gp, send, err, errlen);
}

/*
 * icmp_addr: IP/PREFIX (8..30) on tx_iface, its IP being bind, and the
 * gateway the route goes through.
 */
static int
check_icmp_addr(const Hoplab__GenParams *gp, char *err, size_t errlen)
{
	char ip[INET_ADDRSTRLEN], *end;
	const char *slash = strchr(gp->icmp_addr, '/');
	long plen;

	if (slash == NULL || (size_t)(slash - gp->icmp_addr) >= sizeof(ip) ||
	    (plen = strtol(slash + 1, &end, 10)) < 8 || plen > 30 ||
	    *end != '\0' || slash[1] == '\0') {
		snprintf(err, errlen, "icmp_addr: expected IPv4/8..30, got "
		    "\"%.32s\"", gp->icmp_addr);
		return -1;
	}
	memcpy(ip, gp->icmp_addr, (size_t)(slash - gp->icmp_addr));
	ip[slash - gp->icmp_addr] = '\0';
	if (check_ip("icmp_addr", ip, err, errlen) == -1 ||
	    check_iface("tx_iface", gp->tx_iface, err, errlen) == -1 ||
	    check_ip("gateway_ip", gp->gateway_ip, err, errlen) == -1)
		return -1;
	if (strcmp(ip, gp->bind) != 0) {
		snprintf(err, errlen, "bind: expected icmp_addr's address %s, "
		    "got \"%.32s\"", ip, gp->bind);
		return -1;
	}
	return 0;
}

/* Mode icmp: an address to ping, a source or none, flows, a TTL. */
static int
check_icmp(const Hoplab__GenParams *gp, char *err, size_t errlen)
{
	size_t i;

	if (check_ip("peer", gp->peer, err, errlen) == -1 ||
	    (gp->bind[0] != '\0' && check_ip("bind", gp->bind, err,
	    errlen) == -1) ||
	    (gp->icmp_addr[0] != '\0' && check_icmp_addr(gp, err,
	    errlen) == -1))
		return -1;
	if (gp->role[0] != '\0' || gp->wait_ns != 0 || gp->tcp_bytes ||
	    gp->tcp_duration_ns) {
		snprintf(err, errlen, "icmp: no role, wait or tcp bound (one "
		    "process sends and reads the replies)");
		return -1;
	}
	if (gp->drain_ns > DRAIN_MAX || gp->ttl > 255) {
		snprintf(err, errlen, gp->ttl > 255 ? "ttl: expected 1..255" :
		    "drain: expected at most 60s");
		return -1;
	}
	for (i = 0; i < gp->n_flows; i++)
		if (gp->flows[i]->dst_port || gp->flows[i]->src_port ||
		    gp->flows[i]->dst_ip[0] != '\0') {
			snprintf(err, errlen, "flow %zu: ports and dst_ip are "
			    "for mode l2 (icmp flows go to peer)", i + 1);
			return -1;
		}
	return check_flows(gp, 1, err, errlen);
}

/*
 * tx_io "", "send" or "ring", mode l2 only; tx_stamp_every 0 or
 * 1..1000000, with "ring" only (hoplab-gen refuses the rest too, but
 * later and less plainly).
 */
static int
check_tx_io(const Hoplab__GenParams *gp, char *err, size_t errlen)
{
	int l2 = gp->mode[0] == '\0' || strcmp(gp->mode, "l2") == 0;
	int ring = strcmp(gp->tx_io, "ring") == 0;

	if (gp->tx_io[0] != '\0' && (!l2 || (!ring && strcmp(gp->tx_io,
	    "send") != 0)))
		snprintf(err, errlen, "tx_io: expected \"send\" or \"ring\" "
		    "in mode l2, got \"%.16s\"", gp->tx_io);
	else if (gp->tx_stamp_every > TX_STAMP_MAX || (gp->tx_stamp_every &&
	    !ring))
		snprintf(err, errlen, "tx_stamp_every: expected 0 or "
		    "1..1000000 with tx_io \"ring\", got %" PRIu32,
		    gp->tx_stamp_every);
	else
		return 0;
	return -1;
}

int
gencheck_params(const Hoplab__StartRole *sr, const Hoplab__GenParams *gp,
    char *err, size_t errlen)
{
	if (gp->mode[0] != '\0' && strcmp(gp->mode, "l2") != 0 &&
	    strcmp(gp->mode, "udp") != 0 && strcmp(gp->mode, "tcp") != 0 &&
	    strcmp(gp->mode, "icmp") != 0) {
		snprintf(err, errlen, "mode: expected \"l2\", \"udp\", "
		    "\"tcp\" or \"icmp\", got \"%.16s\"", gp->mode);
		return -1;
	}
	if (!valid_token(sr->run_id, ROLE_RUNID_MAX)) {
		snprintf(err, errlen, "run_id: expected 1..63 letters, "
		    "digits, '.', '_', '-', ':'");
		return -1;
	}
	if ((strcmp(gp->mode, "udp") == 0 || strcmp(gp->mode, "tcp") == 0) &&
	    gp->records) {
		snprintf(err, errlen, "records: only in mode l2");
		return -1;
	}
	if (check_tx_io(gp, err, errlen) == -1)
		return -1;
	if (gp->start_at_ns != 0 && (strcmp(gp->mode, "tcp") == 0 ||
	    (strcmp(gp->mode, "udp") == 0 && strcmp(gp->role, "send") != 0))) {
		snprintf(err, errlen, "start_at_ns: only for l2 and udp "
		    "senders");
		return -1;
	}
	if (strcmp(gp->mode, "udp") == 0 || strcmp(gp->mode, "tcp") == 0)
		return check_sock(gp, err, errlen);
	if (strcmp(gp->mode, "icmp") == 0)
		return check_icmp(gp, err, errlen);
	if (check_iface("tx_iface", gp->tx_iface, err, errlen) == -1 ||
	    check_iface("rx_iface", gp->rx_iface, err, errlen) == -1 ||
	    check_ip("src_ip", gp->src_ip, err, errlen) == -1 ||
	    check_ip("dst_ip", gp->dst_ip, err, errlen) == -1 ||
	    check_ip("gateway_ip", gp->gateway_ip, err, errlen) == -1 ||
	    check_flows(gp, 1, err, errlen) == -1)
		return -1;
	if (gp->start_at_ns < 0 || gp->start_at_ns > clock_real_ns() +
	    START_AHEAD_MAX) {
		snprintf(err, errlen, "start_at_ns: expected 0 or a "
		    "CLOCK_REALTIME instant at most 1 h ahead");
		return -1;
	}
	if (gp->drain_ns > DRAIN_MAX || gp->ttl > 255) {
		snprintf(err, errlen, gp->ttl > 255 ? "ttl: expected 1..255" :
		    "drain: expected at most 60s");
		return -1;
	}
	return 0;
}
