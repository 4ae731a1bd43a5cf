/* SPDX-License-Identifier: ISC */
/* util.c: the pure helpers, table-driven. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util.h"
#include "runner.h"

Suite *util_suite(void);

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

static const struct {
	const char *base, *path, *want;
} resolves[] = {
	{ "/base", "a/../b", "/base/b" },
	{ NULL, "/x/./y//z", "/x/y/z" },
	{ "/ignored", "/x/./y//z/", "/x/y/z" },
	{ "/base", "..", "/" },
	{ "/a/b", "../../../..", "/" },
	{ "/a/b", "../c", "/a/c" },
	{ "/base", "/abs/path", "/abs/path" },
	{ "/base", ".", "/base" },
	{ "/base", "./", "/base" },
	{ "/base/", "x/", "/base/x" },
	{ "/", "x", "/x" },
	{ "/", "..", "/" },
	{ NULL, "/", "/" },
	{ NULL, "//", "/" },
	{ NULL, "/..", "/" },
	{ "/a", "b/./c/../d", "/a/b/d" },
	{ "/a", "b/c/../../..", "/" },
	{ "/srv//policies/", "logs//audit.log", "/srv/policies/logs/audit.log" },
	{ "/a", "...", "/a/..." },
	{ "/a", "..b/.c", "/a/..b/.c" },
};

START_TEST(test_path_resolve)
{
	char *got = path_resolve(resolves[_i].base, resolves[_i].path);

	ck_assert_msg(strcmp(got, resolves[_i].want) == 0,
	    "path_resolve(%s, \"%s\") = \"%s\", want \"%s\"",
	    resolves[_i].base ? resolves[_i].base : "NULL", resolves[_i].path,
	    got, resolves[_i].want);
	free(got);
}
END_TEST

static const struct {
	const char *in, *want;
} dirnames[] = {
	{ "/x", "/" },
	{ "/", "/" },
	{ "/a/b/c", "/a/b" },
	{ "/a/b.cfg", "/a" },
	{ "/srv/policies/agent.cfg", "/srv/policies" },
	{ "agent.cfg", "." },
};

START_TEST(test_path_dirname)
{
	char *got = path_dirname(dirnames[_i].in);

	ck_assert_msg(strcmp(got, dirnames[_i].want) == 0,
	    "path_dirname(\"%s\") = \"%s\", want \"%s\"", dirnames[_i].in, got,
	    dirnames[_i].want);
	free(got);
}
END_TEST

static const struct {
	const char *pattern, *name;
	bool want;
} patterns[] = {
	{ "LANG", "LANG", true },
	{ "LANG", "LANGUAGE", false },
	{ "LANG", "LAN", false },
	{ "LANG", "lang", false },
	{ "LC_*", "LC_ALL", true },
	{ "LC_*", "LC_", true },
	{ "LC_*", "LC", false },
	{ "LC_*", "XLC_ALL", false },
	{ "LC_*", "lc_all", false },
	{ "*", "ANYTHING", true },
	{ "*", "", true },
	{ "A*B", "A*B", true },     /* only a trailing * is special */
	{ "A*B", "AxB", false },
	{ "AWS_*", "AWS_SECRET_ACCESS_KEY", true },
};

START_TEST(test_name_pattern)
{
	ck_assert_msg(name_pattern_match(patterns[_i].pattern,
	    patterns[_i].name) == patterns[_i].want,
	    "name_pattern_match(\"%s\", \"%s\") != %d", patterns[_i].pattern,
	    patterns[_i].name, patterns[_i].want);
}
END_TEST

