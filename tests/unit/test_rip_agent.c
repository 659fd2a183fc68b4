/*
 * test_rip_agent: agent/hoplabrouter.c's rip: section.  RouterParams
 * with routing RIP (active interfaces, timers, an HMAC-SHA256 key whose
 * secret needs YAML escapes) become a configuration file that the
 * router's own loader (router/config.c, config_rip.c) reads back with
 * exactly those values; out-of-range RIP parameters and OSPF are refused
 * before anything is written or started.  The agent's process functions
 * are stubbed: role_spawn() counts the start.  Interface "lo" exists in
 * every namespace.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "agent/hoplabrouter.h"
#include "agent/iproute.h"
#include "router/config.h"
#include "tests/unit/unit.h"

static char tmpdir[] = "/tmp/hl-ripagent-XXXXXX";
static char endpoint[PATH_MAX + 32], err[512];
static int spawned;

/* ---- stubs of the agent's process side (role.c, iproute.c) */
int
role_spawn(struct role *r, const char *path, char *const argv[], int append,
    char *e, size_t elen)
{
	(void)path, (void)argv, (void)append, (void)e, (void)elen;
	spawned++;
	r->pid = 4242;
	return 0;
}

int
role_wait_socket(const struct role *r, const char *sockpath,
    const char *prog, char *e, size_t elen)
{
	(void)r, (void)sockpath, (void)prog, (void)e, (void)elen;
	return 0;
}

void role_report(const struct role *r, int s, const char *e)
{ (void)r, (void)s, (void)e; }
enum role_stopped role_terminate(struct role *r, int all)
{ (void)r, (void)all; return ROLE_ENDING; }
void role_forget_priv(struct role *r) { (void)r; }
int iproute_flush(const char *n, char *e, size_t l)
{ (void)n, (void)e, (void)l; return 0; }

static struct role_ctx ctx;
static struct role role;
static Hoplab__IfaceAddr ia, *iap[1] = { &ia };
static Hoplab__RoutingParams rg;
static Hoplab__RouterParams rp;
static Hoplab__StartRole sr;
static char *active[1] = { "lo" };

static void
params(void)
{
	hoplab__start_role__init(&sr);
	hoplab__router_params__init(&rp);
	hoplab__iface_addr__init(&ia);
	hoplab__routing_params__init(&rg);
	ia.name = "lo";
	ia.cidr = "198.18.0.2/24";
	rp.impl = HOPLAB__ROUTER_PARAMS__IMPL__HOPLAB;
	rp.n_ifaces = 1;
	rp.ifaces = iap;
	rp.routing = &rg;
	rg.protocol = HOPLAB__ROUTING_PARAMS__PROTOCOL__RIP;
	rg.n_active_ifaces = 1;
	rg.active_ifaces = active;
	rg.rip_update_ns = 1000000000ULL;
	rg.rip_timeout_ns = 5000000000ULL;
	rg.rip_garbage_ns = 3000000000ULL;
	rg.rip_auth = "hmac-sha256";
	rg.rip_auth_key_id = 9;
	rg.rip_auth_secret = "k\"e\\y!";
	sr.run_id = "unit";
	sr.params_case = HOPLAB__START_ROLE__PARAMS_ROUTER;
	sr.router = &rp;
	role.id = 7;
}

static struct rconf *
written(void)
{
	char path[PATH_MAX + 32];

	snprintf(path, sizeof(path), "%s/router-7.yaml", tmpdir);
	return rconf_load(path, err, sizeof(err));
}

static void
t_rip_params_reach_the_routers_config(void)
{
	struct rconf *c;

	params();
	spawned = 0;
	CU_ASSERT_EQUAL_FATAL(hoplabrouter_start(&role, &sr, err,
	    sizeof(err)), 0);
	CU_ASSERT_EQUAL(spawned, 1);
	c = written();
	if (c == NULL)
		fprintf(stderr, "\n%s\n", err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_TRUE(c->rip.enabled);
	CU_ASSERT_EQUAL(c->rip.active, 1);
	CU_ASSERT_EQUAL(c->rip.update_ns, 1000000000LL);
	CU_ASSERT_EQUAL(c->rip.timeout_ns, 5000000000LL);
	CU_ASSERT_EQUAL(c->rip.garbage_ns, 3000000000LL);
	CU_ASSERT_TRUE(c->rip.auth);
	CU_ASSERT_EQUAL(c->rip.key_id, 9);
	CU_ASSERT_STRING_EQUAL(c->rip.secret, "k\"e\\y!");
	rconf_free(c);
	/* no active interface and default timers: all passive, RFC's */
	rg.n_active_ifaces = 0;
	rg.rip_update_ns = rg.rip_timeout_ns = rg.rip_garbage_ns = 0;
	rg.rip_auth = "";
	CU_ASSERT_EQUAL_FATAL(hoplabrouter_start(&role, &sr, err,
	    sizeof(err)), 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c = written());
	CU_ASSERT_EQUAL(c->rip.active, 0);
	CU_ASSERT_EQUAL(c->rip.update_ns, 30000000000LL);
	CU_ASSERT_FALSE(c->rip.auth);
	rconf_free(c);
	free(role.priv);
	role.priv = NULL;
}

static void
refused(const char *what)
{
	spawned = 0;
	CU_ASSERT_EQUAL(hoplabrouter_start(&role, &sr, err, sizeof(err)), -1);
	CU_ASSERT_EQUAL(spawned, 0);
	if (strstr(err, what) == NULL)
		fprintf(stderr, "\n got: %s\nwant: ...%s...\n", err, what);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, what));
	params();
}

static void
t_bad_rip_params_and_ospf_are_refused(void)
{
	params();
	rg.rip_timeout_ns = 1000000000ULL;	/* == update */
	refused("rip timers");
	rg.rip_update_ns = 10000000ULL;		/* 10 ms */
	refused("rip timers");
	rg.rip_auth = "md5";
	refused("rip auth");
	rg.rip_auth_key_id = 256;
	refused("rip auth");
	rg.rip_auth_secret = "has space";
	refused("rip auth");
	active[0] = "eth9";
	refused("rip interface 'eth9'");
	active[0] = "lo";
	rg.protocol = HOPLAB__ROUTING_PARAMS__PROTOCOL__OSPF;
	refused("not one it speaks");
}

static int
setup(void)
{
	if (mkdtemp(tmpdir) == NULL)
		return -1;
	snprintf(endpoint, sizeof(endpoint), "ipc://%s/c.sock", tmpdir);
	ctx.agent = "unit";
	ctx.rundir = tmpdir;
	ctx.bindir = "/nonexistent";
	ctx.endpoint = endpoint;
	role.ctx = &ctx;
	return 0;
}

static int
teardown(void)
{
	char path[PATH_MAX + 32];

	snprintf(path, sizeof(path), "%s/router-7.yaml", tmpdir);
	unlink(path);
	return rmdir(tmpdir);
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST(t_rip_params_reach_the_routers_config),
		UNIT_TEST(t_bad_rip_params_and_ospf_are_refused),
	};

	return UNIT_MAIN_FIXTURE("rip_agent", setup, teardown, tests);
}
