/* SPDX-License-Identifier: ISC */
/*
 * procfs.c: the /proc/PID/stat parser the family walk, the sentinel and
 * the namespace init share.  A hostile command chooses its own name:
 * ')' and spaces in it must not shift the fields.
 */
#include "config.h"

#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "procfs.h"
#include "runner.h"

Suite *procfs_suite(void);

START_TEST(test_self)
{
	struct gx_proc_stat ps;

	ck_assert_int_eq(procfs_stat(getpid(), &ps), 0);
	ck_assert_int_eq(ps.state, 'R');
	ck_assert_int_eq(ps.ppid, getppid());
	ck_assert_int_eq(ps.pgrp, getpgrp());
	ck_assert_int_eq(ps.session, getsid(0));
}
END_TEST

/* A name like "x) Z 1 1 1 (" would fake a zombie of init's if the
 * parser took the first ')'. */
START_TEST(test_hostile_name)
{
	static const char *const names[] = { "x) Z 1 1 1 (", ") )", "a b)",
		")", "((((((((((((((((" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct gx_proc_stat ps;

		ck_assert_int_eq(prctl(PR_SET_NAME, names[i], 0, 0, 0), 0);
		ck_assert_int_eq(procfs_stat(getpid(), &ps), 0);
		ck_assert_msg(ps.state == 'R', "name %s: state %c", names[i],
		    ps.state);
		ck_assert_int_eq(ps.ppid, getppid());
		ck_assert_int_eq(ps.session, getsid(0));
	}
}
END_TEST

/* A zombie is reported, with its parent: the family walk keeps it. */
START_TEST(test_zombie)
{
	struct gx_proc_stat ps;
	siginfo_t si;
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (pid == 0)
		_exit(0);
	/* Wait for the exit without reaping it. */
	ck_assert_int_eq(waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT), 0);
	ck_assert_int_eq(procfs_stat(pid, &ps), 0);
	ck_assert_int_eq(ps.state, 'Z');
	ck_assert_int_eq(ps.ppid, getpid());
	waitpid(pid, NULL, 0);
	ck_assert_int_eq(procfs_stat(pid, &ps), -1);
}
END_TEST

START_TEST(test_parse_pid)
{
	const char *end;

	ck_assert_int_eq(procfs_parse_pid("1234 rest", &end), 1234);
	ck_assert_str_eq(end, " rest");
	ck_assert_int_eq(procfs_parse_pid("x", &end), 0);
	ck_assert_str_eq(end, "x");
	ck_assert_int_eq(procfs_parse_pid("4194304\n", NULL), 4194304);
}
END_TEST

START_TEST(test_read)
{
	char buf[8];

	ck_assert_int_eq(procfs_read("/nonexistent/x", buf, sizeof(buf)), -1);
	/* At most size - 1 bytes, NUL-terminated. */
	ck_assert_int_eq(procfs_read("/proc/self/stat", buf, sizeof(buf)), 7);
	ck_assert_uint_eq(strlen(buf), 7);
}
END_TEST

Suite *
procfs_suite(void)
{
	Suite *s = suite_create("procfs");
	TCase *tc = tcase_create("stat");

	tcase_add_test(tc, test_self);
	tcase_add_test(tc, test_hostile_name);
	tcase_add_test(tc, test_zombie);
	tcase_add_test(tc, test_parse_pid);
	tcase_add_test(tc, test_read);
	suite_add_tcase(s, tc);
	return s;
}

UNIT_MAIN(procfs_suite)
