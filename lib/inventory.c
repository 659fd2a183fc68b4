/*
 * inventory: load the list of agents the controller talks to (YAML, see
 * inventory.h for the shape).
 *
 * Like the plan loader it is strict: unknown keys, wrong types, duplicate
 * agent names and impossible values are errors "FILE:LINE: KEY.PATH:
 * expected X, got Y".  An address is an IPv4 literal or a host name
 * (RFC 1123 labels); it is not resolved here, the controller does that
 * when it connects.  Interface names follow Linux's limit of 15
 * characters (IFNAMSIZ - 1).
 *
 * CURVE keys: controller_key names the controller's key pair file (only
 * its path is kept and checked to exist; the controller reads it), an
 * agent's public_key is 40 Z85 characters, public_key_file a file that
 * keys.c reads.  Relative paths are relative to the inventory's folder.
 *
 * Deliberately not done: IPv6 management addresses.
 */
#include <arpa/inet.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hostname.h"
#include "inventory.h"
#include "yamldoc.h"

#define IFACE_NAME_MAX	16	/* IFNAMSIZ */

struct ictx {
	struct yamldoc	*yd;
	struct inventory *inv;
	char		*err;
	size_t		 errlen;
	char		 dir[PATH_MAX];	/* the inventory file's folder */
};

#define IERR(c, node, path, ...)					\
	yamldoc_err((c)->yd, (node), (path), (c)->err, (c)->errlen,	\
	    __VA_ARGS__)

static const char *const top_keys[] = { "lab", "agents", "controller_key" };
enum { T_LAB, T_AGENTS, T_CTLKEY, T_NKEYS };
static const char *const agent_keys[] = {
	"name", "address", "port", "interfaces", "public_key",
	"public_key_file",
};
enum { A_NAME, A_ADDRESS, A_PORT, A_IFACES, A_PUBKEY, A_PUBFILE, A_NKEYS };

static int
is_alnum(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
	    (ch >= '0' && ch <= '9');
}

/* 1 if S is made only of letters, digits and characters in EXTRA. */
static int
charset_ok(const char *s, const char *extra)
{
	for (; *s != '\0'; s++)
		if (!is_alnum(*s) && strchr(extra, *s) == NULL)
			return 0;
	return 1;
}

static int
get_name(struct ictx *c, yaml_node_t *node, const char *path, char *buf,
    size_t len)
{
	char got[64];

	if (yamldoc_str(c->yd, node, path, "a name", buf, len, c->err,
	    c->errlen) == -1)
		return -1;
	if (!charset_ok(buf, "._-"))
		return IERR(c, node, path, "expected a name of letters, "
		    "digits, '.', '_' or '-', got %s",
		    yamldoc_got(node, got, sizeof(got)));
	return 0;
}

static int
parse_address(struct ictx *c, yaml_node_t *node, const char *path,
    struct inv_agent *a)
{
	struct in_addr in;
	char got[64];

	if (yamldoc_str(c->yd, node, path, "an IPv4 address or host name",
	    a->address, sizeof(a->address), c->err, c->errlen) == -1)
		return -1;
	if (inet_pton(AF_INET, a->address, &in) == 1)
		return 0;
	yamldoc_got(node, got, sizeof(got));
	/* All digits and dots: meant as an address, so say it is wrong. */
	if (strspn(a->address, "0123456789.") == strlen(a->address))
		return IERR(c, node, path, "expected an IPv4 address such as "
		    "198.19.0.10, got %s", got);
	if (!hostname_valid(a->address))
		return IERR(c, node, path, "expected an IPv4 address or host "
		    "name, got %s", got);
	return 0;
}

static int
parse_ifaces(struct ictx *c, yaml_node_t *node, const char *apath,
    struct inv_agent *a)
{
	yaml_node_t *it;
	char path[YAMLDOC_PATH_MAX], ipath[YAMLDOC_PATH_MAX], got[64];
	int n, i, j;

