/*
 * fwdcount: the kernel router's forwarded packets per protocol, from
 * nftables counters (fwdcount.h).
 *
 * The table is the agent's alone (`inet hoplab_fwd_rROLE`, so that two
 * roles of one host, or a user's own tables, never share a counter),
 * with one base chain in the forward hook at priority 100: after the
 * filter chains (priority 0) of a user's ruleset, so that what a user's
 * forward rule drops is not counted as forwarded (a later chain of the
 * user's may still drop; the count is what reached priority 100).
 * Policy accept and no verdicts: the chain only counts.  One rule per
 * class, told apart by its comment:
 *
 *   meta l4proto tcp counter comment "tcp"
 *   meta l4proto udp counter comment "udp"
 *   meta l4proto { icmp, ipv6-icmp } counter comment "icmp"
 *   meta l4proto != { tcp, udp, icmp, ipv6-icmp } counter comment "other"
 *
 * so the four add up to every packet the hook saw (ARP never reaches
 * it: it is not forwarded).  The whole table is one nft transaction,
 * which first adds and deletes a table of the same name (left by an
 * agent that was killed), so a start never doubles rules.  nft runs
 * with its text as one argument (nft reads its argv as commands), no
 * shell and no file (nft.c), killed after NFT_TIMEOUT_MS.
 *
 * `nft -j` prints JSON, which is YAML's flow style: lib/yamldoc (libyaml,
 * which every program links already) reads it into a tree and the rules
 * are found by walking it, whatever the order of their keys.
 *
 * Deliberately not here: bytes per class (RouterCounters has packets
 * only), per-interface classes, and the `nft monitor` event stream.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/fwdcount.h"
#include "agent/nft.h"
#include "clock.h"
#include "yamldoc.h"

#define NFT_OUT_MAX	65536	/* `nft -j list table` of our four rules */

static const char *const class_name[FWDCOUNT_NCLASS] = {
	"tcp", "udp", "icmp", "other",
};

void
fwdcount_name(char *buf, size_t len, uint32_t role)
{
	snprintf(buf, len, "hoplab_fwd_r%" PRIu32, role);
}

int
fwdcount_install(const char *name, char *err, size_t errlen)
{
	char text[1024], what[64];
	char *argv[] = { "nft", text, NULL };

	snprintf(text, sizeof(text),
	    "table inet %s {}\n"
	    "delete table inet %s\n"
	    "table inet %s {\n"
	    "chain count {\n"
	    "type filter hook forward priority 100; policy accept;\n"
	    "meta l4proto tcp counter comment \"tcp\"\n"
	    "meta l4proto udp counter comment \"udp\"\n"
	    "meta l4proto { icmp, ipv6-icmp } counter comment \"icmp\"\n"
	    "meta l4proto != { tcp, udp, icmp, ipv6-icmp } counter "
	    "comment \"other\"\n"
	    "}\n}\n", name, name, name);
	snprintf(what, sizeof(what), "add table inet %s", name);
	return nft_run(argv, what, NULL, 0, err, errlen);
}

int
fwdcount_delete(const char *name, char *err, size_t errlen)
{
	char *argv[] = { "nft", "delete", "table", "inet", (char *)name,
	    NULL };
	char what[64];

	snprintf(what, sizeof(what), "delete table inet %s", name);
	return nft_run(argv, what, NULL, 0, err, errlen);
}

int
fwdcount_read(const char *name, uint64_t pkts[FWDCOUNT_NCLASS], char *err,
    size_t errlen)
{
	char *argv[] = { "nft", "-j", "list", "table", "inet", (char *)name,
	    NULL };
	char what[64], *out;
	int rc;

	if ((out = malloc(NFT_OUT_MAX)) == NULL) {
		snprintf(err, errlen, "nft: out of memory");
		return -1;
	}
	snprintf(what, sizeof(what), "-j list table inet %s", name);
	rc = nft_run(argv, what, out, NFT_OUT_MAX, err, errlen);
	if (rc == 0)
		rc = fwdcount_parse(out, name, pkts, err, errlen);
	free(out);
	return rc;
}

