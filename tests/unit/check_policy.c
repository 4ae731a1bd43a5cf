/* SPDX-License-Identifier: ISC */
/*
 * The policy modules: policies written inline and read with fmemopen()
 * through policy_load_stream(); policy_load() on real files in a
 * temporary directory; advisory_match(); policy_print() read back; the
 * key table against the parser, the --init template and guardexec.cfg(5).
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <sha2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <syslog.h>
#include <unistd.h>

#include "filter.h"
#include "log.h"
#include "policy.h"
#include "policy_keys.h"
#include "util.h"
#include "runner.h"

Suite *policy_suite(void);

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))
#define MAXMSG 12

#define HEAD "version = 1;\nname = \"t\";\n"   /* lines 1 and 2 */

#define KiB (1ULL << 10)
#define MiB (1ULL << 20)

/* ---- helpers ---------------------------------------------------------- */

/* Load @text as "t.cfg" with relative paths resolving against @dir. */
static int
load_in(const char *text, const char *dir, struct gx_policy *pol,
    struct gx_diag *d)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int rc;

	ck_assert_ptr_nonnull(f);
	rc = policy_load_stream(f, "t.cfg", dir, NULL, pol, d);
	fclose(f);
	return rc;
}

static void
load_ok(const char *text, const char *dir, struct gx_policy *pol)
{
	struct gx_diag d = { 0 };

	if (load_in(text, dir, pol, &d) != 0)
		ck_abort_msg("policy refused: %s\n%s", d.n ? d.msgs[0] : "?",
		    text);
	ck_assert_uint_eq(d.n, 0);
}

static void
same_strv(const char *what, char *const *got, const char *const *want)
{
	size_t i;

	ck_assert_msg(got != NULL, "%s: NULL", what);
	for (i = 0; want[i] != NULL; i++) {
		ck_assert_msg(got[i] != NULL, "%s: only %zu entries", what, i);
		ck_assert_msg(strcmp(got[i], want[i]) == 0,
		    "%s[%zu]: \"%s\", want \"%s\"", what, i, got[i], want[i]);
	}
	ck_assert_msg(got[i] == NULL, "%s: extra entry \"%s\"", what, got[i]);
}

static void
sorted_unique(const char *what, char *const *v)
{
	for (size_t i = 0; v[i] != NULL && v[i + 1] != NULL; i++)
		ck_assert_msg(strcmp(v[i], v[i + 1]) < 0, "%s: \"%s\" before "
		    "\"%s\"", what, v[i], v[i + 1]);
}

/* Write @text to unit_tmpdir/@name with @mode; returns the absolute path. */
static char *
write_file(const char *name, const char *text, size_t len, mode_t mode)
{
	char *path = xasprintf("%s/%s", unit_tmpdir, name);
	int fd;

	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	ck_assert_msg(fd >= 0, "%s: %s", path, strerror(errno));
	ck_assert_int_eq(write(fd, text, len), (ssize_t)len);
	ck_assert_int_eq(fchmod(fd, mode), 0);
	close(fd);
	return path;
}

/* ---- good policies ---------------------------------------------------- */

static const char *const goods[] = {
	HEAD,
	"version = 1; name = \"one line\";",
	"name = \"order\"; version = 1;",
	"version = 1;\nname = \"t\"\n",     /* libconfig: ';' is optional */
	"# comment\n// comment\n/* comment */\nversion = 1;\nname = \"c\";\n",
	HEAD "command: { };\nenv: { };\nlimits: { };\noutput: { };\n"
	"syscalls: { };\nfilesystem: { };\nnetwork: { };\nadvisory: { };\n"
	"audit: { };\n",
	HEAD "command: { stdin = \"null\"; };",
	HEAD "command: { stdin = \"inherit\"; user = \"root\"; };",
	HEAD "env: { allow = ( \"LANG\" ); set = { A_1 = \"\"; }; };",
	HEAD "env: { allow = [ \"*\", \"LC_*\", \"_X9\" ]; };",
	HEAD "limits: { timeout = 0; kill_grace = 0; cpu = 1; core = 0; };",
	HEAD "limits: { timeout = 0.001; kill_grace = 3600; cpu = 0.1; };",
	HEAD "limits: { timeout = 31622400; };",             /* 366 days */
	HEAD "limits: { memory = 1048576; stack = 65536; };",
	HEAD "limits: { memory = \"1M\"; stack = \"64K\"; file_size = \"0\"; };",
	HEAD "limits: { memory = \"2g\"; file_size = \"3MiB\"; "
	"stack = \"4MB\"; core = \"1k\"; };",
	HEAD "limits: { memory = 4294967296L; };",
	HEAD "limits: { processes = 1; open_files = 1; };",
	HEAD "limits: { processes = 4194304; open_files = 1048576; };",
	HEAD "output: { max_bytes = 0; };",
	HEAD "output: { max_bytes = \"256M\"; keep = \"head_tail\"; };",
	HEAD "output: { max_bytes = \"1G\"; keep = \"head\"; };",
	HEAD "syscalls: { allow = [ ]; };",
	HEAD "syscalls: { default_action = \"log\"; errno = 4095; };",
	HEAD "syscalls: { errno = \"ENOSYS\"; deny = [ \"@debug\" ]; };",
	HEAD "filesystem: { read = [ \"/\" ]; write = [ \".\" ]; };",
	HEAD "network: { mode = \"all\"; };",
	HEAD "advisory: { warn = ( ); };",
	HEAD "advisory: { warn = ( { reason = \"r\"; match = \"m\"; } ); };",
	HEAD "audit: { facility = \"user\"; };",
	HEAD "audit: { log = \"/dev/null\"; };",
};

START_TEST(test_good)
{
	struct gx_policy pol;

	load_ok(goods[_i], "/", &pol);
	ck_assert_int_eq(pol.version, 1);
	ck_assert_ptr_nonnull(pol.name);
	policy_free(&pol);
	ck_assert_ptr_null(pol.name);
	ck_assert_ptr_null(pol.dir);
}
END_TEST

/* Every group and key of CONTRACT.md, none at its default. */
static const char full[] =
    "version = 1;\n"
    "name = \"full\";\n"
    "command: { stdin = \"inherit\"; user = \"nobody\"; };\n"
    "env: {\n"
    "  allow = [ \"LANG\", \"LC_*\" ];\n"
    "  set = { PATH = \"/opt/bin\"; HOME = \"/tmp\"; };\n"
    "};\n"
    "limits: {\n"
    "  timeout = 1.5; kill_grace = 0.25; cpu = 2.5;\n"
    "  memory = \"512M\"; processes = 64; open_files = 256;\n"
    "  file_size = 1048576; core = 0; stack = \"8M\";\n"
    "};\n"
    "output: { max_bytes = \"1K\"; on_overflow = \"kill\"; "
    "keep = \"head_tail\"; };\n"
    "syscalls: {\n"
    "  default_action = \"kill\";\n"
    "  errno = \"EACCES\";\n"
    "  allow = [ \"@signal\", \"read\", \"write\", \"ptrace\" ];\n"
    "  deny = [ \"ptrace\", \"kill\" ];\n"
    "};\n"
    "filesystem: { read = [ \"/usr\", \"bin\" ]; write = [ \".\", "
    "\"/tmp\" ]; };\n"
    "network: { mode = \"none\"; };\n"
    "advisory: {\n"
    "  warn = (\n"
    "    { match = \"rm -rf /\"; reason = \"r1\"; },\n"
    "    { regex = \"curl[^|]*\\\\|[[:space:]]*(ba)?sh\"; reason = \"r2\"; }\n"
    "  );\n"
    "};\n"
    "audit: {\n"
    "  log = \"logs/audit.log\"; syslog = false; facility = \"local3\";\n"
    "  on_log_failure = \"warn\"; sync = false;\n"
    "};\n";

static const char *const full_sys_allow[] = {
	"alarm", "getitimer", "pause", "read", "rt_sigaction",
	"rt_sigpending", "rt_sigprocmask", "rt_sigqueueinfo", "rt_sigreturn",
	"rt_sigsuspend", "rt_sigtimedwait", "rt_tgsigqueueinfo", "setitimer",
	"sigaltstack", "signalfd", "signalfd4", "tgkill", "tkill", "write",
	NULL
};

