/* SPDX-License-Identifier: ISC */
/* trust.c: which paths lie inside a write path, real paths of files
 * that do not exist yet, the store's location. */
#include "config.h"

#include <check.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runner.h"
#include "trust.h"

Suite *trust_suite(void);

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

static const struct {
	const char *path;
	const char *writes[4];
	const char *want;       /* the write path it lies in, or NULL */
} inside_cases[] = {
	{ "/repo/.guardexec/agent.cfg", { "/repo", NULL }, "/repo" },
	{ "/repo", { "/repo", NULL }, "/repo" },
	{ "/repo2/agent.cfg", { "/repo", NULL }, NULL },       /* a prefix, not a parent */
	{ "/repo/agent.cfg", { "/tmp", "/", NULL }, "/" },
	{ "/etc/guardexec/agent.cfg", { "/tmp", "/home/a", NULL }, NULL },
	{ "/home/a/.local/state/guardexec/trusted", { "/home/a", NULL },
	  "/home/a" },
	{ "/x", { NULL }, NULL },
};

START_TEST(test_inside)
{
	const char *got = trust_inside(inside_cases[_i].path,
	    (char *const *)inside_cases[_i].writes);
	const char *want = inside_cases[_i].want;

	if (want == NULL)
		ck_assert_msg(got == NULL, "%s: inside %s", inside_cases[_i].path,
		    got);
	else
		ck_assert_msg(got != NULL && strcmp(got, want) == 0,
		    "%s: got %s, want %s", inside_cases[_i].path,
		    got ? got : "NULL", want);
}
END_TEST

START_TEST(test_real_path_missing)
{
	char *r = trust_real_path("/tmp/../tmp/gx-no-such-dir-x/y/z.cfg");
	char *tmp = realpath("/tmp", NULL);
	char *want;

	ck_assert_ptr_nonnull(tmp);
	ck_assert_int_ge(asprintf(&want, "%s/gx-no-such-dir-x/y/z.cfg", tmp), 0);
	ck_assert_str_eq(r, want);
	free(r);
	free(want);
	free(tmp);
	r = trust_real_path("/");
	ck_assert_str_eq(r, "/");
	free(r);
}
END_TEST

START_TEST(test_store_path)
{
	char *p;

	setenv("GUARDEXEC_TRUST_STORE", "/srv/trusted", 1);
	p = trust_store_path("/home/a");
	ck_assert_str_eq(p, "/srv/trusted");
	free(p);
	setenv("GUARDEXEC_TRUST_STORE", "relative/ignored", 1);
	unsetenv("XDG_STATE_HOME");
	p = trust_store_path("/home/a");
	if (geteuid() == 0)
		ck_assert_str_eq(p, "/var/lib/guardexec/trusted");
	else
		ck_assert_str_eq(p, "/home/a/.local/state/guardexec/trusted");
	free(p);
}
END_TEST

static const struct {
	uid_t owner;
	const char *map;        /* /proc/self/uid_map, or NULL: unreadable */
	bool unmapped;
} unmapped_cases[] = {
	/* The initial namespace maps every id: 65534 is nobody. */
	{ 65534, "         0          0 4294967295\n", false },
	{ 1000, "         0          0 4294967295\n", false },
	/* A run's namespace of uid 65534: its own id is the overflow id. */
	{ 65534, "     65534      65534          1\n", true },
	{ 0, "     65534      65534          1\n", true },
	{ 1000, "      1000       1000          1\n", false },
	{ 65534, "      1000       1000          1\n", true },
	{ 5, "         0       1000          1\n         5     100000  65536\n",
	  false },
	{ 65534, "         0     100000  65536\n", true },
	/* Not mapped at all (unshare -U, no map written). */
	{ 65534, "", true },
	{ 65534, NULL, true },
	{ 0, NULL, false },
	{ 1000, "garbage\n", true },
};

START_TEST(test_owner_unmapped)
{
	ck_assert_msg(trust_owner_unmapped(unmapped_cases[_i].owner,
	    unmapped_cases[_i].map, 65534) == unmapped_cases[_i].unmapped,
	    "owner %u, map \"%s\"", (unsigned)unmapped_cases[_i].owner,
	    unmapped_cases[_i].map ? unmapped_cases[_i].map : "(null)");
}
END_TEST

START_TEST(test_foreign)
{
	char why[256];

	/* / and /etc are root's: trusted by owner for anyone. */
	ck_assert(!trust_foreign("/etc", getuid(), why, sizeof(why)));
	ck_assert(trust_foreign("/no/such/file", getuid(), why, sizeof(why)));
}
END_TEST

Suite *
trust_suite(void)
{
	Suite *s = suite_create("trust");
	TCase *tc = tcase_create("trust");

	tcase_set_timeout(tc, 10);
	tcase_add_loop_test(tc, test_inside, 0, N(inside_cases));
	tcase_add_test(tc, test_real_path_missing);
	tcase_add_test(tc, test_store_path);
	tcase_add_test(tc, test_foreign);
	tcase_add_loop_test(tc, test_owner_unmapped, 0, N(unmapped_cases));
	suite_add_tcase(s, tc);
	return s;
}

UNIT_MAIN(trust_suite)
