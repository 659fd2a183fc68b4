/*
 * Unit suite for lib/keys.c: Z85 key checks against the CurveZMQ example
 * keys (ZeroMQ RFC 26), key pair files written and read back with their
 * modes, and the refusals: overwriting, open permissions, unknown lines,
 * a public half that does not match its secret half.  Files go to a fresh
 * folder under /tmp that the suite removes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <CUnit/CUnit.h>
#include <zmq.h>

#include "keys.h"
#include "tests/unit/unit.h"

/* The server key pair of the CurveZMQ reference example (RFC 26). */
#define RFC_PUBLIC	"rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf7"
#define RFC_SECRET	"JTKVSB%%)wK0E.X)V>+}o?pNmC{O&4W4b!Ni{Lh6"
/* The client public key of the same example. */
#define RFC_CLIENT	"Yne@$w-vo<fVvi]a<NY6T1ed:M$fCG*[IaLV{hID"

static char dir[64];
static char err[512];

static void
put(const char *name, const char *text, mode_t mode)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(text, f);
	fclose(f);
	chmod(path, mode);
}

static const char *
at(const char *name)
{
	static char path[128];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return path;
}

static void
t_valid_z85_accepts_rfc_keys_and_rejects_others(void)
{
	CU_ASSERT_TRUE(keys_valid_z85(RFC_PUBLIC));
	CU_ASSERT_TRUE(keys_valid_z85(RFC_SECRET));
	CU_ASSERT_FALSE(keys_valid_z85("rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf"));
	CU_ASSERT_FALSE(keys_valid_z85(RFC_PUBLIC "x"));
	CU_ASSERT_FALSE(keys_valid_z85("rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]y\"7"));
	CU_ASSERT_FALSE(keys_valid_z85("rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]y 7"));
	CU_ASSERT_FALSE(keys_valid_z85(""));
	CU_ASSERT_FALSE(keys_valid_z85(NULL));
}