static void
check_full(const struct gx_policy *pol)
{
	const struct gx_limits *l = &pol->limits;

	ck_assert_int_eq(pol->version, 1);
	ck_assert_str_eq(pol->name, "full");
	ck_assert_int_eq(pol->stdin_mode, GX_STDIN_INHERIT);
	ck_assert_str_eq(pol->user, "nobody");

	ck_assert(pol->has_env);
	same_strv("env_allow", pol->env_allow,
	    (const char *[]){ "LANG", "LC_*", NULL });
	same_strv("env_set", pol->env_set,
	    (const char *[]){ "PATH=/opt/bin", "HOME=/tmp", NULL });

	ck_assert_double_eq(l->timeout, 1.5);
	ck_assert_double_eq(l->kill_grace, 0.25);
	ck_assert(l->cpu.set);
	ck_assert_uint_eq(l->cpu.value, 3);         /* rounded up */
	ck_assert(l->memory.set);
	ck_assert_uint_eq(l->memory.value, 512 * MiB);
	ck_assert(l->processes.set);
	ck_assert_uint_eq(l->processes.value, 64);
	ck_assert(l->open_files.set);
	ck_assert_uint_eq(l->open_files.value, 256);
	ck_assert(l->file_size.set);
	ck_assert_uint_eq(l->file_size.value, MiB);
	ck_assert(l->core.set);
	ck_assert_uint_eq(l->core.value, 0);
	ck_assert(l->stack.set);
	ck_assert_uint_eq(l->stack.value, 8 * MiB);

	ck_assert_uint_eq(pol->max_bytes, KiB);
	ck_assert_int_eq(pol->on_overflow, GX_OVERFLOW_KILL);
	ck_assert_int_eq(pol->keep, GX_KEEP_HEAD_TAIL);

	ck_assert(pol->has_syscalls);
	ck_assert_int_eq(pol->default_action, GX_ACTION_KILL);
	ck_assert_int_eq(pol->sys_errno, EACCES);
	same_strv("sys_allow_src", pol->sys_allow_src,
	    (const char *[]){ "@signal", "read", "write", "ptrace", NULL });
	same_strv("sys_deny", pol->sys_deny,
	    (const char *[]){ "ptrace", "kill", NULL });
	same_strv("sys_allow", pol->sys_allow, full_sys_allow);

	ck_assert(pol->has_filesystem);
	same_strv("fs_read", pol->fs_read,
	    (const char *[]){ "/usr", "/usr/bin", NULL });
	same_strv("fs_write", pol->fs_write,
	    (const char *[]){ ".", "/tmp", NULL });

	ck_assert_int_eq(pol->network, GX_NET_NONE);

	ck_assert_uint_eq(pol->n_advisory, 2);
	ck_assert_str_eq(pol->advisory[0].match, "rm -rf /");
	ck_assert_ptr_null(pol->advisory[0].regex);
	ck_assert_str_eq(pol->advisory[0].reason, "r1");
	ck_assert_ptr_null(pol->advisory[1].match);
	ck_assert_str_eq(pol->advisory[1].regex,
	    "curl[^|]*\\|[[:space:]]*(ba)?sh");
	ck_assert_str_eq(pol->advisory[1].reason, "r2");

	ck_assert_str_eq(pol->audit_log, "/usr/logs/audit.log");
	ck_assert(!pol->audit_syslog);
	ck_assert_int_eq(pol->audit_facility, LOG_LOCAL3);
	ck_assert_str_eq(pol->audit_facility_name, "local3");
	ck_assert_int_eq(pol->on_log_failure, GX_LOGFAIL_WARN);
	ck_assert(!pol->audit_sync);
}

START_TEST(test_full)
{
	static const char sha[] =
	    "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
	struct gx_diag d = { 0 };
	struct gx_policy pol;
	FILE *f;

	f = fmemopen((void *)full, strlen(full), "r");
	ck_assert_ptr_nonnull(f);
	if (policy_load_stream(f, "full.cfg", "/usr", sha, &pol, &d) != 0)
		ck_abort_msg("%s", d.msgs[0]);
	fclose(f);
	check_full(&pol);
	ck_assert_str_eq(pol.sha256, sha);
	ck_assert_str_eq(pol.dir, "/usr");
	ck_assert_ptr_null(pol.path);
	policy_free(&pol);
}
END_TEST

START_TEST(test_defaults)
{
	struct gx_policy pol;
	const struct gx_limits *l = &pol.limits;

	load_ok(HEAD, "/somewhere", &pol);
	ck_assert_str_eq(pol.name, "t");
	ck_assert_str_eq(pol.dir, "/somewhere");
	ck_assert_str_eq(pol.sha256, "");
	ck_assert_int_eq(pol.stdin_mode, GX_STDIN_NULL);
	ck_assert_ptr_null(pol.user);
	ck_assert(!pol.has_env);
	ck_assert_double_eq(l->timeout, 0);
	ck_assert_double_eq(l->kill_grace, 2);
	ck_assert(!l->cpu.set && !l->memory.set && !l->processes.set &&
	    !l->open_files.set && !l->file_size.set && !l->core.set &&
	    !l->stack.set);
	ck_assert_uint_eq(pol.max_bytes, 0);
	ck_assert_int_eq(pol.on_overflow, GX_OVERFLOW_TRUNCATE);
	ck_assert_int_eq(pol.keep, GX_KEEP_HEAD);
	ck_assert(!pol.has_syscalls);
	ck_assert_int_eq(pol.sys_errno, EPERM);
	ck_assert(!pol.has_filesystem);
	ck_assert_int_eq(pol.network, GX_NET_ALL);
	ck_assert_uint_eq(pol.n_advisory, 0);
	ck_assert_ptr_null(pol.audit_log);
	ck_assert(pol.audit_syslog);
	ck_assert_int_eq(pol.audit_facility, LOG_AUTHPRIV);
	ck_assert_str_eq(pol.audit_facility_name, "authpriv");
	ck_assert_int_eq(pol.on_log_failure, GX_LOGFAIL_REFUSE);
	ck_assert(pol.audit_sync);
	policy_free(&pol);

	/* An empty syscalls group: the filter allows nothing. */
	load_ok(HEAD "syscalls: { };", "/", &pol);
	ck_assert(pol.has_syscalls);
	ck_assert_int_eq(pol.default_action, GX_ACTION_ERRNO);
	ck_assert_int_eq(pol.sys_errno, EPERM);
	ck_assert_ptr_nonnull(pol.sys_allow);
	ck_assert_ptr_null(pol.sys_allow[0]);
	ck_assert_ptr_null(pol.sys_deny[0]);
	policy_free(&pol);

	/* errno as a number */
	load_ok(HEAD "syscalls: { errno = 13; };", "/", &pol);
	ck_assert_int_eq(pol.sys_errno, EACCES);
	policy_free(&pol);

	/* durations with units (issue 17) */
	load_ok(HEAD "limits: { timeout = \"10m\"; kill_grace = \"1500ms\";\n"
	    " cpu = \"2m30s\"; };", "/", &pol);
	ck_assert_double_eq(l->timeout, 600);
	ck_assert_double_eq(l->kill_grace, 1.5);
	ck_assert_uint_eq(l->cpu.value, 150);
	policy_free(&pol);
	load_ok(HEAD "limits: { timeout = \"1.5h\"; kill_grace = \"90s\"; };",
	    "/", &pol);
	ck_assert_double_eq(l->timeout, 5400);
	ck_assert_double_eq(l->kill_grace, 90);
	policy_free(&pol);
}
END_TEST

/* Relative paths resolve against the directory given; "." stays. */
START_TEST(test_relative_paths)
{
	struct gx_policy pol;

	load_ok(HEAD "audit: { log = \"../logs//a.log\"; };", "/srv/policies",
	    &pol);
	ck_assert_str_eq(pol.audit_log, "/srv/logs/a.log");
	policy_free(&pol);

	load_ok(HEAD "audit: { log = \"a.log\"; };", "/srv/policies", &pol);
	ck_assert_str_eq(pol.audit_log, "/srv/policies/a.log");
	policy_free(&pol);

	load_ok(HEAD "audit: { log = \"/var/log/x.log\"; };", "/srv", &pol);
	ck_assert_str_eq(pol.audit_log, "/var/log/x.log");
	policy_free(&pol);

	/* filesystem entries must exist: resolve against /usr */
	load_ok(HEAD "filesystem: {\n"
	    "  read = [ \"bin\", \"../etc\", \"/usr/./lib/\", \"/usr\", "
	    "\"./\" ];\n"
	    "  write = [ \".\", \"/tmp\", \"..\", \"/tmp/\" ];\n};\n",
	    "/usr", &pol);
	same_strv("fs_read", pol.fs_read, (const char *[]){ "/usr/bin",
	    "/etc", "/usr/lib", "/usr", NULL });
	same_strv("fs_write", pol.fs_write, (const char *[]){ ".", "/tmp",
	    "/", NULL });
	policy_free(&pol);
}
END_TEST

