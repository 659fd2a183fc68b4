/*
 * planfix: the fixture of the plan-loader suites (test_plantopo.c,
 * test_plantopo_ext.c): the seed thesis's "minimal network" as YAML,
 * loading a plan string as "t.yaml", the refusal it must give, and the
 * routes and paths a loaded topology has (planfix.c).
 */
#ifndef HOPLAB_TESTS_PLANFIX_H
#define HOPLAB_TESTS_PLANFIX_H

#include <stddef.h>

#include "controller/plan/plan.h"

#define PLANFIX_ERR_MAX	8192

#define MINIMAL_HOSTS(r2)						\
	"name: t\n"							\
	"topology:\n"							\
	"  hosts:\n"							\
	"    H1: {}\n"							\
	"    H2: {}\n"							\
	"    H3: {}\n"							\
	"    R1: {router: linux}\n"					\
	"    R2: {router: " r2 "}\n"					\
	"    R3: {router: linux}\n"					\
	"    R4: {router: linux}\n"					\
	"  links:\n"							\
	"    - [H1, R1]\n"						\
	"    - [R1, R2]\n"						\
	"    - [R1, R3]\n"						\
	"    - [R2, R4]\n"						\
	"    - [R3, R4]\n"						\
	"    - [R4, H2]\n"						\
	"    - [R2, H3]\n"
#define FLOWS								\
	"flows:\n"							\
	"  - {name: f1, from: H1, to: H2, frame: 128, idt: 1ms, count: 9}\n"

/* The last load's error text. */
extern char planfix_err[PLANFIX_ERR_MAX];

/* YAML loaded as "t.yaml", or NULL (its refusal printed). */
struct plan *planfix_load(const char *yaml);
/* Load YAML as "t.yaml"; the plan must be refused with exactly WANT. */
void	planfix_expect_err(const char *yaml, const char *want);
/* The route of host NAME to PREFIX with METRIC, or NULL. */
const struct plantopo_route *planfix_route(const struct plan *p,
	    const char *name, const char *prefix, unsigned metric);
/* How many routes host NAME has. */
size_t	planfix_nroutes(const struct plan *p, const char *name);
/* Check route NAME PREFIX METRIC goes via VIA on interface IFACE. */
void	planfix_check_route(const struct plan *p, const char *name,
	    const char *prefix, unsigned metric, const char *via,
	    const char *iface);
/* "H1 R1 R2" for the path of FROM to TO, or the error, into BUF. */
void	planfix_path_text(const struct plan *p, const char *from,
	    const char *to, char *buf, size_t len);

#endif