static void
t_generate_gives_distinct_matching_pairs(void)
{
	struct keypair a, b;
	char derived[KEYS_Z85_LEN + 1];

	CU_ASSERT_EQUAL_FATAL(keys_generate(&a, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL_FATAL(keys_generate(&b, err, sizeof(err)), 0);
	CU_ASSERT_TRUE(keys_valid_z85(a.public_z85));
	CU_ASSERT_TRUE(keys_valid_z85(a.secret_z85));
	CU_ASSERT_STRING_NOT_EQUAL(a.public_z85, b.public_z85);
	CU_ASSERT_STRING_NOT_EQUAL(a.secret_z85, b.secret_z85);
	CU_ASSERT_EQUAL(zmq_curve_public(derived, a.secret_z85), 0);
	CU_ASSERT_STRING_EQUAL(derived, a.public_z85);
}

static void
t_write_then_load_round_trip_with_modes(void)
{
	struct keypair kp, got;
	struct stat st;

	memset(&kp, 0, sizeof(kp));
	strcpy(kp.public_z85, RFC_PUBLIC);
	strcpy(kp.secret_z85, RFC_SECRET);
	CU_ASSERT_EQUAL_FATAL(keys_write(dir, "srv", &kp, err, sizeof(err)),
	    0);
	CU_ASSERT_EQUAL(stat(at("srv.key"), &st), 0);
	CU_ASSERT_EQUAL(st.st_mode & 0777, 0600);
	CU_ASSERT_EQUAL(stat(at("srv.pub"), &st), 0);
	CU_ASSERT_EQUAL(st.st_mode & 0777, 0644);
	CU_ASSERT_EQUAL(keys_load(at("srv.key"), 1, &got, err, sizeof(err)),
	    0);
	CU_ASSERT_STRING_EQUAL(got.public_z85, RFC_PUBLIC);
	CU_ASSERT_STRING_EQUAL(got.secret_z85, RFC_SECRET);
	CU_ASSERT_EQUAL(keys_load(at("srv.pub"), 0, &got, err, sizeof(err)),
	    0);
	CU_ASSERT_STRING_EQUAL(got.public_z85, RFC_PUBLIC);
	CU_ASSERT_STRING_EQUAL(got.secret_z85, "");
}

static void
t_write_never_overwrites(void)
{
	struct keypair kp;

	CU_ASSERT_EQUAL_FATAL(keys_generate(&kp, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(keys_write(dir, "twice", &kp, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(keys_write(dir, "twice", &kp, err, sizeof(err)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "never overwrites"));
}

static void
t_secret_key_readable_by_others_is_refused(void)
{
	struct keypair got;

	put("open.key", "public-key = \"" RFC_PUBLIC "\"\nsecret-key = \""
	    RFC_SECRET "\"\n", 0644);
	CU_ASSERT_EQUAL(keys_load(at("open.key"), 1, &got, err, sizeof(err)),
	    -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "permissions 0644 are too open"));
	/* The public half of the same file may be read by anyone. */
	CU_ASSERT_EQUAL(keys_load(at("open.key"), 0, &got, err, sizeof(err)),
	    0);
}

static void
t_public_file_given_as_secret_is_refused(void)
{
	struct keypair got;

	put("only.pub", "# comment\npublic-key = \"" RFC_PUBLIC "\"\n", 0600);
	CU_ASSERT_EQUAL(keys_load(at("only.pub"), 1, &got, err, sizeof(err)),
	    -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "no secret-key line"));
}

static void
t_unknown_line_is_named_by_number(void)
{
	struct keypair got;

	put("bad.pub", "public-key = \"" RFC_PUBLIC "\"\n\nprivate = \"x\"\n",
	    0600);
	CU_ASSERT_EQUAL(keys_load(at("bad.pub"), 0, &got, err, sizeof(err)),
	    -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "bad.pub:3: unknown key"));
	put("short.pub", "public-key = \"abc\"\n", 0600);
	CU_ASSERT_EQUAL(keys_load(at("short.pub"), 0, &got, err,
	    sizeof(err)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "short.pub:1: public-key: "
	    "expected 40 Z85"));
}

/*
 * Only regular files are read: /dev/zero once made keys_load() read
 * forever (an inventory's public_key_file), and a FIFO in a key folder
 * would block the open.  A key file is small: 64 KB at most.
 */
static void
t_devices_fifos_and_huge_files_are_not_key_files(void)
{
	char out[1][KEYS_Z85_LEN + 1];
	struct keypair got;
	FILE *f;

	CU_ASSERT_EQUAL(keys_load("/dev/zero", 0, &got, err, sizeof(err)),
	    -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "/dev/zero: not a key file (not "
	    "a regular file)"));
	CU_ASSERT_EQUAL_FATAL(mkfifo(at("fifo.pub"), 0600), 0);
	CU_ASSERT_EQUAL(keys_load_public(at("fifo.pub"), out, 1, err,
	    sizeof(err)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "fifo.pub: not a key file"));
	unlink(at("fifo.pub"));
	f = fopen(at("huge.pub"), "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("public-key = \"" RFC_PUBLIC "\"\n", f);
	fprintf(f, "%70000s\n", "");
	fclose(f);
	CU_ASSERT_EQUAL(keys_load(at("huge.pub"), 0, &got, err, sizeof(err)),
	    -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "larger than 64 KB"));
	unlink(at("huge.pub"));
}

static void
t_mismatched_pair_is_refused(void)
{
	struct keypair got;

	put("mixed.key", "public-key = \"" RFC_CLIENT "\"\nsecret-key = \""
	    RFC_SECRET "\"\n", 0600);
	CU_ASSERT_EQUAL(keys_load(at("mixed.key"), 1, &got, err,
	    sizeof(err)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "does not belong"));
}

static void
t_public_folder_reads_only_pub_files_in_name_order(void)
{
	char keys[4][KEYS_Z85_LEN + 1], sub[96];
	int n;

	snprintf(sub, sizeof(sub), "%s/ctl", dir);
	CU_ASSERT_EQUAL_FATAL(mkdir(sub, 0700), 0);
	put("ctl/b.pub", "public-key = \"" RFC_PUBLIC "\"\n", 0644);
	put("ctl/a.pub", "public-key = \"" RFC_CLIENT "\"\n", 0644);
	put("ctl/z.key", "garbage\n", 0600);
	n = keys_load_public(sub, keys, 4, err, sizeof(err));
	CU_ASSERT_EQUAL_FATAL(n, 2);
	CU_ASSERT_STRING_EQUAL(keys[0], RFC_CLIENT);
	CU_ASSERT_STRING_EQUAL(keys[1], RFC_PUBLIC);
	n = keys_load_public(at("ctl/a.pub"), keys, 4, err, sizeof(err));
	CU_ASSERT_EQUAL(n, 1);
	CU_ASSERT_EQUAL(keys_load_public(at("nowhere"), keys, 4, err,
	    sizeof(err)), -1);
}

/*
 * More key files than room: refused, naming both counts, rather than
 * some keys left out in readdir order (issue 17 item 11).
 */
static void
t_more_keys_than_room_are_refused_not_cut(void)
{
	char keys[2][KEYS_Z85_LEN + 1], sub[96];

	snprintf(sub, sizeof(sub), "%s/many", dir);
	CU_ASSERT_EQUAL_FATAL(mkdir(sub, 0700), 0);
	put("many/a.pub", "public-key = \"" RFC_PUBLIC "\"\n", 0644);
	put("many/b.pub", "public-key = \"" RFC_CLIENT "\"\n", 0644);
	put("many/c.pub", "public-key = \"" RFC_PUBLIC "\"\n", 0644);
	CU_ASSERT_EQUAL(keys_load_public(sub, keys, 2, err, sizeof(err)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "3 *.pub key files, more than "
	    "the 2"));
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST(t_valid_z85_accepts_rfc_keys_and_rejects_others),
		UNIT_TEST(t_generate_gives_distinct_matching_pairs),
		UNIT_TEST(t_write_then_load_round_trip_with_modes),
		UNIT_TEST(t_write_never_overwrites),
		UNIT_TEST(t_secret_key_readable_by_others_is_refused),
		UNIT_TEST(t_public_file_given_as_secret_is_refused),
		UNIT_TEST(t_unknown_line_is_named_by_number),
		UNIT_TEST(t_mismatched_pair_is_refused),
		UNIT_TEST(t_devices_fifos_and_huge_files_are_not_key_files),
		UNIT_TEST(t_public_folder_reads_only_pub_files_in_name_order),
		UNIT_TEST(t_more_keys_than_room_are_refused_not_cut),
	};
	char cmd[128];
	int rc;

	snprintf(dir, sizeof(dir), "/tmp/test-keys.XXXXXX");
	if (mkdtemp(dir) == NULL)
		return 1;
	rc = UNIT_MAIN("keys", tests);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0 && rc == 0)
		rc = 1;
	return rc;
}
