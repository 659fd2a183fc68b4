/*
 * Unit suite for agent/birdconf.c: the BIRD 2 configuration of the
 * thesis's router R1 (three interfaces: to H1, to R2 and to R3, the two
 * to routers active) for RIP, RIP with HMAC-SHA256 authentication, OSPF
 * and OSPF with BFD, each compared byte for byte with a file saved in
 * tests/unit/data/birdconf/ (read and checked by hand against BIRD's
 * user guide when it was saved).  The truth that those files are valid
 * BIRD is BIRD's own: each is handed to `bird -p -c FILE` (parse only,
 * nothing started), when bird is installed.  Then what cannot be
 * written: no protocol, an active interface the router does not have, a
 * name that is a BIRD pattern, a secret with a quote.
 *
 * Run from the top of the tree (the data path is relative).  With
 * HOPLAB_BIRDCONF_SAVE=1 the expected files are written anew instead.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include <CUnit/CUnit.h>

#include "agent/birdconf.h"
#include "spawn.h"
#include "tests/unit/unit.h"

#define DATA	"tests/unit/data/birdconf/"
#define LOGPATH	"/run/hoplab-agent/role-7/bird.log"
#define BIRD	"/usr/sbin/bird"

static Hoplab__IfaceAddr ia[3];
static Hoplab__IfaceAddr *iap[3] = { &ia[0], &ia[1], &ia[2] };
static char *active[2] = { "r1-r2", "r1-r3" };
static Hoplab__RoutingParams rt;
static Hoplab__RouterParams rp;
static char err[512];

/* R1: H1's subnet on r1-h1, links to R2 and R3; protocol PROTO. */
static void
setup(int proto)
{
	static const char *const names[3] = { "r1-h1", "r1-r2", "r1-r3" };
	static const char *const cidrs[3] = { "198.18.1.1/24",
	    "198.18.12.1/30", "198.18.0.5/30" };
	int i;

	hoplab__router_params__init(&rp);
	hoplab__routing_params__init(&rt);
	for (i = 0; i < 3; i++) {
		hoplab__iface_addr__init(&ia[i]);
		ia[i].name = (char *)names[i];
		ia[i].cidr = (char *)cidrs[i];
	}
	rp.ifaces = iap;
	rp.n_ifaces = 3;
	rp.routing = &rt;
	rt.protocol = proto;
	rt.active_ifaces = active;
	rt.n_active_ifaces = 2;
}

/* The configuration as written, in a malloc'd string, or NULL. */
static char *
written(void)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int rc;

	CU_ASSERT_FATAL(f != NULL);
	rc = birdconf_write(f, &rp, LOGPATH, err, sizeof(err));
	fclose(f);
	if (rc == -1) {
		free(text);
		return NULL;
	}
	return text;
}

static char *
slurp(const char *path)
{
	static char buf[16384];
	FILE *f = fopen(path, "r");
	size_t n;

	if (f == NULL)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	return buf;
}

/* bird's parse-only mode on PATH: 1 when it accepts it. */
static int
bird_accepts(const char *path)
{
	char out[4096], eout[4096];
	char *argv[] = { "bird", "-p", "-c", (char *)path, NULL };
	struct spawn_result r = { .out = out, .outlen = sizeof(out),
	    .errout = eout, .errlen = sizeof(eout),
	    .timeout_ns = 10000000000LL };

	if (spawn_run(BIRD, argv, NULL, &r, err, sizeof(err)) == -1) {
		fprintf(stderr, "%s\n", err);
		return 0;
	}
	if (!WIFEXITED(r.status) || WEXITSTATUS(r.status) != 0)
		fprintf(stderr, "bird -p -c %s: %s%s\n", path, out, eout);
	return WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0;
}

/* The text written equals DATA/NAME, and bird accepts that file. */
static void
expect(const char *name)
{
	char path[256], *text = written(), *want;
	FILE *f;

	snprintf(path, sizeof(path), DATA "%s", name);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	if (getenv("HOPLAB_BIRDCONF_SAVE") != NULL &&
	    (f = fopen(path, "w")) != NULL) {
		fputs(text, f);
		fclose(f);
	}
	want = slurp(path);
	CU_ASSERT_PTR_NOT_NULL_FATAL(want);
	CU_ASSERT_STRING_EQUAL(text, want);
	if (access(BIRD, X_OK) == 0) {
		CU_ASSERT(bird_accepts(path));
	} else
		fprintf(stderr, "(%s not installed: not parsed)\n", BIRD);
	free(text);
}

static void
t_rip(void)
{
	setup(HOPLAB__ROUTING_PARAMS__PROTOCOL__RIP);
	rt.rip_update_ns = 5000000000ULL;
	rt.rip_timeout_ns = 30000000000ULL;
	rt.rip_garbage_ns = 20000000000ULL;
	expect("rip.conf");
}

static void
t_rip_auth(void)
{
	setup(HOPLAB__ROUTING_PARAMS__PROTOCOL__RIP);
	rt.rip_update_ns = 2500000000ULL;	/* rounded up: 3 s */
	rt.rip_auth = "hmac-sha256";
	rt.rip_auth_key_id = 1;
	rt.rip_auth_secret = "lab-key";
	expect("rip_auth.conf");
}

static void
t_ospf(void)
{
	setup(HOPLAB__ROUTING_PARAMS__PROTOCOL__OSPF);
	rt.ospf_hello_ns = 1000000000ULL;
	rt.ospf_dead_ns = 4000000000ULL;
	expect("ospf.conf");
}

static void
t_ospf_bfd(void)
{
	setup(HOPLAB__ROUTING_PARAMS__PROTOCOL__OSPF);
	rt.bfd_interval_ns = 100000000ULL;	/* 100 ms */
	rt.bfd_multiplier = 0;			/* 3 */
	expect("ospf_bfd.conf");
}

static void
t_refused(void)
{
	static char *bad_active[1] = { "r1-r9" };

	setup(HOPLAB__ROUTING_PARAMS__PROTOCOL__STATIC);
	CU_ASSERT_PTR_NULL(written());
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "not rip or ospf"));

	setup(HOPLAB__ROUTING_PARAMS__PROTOCOL__OSPF);
	rt.active_ifaces = bad_active;
	rt.n_active_ifaces = 1;
	CU_ASSERT_PTR_NULL(written());
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "\"r1-r9\" is not one"));

	setup(HOPLAB__ROUTING_PARAMS__PROTOCOL__OSPF);
	ia[2].name = "eth*";
	CU_ASSERT_PTR_NULL(written());
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "cannot be quoted"));

	setup(HOPLAB__ROUTING_PARAMS__PROTOCOL__RIP);
	rt.rip_auth = "hmac-sha256";
	rt.rip_auth_secret = "a\"b";
	CU_ASSERT_PTR_NULL(written());
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "hmac-sha256"));

	setup(HOPLAB__ROUTING_PARAMS__PROTOCOL__RIP);
	rp.n_ifaces = 0;
	rt.n_active_ifaces = 0;
	CU_ASSERT_PTR_NULL(written());
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "no interface"));
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST_NAMED("rip: timers, two active interfaces", t_rip),
		UNIT_TEST_NAMED("rip with hmac sha256", t_rip_auth),
		UNIT_TEST_NAMED("ospf: ptp hello/dead, a stub", t_ospf),
		UNIT_TEST_NAMED("ospf with bfd", t_ospf_bfd),
		UNIT_TEST_NAMED("what cannot be written is refused", t_refused),
	};

	return UNIT_MAIN("birdconf", tests);
}