static const struct {
	const char *s;
	size_t n;       /* 0: strlen */
	bool want;
	const char *what;
} utf8[] = {
	{ "", 0, true, "empty" },
	{ "plain ascii", 0, true, "ascii" },
	{ "\x7f", 0, true, "DEL" },
	{ "a\0b", 3, true, "embedded NUL" },
	{ "\xc3\xa9", 0, true, "U+00E9" },
	{ "\xc2\x80", 0, true, "U+0080, the smallest 2-byte" },
	{ "\xdf\xbf", 0, true, "U+07FF" },
	{ "\xe0\xa0\x80", 0, true, "U+0800, the smallest 3-byte" },
	{ "\xe2\x82\xac", 0, true, "U+20AC" },
	{ "\xed\x9f\xbf", 0, true, "U+D7FF, just below the surrogates" },
	{ "\xee\x80\x80", 0, true, "U+E000, just above the surrogates" },
	{ "\xef\xbf\xbd", 0, true, "U+FFFD" },
	{ "\xef\xbf\xbf", 0, true, "U+FFFF" },
	{ "\xf0\x90\x80\x80", 0, true, "U+10000, the smallest 4-byte" },
	{ "\xf0\x9f\x98\x80", 0, true, "U+1F600" },
	{ "\xf4\x8f\xbf\xbf", 0, true, "U+10FFFF, the largest" },
	{ "\xc0\x80", 0, false, "overlong NUL" },
	{ "\xc0\xaf", 0, false, "overlong /" },
	{ "\xc1\xbf", 0, false, "overlong U+007F" },
	{ "\xe0\x80\xaf", 0, false, "3-byte overlong /" },
	{ "\xe0\x9f\xbf", 0, false, "3-byte overlong U+07FF" },
	{ "\xf0\x80\x80\xaf", 0, false, "4-byte overlong /" },
	{ "\xf0\x8f\xbf\xbf", 0, false, "4-byte overlong U+FFFF" },
	{ "\xed\xa0\x80", 0, false, "surrogate U+D800" },
	{ "\xed\xbf\xbf", 0, false, "surrogate U+DFFF" },
	{ "\xed\xa0\xbd\xed\xb8\x80", 0, false, "CESU-8 surrogate pair" },
	{ "\xf4\x90\x80\x80", 0, false, "U+110000" },
	{ "\xf5\x80\x80\x80", 0, false, "lead byte F5" },
	{ "\xf7\xbf\xbf\xbf", 0, false, "lead byte F7" },
	{ "\xf8\x88\x80\x80\x80", 0, false, "5-byte form" },
	{ "\xfc\x84\x80\x80\x80\x80", 0, false, "6-byte form" },
	{ "\xfe", 0, false, "FE" },
	{ "\xff", 0, false, "FF" },
	{ "\xff\xfe", 0, false, "FF FE" },
	{ "\x80", 0, false, "lone continuation" },
	{ "a\xbf" "b", 0, false, "continuation after ASCII" },
	{ "\xc3", 0, false, "truncated 2-byte" },
	{ "\xe2\x82", 0, false, "truncated 3-byte" },
	{ "\xf0\x9f\x98", 0, false, "truncated 4-byte" },
	{ "\xc3(", 0, false, "bad continuation" },
	{ "\xe2(\xac", 0, false, "bad second byte of 3" },
	{ "\xe2\x82(", 0, false, "bad third byte of 3" },
	{ "\xc3\xa9", 1, false, "valid text cut by n" },
	{ "ok\xc3\xa9ok\xff", 0, false, "valid, then FF" },
};

START_TEST(test_utf8)
{
	size_t n = utf8[_i].n ? utf8[_i].n : strlen(utf8[_i].s);

	ck_assert_msg(utf8_valid(utf8[_i].s, n) == utf8[_i].want,
	    "utf8_valid(%s) != %d", utf8[_i].what, utf8[_i].want);
}
END_TEST

static const struct {
	const char *name;
	int want;
} signals[] = {
	{ "TERM", SIGTERM },
	{ "SIGTERM", SIGTERM },
	{ "sigterm", SIGTERM },
	{ "term", SIGTERM },
	{ "KILL", SIGKILL },
	{ "SIGKILL", SIGKILL },
	{ "HUP", SIGHUP },
	{ "SIGINT", SIGINT },
	{ "SIGSYS", SIGSYS },
	{ "XCPU", SIGXCPU },
	{ "9", 9 },
	{ "15", 15 },
	{ "0", -1 },
	{ "-1", -1 },
	{ "65", -1 },
	{ "9x", -1 },
	{ "", -1 },
	{ "SIG", -1 },
	{ "BOGUS", -1 },
	{ "SIGBOGUS", -1 },
};