/* Deny wins; groups expand; the result is sorted and has no duplicate. */
START_TEST(test_deny_wins)
{
	static const char text[] = HEAD "syscalls: {\n"
	    "  allow = [ \"@default\", \"@file-write\", \"ptrace\", \"read\", "
	    "\"read\" ];\n"
	    "  deny = [ \"@file-write\", \"ptrace\", \"mmap\", \"bpf\" ];\n"
	    "};\n";
	const char *const *m;
	struct gx_policy pol;

	load_ok(text, "/", &pol);
	sorted_unique("sys_allow", pol.sys_allow);
	same_strv("sys_allow_src", pol.sys_allow_src, (const char *[]){
	    "@default", "@file-write", "ptrace", "read", NULL });
	same_strv("sys_deny", pol.sys_deny, (const char *[]){ "@file-write",
	    "ptrace", "mmap", "bpf", NULL });
	for (m = filter_group("@file-write"); *m != NULL; m++)
		ck_assert_msg(!strv_contains(pol.sys_allow, *m),
		    "denied %s is allowed", *m);
	ck_assert(!strv_contains(pol.sys_allow, "ptrace"));
	ck_assert(!strv_contains(pol.sys_allow, "mmap"));
	ck_assert(!strv_contains(pol.sys_allow, "@default"));
	for (m = filter_group("@default"); *m != NULL; m++)
		ck_assert_msg(strv_contains(pol.sys_allow, *m) ||
		    strv_contains((char *const *)filter_group("@file-write"), *m)
		    || strcmp(*m, "mmap") == 0, "%s is missing", *m);
	ck_assert(strv_contains(pol.sys_allow, "read"));
	ck_assert(strv_contains(pol.sys_allow, "openat"));
	policy_free(&pol);

	/* Denying a whole allowed group leaves nothing. */
	load_ok(HEAD "syscalls: { allow = [ \"@debug\" ]; "
	    "deny = [ \"@debug\" ]; };", "/", &pol);
	ck_assert_ptr_null(pol.sys_allow[0]);
	policy_free(&pol);
}
END_TEST

/* ---- bad policies: every diagnostic, exactly ---------------------------- */

struct bad_case {
	const char *text;
	const char *msgs[MAXMSG];
};

