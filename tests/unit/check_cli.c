/* SPDX-License-Identifier: ISC */
/* cli.c: cli_parse(), table-driven. */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "log.h"
#include "runner.h"

Suite *cli_suite(void);

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))
#define MAXARGS 16

struct cli_case {
	const char *argv[MAXARGS];      /* NULL-terminated */
	int rc;
	const char *err;                /* the one diagnostic when rc == -1
					   (NULL: not checked) */
	const char *policy, *log, *result, *cwd, *learn, *trust;
	bool quiet, check, help, version;
	const char *cmd[MAXARGS];       /* expected command; {NULL}: none */
};

static const struct cli_case cases[] = {
	/* -p and the command; "--" is optional */
	{ .argv = { "guardexec", "-p", "x", "--", "ls", "-la" },
	  .policy = "x", .cmd = { "ls", "-la" } },
	{ .argv = { "guardexec", "-p", "x", "ls", "-la" },
	  .policy = "x", .cmd = { "ls", "-la" } },
	{ .argv = { "guardexec", "-px", "ls" },
	  .policy = "x", .cmd = { "ls" } },
	{ .argv = { "guardexec", "--policy", "x", "ls" },
	  .policy = "x", .cmd = { "ls" } },
	{ .argv = { "guardexec", "--policy=x", "ls" },
	  .policy = "x", .cmd = { "ls" } },
	/* options after the command belong to the command */
	{ .argv = { "guardexec", "-p", "x", "ls", "-p", "y", "-q", "--check",
	      "--", "z" },
	  .policy = "x", .cmd = { "ls", "-p", "y", "-q", "--check", "--",
	      "z" } },
	{ .argv = { "guardexec", "-p", "x", "--", "-q" },
	  .policy = "x", .cmd = { "-q" } },
	{ .argv = { "guardexec", "-p", "x", "--", "--", "a" },
	  .policy = "x", .cmd = { "--", "a" } },
	{ .argv = { "guardexec", "-p", "x", "sh", "-c", "echo hi" },
	  .policy = "x", .cmd = { "sh", "-c", "echo hi" } },
	/* every option, short */
	{ .argv = { "guardexec", "-p", "P", "-l", "L", "-r", "R", "-C", "D",
	      "-q", "cmd", "arg" },
	  .policy = "P", .log = "L", .result = "R", .cwd = "D", .quiet = true,
	  .cmd = { "cmd", "arg" } },
	/* every option, long */
	{ .argv = { "guardexec", "--policy", "P", "--log", "L", "--result",
	      "/dev/fd/3", "--cwd", "D", "--quiet", "--", "cmd" },
	  .policy = "P", .log = "L", .result = "/dev/fd/3", .cwd = "D",
	  .quiet = true, .cmd = { "cmd" } },
	{ .argv = { "guardexec", "--log=L", "--result=R", "--cwd=D",
	      "--policy=P", "cmd" },
	  .policy = "P", .log = "L", .result = "R", .cwd = "D",
	  .cmd = { "cmd" } },
	/* the last of a repeated option wins */
	{ .argv = { "guardexec", "-p", "a", "-p", "b", "cmd" },
	  .policy = "b", .cmd = { "cmd" } },
	/* --check, with and without a command */
	{ .argv = { "guardexec", "-p", "x", "--check" },
	  .policy = "x", .check = true },
	{ .argv = { "guardexec", "--check", "-p", "x" },
	  .policy = "x", .check = true },
	{ .argv = { "guardexec", "-p", "x", "--check", "ls", "-l" },
	  .policy = "x", .check = true, .cmd = { "ls", "-l" } },
	{ .argv = { "guardexec", "-p", "x", "--check", "--", "ls" },
	  .policy = "x", .check = true, .cmd = { "ls" } },
	{ .argv = { "guardexec", "-p", "x", "--check", "--" },
	  .policy = "x", .check = true },
	/* --learn */
	{ .argv = { "guardexec", "-p", "x", "--learn", "out.cfg", "make" },
	  .policy = "x", .learn = "out.cfg", .cmd = { "make" } },
	{ .argv = { "guardexec", "-p", "x", "--learn=out.cfg", "--", "make" },
	  .policy = "x", .learn = "out.cfg", .cmd = { "make" } },
	/* --trust FILE needs nothing else, and takes nothing else */
	{ .argv = { "guardexec", "--trust", "a.cfg" }, .trust = "a.cfg" },
	{ .argv = { "guardexec", "--trust=.guardexec/agent.cfg" },
	  .trust = ".guardexec/agent.cfg" },
	{ .argv = { "guardexec", "-q", "--trust", "a.cfg" }, .trust = "a.cfg",
	  .quiet = true },
	/* --help and --version need nothing else */
	{ .argv = { "guardexec", "--help" }, .help = true },
	{ .argv = { "guardexec", "-h" }, .help = true },
	{ .argv = { "guardexec", "--version" }, .version = true },
	{ .argv = { "guardexec", "-V" }, .version = true },

	/* errors */
	{ .argv = { "guardexec", "ls" }, .rc = -1,
	  .err = "no policy: use -p POLICY (see --help)" },
	{ .argv = { "guardexec" }, .rc = -1,
	  .err = "no policy: use -p POLICY (see --help)" },
	{ .argv = { "guardexec", "--", "-p", "x", "ls" }, .rc = -1,
	  .err = "no policy: use -p POLICY (see --help)" },
	{ .argv = { "guardexec", "-p", "x" }, .rc = -1,
	  .err = "no command given (see --help)" },
	{ .argv = { "guardexec", "-p", "x", "--" }, .rc = -1,
	  .err = "no command given (see --help)" },
	{ .argv = { "guardexec", "-p", "", "ls" }, .rc = -1,
	  .err = "-p: empty policy path" },
	{ .argv = { "guardexec", "-Z", "-p", "x", "ls" }, .rc = -1,
	  .err = "unknown option -Z" },
	{ .argv = { "guardexec", "-p", "x", "-qZ", "ls" }, .rc = -1,
	  .err = "unknown option -Z" },
	{ .argv = { "guardexec", "--bogus", "-p", "x", "ls" }, .rc = -1,
	  .err = "unknown or malformed option --bogus" },
	/* An argument to a flag is refused, naming the option as given. */
	{ .argv = { "guardexec", "-p", "x", "--quiet=yes", "ls" }, .rc = -1,
	  .err = "unknown or malformed option --quiet=yes" },
	{ .argv = { "guardexec", "-p", "x", "--check=yes" }, .rc = -1,
	  .err = "unknown or malformed option --check=yes" },
	{ .argv = { "guardexec", "-p" }, .rc = -1,
	  .err = "option -p needs an argument" },
	{ .argv = { "guardexec", "-p", "x", "-l" }, .rc = -1,
	  .err = "option -l needs an argument" },
	{ .argv = { "guardexec", "-p", "x", "-C" }, .rc = -1,
	  .err = "option -C needs an argument" },
	{ .argv = { "guardexec", "-p", "x", "--result" }, .rc = -1,
	  .err = "option --result needs an argument" },
	{ .argv = { "guardexec", "-p", "x", "--learn" }, .rc = -1,
	  .err = "option --learn needs an argument" },
	{ .argv = { "guardexec", "-p", "x", "--check", "--learn", "o", "ls" },
	  .rc = -1, .err = "--check and --learn cannot be used together" },
	{ .argv = { "guardexec", "--learn", "o", "-p", "x", "--check" },
	  .rc = -1, .err = "--check and --learn cannot be used together" },
	{ .argv = { "guardexec", "--trust" }, .rc = -1,
	  .err = "option --trust needs an argument" },
	{ .argv = { "guardexec", "--trust", "" }, .rc = -1,
	  .err = "--trust: empty path" },
	{ .argv = { "guardexec", "--trust", "a.cfg", "ls" }, .rc = -1,
	  .err = "--trust FILE takes no -p, --check, --learn or command" },
	{ .argv = { "guardexec", "-p", "x", "--trust", "a.cfg" }, .rc = -1,
	  .err = "--trust FILE takes no -p, --check, --learn or command" },
	{ .argv = { "guardexec", "--trust", "a.cfg", "--check" }, .rc = -1,
	  .err = "--trust FILE takes no -p, --check, --learn or command" },
};