START_TEST(test_signal_from_name)
{
	ck_assert_msg(signal_from_name(signals[_i].name) == signals[_i].want,
	    "signal_from_name(\"%s\") = %d, want %d", signals[_i].name,
	    signal_from_name(signals[_i].name), signals[_i].want);
}
END_TEST

START_TEST(test_signal_name)
{
	ck_assert_str_eq(signal_name(SIGTERM), "SIGTERM");
	ck_assert_str_eq(signal_name(SIGKILL), "SIGKILL");
	ck_assert_str_eq(signal_name(SIGHUP), "SIGHUP");
	ck_assert_str_eq(signal_name(SIGSYS), "SIGSYS");
	ck_assert_str_eq(signal_name(SIGXCPU), "SIGXCPU");
	ck_assert_str_eq(signal_name(0), "SIG?");
	ck_assert_str_eq(signal_name(-1), "SIG?");
	ck_assert_str_eq(signal_name(4096), "SIG?");
	/* The round trip for every classic signal. */
	for (int s = 1; s < 32; s++) {
		const char *n = signal_name(s);

		if (strcmp(n, "SIG?") == 0)
			continue;
		ck_assert_msg(signal_from_name(n) == s, "%s -> %d", n,
		    signal_from_name(n));
	}
}
END_TEST

static const struct {
	const char *name;
	int want;
} errnos[] = {
	{ "EPERM", EPERM },
	{ "EACCES", EACCES },
	{ "ENOSYS", ENOSYS },
	{ "ENOENT", ENOENT },
	{ "EOVERFLOW", EOVERFLOW },
	{ "EHWPOISON", EHWPOISON },
	{ "eperm", -1 },
	{ "EPERM ", -1 },
	{ "EBOGUS", -1 },
	{ "", -1 },
	{ "1", -1 },
};

START_TEST(test_errno_from_name)
{
	ck_assert_msg(errno_from_name(errnos[_i].name) == errnos[_i].want,
	    "errno_from_name(\"%s\") = %d, want %d", errnos[_i].name,
	    errno_from_name(errnos[_i].name), errnos[_i].want);
}
END_TEST

START_TEST(test_errno_name)
{
	ck_assert_str_eq(errno_name(EPERM), "EPERM");
	ck_assert_str_eq(errno_name(EACCES), "EACCES");
	ck_assert_str_eq(errno_name(ENOSYS), "ENOSYS");
	ck_assert_ptr_null(errno_name(4095));
	ck_assert_int_eq(errno_from_name(errno_name(EIO)), EIO);
}
END_TEST

START_TEST(test_hex_encode)
{
	static const unsigned char in[] = { 0x00, 0x01, 0x7f, 0x80, 0xab,
		0xff };
	char out[2 * sizeof(in) + 1];
	char empty[1] = { 'x' };

	memset(out, 'x', sizeof(out));
	hex_encode(in, sizeof(in), out);
	ck_assert_str_eq(out, "00017f80abff");
	hex_encode(in, 0, empty);
	ck_assert_str_eq(empty, "");
}
END_TEST

static const struct {
	time_t sec;
	long nsec;
	const char *want;
} times[] = {
	{ 0, 0, "1970-01-01T00:00:00.000000Z" },
	{ 0, 999, "1970-01-01T00:00:00.000000Z" },       /* truncated */
	{ 0, 1000, "1970-01-01T00:00:00.000001Z" },
	{ 1795942211, 123456789, "2026-11-29T08:50:11.123456Z" },
	{ 951782400, 999999999, "2000-02-29T00:00:00.999999Z" },
	{ 4102444799, 0, "2099-12-31T23:59:59.000000Z" },
};