static const struct bad_case bads[] = {
	/* unknown top-level group, unknown keys in each group */
	{ HEAD "limitz: { };\n",
	  { "t.cfg:3: limitz: unknown key (did you mean \"limits\"?)" } },
	{ HEAD "timeout = 5;\n",
	  { "t.cfg:3: timeout: unknown key (timeout belongs in the limits "
	    "group)" } },
	{ HEAD "limits: { mode = \"none\"; tmp = \"private\"; };\n"
	  "network: { allow = [ ]; };\n",
	  { "t.cfg:3: limits.mode: unknown key (mode belongs in the network "
	    "group)",
	    "t.cfg:3: limits.tmp: unknown key (tmp belongs in the filesystem "
	    "group)",
	    "t.cfg:4: network.allow: unknown key" } },  /* in two groups */
	/* the nearest known key is suggested (issue 17): typos, swaps */
	{ HEAD "filesystem: { wirte = [ ]; };\naudit: { sylog = true; "
	  "on_log_failur = \"warn\"; };\nsyscalls: { dney = [ ]; "
	  "ab = 1; };\nadvisory: { warn = ( { match = \"x\"; resaon = "
	  "\"y\"; } ); };\n",
	  { "t.cfg:5: syscalls.dney: unknown key (did you mean \"deny\"?)",
	    "t.cfg:5: syscalls.ab: unknown key",
	    "t.cfg:3: filesystem.wirte: unknown key (did you mean "
	    "\"write\"?)",
	    "t.cfg:6: advisory.warn.resaon: unknown key (did you mean "
	    "\"reason\"?)",
	    "t.cfg:4: audit.sylog: unknown key (did you mean \"syslog\"?)",
	    "t.cfg:4: audit.on_log_failur: unknown key (did you mean "
	    "\"on_log_failure\"?)" } },
	{ HEAD "limits: {\n  timeout = 5;\n  timeot = 5;\n};\n",
	  { "t.cfg:5: limits.timeot: unknown key (did you mean "
	    "\"timeout\"?)" } },
	{ HEAD "command: { shell = \"sh\"; };\nenv: { pass = [ ]; };\n"
	  "output: { max = 1; };\nsyscalls: { allowed = [ ]; };\n"
	  "filesystem: { exec = [ ]; };\nnetwork: { proxy = \"x\"; };\n"
	  "advisory: { block = ( ); };\naudit: { path = \"x\"; };\n",
	  { "t.cfg:3: command.shell: unknown key",
	    "t.cfg:4: env.pass: unknown key",
	    "t.cfg:5: output.max: unknown key",
	    "t.cfg:6: syscalls.allowed: unknown key (did you mean "
	    "\"allow\"?)",
	    "t.cfg:7: filesystem.exec: unknown key",
	    "t.cfg:8: network.proxy: unknown key",
	    "t.cfg:9: advisory.block: unknown key",
	    "t.cfg:10: audit.path: unknown key" } },

	/* wrong types */
	{ "version = 1;\nname = 5;\n",
	  { "t.cfg:2: name: expected a string, got an integer" } },
	{ "version = \"1\";\nname = \"t\";\n",
	  { "t.cfg:1: version: only version 1 is known" } },
	{ HEAD "limits = 5;\n",
	  { "t.cfg:3: limits: expected a group { ... }, got an integer" } },
	{ HEAD "filesystem = [ \"/\" ];\n",
	  { "t.cfg:3: filesystem: expected a group { ... }, got an array" } },
	{ HEAD "limits: { timeout = \"soon\";\n kill_grace = \"10M\";\n"
	  " cpu = \"30s1m\"; };\n",
	  { "t.cfg:3: limits.timeout: expected a duration like \"90s\" or "
	    "\"10m\", got \"soon\"",
	    "t.cfg:4: limits.kill_grace: expected a duration like \"90s\" or "
	    "\"10m\", got \"10M\"",
	    "t.cfg:5: limits.cpu: expected a duration like \"90s\" or "
	    "\"10m\", got \"30s1m\"" } },
	{ HEAD "limits: { timeout = \"400d\"; };\n",
	  { "t.cfg:3: limits.timeout: 3.456e+07 seconds is more than a year" } },
	{ HEAD "limits: { kill_grace = true; };\n",
	  { "t.cfg:3: limits.kill_grace: expected seconds (an integer, a "
	    "number or a string like \"10m\"), got a boolean" } },
	{ HEAD "limits: { processes = 1.5; };\n",
	  { "t.cfg:3: limits.processes: expected an integer, got a number" } },
	{ HEAD "limits: { open_files = \"64\"; };\n",
	  { "t.cfg:3: limits.open_files: expected an integer, got a string" } },
	{ HEAD "limits: { memory = true; };\n",
	  { "t.cfg:3: limits.memory: expected a size like \"512M\", got a "
	    "boolean" } },
	{ HEAD "output: { max_bytes = 1.5; };\n",
	  { "t.cfg:3: output.max_bytes: expected a size like \"512M\", got a "
	    "number" } },
	{ HEAD "command: { stdin = 0; };\n",
	  { "t.cfg:3: command.stdin: expected a string, got an integer" } },
	{ HEAD "audit: { syslog = \"yes\";\n sync = 1; };\n",
	  { "t.cfg:3: audit.syslog: expected true or false, got a string",
	    "t.cfg:4: audit.sync: expected true or false, got an integer" } },
	{ HEAD "env: { allow = \"LANG\"; };\n",
	  { "t.cfg:3: env.allow: expected a list of strings like [ \"a\", "
	    "\"b\" ], got a string" } },
	{ HEAD "syscalls: { allow = { read = true; }; };\n",
	  { "t.cfg:3: syscalls.allow: expected a list of strings like [ "
	    "\"a\", \"b\" ], got a group" } },
	{ HEAD "env: { allow = ( \"A\",\n 5 ); };\n",
	  { "t.cfg:4: env.allow: element 2: expected a string, got an "
	    "integer" } },

	/* negative and out-of-range values */
	{ HEAD "limits: {\n timeout = -1;\n kill_grace = -0.5;\n"
	  " memory = -1;\n core = -1L;\n processes = -1;\n open_files = 0;\n"
	  "};\n",
	  { "t.cfg:4: limits.timeout: must not be negative, got -1",
	    "t.cfg:5: limits.kill_grace: must not be negative, got -0.5",
	    "t.cfg:6: limits.memory: must not be negative, got -1",
	    "t.cfg:7: limits.core: must not be negative, got -1",
	    "t.cfg:8: limits.processes: expected 1 to 4194304, got -1",
	    "t.cfg:9: limits.open_files: expected 1 to 1048576, got 0" } },
	{ HEAD "output: { max_bytes = -1; };\n",
	  { "t.cfg:3: output.max_bytes: must not be negative, got -1" } },
	{ HEAD "limits: {\n timeout = 31622401;\n kill_grace = 3601;\n"
	  " cpu = 0;\n memory = 1048575;\n stack = \"63K\";\n"
	  " processes = 4194305;\n open_files = 1048577;\n};\n",
	  { "t.cfg:4: limits.timeout: 3.16224e+07 seconds is more than a year",
	    "t.cfg:5: limits.kill_grace: at most 3600 seconds, got 3601",
	    "t.cfg:6: limits.cpu: must be at least 1 second",
	    "t.cfg:7: limits.memory: at least 1M, got 1048575 bytes",
	    "t.cfg:8: limits.stack: at least 64K, got 64512 bytes",
	    "t.cfg:9: limits.processes: expected 1 to 4194304, got 4194305",
	    "t.cfg:10: limits.open_files: expected 1 to 1048576, got "
	    "1048577" } },
	{ HEAD "output: {\n max_bytes = \"257M\";\n keep = \"head_tail\";\n};\n",
	  { "t.cfg:4: output.max_bytes: at most 256M with keep = \"head_tail\" "
	    "(the tail is held in memory)" } },

	/* sizes */
	{ HEAD "limits: {\n memory = \"lots\";\n file_size = \"1.5M\";\n"
	  " stack = \"1T\";\n core = \"\";\n};\n"
	  "output: { max_bytes = \"99999999999999999999\"; };\n",
	  { "t.cfg:4: limits.memory: expected a size like \"512M\", got "
	    "\"lots\"",
	    "t.cfg:5: limits.file_size: expected a size like \"512M\", got "
	    "\"1.5M\"",
	    "t.cfg:6: limits.stack: expected a size like \"512M\", got \"1T\"",
	    "t.cfg:7: limits.core: expected a size like \"512M\", got \"\"",
	    "t.cfg:9: output.max_bytes: expected a size like \"512M\", got "
	    "\"99999999999999999999\"" } },

	/* syscalls */
	{ HEAD "syscalls: {\n allow = [ \"read\",\n \"frobnicate\" ];\n"
	  " deny = [ \"no_such_call\" ];\n};\n",
	  { "t.cfg:5: syscalls.allow: unknown syscall \"frobnicate\"",
	    "t.cfg:6: syscalls.deny: unknown syscall \"no_such_call\"" } },
	{ HEAD "syscalls: { allow = [ \"@bogus\", \"@\", \"\", \"READ\" ]; };\n",
	  { "t.cfg:3: syscalls.allow: unknown syscall group \"@bogus\"",
	    "t.cfg:3: syscalls.allow: unknown syscall group \"@\"",
	    "t.cfg:3: syscalls.allow: unknown syscall \"\"",
	    "t.cfg:3: syscalls.allow: unknown syscall \"READ\"" } },
	{ HEAD "syscalls: { deny = [ \"@Default\" ]; };\n",
	  { "t.cfg:3: syscalls.deny: unknown syscall group \"@Default\"" } },
	{ HEAD "syscalls: { errno = \"EBOGUS\"; };\n",
	  { "t.cfg:3: syscalls.errno: unknown errno name \"EBOGUS\"" } },
	{ HEAD "syscalls: { errno = \"eperm\"; };\n",
	  { "t.cfg:3: syscalls.errno: unknown errno name \"eperm\"" } },
	{ HEAD "syscalls: { errno = 0; };\n",
	  { "t.cfg:3: syscalls.errno: expected an errno name like \"EPERM\" "
	    "or 1 to 4095, got 0" } },
	{ HEAD "syscalls: { errno = 4096; };\n",
	  { "t.cfg:3: syscalls.errno: expected an errno name like \"EPERM\" "
	    "or 1 to 4095, got 4096" } },
	{ HEAD "syscalls: { default_action = \"allow\"; };\n",
	  { "t.cfg:3: syscalls.default_action: expected \"errno\", \"kill\" "
	    "or \"log\", got \"allow\"" } },
	{ HEAD "syscalls: { default_action = \"KILL\"; };\n",
	  { "t.cfg:3: syscalls.default_action: expected \"errno\", \"kill\" "
	    "or \"log\", got \"KILL\"" } },

	/* the other enumerations */
	{ HEAD "command: { stdin = \"tty\"; };\n"
	  "output: { on_overflow = \"drop\";\n keep = \"tail\"; };\n"
	  "network: { mode = \"off\"; };\n"
	  "audit: { on_log_failure = \"ignore\";\n facility = \"kern\"; };\n",
	  { "t.cfg:3: command.stdin: expected \"null\" or \"inherit\", got "
	    "\"tty\"",
	    "t.cfg:4: output.on_overflow: expected \"truncate\" or \"kill\", "
	    "got \"drop\"",
	    "t.cfg:5: output.keep: expected \"head\" or \"head_tail\", got "
	    "\"tail\"",
	    "t.cfg:6: network.mode: expected \"all\" or \"none\", got \"off\"",
	    "t.cfg:7: audit.on_log_failure: expected \"refuse\" or \"warn\", "
	    "got \"ignore\"",
	    "t.cfg:8: audit.facility: unknown syslog facility \"kern\" (auth, "
	    "authpriv, daemon, user, local0 to local7)" } },

	/* command.user, env names */
	{ HEAD "command: { user = \"no-such-user-guardexec\"; };\n",
	  { "t.cfg:3: command.user: no such user \"no-such-user-guardexec\"" } },
	{ HEAD "env: {\n allow = [ \"BAD-NAME\", \"*X\", \"A*B\", \"\" ];\n"
	  " set = { A-B = \"x\"; HOME = 1; };\n};\n",
	  { "t.cfg:4: env.allow: \"BAD-NAME\" is not a variable name (letters, "
	    "digits and _, with an optional trailing *)",
	    "t.cfg:4: env.allow: \"*X\" is not a variable name (letters, "
	    "digits and _, with an optional trailing *)",
	    "t.cfg:4: env.allow: \"A*B\" is not a variable name (letters, "
	    "digits and _, with an optional trailing *)",
	    "t.cfg:4: env.allow: \"\" is not a variable name (letters, "
	    "digits and _, with an optional trailing *)",
	    "t.cfg:5: env.set.A-B: not a variable name",
	    "t.cfg:5: env.set.HOME: expected a string, got an integer" } },
	{ HEAD "env: { set = [ \"PATH=/bin\" ]; };\n",
	  { "t.cfg:3: env.set: expected a group like { PATH = \"/usr/bin:/bin\"; "
	    "}, got an array" } },

	/* filesystem and audit paths */
	{ HEAD "filesystem: {\n read = [ \"/nonexistent/gx-test\", \"nope\" ];\n"
	  " write = [ \"\" ];\n};\naudit: { log = \"\"; };\n",
	  { "t.cfg:4: filesystem.read: /nonexistent/gx-test: No such file or "
	    "directory",
	    "t.cfg:4: filesystem.read: /usr/nope: No such file or directory",
	    "t.cfg:5: filesystem.write: empty path",
	    "t.cfg:7: audit.log: empty path" } },

	/* advisory */
	{ HEAD "advisory: {\n warn = (\n"
	  "  { regex = \"a(\"; reason = \"r\"; },\n"
	  "  { match = \"a\"; regex = \"b\"; reason = \"both\"; },\n"
	  "  { match = \"rm -rf /\"; },\n"
	  "  { match = \"\"; reason = \"empty\"; },\n"
	  "  { pattern = \"x\"; reason = \"unknown key\"; },\n"
	  "  { reason = \"neither\"; },\n"
	  "  { match = 1; reason = \"type\"; },\n"
	  "  \"not a rule\" );\n};\n",
	  { "t.cfg:5: advisory.warn.regex: Unmatched ( or \\(: \"a(\"",
	    "t.cfg:6: advisory.warn: rule 2: needs exactly one of match or "
	    "regex",
	    "t.cfg:7: advisory.warn: rule 3: needs a reason",
	    "t.cfg:8: advisory.warn.match: empty pattern",
	    "t.cfg:9: advisory.warn.pattern: unknown key",
	    "t.cfg:10: advisory.warn: rule 6: needs exactly one of match or "
	    "regex",
	    "t.cfg:11: advisory.warn.match: expected a string, got an integer",
	    "t.cfg:12: advisory.warn: rule 8: expected a group { match = "
	    "\"...\"; reason = \"...\"; }" } },
	{ HEAD "advisory: { warn = \"rm\"; };\n",
	  { "t.cfg:3: advisory.warn: expected a list of rules like ( { match = "
	    "\"...\"; reason = \"...\"; } ), got a string" } },

	/* version and name */
	{ "name = \"t\";\n",
	  { "t.cfg:1: version: missing (add \"version = 1;\")" } },
	{ "version = 1;\n",
	  { "t.cfg:1: name: missing (add \"name = \\\"...\\\";\")" } },
	{ "",
	  { "t.cfg:1: version: missing (add \"version = 1;\")",
	    "t.cfg:1: name: missing (add \"name = \\\"...\\\";\")" } },
	{ "# only a comment\n",
	  { "t.cfg:1: version: missing (add \"version = 1;\")",
	    "t.cfg:1: name: missing (add \"name = \\\"...\\\";\")" } },
	{ "\n\nversion = 2;\nname = \"t\";\n",
	  { "t.cfg:3: version: only version 1 is known" } },
	{ "version = 1.0;\nname = \"t\";\n",
	  { "t.cfg:1: version: only version 1 is known" } },
	{ "version = 1;\nname = \"\";\n",
	  { "t.cfg:2: name: must not be empty" } },

	/* syntax errors come from libconfig, with the line */
	{ HEAD "limits: {\n  timeout = = 5;\n};\n",
	  { "t.cfg:4: syntax error" } },
	{ HEAD "limits: {\n  timeout = 5;\n",        /* at the end */
	  { "t.cfg:5: syntax error" } },
	{ HEAD "\nname = \"again\";\n",
	  { "t.cfg:4: duplicate setting name" } },
	{ HEAD "x = [ \"a\", 1 ];\n",
	  { "t.cfg:3: mismatched element type in array" } },

	/* several problems: every one is reported, in order */
	{ "version = 2;\n"
	  "colour = \"blue\";\n"
	  "limits: {\n"
	  "  memory = \"lots\";\n"
	  "  processes = 0;\n"
	  "};\n"
	  "syscalls: {\n"
	  "  allow = [ \"reed\", \"@nope\" ];\n"
	  "  errno = \"EPRM\";\n"
	  "};\n"
	  "network: { mode = \"some\"; };\n"
	  "audit: { facility = \"kern\"; };\n",
	  { "t.cfg:2: colour: unknown key",
	    "t.cfg:1: version: only version 1 is known",
	    "t.cfg:1: name: missing (add \"name = \\\"...\\\";\")",
	    "t.cfg:4: limits.memory: expected a size like \"512M\", got "
	    "\"lots\"",
	    "t.cfg:5: limits.processes: expected 1 to 4194304, got 0",
	    "t.cfg:8: syscalls.allow: unknown syscall \"reed\"",
	    "t.cfg:8: syscalls.allow: unknown syscall group \"@nope\"",
	    "t.cfg:9: syscalls.errno: unknown errno name \"EPRM\"",
	    "t.cfg:11: network.mode: expected \"all\" or \"none\", got \"some\"",
	    "t.cfg:12: audit.facility: unknown syslog facility \"kern\" (auth, "
	    "authpriv, daemon, user, local0 to local7)" } },
};

