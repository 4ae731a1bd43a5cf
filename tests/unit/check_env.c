/* SPDX-License-Identifier: ISC */
/* env.c: env_build() and env_get(), with policies written inline. */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "env.h"
#include "log.h"
#include "policy.h"
#include "util.h"
#include "runner.h"

Suite *env_suite(void);

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))
#define MAXV 16

#define HEAD "version = 1;\nname = \"env\";\n"

struct env_case {
	const char *what;
	const char *policy;             /* after HEAD */
	const char *environ[MAXV];      /* the caller's, NULL-terminated */
	const char *envp[MAXV];         /* built, in order */
	const char *passed[MAXV];       /* sorted */
	const char *dropped[MAXV];      /* sorted */
};

static const struct env_case cases[] = {
	{ "no env group: only PATH",
	  "",
	  { "HOME=/root", "PATH=/sbin:/evil", "AWS_SECRET_ACCESS_KEY=s3cr3t",
	    "LANG=C" },
	  { "PATH=/usr/bin:/bin" },
	  { "PATH" },
	  { "AWS_SECRET_ACCESS_KEY", "HOME", "LANG" } },
	{ "no env group, empty environ",
	  "",
	  { NULL },
	  { "PATH=" GX_DEFAULT_PATH },
	  { "PATH" },
	  { NULL } },
	{ "allow: exact names and trailing-* prefixes",
	  "env: { allow = [ \"LANG\", \"LC_*\", \"TERM\" ]; };",
	  { "TERM=xterm", "LC_ALL=C.UTF-8", "AWS_SECRET_ACCESS_KEY=s3cr3t",
	    "LANGUAGE=en", "LANG=C", "LC=x", "HOME=/root", "LC_CTYPE=C",
	    "XLC_ALL=y", "lang=lower" },
	  { "TERM=xterm", "LC_ALL=C.UTF-8", "LANG=C", "LC_CTYPE=C" },
	  { "LANG", "LC_ALL", "LC_CTYPE", "TERM" },
	  { "AWS_SECRET_ACCESS_KEY", "HOME", "LANGUAGE", "LC", "XLC_ALL",
	    "lang" } },
	{ "set wins over allow",
	  "env: { allow = [ \"HOME\", \"PATH\", \"LANG\" ];\n"
	  "  set = { PATH = \"/opt/bin:/usr/bin\"; HOME = \"/tmp\"; }; };",
	  { "HOME=/root", "PATH=/evil", "LANG=C" },
	  { "HOME=/tmp", "PATH=/opt/bin:/usr/bin", "LANG=C" },
	  { "HOME", "LANG", "PATH" },
	  { NULL } },
	{ "set without allow; the caller's value is dropped",
	  "env: { set = { FOO = \"bar\"; EMPTY = \"\"; }; };",
	  { "FOO=caller", "BAR=1" },
	  { "FOO=bar", "EMPTY=" },
	  { "EMPTY", "FOO" },
	  { "BAR" } },
	{ "the first of duplicate names wins",
	  "env: { allow = [ \"LANG\" ]; };",
	  { "LANG=first", "OTHER=1", "LANG=second", "OTHER=2" },
	  { "LANG=first" },
	  { "LANG" },
	  { "OTHER" } },
	{ "entries without '=' are ignored",
	  "env: { allow = [ \"*\" ]; };",
	  { "NOEQUALS", "LANG=C", "ALSO_NO_EQUALS" },
	  { "LANG=C" },
	  { "LANG" },
	  { NULL } },
	{ "values keep their '=' and are never interpreted",
	  "env: { allow = [ \"X\", \"Y\" ]; };",
	  { "X=a=b", "Y=", "Z=$(rm -rf /)" },
	  { "X=a=b", "Y=" },
	  { "X", "Y" },
	  { "Z" } },
	{ "an empty env group passes nothing",
	  "env: { };",
	  { "PATH=/usr/bin", "HOME=/root" },
	  { NULL },
	  { NULL },
	  { "HOME", "PATH" } },
	{ "an empty allow list passes nothing",
	  "env: { allow = [ ]; };",
	  { "PATH=/usr/bin" },
	  { NULL },
	  { NULL },
	  { "PATH" } },
	{ "secrets: a prefix does not reach other names",
	  "env: { allow = [ \"AWS_REGION\", \"GIT_*\" ]; };",
	  { "AWS_SECRET_ACCESS_KEY=k", "AWS_REGION=eu", "GITHUB_TOKEN=t",
	    "GIT_AUTHOR_NAME=a" },
	  { "AWS_REGION=eu", "GIT_AUTHOR_NAME=a" },
	  { "AWS_REGION", "GIT_AUTHOR_NAME" },
	  { "AWS_SECRET_ACCESS_KEY", "GITHUB_TOKEN" } },
};

