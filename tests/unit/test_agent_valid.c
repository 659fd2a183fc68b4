/*
 * Unit suite for agent/valid.c: the names the agent takes from the wire
 * before they reach a path or a command line.  The hostile ones come
 * from issue 17: a run id "..", with RUNDIR/links/RUN_ID/ then RUNDIR
 * itself, and a truth file opened with O_TRUNC there.
 */
#include <string.h>

#include <CUnit/CUnit.h>

#include "agent/valid.h"
#include "datafile.h"
#include "tests/unit/unit.h"

static void
t_plain_names_pass(void)
{
	CU_ASSERT_TRUE(valid_token("chain-delay-20261202T101500Z", 64));
	CU_ASSERT_TRUE(valid_token("A-B", 64));
	CU_ASSERT_TRUE(valid_token("topology_A-B_64_1.truth", 64));
	CU_ASSERT_TRUE(valid_token("a", 2));
	CU_ASSERT_TRUE(valid_token("x..y", 64));	/* inside: a plain name */
}

static void
t_dot_names_are_refused(void)
{
	CU_ASSERT_FALSE(valid_token(".", 64));
	CU_ASSERT_FALSE(valid_token("..", 64));
	CU_ASSERT_FALSE(valid_token("...", 64));
	CU_ASSERT_FALSE(valid_token(".hidden", 64));
	CU_ASSERT_FALSE(valid_token("../agent.pid", 64));
}

static void
t_other_characters_and_lengths_are_refused(void)
{
	CU_ASSERT_FALSE(valid_token("", 64));
	CU_ASSERT_FALSE(valid_token("a/b", 64));
	CU_ASSERT_FALSE(valid_token("a b", 64));
	CU_ASSERT_FALSE(valid_token("a,b=1", 64));
	CU_ASSERT_FALSE(valid_token("ab", 2));		/* 1..MAX-1 */
	CU_ASSERT_FALSE(valid_token("caf\xc3\xa9", 64));
}

/* Files a controller names: plain names of the data folder only. */
static void
t_dist_and_profile_files(void)
{
	char bad[64] = "";

	CU_ASSERT_TRUE(valid_dist_file(""));
	CU_ASSERT_TRUE(valid_dist_file("exp:1ms"));
	CU_ASSERT_TRUE(valid_dist_file("csv:sizes.csv"));
	CU_ASSERT_TRUE(valid_dist_file("pcap-gaps:trace.pcap"));
	CU_ASSERT_FALSE(valid_dist_file("csv:/etc/shadow"));
	CU_ASSERT_FALSE(valid_dist_file("pcap-sizes:/dev/zero"));
	CU_ASSERT_FALSE(valid_dist_file("pcap-gaps:../x.pcap"));
	CU_ASSERT_FALSE(valid_dist_file("csv:.hidden"));
	CU_ASSERT_FALSE(valid_dist_file("csv:"));
	CU_ASSERT_TRUE(datafile_netem_ok("delay 5ms 1ms distribution normal "
	    "loss 1%", bad, sizeof(bad)));
	CU_ASSERT_TRUE(datafile_netem_ok("delay 5ms 1ms distribution t.dist",
	    bad, sizeof(bad)));
	CU_ASSERT_TRUE(datafile_netem_ok("none", bad, sizeof(bad)));
	CU_ASSERT_FALSE(datafile_netem_ok("delay 5ms 1ms distribution "
	    "/dev/zero fifo", bad, sizeof(bad)));
	CU_ASSERT_STRING_EQUAL(bad, "/dev/zero");
	CU_ASSERT_FALSE(datafile_netem_ok("delay 5ms 1ms  distribution  "
	    "../t.dist", bad, sizeof(bad)));
	CU_ASSERT_STRING_EQUAL(bad, "../t.dist");
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST(t_plain_names_pass),
		UNIT_TEST(t_dot_names_are_refused),
		UNIT_TEST(t_other_characters_and_lengths_are_refused),
		UNIT_TEST(t_dist_and_profile_files),
	};

	return UNIT_MAIN("agent_valid", tests);
}