START_TEST(test_bad)
{
	const struct bad_case *c = &bads[_i];
	struct gx_diag d = { 0 };
	struct gx_policy pol;
	size_t n;

	ck_assert_msg(load_in(c->text, "/usr", &pol, &d) == -1,
	    "case %d accepted:\n%s", _i, c->text);
	for (n = 0; c->msgs[n] != NULL; n++) {
		ck_assert_msg(n < d.n, "case %d: only %zu messages, missing "
		    "\"%s\"", _i, d.n, c->msgs[n]);
		ck_assert_msg(strcmp(d.msgs[n], c->msgs[n]) == 0,
		    "case %d, message %zu:\n got \"%s\"\nwant \"%s\"", _i, n,
		    d.msgs[n], c->msgs[n]);
	}
	ck_assert_msg(d.n == n, "case %d: %zu messages, want %zu; extra: %s",
	    _i, d.n, n, d.n > n ? d.msgs[n] : "");
	/* A refused policy is left empty. */
	ck_assert_ptr_null(pol.name);
	ck_assert_ptr_null(pol.dir);
	ck_assert_ptr_null(pol.sys_allow);
	ck_assert_uint_eq(pol.n_advisory, 0);
	policy_free(&pol);
	diag_free(&d);
}
END_TEST

/* Diagnostics accumulate in the caller's gx_diag. */
START_TEST(test_diag_appends)
{
	struct gx_diag d = { 0 };
	struct gx_policy pol;

	diag_add(&d, "earlier");
	ck_assert_int_eq(load_in("version = 1;\n", "/", &pol, &d), -1);
	ck_assert_uint_eq(d.n, 2);
	ck_assert_str_eq(d.msgs[0], "earlier");
	ck_assert(strncmp(d.msgs[1], "t.cfg:1: name: ", 15) == 0);
	diag_free(&d);
	ck_assert_uint_eq(d.n, 0);
}
END_TEST

/* ---- policy_load() on files --------------------------------------------- */

static const char sha_text[] = "version = 1;\nname = \"sha\";\n";
/* sha256sum of exactly those bytes */
static const char sha_want[] =
    "72d4fd55d676b3e43b63f5a713ba453c95f380aa745b05f7fa8cdab2487bc6cf";

START_TEST(test_load_file)
{
	char want[SHA256_DIGEST_STRING_LENGTH], *path, *dir;
	struct gx_diag d = { 0 };
	struct gx_policy pol;

	path = write_file("sha.cfg", sha_text, strlen(sha_text), 0644);
	if (policy_load(path, false, &pol, &d) != 0)
		ck_abort_msg("%s", d.msgs[0]);
	ck_assert_str_eq(pol.path, path);
	dir = path_dirname(path);
	ck_assert_str_eq(pol.dir, dir);
	ck_assert_str_eq(pol.dir, unit_tmpdir);
	ck_assert_str_eq(pol.name, "sha");
	ck_assert_str_eq(pol.sha256, sha_want);
	SHA256Data((const uint8_t *)sha_text, strlen(sha_text), want);
	ck_assert_str_eq(pol.sha256, want);
	policy_free(&pol);
	free(dir);
	free(path);
}
END_TEST

/* The hash covers the bytes as they are: no newline added, comments in. */
START_TEST(test_load_file_sha_exact)
{
	static const char text[] = "# a comment\r\nversion = 1; name = \"x\";";
	char want[SHA256_DIGEST_STRING_LENGTH], *path;
	struct gx_diag d = { 0 };
	struct gx_policy pol;

	path = write_file("exact.cfg", text, strlen(text), 0600);
	if (policy_load(path, false, &pol, &d) != 0)
		ck_abort_msg("%s", d.msgs[0]);
	SHA256Data((const uint8_t *)text, strlen(text), want);
	ck_assert_str_eq(pol.sha256, want);
	policy_free(&pol);
	free(path);
}
END_TEST

/* A relative path is made absolute against the working directory. */
START_TEST(test_load_file_relative)
{
	static const char text[] = HEAD "audit: { log = \"a.log\"; };\n";
	struct gx_diag d = { 0 };
	struct gx_policy pol;
	char *path, *want_audit, *sub, *bad;

	path = write_file("rel.cfg", text, strlen(text), 0644);
	sub = xasprintf("%s/sub", unit_tmpdir);
	ck_assert_int_eq(mkdir(sub, 0700), 0);
	free(sub);
	ck_assert_int_eq(chdir(unit_tmpdir), 0);
	if (policy_load("sub/../rel.cfg", false, &pol, &d) != 0)
		ck_abort_msg("%s", d.msgs[0]);
	ck_assert_str_eq(pol.path, path);
	ck_assert_str_eq(pol.dir, unit_tmpdir);
	want_audit = xasprintf("%s/a.log", unit_tmpdir);
	ck_assert_str_eq(pol.audit_log, want_audit);
	policy_free(&pol);

	/* Diagnostics name the file as given. */
	bad = write_file("relbad.cfg", "version = 1;\n", 13, 0644);
	free(bad);
	ck_assert_int_eq(policy_load("./relbad.cfg", false, &pol, &d), -1);
	ck_assert_uint_eq(d.n, 1);
	ck_assert_str_eq(d.msgs[0], "./relbad.cfg:1: name: missing (add "
	    "\"name = \\\"...\\\";\")");
	diag_free(&d);
	free(want_audit);
	free(path);
}
END_TEST

