/* SPDX-License-Identifier: ISC */
/*
 * audit/common.c: the text guardexec-audit prints from a log
 * (audit_printable) and its one number parser (audit_parse_count).
 */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "runner.h"

Suite *auditcli_suite(void);

static const struct {
	const char *in;
	size_t max;
	const char *out;
	size_t width;
} printable_cases[] = {
	{ "ls -la", 60, "ls -la", 6 },
	{ "caf\xc3\xa9", 60, "caf\xc3\xa9", 4 },            /* UTF-8 kept */
	{ "a\tb\nc\x7f", 60, "a?b?c?", 6 },                 /* C0, DEL */
	{ "\xc2\x9b" "2J", 60, "\\u009B2J", 3 },            /* C1 CSI */
	{ "\xc2\x80\xc2\x9f", 60, "\\u0080\\u009F", 2 },    /* C1 ends */
	{ "\xc2\xa0", 60, "\xc2\xa0", 1 },                  /* U+00A0 kept */
	{ "x\xe2\x80\xaegnp", 60, "x\\u202Egnp", 5 },       /* RLO */
	{ "\xe2\x80\xaa\xe2\x80\xad", 60, "\\u202A\\u202D", 2 },
	{ "\xe2\x81\xa6\xe2\x81\xa9", 60, "\\u2066\\u2069", 2 }, /* isolates */
	{ "\xe2\x80\x8f\xd8\x9c", 60, "\\u200F\\u061C", 2 },  /* RLM, ALM */
	{ "\xff" "a", 60, "\\xFFa", 2 },                    /* not UTF-8 */
	{ "\xc0\xaf", 60, "\\xC0\\xAF", 2 },                /* overlong */
	{ "\xed\xa0\x80", 60, "\\xED\\xA0\\x80", 3 },       /* surrogate */
	{ "abcdef", 3, "abc", 3 },                          /* cut */
	{ "\xe2\x80\xae\xe2\x80\xae\xe2\x80\xae", 2, "\\u202E\\u202E", 2 },
	{ "", 10, "", 0 },
};

START_TEST(test_printable)
{
	size_t width = 99;
	char *p = audit_printable(printable_cases[_i].in,
	    printable_cases[_i].max, &width);

	ck_assert_str_eq(p, printable_cases[_i].out);
	ck_assert_uint_eq(width, printable_cases[_i].width);
	free(p);
}
END_TEST

static const struct {
	const char *in;
	int rc;
	size_t value;
} count_cases[] = {
	{ "1", 0, 1 }, { "10", 0, 10 }, { "1000", 0, 1000 },
	{ "0", 2, 0 }, { "", 2, 0 }, { "-1", 2, 0 }, { "abc", 2, 0 },
	{ "12x", 2, 0 }, { " 5", 2, 0 }, { "1001", 2, 0 },
	{ "99999999999999999999999999", 2, 0 }, { "+3", 2, 0 },
};

START_TEST(test_parse_count)
{
	size_t v = 0;
	FILE *saved = stderr;

	stderr = fopen("/dev/null", "we");    /* the usage text */
	ck_assert_int_eq(audit_parse_count("--top", count_cases[_i].in, 1000,
	    &v), count_cases[_i].rc);
	fclose(stderr);
	stderr = saved;
	if (count_cases[_i].rc == 0)
		ck_assert_uint_eq(v, count_cases[_i].value);
}
END_TEST

Suite *
auditcli_suite(void)
{
	Suite *s = suite_create("auditcli");
	TCase *tc = tcase_create("common");

	tcase_add_loop_test(tc, test_printable, 0,
	    sizeof(printable_cases) / sizeof(printable_cases[0]));
	tcase_add_loop_test(tc, test_parse_count, 0,
	    sizeof(count_cases) / sizeof(count_cases[0]));
	suite_add_tcase(s, tc);
	return s;
}

UNIT_MAIN(auditcli_suite)