	yamldoc_path_key(path, sizeof(path), apath, "interfaces");
	if ((n = yamldoc_seq(c->yd, node, path, 0, INV_MAX_IFACES, c->err,
	    c->errlen)) == -1)
		return -1;
	for (i = 0; i < n; i++) {
		yamldoc_path_index(ipath, sizeof(ipath), path, i);
		it = yamldoc_item(c->yd, node, i);
		if (yamldoc_str(c->yd, it, ipath, "an interface name",
		    a->ifaces[i], IFACE_NAME_MAX, c->err, c->errlen) == -1)
			return -1;
		if (!charset_ok(a->ifaces[i], "._-@") ||
		    strcmp(a->ifaces[i], ".") == 0 ||
		    strcmp(a->ifaces[i], "..") == 0)
			return IERR(c, it, ipath, "expected an interface name "
			    "of letters, digits, '.', '_', '-' or '@', got %s",
			    yamldoc_got(it, got, sizeof(got)));
		for (j = 0; j < i; j++)
			if (strcmp(a->ifaces[j], a->ifaces[i]) == 0)
				return IERR(c, it, ipath, "'%s' is listed "
				    "twice", a->ifaces[i]);
	}
	a->nifaces = n;
	return 0;
}

/* PATH as written in the inventory, made relative to its folder. */
static int
key_path(struct ictx *c, yaml_node_t *node, const char *path, char *buf,
    size_t len)
{
	char raw[PATH_MAX];

	if (yamldoc_str(c->yd, node, path, "a file name", raw, sizeof(raw),
	    c->err, c->errlen) == -1)
		return -1;
	if (raw[0] == '\0')
		return IERR(c, node, path, "expected a file name, got \"\"");
	if (raw[0] == '/' || c->dir[0] == '\0')
		snprintf(buf, len, "%s", raw);
	else
		snprintf(buf, len, "%s/%s", c->dir, raw);
	return 0;
}

static int
parse_pubkey(struct ictx *c, yaml_node_t *v[], const char *apath,
    struct inv_agent *a)
{
	char path[YAMLDOC_PATH_MAX], file[PATH_MAX], kerr[300];
	struct keypair kp;

	if (v[A_PUBKEY] != NULL && v[A_PUBFILE] != NULL) {
		yamldoc_path_key(path, sizeof(path), apath, "public_key_file");
		return IERR(c, v[A_PUBFILE], path, "give public_key or "
		    "public_key_file, not both");
	}
	if (v[A_PUBKEY] != NULL) {
		yamldoc_path_key(path, sizeof(path), apath, "public_key");
		if (yamldoc_str(c->yd, v[A_PUBKEY], path, "a CURVE public key",
		    a->public_key, sizeof(a->public_key), c->err,
		    c->errlen) == -1 || !keys_valid_z85(a->public_key))
			return IERR(c, v[A_PUBKEY], path, "expected a CURVE "
			    "public key of 40 Z85 characters (hoplab keygen)");
	}
	if (v[A_PUBFILE] != NULL) {
		yamldoc_path_key(path, sizeof(path), apath, "public_key_file");
		if (key_path(c, v[A_PUBFILE], path, file, sizeof(file)) == -1)
			return -1;
		if (keys_load(file, 0, &kp, kerr, sizeof(kerr)) == -1)
			return IERR(c, v[A_PUBFILE], path, "%s", kerr);
		memcpy(a->public_key, kp.public_z85, sizeof(a->public_key));
	}
	return 0;
}

static int
missing(struct ictx *c, yaml_node_t *map, const char *parent,
    const char *key)
{
	char path[YAMLDOC_PATH_MAX];

	yamldoc_path_key(path, sizeof(path), parent, key);
	return IERR(c, map, path, "required key is missing");
}

static int
parse_agent(struct ictx *c, yaml_node_t *node, const char *apath, size_t i)
{
	struct inv_agent *a = &c->inv->agents[i];
	yaml_node_t *v[A_NKEYS];
	char path[YAMLDOC_PATH_MAX];
	long long port;
	size_t j;

	if (yamldoc_map_fields(c->yd, node, apath, agent_keys, A_NKEYS, v,
	    c->err, c->errlen) == -1)
		return -1;
	if (v[A_NAME] == NULL)
		return missing(c, node, apath, "name");
	yamldoc_path_key(path, sizeof(path), apath, "name");
	if (get_name(c, v[A_NAME], path, a->name, sizeof(a->name)) == -1)
		return -1;
	for (j = 0; j < i; j++)
		if (strcmp(c->inv->agents[j].name, a->name) == 0)
			return IERR(c, v[A_NAME], path, "'%s' is already the "
			    "name of agents[%zu]", a->name, j);
	if (v[A_ADDRESS] == NULL)
		return missing(c, node, apath, "address");
	yamldoc_path_key(path, sizeof(path), apath, "address");
	if (parse_address(c, v[A_ADDRESS], path, a) == -1)
		return -1;
	a->port = INV_DEFAULT_PORT;
	yamldoc_path_key(path, sizeof(path), apath, "port");
	if (v[A_PORT] != NULL) {
		if (yamldoc_int(c->yd, v[A_PORT], path, 1, 65535, NULL, &port,
		    c->err, c->errlen) == -1)
			return -1;
		a->port = (unsigned)port;
	}
	if (v[A_IFACES] != NULL &&
	    parse_ifaces(c, v[A_IFACES], apath, a) == -1)
		return -1;
	return parse_pubkey(c, v, apath, a);
}