static const struct {
	const char *text;
	int line;
} includes[] = {
	{ "version = 1;\nname = \"i\";\n@include \"other.cfg\"\n", 3 },
	{ "@include \"/etc/passwd\"\nversion = 1;\nname = \"i\";\n", 1 },
	{ "version = 1;\n \t@include \"x\"\nname = \"i\";\n", 2 },
	{ "version = 1;\nname = \"i\";\n\n\n@include", 5 },
};

START_TEST(test_load_include)
{
	struct gx_diag d = { 0 };
	struct gx_policy pol;
	char *path, *want;

	path = write_file("inc.cfg", includes[_i].text,
	    strlen(includes[_i].text), 0644);
	ck_assert_int_eq(policy_load(path, false, &pol, &d), -1);
	ck_assert_uint_eq(d.n, 1);
	want = xasprintf("%s:%d: @include: not supported (a policy is one "
	    "file, so that its sha256 covers all of it)", path,
	    includes[_i].line);
	ck_assert_str_eq(d.msgs[0], want);
	ck_assert_ptr_null(pol.name);
	ck_assert_ptr_null(pol.path);
	diag_free(&d);
	free(want);
	free(path);
}
END_TEST

/* "@include" that is not a directive is just text. */
START_TEST(test_load_include_in_string)
{
	static const char text[] = "version = 1;\nname = \"@include\"; "
	    "# @include \"x\"\n";
	struct gx_diag d = { 0 };
	struct gx_policy pol;
	char *path;

	path = write_file("incstr.cfg", text, strlen(text), 0644);
	if (policy_load(path, false, &pol, &d) != 0)
		ck_abort_msg("%s", d.msgs[0]);
	ck_assert_str_eq(pol.name, "@include");
	policy_free(&pol);
	free(path);
}
END_TEST

START_TEST(test_load_writable)
{
	struct gx_diag d = { 0 };
	struct gx_policy pol;
	struct stat st;
	char *path, *want;

	path = write_file("ww.cfg", sha_text, strlen(sha_text), 0666);
	/* chmod, not umask, decides: make sure it is world-writable */
	ck_assert_int_eq(chmod(path, 0666), 0);
	ck_assert_int_eq(policy_load(path, true, &pol, &d), -1);
	ck_assert_uint_eq(d.n, 1);
	want = xasprintf("%s: refusing a policy writable by group or others "
	    "while running as root (chmod go-w)", path);
	ck_assert_str_eq(d.msgs[0], want);
	ck_assert_ptr_null(pol.name);
	diag_free(&d);

	/* unprivileged, the same file is fine */
	if (policy_load(path, false, &pol, &d) != 0)
		ck_abort_msg("%s", d.msgs[0]);
	policy_free(&pol);

	/* group-writable, group not root: refused */
	ck_assert_int_eq(chmod(path, 0664), 0);
	ck_assert_int_eq(stat(path, &st), 0);
	if (st.st_gid == 0 && geteuid() == 0)
		ck_assert_int_eq(chown(path, (uid_t)-1, 65534), 0);
	ck_assert_int_eq(stat(path, &st), 0);
	if (st.st_gid != 0) {
		ck_assert_int_eq(policy_load(path, true, &pol, &d), -1);
		ck_assert_str_eq(d.msgs[0], want);
		diag_free(&d);
	}

	/* not writable by others: fine when privileged */
	ck_assert_int_eq(chmod(path, 0644), 0);
	if (policy_load(path, true, &pol, &d) != 0)
		ck_abort_msg("%s", d.msgs[0]);
	policy_free(&pol);
	free(want);
	free(path);
}
END_TEST

START_TEST(test_load_errors)
{
	struct gx_diag d = { 0 };
	struct gx_policy pol;
	char *path, *want, *big;
	size_t bigsz = (1024 * 1024) + 1;

	path = xasprintf("%s/does-not-exist.cfg", unit_tmpdir);
	ck_assert_int_eq(policy_load(path, false, &pol, &d), -1);
	want = xasprintf("%s: No such file or directory", path);
	ck_assert_str_eq(d.msgs[0], want);
	diag_free(&d);
	free(want);
	free(path);

	ck_assert_int_eq(policy_load(unit_tmpdir, false, &pol, &d), -1);
	want = xasprintf("%s: not a regular file", unit_tmpdir);
	ck_assert_str_eq(d.msgs[0], want);
	diag_free(&d);
	free(want);

	big = xmalloc(bigsz);
	memset(big, '#', bigsz);
	path = write_file("big.cfg", big, bigsz, 0644);
	ck_assert_int_eq(policy_load(path, false, &pol, &d), -1);
	want = xasprintf("%s: larger than 1M; not a policy", path);
	ck_assert_str_eq(d.msgs[0], want);
	diag_free(&d);
	free(want);
	free(path);
	free(big);

	/* Validation errors from a file carry its name as given. */
	path = write_file("bad.cfg", HEAD "limits: { memory = \"lots\"; };\n",
	    strlen(HEAD "limits: { memory = \"lots\"; };\n"), 0644);
	ck_assert_int_eq(policy_load(path, false, &pol, &d), -1);
	want = xasprintf("%s:3: limits.memory: expected a size like \"512M\", "
	    "got \"lots\"", path);
	ck_assert_str_eq(d.msgs[0], want);
	diag_free(&d);
	free(want);
	free(path);
}
END_TEST

/* ---- advisory_match ------------------------------------------------------ */

static const char adv_policy[] = HEAD "advisory: { warn = (\n"
    "  { match = \"rm -rf /\"; reason = \"root\"; },\n"
    "  { regex = \"curl[^|]*\\\\|[[:space:]]*(ba)?sh\"; reason = \"pipe\"; },\n"
    "  { match = \"a b\"; reason = \"joined\"; },\n"
    "  { regex = \"^git push .*--force\"; reason = \"force\"; }\n"
    "); };\n";

static const struct {
	const char *argv[8];
	int want[5];            /* indices of the rules, -1 terminated */
} advs[] = {
	{ { "rm", "-rf", "/" }, { 0, -1 } },
	{ { "rm", "-rf", "/tmp/x" }, { 0, -1 } },       /* a substring */
	{ { "rm", "-rf", "." }, { -1 } },
	{ { "rm", "-r", "-f", "/" }, { -1 } },          /* advisory only */
	{ { "sh", "-c", "curl -s https://x | bash" }, { 1, -1 } },
	{ { "sh", "-c", "curl https://x |sh" }, { 1, -1 } },
	{ { "curl", "https://x", "|", "sh" }, { 1, -1 } },
	{ { "curl", "-o", "f", "https://x" }, { -1 } },
	{ { "a", "b" }, { 2, -1 } },                    /* single spaces */
	{ { "a b" }, { 2, -1 } },
	{ { "a", "", "b" }, { -1 } },                   /* "a  b" */
	{ { "git", "push", "origin", "--force" }, { 3, -1 } },
	{ { "echo", "git push --force" }, { -1 } },     /* ^ anchors */
	{ { "sh", "-c", "rm -rf / ; curl x | sh" }, { 0, 1, -1 } },
	{ { "ls", "-la" }, { -1 } },
	{ { NULL }, { -1 } },
};

START_TEST(test_advisory_match)
{
	const struct gx_advisory_rule **m;
	struct gx_policy pol;
	size_t n;

	load_ok(adv_policy, "/", &pol);
	ck_assert_uint_eq(pol.n_advisory, 4);
	m = advisory_match(&pol, (char *const *)advs[_i].argv);
	ck_assert_ptr_nonnull(m);
	for (n = 0; advs[_i].want[n] >= 0; n++)
		ck_assert_msg(m[n] == &pol.advisory[advs[_i].want[n]],
		    "case %d: match %zu is not rule %d", _i, n,
		    advs[_i].want[n]);
	ck_assert_msg(m[n] == NULL, "case %d: extra match \"%s\"", _i,
	    m[n] ? m[n]->reason : "");
	free(m);
	policy_free(&pol);
}
END_TEST

