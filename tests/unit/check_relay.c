/* SPDX-License-Identifier: ISC */
/* relay.c: the output cap (head, head_tail), the markers, the sinks. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "policy.h"
#include "relay.h"

Suite *relay_suite(void);

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* Each write is "1:text" (stdout) or "2:text" (stderr). */
static const struct {
	uint64_t max;
	enum gx_keep keep;
	enum gx_overflow overflow;
	const char *writes[4];
	const char *want_out, *want_err;
	bool truncated, kill;
} cases[] = {
	{ 0, GX_KEEP_HEAD, GX_OVERFLOW_TRUNCATE, { "1:hello", "2:world" },
	  "hello", "world", false, false },
	{ 10, GX_KEEP_HEAD, GX_OVERFLOW_TRUNCATE, { "1:0123456789abc" },
	  "0123456789", "[guardexec: output truncated at 10 bytes]\n",
	  true, false },
	{ 10, GX_KEEP_HEAD, GX_OVERFLOW_TRUNCATE, { "2:abc", "1:0123456789" },
	  "0123456", "abc\n[guardexec: output truncated at 10 bytes]\n",
	  true, false },
	{ 10, GX_KEEP_HEAD, GX_OVERFLOW_TRUNCATE, { "1:0123456789" },
	  "0123456789", "", false, false },
	{ 10, GX_KEEP_HEAD, GX_OVERFLOW_KILL, { "1:0123456789", "2:x" },
	  "0123456789", "[guardexec: output truncated at 10 bytes]\n",
	  true, true },
	{ 10, GX_KEEP_HEAD_TAIL, GX_OVERFLOW_TRUNCATE,
	  { "1:AAAAA", "1:BBBBBBBBBB" },
	  "AAAAABBBBB", "[guardexec: 5 bytes omitted]\n", true, false },
	{ 10, GX_KEEP_HEAD_TAIL, GX_OVERFLOW_TRUNCATE,
	  { "1:12345", "2:xy", "1:zz" }, "12345zz", "xy", false, false },
	{ 10, GX_KEEP_HEAD_TAIL, GX_OVERFLOW_TRUNCATE,
	  { "1:12345", "2:0123456789", "1:tail!" },
	  "12345tail!", "[guardexec: 10 bytes omitted]\n", true, false },
	{ 10, GX_KEEP_HEAD_TAIL, GX_OVERFLOW_TRUNCATE,
	  { "1:12345", "1:abcdefghij", "2:ERR" },
	  "12345ij", "[guardexec: 8 bytes omitted]\nERR", true, false },
};

static char *
slurp(int fd)
{
	static char buf[4096];
	size_t len = 0;
	ssize_t n;

	while ((n = read(fd, buf + len, sizeof(buf) - 1 - len)) > 0)
		len += (size_t)n;
	buf[len] = '\0';
	return strdup(buf);
}

START_TEST(test_relay_case)
{
	struct gx_policy pol;
	struct gx_relay r;
	int o[2], e[2];
	char *got_out, *got_err;

	memset(&pol, 0, sizeof(pol));
	pol.max_bytes = cases[_i].max;
	pol.keep = cases[_i].keep;
	pol.on_overflow = cases[_i].overflow;
	ck_assert_int_eq(pipe(o), 0);
	ck_assert_int_eq(pipe(e), 0);
	relay_init(&r, &pol, o[1], e[1]);
	for (int w = 0; w < 4 && cases[_i].writes[w] != NULL; w++) {
		const char *s = cases[_i].writes[w];

		relay_data(&r, s[0] == '1' ? 0 : 1, s + 2, strlen(s + 2));
	}
	ck_assert(r.truncated == cases[_i].truncated);
	ck_assert(r.overflow_kill == cases[_i].kill);
	relay_finish(&r);
	close(o[1]);
	close(e[1]);
	got_out = slurp(o[0]);
	got_err = slurp(e[0]);
	ck_assert_str_eq(got_out, cases[_i].want_out);
	ck_assert_str_eq(got_err, cases[_i].want_err);
	free(got_out);
	free(got_err);
}
END_TEST

/* A full pipe never blocks relay_data: the bytes queue, in order. */
START_TEST(test_relay_nonblocking)
{
	struct gx_policy pol;
	struct gx_relay r;
	static char chunk[65536];
	int o[2], e[2], cap;
	size_t total = 0, got = 0;

	memset(&pol, 0, sizeof(pol));
	ck_assert_int_eq(pipe(o), 0);
	ck_assert_int_eq(pipe(e), 0);
	cap = fcntl(o[1], F_GETPIPE_SZ);
	ck_assert_int_gt(cap, 0);
	relay_init(&r, &pol, o[1], e[1]);
	for (int i = 0; i < 4; i++) {
		memset(chunk, 'a' + i, sizeof(chunk));
		relay_data(&r, 0, chunk, sizeof(chunk));
		total += sizeof(chunk);
	}
	ck_assert((size_t)cap < total);
	ck_assert(relay_busy(&r, 0));
	ck_assert(!relay_busy(&r, 1));
	/* Read everything back while flushing; order is kept. */
	fcntl(o[0], F_SETFL, O_NONBLOCK);
	while (got < total) {
		ssize_t n = read(o[0], chunk, sizeof(chunk));

		if (n > 0) {
			for (ssize_t k = 0; k < n; k++)
				ck_assert_int_eq(chunk[k],
				    'a' + (int)((got + (size_t)k) / 65536));
			got += (size_t)n;
		}
		relay_flush(&r);
	}
	ck_assert(!relay_busy(&r, 0));
	relay_finish(&r);
	close(o[1]);
	close(e[1]);
}
END_TEST

Suite *
relay_suite(void)
{
	Suite *s = suite_create("relay");
	TCase *tc = tcase_create("cap");

	tcase_set_timeout(tc, 10);
	tcase_add_loop_test(tc, test_relay_case, 0, N(cases));
	tcase_add_test(tc, test_relay_nonblocking);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(relay_suite());
	int failed;

	srunner_set_fork_status(sr, CK_FORK);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