static int
parse_inventory(struct ictx *c)
{
	yaml_node_t *root = yamldoc_root(c->yd), *v[T_NKEYS];
	char path[YAMLDOC_PATH_MAX], got[64];
	int n, i;

	if (root == NULL)
		return IERR(c, NULL, NULL, "the file is empty (expected an "
		    "inventory: a mapping with agents)");
	if (root->type != YAML_MAPPING_NODE)
		return IERR(c, root, NULL, "expected an inventory (a mapping "
		    "with agents), got %s", yamldoc_got(root, got, sizeof(got)));
	if (yamldoc_map_fields(c->yd, root, "", top_keys, T_NKEYS, v, c->err,
	    c->errlen) == -1)
		return -1;
	if (v[T_LAB] != NULL && get_name(c, v[T_LAB], "lab", c->inv->lab,
	    sizeof(c->inv->lab)) == -1)
		return -1;
	if (v[T_CTLKEY] != NULL && key_path(c, v[T_CTLKEY], "controller_key",
	    c->inv->controller_key, sizeof(c->inv->controller_key)) == -1)
		return -1;
	if (v[T_AGENTS] == NULL)
		return missing(c, root, "", "agents");
	if ((n = yamldoc_seq(c->yd, v[T_AGENTS], "agents", 1, INV_MAX_AGENTS,
	    c->err, c->errlen)) == -1)
		return -1;
	for (i = 0; i < n; i++) {
		yamldoc_path_index(path, sizeof(path), "agents", i);
		if (parse_agent(c, yamldoc_item(c->yd, v[T_AGENTS], i), path,
		    i) == -1)
			return -1;
	}
	c->inv->nagents = n;
	return 0;
}

/* Validate a loaded document; frees it in every case. */
static struct inventory *
inventory_from_doc(struct yamldoc *yd, const char *path, char *err,
    size_t errlen)
{
	struct ictx c = { .yd = yd, .err = err, .errlen = errlen };
	char tmp[PATH_MAX];

	if (path != NULL) {
		snprintf(tmp, sizeof(tmp), "%s", path);
		snprintf(c.dir, sizeof(c.dir), "%s", dirname(tmp));
	}

	if ((c.inv = calloc(1, sizeof(*c.inv))) == NULL) {
		snprintf(err, errlen, "%s: out of memory", yd->file);
		yamldoc_free(yd);
		return NULL;
	}
	snprintf(c.inv->path, sizeof(c.inv->path), "%s", yd->file);
	if (parse_inventory(&c) == -1) {
		free(c.inv);
		c.inv = NULL;
	}
	yamldoc_free(yd);
	return c.inv;
}

struct inventory *
inventory_load(const char *path, char *err, size_t errlen)
{
	struct yamldoc yd;

	if (yamldoc_load_file(&yd, path, err, errlen) == -1)
		return NULL;
	return inventory_from_doc(&yd, path, err, errlen);
}

struct inventory *
inventory_load_string(const char *yaml, const char *name, char *err,
    size_t errlen)
{
	struct yamldoc yd;

	if (yamldoc_load_string(&yd, yaml, name, err, errlen) == -1)
		return NULL;
	return inventory_from_doc(&yd, NULL, err, errlen);
}

void
inventory_free(struct inventory *inv)
{
	free(inv);
}

const struct inv_agent *
inventory_find(const struct inventory *inv, const char *name)
{
	size_t i;

	for (i = 0; i < inv->nagents; i++)
		if (strcmp(inv->agents[i].name, name) == 0)
			return &inv->agents[i];
	return NULL;
}