START_TEST(test_advisory_none)
{
	const struct gx_advisory_rule **m;
	char *argv[] = { "rm", "-rf", "/", NULL };
	struct gx_policy pol;

	load_ok(HEAD, "/", &pol);
	m = advisory_match(&pol, argv);
	ck_assert_ptr_nonnull(m);
	ck_assert_ptr_null(m[0]);
	free(m);
	policy_free(&pol);
}
END_TEST

/* ---- policy_print() read back ----------------------------------------- */

START_TEST(test_print_reload)
{
	struct gx_policy pol, again;
	struct gx_diag d = { 0 };
	char *text = NULL;
	size_t len = 0;
	FILE *out, *in;

	load_ok(full, "/usr", &pol);
	out = open_memstream(&text, &len);
	ck_assert_ptr_nonnull(out);
	policy_print(&pol, out, NULL);
	ck_assert_int_eq(fclose(out), 0);
	ck_assert_ptr_nonnull(strstr(text, "name = \"full\";"));

	in = fmemopen(text, len, "r");
	ck_assert_ptr_nonnull(in);
	if (policy_load_stream(in, "printed.cfg", "/elsewhere", NULL, &again,
	    &d) != 0)
		ck_abort_msg("the printed policy does not load: %s\n%s",
		    d.msgs[0], text);
	fclose(in);
	/*
	 * The same policy, but for what printing makes explicit: sys_allow
	 * is expanded, paths are absolute.
	 */
	ck_assert_str_eq(again.user, "nobody");
	same_strv("sys_allow", again.sys_allow, full_sys_allow);
	same_strv("fs_read", again.fs_read,
	    (const char *[]){ "/usr", "/usr/bin", NULL });
	same_strv("fs_write", again.fs_write,
	    (const char *[]){ ".", "/tmp", NULL });
	ck_assert_str_eq(again.audit_log, "/usr/logs/audit.log");
	ck_assert_str_eq(again.advisory[1].regex, pol.advisory[1].regex);
	ck_assert_uint_eq(again.limits.memory.value, 512 * MiB);
	ck_assert_uint_eq(again.limits.cpu.value, 3);
	ck_assert_double_eq(again.limits.timeout, 1.5);
	ck_assert_double_eq(again.limits.kill_grace, 0.25);
	ck_assert_int_eq(again.default_action, GX_ACTION_KILL);
	ck_assert_int_eq(again.sys_errno, EACCES);
	ck_assert_int_eq(again.audit_facility, LOG_LOCAL3);
	same_strv("env_set", again.env_set,
	    (const char *[]){ "PATH=/opt/bin", "HOME=/tmp", NULL });
	policy_free(&again);
	policy_free(&pol);
	free(text);
}
END_TEST

START_TEST(test_print_override)
{
	char *allow[] = { "exit_group", "read", NULL };
	struct gx_policy pol;
	char *text = NULL;
	size_t len = 0;
	FILE *out;

	load_ok(HEAD, "/", &pol);
	out = open_memstream(&text, &len);
	policy_print(&pol, out, NULL);
	fclose(out);
	ck_assert_ptr_nonnull(strstr(text, "# no syscalls group"));
	ck_assert_ptr_nonnull(strstr(text, "# no env group"));
	ck_assert_ptr_nonnull(strstr(text, "# no filesystem group"));
	free(text);

	out = open_memstream(&text, &len);
	policy_print(&pol, out, allow);
	fclose(out);
	ck_assert_ptr_nonnull(strstr(text,
	    "allow = [ \"exit_group\", \"read\" ];"));
	free(text);
	policy_free(&pol);
}
END_TEST

/* ---- facilities ---------------------------------------------------------- */

static const struct {
	const char *name;
	int want;
} facilities[] = {
	{ "auth", LOG_AUTH }, { "authpriv", LOG_AUTHPRIV },
	{ "daemon", LOG_DAEMON }, { "user", LOG_USER },
	{ "local0", LOG_LOCAL0 }, { "local7", LOG_LOCAL7 },
	{ "kern", -1 }, { "AUTHPRIV", -1 }, { "", -1 }, { "local8", -1 },
};

START_TEST(test_facility)
{
	ck_assert_int_eq(policy_facility_from_name(facilities[_i].name),
	    facilities[_i].want);
}
END_TEST

/* ---- the key table ------------------------------------------------------ */

/* Print @text's policy (loaded from "/") into a malloc'd string. */
static char *
printed(const char *text)
{
	struct gx_policy pol;
	char *out = NULL;
	size_t len = 0;
	FILE *f;

	load_ok(text, "/", &pol);
	f = open_memstream(&out, &len);
	ck_assert_ptr_nonnull(f);
	policy_print(&pol, f, NULL);
	ck_assert_int_eq(fclose(f), 0);
	policy_free(&pol);
	return out;
}

/*
 * The table's defaults are the parser's: a key written with its default
 * value prints the same effective policy as the key left out.
 */
START_TEST(test_key_defaults)
{
	const struct gx_key *k = &gx_keys[_i];
	char *with, *without, *a, *b;

	if (k->def == NULL || k->group == NULL)
		return;
	with = xasprintf(HEAD "%s: { %s = %s; };\n", k->group, k->name,
	    k->def);
	without = xasprintf(HEAD "%s: { };\n", k->group);
	a = printed(with);
	b = printed(without);
	ck_assert_msg(strcmp(a, b) == 0, "%s.%s: the default %s is not the "
	    "parser's:\n%s\n---\n%s", k->group, k->name, k->def, a, b);
	free(a);
	free(b);
	free(with);
	free(without);
}
END_TEST

/* The man page's section for a key's group. */
static const char *
man_section(const struct gx_key *k, char *buf, size_t size)
{
	const char *dot;

	if (k->group == NULL)
		return "Top-level settings";
	dot = strchr(k->group, '.');
	snprintf(buf, size, "%.*s", dot ? (int)(dot - k->group) :
	    (int)strlen(k->group), k->group);
	return buf;
}

/*
 * guardexec.cfg(5) documents every key of the table, in its group's
 * section, with the table's type: ".It Ic timeout Pq duration".
 */
START_TEST(test_key_in_manual)
{
	const struct gx_key *k = &gx_keys[_i];
	const char *top = getenv("TOP_SRCDIR");
	char path[4096], sect[64], want[256], *line = NULL;
	const char *section;
	bool in = false, found = false;
	size_t cap = 0;
	FILE *f;

	ck_assert_msg(top != NULL, "TOP_SRCDIR is not set (make check sets it)");
	snprintf(path, sizeof(path), "%s/man/guardexec.cfg.5", top);
	f = fopen(path, "re");
	ck_assert_msg(f != NULL, "%s: %s", path, strerror(errno));
	section = man_section(k, sect, sizeof(sect));
	snprintf(want, sizeof(want), ".It Ic %s Pq %s\n", k->name, k->type);
	while (!found && getline(&line, &cap, f) > 0) {
		if (strncmp(line, ".Ss ", 4) == 0)
			in = strncmp(line + 4, section, strlen(section)) == 0 &&
			    line[4 + strlen(section)] == '\n';
		else if (in && strcmp(line, want) == 0)
			found = true;
	}
	free(line);
	fclose(f);
	ck_assert_msg(found, "guardexec.cfg.5 has no \"%.*s\" in section "
	    "\"%s\"", (int)strlen(want) - 1, want, section);
}
END_TEST

/*
 * And the other way: every key guardexec.cfg(5) documents (".It Ic KEY
 * Pq TYPE" in a group's section) is a key of the table.
 */
START_TEST(test_manual_in_keys)
{
	const char *top = getenv("TOP_SRCDIR");
	char path[4096], group[64] = "", key[64], *line = NULL;
	size_t cap = 0;
	int n = 0;
	FILE *f;

	ck_assert_msg(top != NULL, "TOP_SRCDIR is not set (make check sets it)");
	snprintf(path, sizeof(path), "%s/man/guardexec.cfg.5", top);
	f = fopen(path, "re");
	ck_assert_msg(f != NULL, "%s: %s", path, strerror(errno));
	while (getline(&line, &cap, f) > 0) {
		const char *g = group[0] ? group : NULL;

		if (strncmp(line, ".Sh ", 4) == 0) {
			strlcpy(group, "-", sizeof(group));
			continue;
		}
		if (strncmp(line, ".Ss ", 4) == 0) {
			if (sscanf(line + 4, "%63[^\n]", group) != 1)
				group[0] = '\0';
			if (strcmp(group, "Top-level settings") == 0)
				group[0] = '\0';
			else if (strchr(group, ' ') != NULL)
				strlcpy(group, "-", sizeof(group));
			continue;
		}
		if (strcmp(group, "-") == 0 ||
		    sscanf(line, ".It Ic %63s Pq", key) != 1 ||
		    strstr(line, " Pq ") == NULL)
			continue;
		if (g != NULL && strcmp(g, "advisory") == 0 &&
		    policy_key_find("advisory.warn", key) != NULL)
			g = "advisory.warn";
		ck_assert_msg(policy_key_find(g, key) != NULL, "guardexec.cfg.5 "
		    "documents %s%s%s, which the key table does not have",
		    g ? g : "", g ? "." : "", key);
		n++;
	}
	free(line);
	fclose(f);
	ck_assert_int_gt(n, 30);
}
END_TEST

