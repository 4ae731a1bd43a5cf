/* SPDX-License-Identifier: ISC */
/*
 * limits.c: size and duration parsing (pure), and limits_apply() run in
 * Check's forked child so that the rlimits it sets die with it.
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "rlimits.h"
#include "runner.h"

Suite *limits_suite(void);

#define KiB (1ULL << 10)
#define MiB (1ULL << 20)
#define GiB (1ULL << 30)

static const struct {
	const char *in;
	uint64_t want;
} sizes_ok[] = {
	{ "0", 0 },
	{ "512", 512 },
	{ "00012", 12 },
	{ "1K", KiB },
	{ "1k", KiB },
	{ "512M", 512 * MiB },
	{ "512m", 512 * MiB },
	{ "2G", 2 * GiB },
	{ "2g", 2 * GiB },
	{ "3MiB", 3 * MiB },
	{ "3mib", 3 * MiB },
	{ "4MB", 4 * MiB },
	{ "4mb", 4 * MiB },
	{ "64KiB", 64 * KiB },
	{ "1GB", GiB },
	{ "5B", 5 },            /* a bare B means bytes */
	{ "0G", 0 },
	{ "18446744073709551615", UINT64_MAX },
	{ "17179869183G", 17179869183ULL * GiB },   /* 2^64 - 2^30 */
};

static const struct {
	const char *in;
	int err;
} sizes_bad[] = {
	{ "", EINVAL },
	{ "lots", EINVAL },
	{ "-1", EINVAL },
	{ "+1", EINVAL },
	{ " 1", EINVAL },
	{ "1 ", EINVAL },
	{ "1 M", EINVAL },
	{ "1T", EINVAL },
	{ "1P", EINVAL },
	{ "1.5M", EINVAL },
	{ "1e3", EINVAL },
	{ "0x10", EINVAL },
	{ "M", EINVAL },
	{ "1Ki", EINVAL },
	{ "1iB", EINVAL },      /* "iB" only after K, M or G */
	{ "1MM", EINVAL },
	{ "1MBB", EINVAL },
	{ "1KiBB", EINVAL },
	{ "99999999999999999999", ERANGE },
	{ "18446744073709551616", ERANGE },
	{ "18446744073709551615G", ERANGE },
	{ "17179869184G", ERANGE },                  /* exactly 2^64 */
	{ "18014398509481984K", ERANGE },            /* 2^54 K = 2^64 */
};

START_TEST(test_size_ok)
{
	uint64_t v = 12345;

	ck_assert_msg(limits_parse_size(sizes_ok[_i].in, &v) == 0,
	    "limits_parse_size(\"%s\") failed: %s", sizes_ok[_i].in,
	    strerror(errno));
	ck_assert_msg(v == sizes_ok[_i].want, "limits_parse_size(\"%s\") = "
	    "%llu, want %llu", sizes_ok[_i].in, (unsigned long long)v,
	    (unsigned long long)sizes_ok[_i].want);
}
END_TEST

START_TEST(test_size_bad)
{
	uint64_t v = 12345;

	errno = 0;
	ck_assert_msg(limits_parse_size(sizes_bad[_i].in, &v) == -1,
	    "limits_parse_size(\"%s\") accepted: %llu", sizes_bad[_i].in,
	    (unsigned long long)v);
	ck_assert_msg(errno == sizes_bad[_i].err, "limits_parse_size(\"%s\"): "
	    "errno %d (%s), want %d", sizes_bad[_i].in, errno,
	    strerror(errno), sizes_bad[_i].err);
	ck_assert_msg(v == 12345, "output written on failure");
}
END_TEST

static const struct {
	const char *in;
	double want;
} durations_ok[] = {
	{ "0", 0.0 },
	{ "60", 60.0 },
	{ "1.5", 1.5 },
	{ "0.25", 0.25 },
	{ ".5", 0.5 },
	{ "2.", 2.0 },
	{ "1e3", 1000.0 },
	{ "31622400", 31622400.0 },
	/* with units (issue 17): largest first, no spaces */
	{ "90s", 90.0 },
	{ "10m", 600.0 },
	{ "1.5h", 5400.0 },
	{ "2m30s", 150.0 },
	{ "1d", 86400.0 },
	{ "1h30m15s", 5415.0 },
	{ "250ms", 0.25 },
	{ "1s500ms", 1.5 },
	{ "0s", 0.0 },
	{ ".5m", 30.0 },
};