/* Parsing -------------------------------------------------------------- */

/* The value of KEY in mapping NODE of YD, or NULL. */
static yaml_node_t *
get(struct yamldoc *yd, yaml_node_t *node, const char *key)
{
	yaml_node_pair_t *p;

	if (node == NULL || node->type != YAML_MAPPING_NODE)
		return NULL;
	for (p = node->data.mapping.pairs.start;
	    p < node->data.mapping.pairs.top; p++)
		if (yamldoc_is(yaml_document_get_node(&yd->doc, p->key), key))
			return yaml_document_get_node(&yd->doc, p->value);
	return NULL;
}

/* The number of items of sequence NODE, 0 for anything else. */
static size_t
nitems(const yaml_node_t *node)
{
	if (node == NULL || node->type != YAML_SEQUENCE_NODE)
		return 0;
	return (size_t)(node->data.sequence.items.top -
	    node->data.sequence.items.start);
}

/* The packets of RULE's counter expression into *V; 0 or -1. */
static int
rule_packets(struct yamldoc *yd, yaml_node_t *rule, uint64_t *v)
{
	yaml_node_t *expr = get(yd, rule, "expr"), *pk;
	long long n;
	size_t i;

	for (i = 0; i < nitems(expr); i++) {
		pk = get(yd, get(yd, yamldoc_item(yd, expr, i), "counter"),
		    "packets");
		if (pk != NULL && yamldoc_text(pk) != NULL &&
		    yamldoc_parse_ll(yamldoc_text(pk), &n) == 0 && n >= 0) {
			*v = (uint64_t)n;
			return 0;
		}
	}
	return -1;
}

/* Take RULE if it is one of table NAME's classes; SEEN the bits found. */
static int
take_rule(struct yamldoc *yd, yaml_node_t *rule, const char *name,
    uint64_t *pkts, unsigned *seen, char *err, size_t errlen)
{
	const char *c = yamldoc_text(get(yd, rule, "comment"));
	unsigned k;

	if (!yamldoc_is(get(yd, rule, "table"), name) || c == NULL)
		return 0;
	for (k = 0; k < FWDCOUNT_NCLASS && strcmp(c, class_name[k]) != 0; k++)
		;
	if (k == FWDCOUNT_NCLASS)
		return 0;		/* not ours: left alone */
	if ((*seen & (1U << k)) || rule_packets(yd, rule, &pkts[k]) == -1) {
		snprintf(err, errlen, "nft table %s: rule \"%s\" %s", name, c,
		    (*seen & (1U << k)) ? "twice" : "without a counter");
		return -1;
	}
	*seen |= 1U << k;
	return 0;
}

int
fwdcount_parse(const char *json, const char *name,
    uint64_t pkts[FWDCOUNT_NCLASS], char *err, size_t errlen)
{
	struct yamldoc yd;
	yaml_node_t *list;
	unsigned seen = 0, k;
	size_t i;
	int rc = 0;

	if (yamldoc_load_string(&yd, json, "nft -j", err, errlen) == -1)
		return -1;
	list = get(&yd, yamldoc_root(&yd), "nftables");
	for (i = 0; rc == 0 && i < nitems(list); i++)
		rc = take_rule(&yd, get(&yd, yamldoc_item(&yd, list, i),
		    "rule"), name, pkts, &seen, err, errlen);
	yamldoc_free(&yd);
	for (k = 0; rc == 0 && k < FWDCOUNT_NCLASS; k++)
		if (!(seen & (1U << k))) {
			snprintf(err, errlen, "nft table %s: no rule \"%s\" "
			    "(its table was changed or removed)", name,
			    class_name[k]);
			rc = -1;
		}
	return rc;
}