/* Every key has a one-line doc, and the groups all have keys. */
START_TEST(test_key_table)
{
	for (const struct gx_key *k = gx_keys; k->name != NULL; k++) {
		ck_assert_msg(k->doc != NULL && k->doc[0] != '\0' &&
		    strchr(k->doc, '\n') == NULL, "%s: doc", k->name);
		ck_assert_ptr_eq(policy_key_find(k->group, k->name), k);
	}
	for (const struct gx_group *g = gx_groups; g->name != NULL; g++) {
		int n = 0;

		ck_assert_msg(g->doc != NULL, "%s: doc", g->name);
		for (const struct gx_key *k = gx_keys; k->name != NULL; k++)
			n += k->group != NULL && strcmp(k->group, g->name) == 0;
		ck_assert_msg(n > 0, "group %s has no keys", g->name);
	}
	ck_assert_ptr_null(policy_key_find("limits", "timout"));
	ck_assert_ptr_null(policy_key_find(NULL, "limits"));
}
END_TEST

static const struct {
	const char *group, *name, *want;
} nearest[] = {
	{ "limits", "timout", "timeout" },
	{ "limits", "tiemout", "timeout" },         /* a swap is one edit */
	{ "limits", "memroy", "memory" },
	{ "limits", "open_file", "open_files" },
	{ "limits", "timeout_s", "timeout" },
	{ NULL, "limit", "limits" },                /* a group, top level */
	{ NULL, "verison", "version" },
	{ NULL, "syscall", "syscalls" },
	{ "audit", "on_failure", NULL },            /* too far */
	{ "limits", "cp", NULL },                   /* too short to guess */
	{ "limits", "xyz", NULL },
	{ "advisory.warn", "regexp", "regex" },
	{ "network", "mdoe", "mode" },
	{ "filesystem", "tpm", "tmp" },
	{ "isolation", "requires", "require" },
};

START_TEST(test_key_nearest)
{
	const char *got = policy_key_nearest(nearest[_i].group,
	    nearest[_i].name);

	if (nearest[_i].want == NULL)
		ck_assert_msg(got == NULL, "%s: suggested \"%s\"",
		    nearest[_i].name, got);
	else
		ck_assert_msg(got != NULL && strcmp(got, nearest[_i].want) == 0,
		    "%s: suggested \"%s\", want \"%s\"", nearest[_i].name,
		    got ? got : "(none)", nearest[_i].want);
}
END_TEST

/* The name tables: every name maps to its value and back. */
START_TEST(test_names)
{
	const struct gx_name *const tables[] = { gx_stdin_names,
		gx_overflow_names, gx_keep_names, gx_action_names,
		gx_net_names, gx_logfail_names, gx_tmp_names,
		gx_facility_names };

	for (int t = 0; t < N(tables); t++)
		for (const struct gx_name *n = tables[t]; n->name != NULL; n++) {
			ck_assert_int_eq(policy_value_of(tables[t], n->name),
			    n->value);
			ck_assert_str_eq(policy_name_of(tables[t], n->value),
			    n->name);
		}
	ck_assert_str_eq(policy_name_of(gx_action_names, GX_ACTION_LOG), "log");
	ck_assert_str_eq(policy_name_of(gx_action_names, 42), "?");
	ck_assert_int_eq(policy_value_of(gx_action_names, "Kill"), -1);
	ck_assert_int_eq(policy_value_of(gx_action_names, ""), -1);
}
END_TEST

/*
 * --init's template: every key with a template value is in it, under its
 * doc line, and the template is a policy that loads.
 */
START_TEST(test_template)
{
	char *reads[] = { "/usr", "/etc", NULL };
	struct gx_policy pol;
	char *text = NULL, *want;
	size_t len = 0;
	FILE *out;

	out = open_memstream(&text, &len);
	ck_assert_ptr_nonnull(out);
	policy_print_template(out, "my \"repo\"-agent", reads);
	ck_assert_int_eq(fclose(out), 0);
	for (const struct gx_key *k = gx_keys; k->name != NULL; k++) {
		if (k->init == NULL)
			continue;
		want = xasprintf("  # %s\n  %s = ", k->doc, k->name);
		ck_assert_msg(strstr(text, want) != NULL, "no \"%s\" in\n%s",
		    want, text);
		free(want);
	}
	ck_assert_ptr_nonnull(strstr(text, "read = [ \"/usr\", \"/etc\" ];"));
	load_ok(text, "/", &pol);
	ck_assert_str_eq(pol.name, "my \"repo\"-agent");
	ck_assert_double_eq(pol.limits.timeout, 600);
	ck_assert(pol.has_syscalls && pol.has_filesystem && pol.has_env);
	ck_assert_uint_eq(pol.n_advisory, 2);
	policy_free(&pol);
	free(text);
}
END_TEST

/* An errno with no name prints as its number, so it reads back. */
START_TEST(test_print_errno_number)
{
	char *text = printed(HEAD "syscalls: { errno = 4095; };\n");

	ck_assert_msg(strstr(text, "  errno = 4095;\n") != NULL, "%s", text);
	free(text);
}
END_TEST

Suite *
policy_suite(void)
{
	Suite *s = suite_create("policy");
	int n_keys = 0;
	TCase *tc;

	while (gx_keys[n_keys].name != NULL)
		n_keys++;

	tc = tcase_create("good");
	tcase_set_timeout(tc, 10);
	tcase_add_loop_test(tc, test_good, 0, N(goods));
	tcase_add_test(tc, test_full);
	tcase_add_test(tc, test_defaults);
	tcase_add_test(tc, test_relative_paths);
	tcase_add_test(tc, test_deny_wins);
	tcase_add_loop_test(tc, test_facility, 0, N(facilities));
	suite_add_tcase(s, tc);

	tc = tcase_create("bad");
	tcase_set_timeout(tc, 10);
	tcase_add_loop_test(tc, test_bad, 0, N(bads));
	tcase_add_test(tc, test_diag_appends);
	suite_add_tcase(s, tc);

	tc = tcase_create("file");
	tcase_set_timeout(tc, 20);
	tcase_add_unchecked_fixture(tc, unit_tmp_setup, unit_tmp_teardown);
	tcase_add_test(tc, test_load_file);
	tcase_add_test(tc, test_load_file_sha_exact);
	tcase_add_test(tc, test_load_file_relative);
	tcase_add_loop_test(tc, test_load_include, 0, N(includes));
	tcase_add_test(tc, test_load_include_in_string);
	tcase_add_test(tc, test_load_writable);
	tcase_add_test(tc, test_load_errors);
	suite_add_tcase(s, tc);

	tc = tcase_create("advisory");
	tcase_set_timeout(tc, 10);
	tcase_add_loop_test(tc, test_advisory_match, 0, N(advs));
	tcase_add_test(tc, test_advisory_none);
	suite_add_tcase(s, tc);

	tc = tcase_create("print");
	tcase_set_timeout(tc, 10);
	tcase_add_test(tc, test_print_reload);
	tcase_add_test(tc, test_print_override);
	tcase_add_test(tc, test_print_errno_number);
	tcase_add_test(tc, test_template);
	suite_add_tcase(s, tc);

	tc = tcase_create("keys");
	tcase_set_timeout(tc, 10);
	tcase_add_test(tc, test_key_table);
	tcase_add_test(tc, test_manual_in_keys);
	tcase_add_loop_test(tc, test_key_defaults, 0, n_keys);
	tcase_add_loop_test(tc, test_key_in_manual, 0, n_keys);
	tcase_add_loop_test(tc, test_key_nearest, 0, N(nearest));
	tcase_add_test(tc, test_names);
	suite_add_tcase(s, tc);
	return s;
}

UNIT_MAIN(policy_suite)
