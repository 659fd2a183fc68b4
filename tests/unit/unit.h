/*
 * unit: the one CUnit runner every unit suite shares.
 *
 * A suite lists its tests with UNIT_TEST() and hands them to unit_main():
 *
 *	int
 *	main(void)
 *	{
 *		static const struct unit_test tests[] = {
 *			UNIT_TEST(t_lookup_prefers_longest_prefix),
 *		};
 *
 *		return UNIT_MAIN("router_fib", tests);
 *	}
 *
 * A test whose CUnit name is not its function's name (a sentence, say)
 * is listed with UNIT_TEST_NAMED("full ring drops and counts", t_full_ring).
 * A suite with set-up and tear-down hands them over with
 * UNIT_MAIN_FIXTURE("msg", suite_init, suite_clean, tests).
 *
 * The output is CUnit's verbose basic mode with its "Run Summary", which
 * tests/run-unit.sh sums.
 */
#ifndef HOPLAB_UNIT_H
#define HOPLAB_UNIT_H

#include <stddef.h>

struct unit_test {
	const char	*name;
	void		(*fn)(void);
};

#define UNIT_TEST(f)		{ #f, f }
#define UNIT_TEST_NAMED(name, f)	{ (name), f }
#define UNIT_MAIN(suite, tests)					\
	unit_main((suite), (tests), sizeof(tests) / sizeof((tests)[0]))
#define UNIT_MAIN_FIXTURE(suite, init, cleanup, tests)		\
	unit_main_fixture((suite), (init), (cleanup), (tests),	\
	    sizeof(tests) / sizeof((tests)[0]))

/*
 * Run the NTESTS tests of TESTS as one suite named SUITE, with no set-up
 * or tear-down.  Returns the exit status for main(): 0 when every test
 * passed, 1 when one failed, 2 when CUnit could not be set up.
 */
int	unit_main(const char *suite, const struct unit_test *tests,
	    size_t ntests);
/*
 * The same with set-up and tear-down functions run once around the suite
 * (CUnit's suite init and cleanup: 0 on success).
 */
int	unit_main_fixture(const char *suite, int (*init)(void),
	    int (*cleanup)(void), const struct unit_test *tests,
	    size_t ntests);
/*
 * A new empty folder $TMPDIR/NAME.XXXXXX (/tmp without TMPDIR), its path
 * in BUF; 0 or -1.  unit_rm_tree() removes it and all it holds.
 */
int	unit_tmpdir(char *buf, size_t len, const char *name);
int	unit_rm_tree(const char *dir);

#endif