static void
same(const char *what, const char *got, const char *want)
{
	if (want == NULL)
		ck_assert_msg(got == NULL, "%s: got \"%s\", want NULL", what,
		    got);
	else
		ck_assert_msg(got != NULL && strcmp(got, want) == 0,
		    "%s: got \"%s\", want \"%s\"", what, got ? got : "NULL", want);
}

/* A mutable copy, as main() gets it; @argc is set. */
static char **
argv_of(const char *const *src, int *argc)
{
	char **v = calloc(MAXARGS + 1, sizeof(*v));

	ck_assert_ptr_nonnull(v);
	for (*argc = 0; src[*argc] != NULL; (*argc)++)
		v[*argc] = strdup(src[*argc]);
	return v;
}

static void
free_argv(char **v)
{
	for (size_t i = 0; v[i] != NULL; i++)
		free(v[i]);
	free(v);
}

START_TEST(test_cli_parse)
{
	const struct cli_case *c = &cases[_i];
	struct gx_diag d = { 0 };
	struct gx_opts o;
	char **argv;
	int argc, rc;
	size_t n;

	argv = argv_of(c->argv, &argc);
	memset(&o, 0xa5, sizeof(o));
	rc = cli_parse(argc, argv, &o, &d);
	ck_assert_msg(rc == c->rc, "case %d (%s %s): rc %d, want %d%s%s", _i,
	    c->argv[1] ? c->argv[1] : "", c->argv[2] ? c->argv[2] : "", rc,
	    c->rc, d.n ? ": " : "", d.n ? d.msgs[0] : "");
	if (c->rc < 0) {
		ck_assert_uint_eq(d.n, 1);
		if (c->err != NULL)
			ck_assert_str_eq(d.msgs[0], c->err);
		diag_free(&d);
		free_argv(argv);
		return;
	}
	ck_assert_uint_eq(d.n, 0);
	same("policy", o.policy, c->policy);
	same("log", o.log, c->log);
	same("result", o.result, c->result);
	same("cwd", o.cwd, c->cwd);
	same("learn", o.learn, c->learn);
	same("trust", o.trust, c->trust);
	ck_assert_int_eq(o.quiet, c->quiet);
	ck_assert_int_eq(o.check, c->check);
	ck_assert_int_eq(o.help, c->help);
	ck_assert_int_eq(o.version, c->version);
	if (c->help || c->version)
		goto out;
	if (c->cmd[0] == NULL) {
		ck_assert_ptr_null(o.argv);
		goto out;
	}
	ck_assert_ptr_nonnull(o.argv);
	for (n = 0; c->cmd[n] != NULL; n++)
		same("command word", o.argv[n], c->cmd[n]);
	ck_assert_ptr_null(o.argv[n]);
	/* The command points into argv: nothing was copied or permuted. */
	ck_assert_ptr_eq(o.argv + n, argv + argc);
out:
	free_argv(argv);
}
END_TEST