static const struct {
	const char *in;
	int err;
} durations_bad[] = {
	{ "", EINVAL },
	{ "-1", EINVAL },
	{ "+1", EINVAL },
	{ " 1", EINVAL },
	{ "1 ", EINVAL },
	{ "1x", EINVAL },
	{ "10M", EINVAL },      /* units are lower case: M is not minutes */
	{ "1m30", EINVAL },     /* a number after a unit needs its own */
	{ "30s1m", EINVAL },    /* largest unit first */
	{ "1m1m", EINVAL },
	{ "1m 30s", EINVAL },
	{ "1m-30s", EINVAL },
	{ "m", EINVAL },
	{ "1h.", EINVAL },
	{ "1sec", EINVAL },
	{ "1e999s", ERANGE },
	{ "abc", EINVAL },
	{ "inf", EINVAL },
	{ "nan", EINVAL },
	{ ".", EINVAL },
	{ "1.5.2", EINVAL },
	{ "1e999", ERANGE },
};

START_TEST(test_duration_ok)
{
	double v = -1;

	ck_assert_msg(limits_parse_duration(durations_ok[_i].in, &v) == 0,
	    "limits_parse_duration(\"%s\") failed: %s", durations_ok[_i].in,
	    strerror(errno));
	ck_assert_double_eq(v, durations_ok[_i].want);
}
END_TEST

START_TEST(test_duration_bad)
{
	double v = -1;

	errno = 0;
	ck_assert_msg(limits_parse_duration(durations_bad[_i].in, &v) == -1,
	    "limits_parse_duration(\"%s\") accepted: %g", durations_bad[_i].in,
	    v);
	ck_assert_msg(errno == durations_bad[_i].err, "limits_parse_duration"
	    "(\"%s\"): errno %d, want %d", durations_bad[_i].in, errno,
	    durations_bad[_i].err);
	ck_assert_double_eq(v, -1);
}
END_TEST

START_TEST(test_resource_names)
{
	ck_assert_str_eq(limits_resource_name(RLIMIT_CPU), "RLIMIT_CPU");
	ck_assert_str_eq(limits_resource_name(RLIMIT_AS), "RLIMIT_AS");
	ck_assert_str_eq(limits_resource_name(RLIMIT_NPROC), "RLIMIT_NPROC");
	ck_assert_str_eq(limits_resource_name(RLIMIT_NOFILE), "RLIMIT_NOFILE");
	ck_assert_str_eq(limits_resource_name(RLIMIT_FSIZE), "RLIMIT_FSIZE");
	ck_assert_str_eq(limits_resource_name(RLIMIT_CORE), "RLIMIT_CORE");
	ck_assert_str_eq(limits_resource_name(RLIMIT_STACK), "RLIMIT_STACK");
	ck_assert_str_eq(limits_resource_name(RLIMIT_MEMLOCK), "RLIMIT_?");
}
END_TEST

/* Runs in Check's forked child: the limits die with it. */
START_TEST(test_apply)
{
	struct gx_limits l = { 0 };
	struct rlimit r;
	int failed = -1;

	l.open_files.set = true;
	l.open_files.value = 64;
	l.core.set = true;
	l.core.value = 0;
	l.cpu.set = true;
	l.cpu.value = 100;
	l.memory.set = true;
	l.memory.value = 1ULL << 40;
	ck_assert_int_eq(limits_apply(&l, false, &failed), 0);
	ck_assert_int_eq(failed, -1);

	ck_assert_int_eq(getrlimit(RLIMIT_NOFILE, &r), 0);
	ck_assert_uint_eq(r.rlim_cur, 64);
	ck_assert_uint_eq(r.rlim_max, 64);
	ck_assert_int_eq(getrlimit(RLIMIT_CORE, &r), 0);
	ck_assert_uint_eq(r.rlim_cur, 0);
	ck_assert_uint_eq(r.rlim_max, 0);
	/* RLIMIT_CPU: hard = soft + 1, so SIGXCPU comes before SIGKILL. */
	ck_assert_int_eq(getrlimit(RLIMIT_CPU, &r), 0);
	ck_assert_uint_eq(r.rlim_cur, 100);
	ck_assert_uint_eq(r.rlim_max, 101);
}
END_TEST