START_TEST(test_iso8601)
{
	struct timespec ts = { times[_i].sec, times[_i].nsec };
	char out[40];

	memset(out, 'x', sizeof(out));
	format_iso8601(&ts, out, sizeof(out));
	ck_assert_str_eq(out, times[_i].want);
}
END_TEST

/* The shape, for now: 2026-11-29T09:10:11.123456Z. */
START_TEST(test_iso8601_now)
{
	static const char shape[] = "dddd-dd-ddTdd:dd:dd.ddddddZ";
	struct timespec ts;
	char out[32];

	clock_gettime(CLOCK_REALTIME, &ts);
	format_iso8601(&ts, out, sizeof(out));
	ck_assert_uint_eq(strlen(out), strlen(shape));
	for (size_t i = 0; shape[i] != '\0'; i++) {
		if (shape[i] == 'd')
			ck_assert_msg(out[i] >= '0' && out[i] <= '9', "%s", out);
		else
			ck_assert_msg(out[i] == shape[i], "%s", out);
	}
}
END_TEST

START_TEST(test_timespec_diff)
{
	struct timespec a = { 1, 500000000 }, b = { 3, 250000000 };

	ck_assert_double_eq_tol(timespec_diff_ms(&a, &b), 1750.0, 1e-9);
	ck_assert_double_eq_tol(timespec_diff_ms(&b, &a), -1750.0, 1e-9);
	ck_assert_double_eq_tol(timespec_diff_ms(&a, &a), 0.0, 1e-9);
}
END_TEST

START_TEST(test_strv)
{
	char **v = NULL;

	ck_assert_uint_eq(strv_len(NULL), 0);
	ck_assert(!strv_contains(NULL, "a"));
	strv_free(NULL);
	v = strv_append(v, "a");
	v = strv_append(v, "bb");
	v = strv_append(v, "");
	ck_assert_uint_eq(strv_len(v), 3);
	ck_assert_str_eq(v[0], "a");
	ck_assert_str_eq(v[1], "bb");
	ck_assert_str_eq(v[2], "");
	ck_assert_ptr_null(v[3]);
	ck_assert(strv_contains(v, "bb"));
	ck_assert(strv_contains(v, ""));
	ck_assert(!strv_contains(v, "b"));
	strv_free(v);
}
END_TEST

Suite *
util_suite(void)
{
	Suite *s = suite_create("util");
	TCase *tc;

	tc = tcase_create("paths");
	tcase_set_timeout(tc, 10);
	tcase_add_loop_test(tc, test_path_resolve, 0, N(resolves));
	tcase_add_loop_test(tc, test_path_dirname, 0, N(dirnames));
	tcase_add_loop_test(tc, test_name_pattern, 0, N(patterns));
	suite_add_tcase(s, tc);

	tc = tcase_create("utf8");
	tcase_set_timeout(tc, 10);
	tcase_add_loop_test(tc, test_utf8, 0, N(utf8));
	suite_add_tcase(s, tc);

	tc = tcase_create("names");
	tcase_set_timeout(tc, 10);
	tcase_add_loop_test(tc, test_signal_from_name, 0, N(signals));
	tcase_add_test(tc, test_signal_name);
	tcase_add_loop_test(tc, test_errno_from_name, 0, N(errnos));
	tcase_add_test(tc, test_errno_name);
	suite_add_tcase(s, tc);

	tc = tcase_create("format");
	tcase_set_timeout(tc, 10);
	tcase_add_test(tc, test_hex_encode);
	tcase_add_loop_test(tc, test_iso8601, 0, N(times));
	tcase_add_test(tc, test_iso8601_now);
	tcase_add_test(tc, test_timespec_diff);
	tcase_add_test(tc, test_strv);
	suite_add_tcase(s, tc);
	return s;
}

UNIT_MAIN(util_suite)