/* getopt state is global: a second parse must start afresh. */
START_TEST(test_cli_parse_twice)
{
	const char *a1[] = { "guardexec", "-q", "-p", "one", "a", NULL };
	const char *a2[] = { "guardexec", "-p", "two", "--", "b", "c", NULL };
	struct gx_diag d = { 0 };
	struct gx_opts o;
	char **v1, **v2;
	int c1, c2;

	v1 = argv_of(a1, &c1);
	v2 = argv_of(a2, &c2);
	ck_assert_int_eq(cli_parse(c1, v1, &o, &d), 0);
	ck_assert_str_eq(o.policy, "one");
	ck_assert(o.quiet);
	ck_assert_int_eq(cli_parse(c2, v2, &o, &d), 0);
	ck_assert_str_eq(o.policy, "two");
	ck_assert(!o.quiet);
	ck_assert_str_eq(o.argv[0], "b");
	ck_assert_str_eq(o.argv[1], "c");
	ck_assert_ptr_null(o.argv[2]);
	ck_assert_uint_eq(d.n, 0);
	free_argv(v1);
	free_argv(v2);
}
END_TEST

START_TEST(test_usage)
{
	ck_assert(strncmp(cli_usage, "usage: guardexec -p POLICY", 26) == 0);
	ck_assert_ptr_nonnull(strstr(cli_usage, "--check"));
	ck_assert_ptr_nonnull(strstr(cli_usage, "--learn OUT"));
	ck_assert_ptr_nonnull(strstr(cli_usage, "--result FILE"));
	ck_assert_ptr_nonnull(strstr(cli_usage, "--trust FILE"));
	ck_assert(cli_usage[strlen(cli_usage) - 1] == '\n');
}
END_TEST

Suite *
cli_suite(void)
{
	Suite *s = suite_create("cli");
	TCase *tc = tcase_create("parse");

	tcase_set_timeout(tc, 10);
	tcase_add_loop_test(tc, test_cli_parse, 0, N(cases));
	tcase_add_test(tc, test_cli_parse_twice);
	tcase_add_test(tc, test_usage);
	suite_add_tcase(s, tc);
	return s;
}

UNIT_MAIN(cli_suite)
