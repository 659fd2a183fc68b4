/*
 * unit: the CUnit runner of every unit suite (see unit.h).
 */
#include <CUnit/Basic.h>
#include <stdio.h>
#include <stdlib.h>

#include "tests/unit/unit.h"

int
unit_main_fixture(const char *suite, int (*init)(void), int (*cleanup)(void),
    const struct unit_test *tests, size_t ntests)
{
	CU_pSuite	s;
	unsigned int	failed;
	size_t		i;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 2;
	if ((s = CU_add_suite(suite, init, cleanup)) == NULL)
		goto fail;
	for (i = 0; i < ntests; i++)
		if (CU_add_test(s, tests[i].name, tests[i].fn) == NULL)
			goto fail;
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	failed = CU_get_number_of_failures() + CU_get_number_of_suites_failed();
	CU_cleanup_registry();
	return failed ? 1 : 0;
fail:
	CU_cleanup_registry();
	return 2;
}

int
unit_main(const char *suite, const struct unit_test *tests, size_t ntests)
{
	return unit_main_fixture(suite, NULL, NULL, tests, ntests);
}

int
unit_tmpdir(char *buf, size_t len, const char *name)
{
	const char *t = getenv("TMPDIR");

	snprintf(buf, len, "%s/%s.XXXXXX", t != NULL ? t : "/tmp", name);
	return mkdtemp(buf) != NULL ? 0 : -1;
}

int
unit_rm_tree(const char *dir)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}
