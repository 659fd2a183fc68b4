/*
 * test_hostname: lib/hostname.c against RFC 1123 section 2.1 and RFC 952,
 * case by case.  The long names are built here from counted labels, so
 * each length (63, 64, 253, 254) is the one the test name says.
 */
#include <stdio.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "hostname.h"
#include "tests/unit/unit.h"

/* N copies of C, NUL-terminated, into BUF (room for N + 1). */
static char *
run_of(char *buf, char c, size_t n)
{
	memset(buf, c, n);
	buf[n] = '\0';
	return buf;
}

static void
t_ordinary_names_pass(void)
{
	static const char *ok[] = {
		"a", "A", "gen", "lab-a.example.net", "R1", "w-A-B",
		"xn--bcher-kva.example", "a--b", "EXAMPLE.COM",
	};
	size_t i;

	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		CU_ASSERT_TRUE(hostname_valid(ok[i]));
}

static void
t_labels_may_start_with_digits_and_be_numeric(void)
{
	/* RFC 1123 2.1 relaxed RFC 952: a leading digit is allowed. */
	CU_ASSERT_TRUE(hostname_valid("3com.example"));
	CU_ASSERT_TRUE(hostname_valid("1host"));
	CU_ASSERT_TRUE(hostname_valid("a.123.example"));
	CU_ASSERT_TRUE(hostname_valid("198.19.0.x"));
}

static void
t_all_numeric_names_are_refused_as_dotted_decimal(void)
{
	CU_ASSERT_FALSE(hostname_valid("123"));
	CU_ASSERT_FALSE(hostname_valid("1.2.3.4"));
	CU_ASSERT_FALSE(hostname_valid("198.19.0.10"));
	CU_ASSERT_FALSE(hostname_valid("999.1"));
}

static void
t_label_of_63_passes_and_64_is_refused(void)
{
	char label[70], name[80];

	CU_ASSERT_TRUE(hostname_valid(run_of(label, 'a', 63)));
	CU_ASSERT_FALSE(hostname_valid(run_of(label, 'a', 64)));
	run_of(label, 'b', 63);
	strcpy(name, "x.");
	strcat(name, label);
	CU_ASSERT_TRUE(hostname_valid(name));
	strcat(name, "b");		/* the second label is now 64 long */
	CU_ASSERT_FALSE(hostname_valid(name));
}

static void
t_name_of_253_passes_and_254_is_refused(void)
{
	char l63[64], name[300];

	run_of(l63, 'c', 63);
	/* 63 + 1 + 63 + 1 + 63 + 1 + 61 = 253 */
	snprintf(name, sizeof(name), "%s.%s.%s.%.61s", l63, l63, l63, l63);
	CU_ASSERT_EQUAL(strlen(name), 253);
	CU_ASSERT_TRUE(hostname_valid(name));
	/* 63 + 1 + 63 + 1 + 63 + 1 + 62 = 254, every label still <= 63 */
	snprintf(name, sizeof(name), "%s.%s.%s.%.62s", l63, l63, l63, l63);
	CU_ASSERT_EQUAL(strlen(name), 254);
	CU_ASSERT_FALSE(hostname_valid(name));
}

static void
t_hyphen_at_either_end_of_a_label_is_refused(void)
{
	static const char *bad[] = {
		"-a", "a-", "-", "a.-b", "a.b-", "a-.b", "-a.b", "ok.x-.ok",
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CU_ASSERT_FALSE(hostname_valid(bad[i]));
}

static void
t_empty_labels_are_refused(void)
{
	static const char *bad[] = {
		"", ".", "..", ".a", "a.", "a..b", "example.com.",
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CU_ASSERT_FALSE(hostname_valid(bad[i]));
}

static void
t_characters_outside_letters_digits_hyphen_are_refused(void)
{
	static const char *bad[] = {
		"a_b", "_srv.example", "a b", "a@b", "a;b", "a/b", "a:22",
		"caf\xc3\xa9", "-oProxyCommand=x", "$(reboot)",
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CU_ASSERT_FALSE(hostname_valid(bad[i]));
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST(t_ordinary_names_pass),
		UNIT_TEST(t_labels_may_start_with_digits_and_be_numeric),
		UNIT_TEST(t_all_numeric_names_are_refused_as_dotted_decimal),
		UNIT_TEST(t_label_of_63_passes_and_64_is_refused),
		UNIT_TEST(t_name_of_253_passes_and_254_is_refused),
		UNIT_TEST(t_hyphen_at_either_end_of_a_label_is_refused),
		UNIT_TEST(t_empty_labels_are_refused),
		UNIT_TEST(t_characters_outside_letters_digits_hyphen_are_refused),
	};

	return UNIT_MAIN("hostname", tests);
}