/* ASan reserves terabytes of shadow memory: no RLIMIT_AS under it. */
#if defined(__SANITIZE_ADDRESS__)
#define RUNNING_WITH_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RUNNING_WITH_ASAN 1
#endif
#endif
#ifndef RUNNING_WITH_ASAN
#define RUNNING_WITH_ASAN 0
#endif

START_TEST(test_apply_rlimit_as)
{
	struct gx_limits l = { 0 };
	struct rlimit before, r;
	int failed = -1;

	if (RUNNING_WITH_ASAN)
		return;
	l.memory.set = true;
	l.memory.value = 1ULL << 40;
	ck_assert_int_eq(getrlimit(RLIMIT_AS, &before), 0);
	/* Without use_rlimit_as, limits.memory is not an rlimit. */
	ck_assert_int_eq(limits_apply(&l, false, &failed), 0);
	ck_assert_int_eq(getrlimit(RLIMIT_AS, &r), 0);
	ck_assert_uint_eq(r.rlim_cur, before.rlim_cur);
	ck_assert_uint_eq(r.rlim_max, before.rlim_max);
	ck_assert_int_eq(limits_apply(&l, true, &failed), 0);
	ck_assert_int_eq(getrlimit(RLIMIT_AS, &r), 0);
	ck_assert_uint_eq(r.rlim_cur, 1ULL << 40);
	ck_assert_uint_eq(r.rlim_max, 1ULL << 40);
}
END_TEST

/*
 * A lower inherited hard limit binds a caller that cannot raise it: the
 * lower limit is kept (it is stricter than the policy's), and that is no
 * failure.
 */
START_TEST(test_apply_lower_hard)
{
	struct gx_limits l = { 0 };
	struct rlimit low = { 32, 32 }, high = { 64, 64 }, r;
	bool can_raise;
	int failed = -1, rc;

	ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &low), 0);
	/* Root without CAP_SYS_RESOURCE (a container) cannot raise it. */
	can_raise = setrlimit(RLIMIT_NOFILE, &high) == 0;
	ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &low), 0);
	l.open_files.set = true;
	l.open_files.value = 64;
	/* Root without CAP_SYS_RESOURCE keeps the lower hard limit too. */
	rc = limits_apply(&l, false, &failed);
	ck_assert_msg(rc == 0, "limits_apply: %s (%s)", strerror(errno),
	    limits_resource_name(failed));
	ck_assert_int_eq(getrlimit(RLIMIT_NOFILE, &r), 0);
	ck_assert_uint_eq(r.rlim_cur, can_raise ? 64 : 32);
	ck_assert_uint_eq(r.rlim_max, can_raise ? 64 : 32);
}
END_TEST

START_TEST(test_apply_nothing)
{
	struct gx_limits l = { 0 };
	struct rlimit before, r;
	int failed = -1;

	ck_assert_int_eq(getrlimit(RLIMIT_NOFILE, &before), 0);
	ck_assert_int_eq(limits_apply(&l, true, &failed), 0);
	ck_assert_int_eq(getrlimit(RLIMIT_NOFILE, &r), 0);
	ck_assert_uint_eq(r.rlim_cur, before.rlim_cur);
	ck_assert_uint_eq(r.rlim_max, before.rlim_max);
}
END_TEST

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

Suite *
limits_suite(void)
{
	Suite *s = suite_create("limits");
	TCase *tc;

	tc = tcase_create("parse");
	tcase_set_timeout(tc, 10);
	tcase_add_loop_test(tc, test_size_ok, 0, N(sizes_ok));
	tcase_add_loop_test(tc, test_size_bad, 0, N(sizes_bad));
	tcase_add_loop_test(tc, test_duration_ok, 0, N(durations_ok));
	tcase_add_loop_test(tc, test_duration_bad, 0, N(durations_bad));
	tcase_add_test(tc, test_resource_names);
	suite_add_tcase(s, tc);

	tc = tcase_create("apply");
	tcase_set_timeout(tc, 10);
	tcase_add_test(tc, test_apply);
	tcase_add_test(tc, test_apply_rlimit_as);
	tcase_add_test(tc, test_apply_lower_hard);
	tcase_add_test(tc, test_apply_nothing);
	suite_add_tcase(s, tc);
	return s;
}

UNIT_MAIN(limits_suite)