static void
load(const char *text, struct gx_policy *pol)
{
	struct gx_diag d = { 0 };
	char *full = xasprintf(HEAD "%s\n", text);
	FILE *f = fmemopen(full, strlen(full), "r");
	int rc;

	ck_assert_ptr_nonnull(f);
	rc = policy_load_stream(f, "env.cfg", "/", NULL, pol, &d);
	ck_assert_msg(rc == 0, "policy: %s", d.n ? d.msgs[0] : "?");
	fclose(f);
	free(full);
}

static void
same_strv(const char *what, char *const *got, const char *const *want)
{
	size_t i;

	ck_assert_msg(got != NULL, "%s: NULL", what);
	for (i = 0; want[i] != NULL; i++) {
		ck_assert_msg(got[i] != NULL, "%s: %zu entries, want \"%s\" next",
		    what, i, want[i]);
		ck_assert_msg(strcmp(got[i], want[i]) == 0,
		    "%s[%zu]: \"%s\", want \"%s\"", what, i, got[i], want[i]);
	}
	ck_assert_msg(got[i] == NULL, "%s: extra entry \"%s\"", what, got[i]);
}

START_TEST(test_env_build)
{
	const struct env_case *c = &cases[_i];
	struct gx_policy pol;
	struct gx_env e;

	load(c->policy, &pol);
	env_build(&pol, (char *const *)c->environ, &e);
	same_strv("envp", e.envp, c->envp);
	same_strv("passed", e.passed, c->passed);
	same_strv("dropped", e.dropped, c->dropped);
	env_free(&e);
	ck_assert_ptr_null(e.envp);
	policy_free(&pol);
}
END_TEST

/* The built environment is new memory, not the caller's strings. */
START_TEST(test_env_copies)
{
	char lang[] = "LANG=C";
	char *environ_[] = { lang, NULL };
	struct gx_policy pol;
	struct gx_env e;

	load("env: { allow = [ \"LANG\" ]; };", &pol);
	env_build(&pol, environ_, &e);
	ck_assert_ptr_ne(e.envp[0], lang);
	lang[5] = 'X';
	ck_assert_str_eq(e.envp[0], "LANG=C");
	env_free(&e);
	policy_free(&pol);
}
END_TEST

START_TEST(test_env_null_environ)
{
	struct gx_policy pol;
	struct gx_env e;

	load("env: { allow = [ \"*\" ]; set = { A = \"1\"; }; };", &pol);
	env_build(&pol, NULL, &e);
	ck_assert_str_eq(e.envp[0], "A=1");
	ck_assert_ptr_null(e.envp[1]);
	ck_assert_ptr_null(e.dropped[0]);
	env_free(&e);
	policy_free(&pol);
}
END_TEST

START_TEST(test_env_get)
{
	static char *const envp[] = { "A=1", "AB=2", "EMPTY=", "EQ=x=y",
		"NOEQ", NULL };

	ck_assert_str_eq(env_get(envp, "A"), "1");
	ck_assert_str_eq(env_get(envp, "AB"), "2");
	ck_assert_str_eq(env_get(envp, "EMPTY"), "");
	ck_assert_str_eq(env_get(envp, "EQ"), "x=y");
	ck_assert_ptr_null(env_get(envp, "ABC"));
	ck_assert_ptr_null(env_get(envp, "NOEQ"));
	ck_assert_ptr_null(env_get(envp, "a"));
	ck_assert_ptr_null(env_get(envp, ""));
	ck_assert_ptr_null(env_get(NULL, "A"));
}
END_TEST

Suite *
env_suite(void)
{
	Suite *s = suite_create("env");
	TCase *tc = tcase_create("build");

	tcase_set_timeout(tc, 10);
	tcase_add_loop_test(tc, test_env_build, 0, N(cases));
	tcase_add_test(tc, test_env_copies);
	tcase_add_test(tc, test_env_null_environ);
	tcase_add_test(tc, test_env_get);
	suite_add_tcase(s, tc);
	return s;
}

UNIT_MAIN(env_suite)
