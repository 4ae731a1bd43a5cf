/* SPDX-License-Identifier: ISC */
/*
 * audit.c: the record (audit_build), its line and hash chain
 * (audit_format, audit_check_line), the local log (audit_log_open,
 * audit_log_append) in a temporary directory, and audit_compact().
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <jansson.h>
#include <sha2.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "audit.h"
#include "env.h"
#include "log.h"
#include "policy.h"
#include "outcome.h"
#include "util.h"
#include "runner.h"

Suite *audit_suite(void);

#define HASH_KEY ",\"hash\":\""

/* ---- fixtures ------------------------------------------------------------- */

static const char policy_text[] =
    "version = 1;\n"
    "name = \"agent\";\n"
    "env: { allow = [ \"LANG\", \"LC_*\" ]; set = { HOME = \"/tmp\"; }; };\n"
    "syscalls: { default_action = \"errno\"; allow = [ \"@default\" ]; };\n"
    "advisory: { warn = ( { match = \"rm -rf /\"; reason = \"root\"; } ); };\n";

static const char policy_sha[] =
    "72d4fd55d676b3e43b63f5a713ba453c95f380aa745b05f7fa8cdab2487bc6cf";

static char *const caller_env[] = {
	"LANG=C.UTF-8", "AWS_SECRET_ACCESS_KEY=s3cr3t", "LC_ALL=C",
	"HOME=/root", NULL
};

static char *const plain_argv[] = { "rm", "-rf", "/", NULL };

/* What one record is built from; owned by the test. */
struct fix {
	struct gx_policy pol;
	struct gx_env env;
	const struct gx_advisory_rule **adv;
	struct gx_outcome out;
	struct gx_record_in in;
};

static void
fix_init(struct fix *x, char *const *argv, bool with_outcome)
{
	struct gx_diag d = { 0 };
	FILE *f;

	memset(x, 0, sizeof(*x));
	f = fmemopen((void *)policy_text, strlen(policy_text), "r");
	ck_assert_ptr_nonnull(f);
	if (policy_load_stream(f, "agent.cfg", "/etc/guardexec", policy_sha,
	    &x->pol, &d) != 0)
		ck_abort_msg("%s", d.msgs[0]);
	fclose(f);
	/* policy_load() sets the path; policy_load_stream() cannot. */
	x->pol.path = xstrdup("/etc/guardexec/agent.cfg");
	env_build(&x->pol, caller_env, &x->env);
	/*
	 * The advisory matches of the plain command: advisory_match() is
	 * quadratic in the length of argv (reported), too slow for the
	 * 10 MB command lines of the compact tests.
	 */
	x->adv = advisory_match(&x->pol, plain_argv);

	x->out.status = GX_STATUS_SIGNALED;
	x->out.exit_code = 128 + SIGKILL;
	x->out.signal = SIGKILL;
	x->out.stdout_bytes = 5;
	x->out.stderr_bytes = 7;
	x->out.truncated = true;
	x->out.limit_hit = "memory";
	outcome_limit_reached(&x->out, "memory");
	outcome_limit_reached(&x->out, "output");
	outcome_limit_reached(&x->out, "memory");
	x->out.ru.ru_utime.tv_sec = 1;
	x->out.ru.ru_utime.tv_usec = 500000;
	x->out.ru.ru_stime.tv_usec = 2000;
	x->out.ru.ru_maxrss = 1234;
	x->out.start.tv_sec = 1795942211;
	x->out.start.tv_nsec = 123456789;
	x->out.end.tv_sec = 1795942212;
	x->out.end.tv_nsec = 0;
	x->out.duration_ms = 876.5;
	x->out.forwarded[0] = SIGTERM;
	x->out.n_forwarded = 1;
	x->out.left_running = true;
	strlcpy(x->out.denied[0].name, "ptrace", sizeof(x->out.denied[0].name));
	x->out.denied[0].count = 1;
	strlcpy(x->out.denied[1].name, "mount", sizeof(x->out.denied[1].name));
	x->out.denied[1].count = 3;
	x->out.n_denied = 2;
	strlcpy(x->out.reporting, "notify", sizeof(x->out.reporting));

	x->in.argv = argv;
	x->in.cwd = "/home/alice/repo";
	x->in.exec_path = "/usr/bin/rm";
	x->in.pol = &x->pol;
	x->in.env = &x->env;
	x->in.advisory = x->adv;
	x->in.outcome = with_outcome ? &x->out : NULL;
	x->in.isolation_fs = "landlock-4";
	x->in.isolation_net = "netns";
	x->in.isolation_user = "nobody";
}

static void
fix_free(struct fix *x)
{
	free(x->adv);
	env_free(&x->env);
	policy_free(&x->pol);
}

/* A fresh record of a plain run. */
static json_t *
plain_record(void)
{
	struct fix x;
	json_t *rec;

	fix_init(&x, plain_argv, true);
	rec = audit_build(&x.in);
	fix_free(&x);
	return rec;
}

/* ---- checks on a line ----------------------------------------------------- */

static const char *
last_hash_key(const char *line)
{
	const char *p, *last = NULL;

	for (p = strstr(line, HASH_KEY); p != NULL; p = strstr(p + 1, HASH_KEY))
		last = p;
	return last;
}

/*
 * One line ending in "\n", no other control byte, valid UTF-8, a JSON
 * object with "prev" then "hash" last, hash = sha256 of the bytes before
 * ',"hash":"'.  Returns the parsed object.
 */
static json_t *
check_line(const char *line, const char *want_prev)
{
	char want[SHA256_DIGEST_STRING_LENGTH], prev[65], hash[65];
	size_t len = strlen(line);
	const char *why = NULL, *k, *pk = NULL, *lk = NULL;
	json_error_t jerr;
	json_t *obj;
	void *it;

	ck_assert_uint_gt(len, 2);
	ck_assert_msg(line[len - 1] == '\n', "no final newline");
	for (size_t i = 0; i < len - 1; i++)
		ck_assert_msg((unsigned char)line[i] >= 0x20, "control byte "
		    "0x%02x at %zu", (unsigned char)line[i], i);
	ck_assert_msg(utf8_valid(line, len), "not UTF-8");

	obj = json_loadb(line, len - 1, JSON_REJECT_DUPLICATES, &jerr);
	ck_assert_msg(obj != NULL, "not JSON: %s", jerr.text);
	ck_assert(json_is_object(obj));
	for (it = json_object_iter(obj); it != NULL;
	    it = json_object_iter_next(obj, it)) {
		k = json_object_iter_key(it);
		pk = lk;
		lk = k;
	}
	ck_assert_str_eq(lk, "hash");
	ck_assert_str_eq(pk, "prev");
	ck_assert_str_eq(json_string_value(json_object_get(obj, "prev")),
	    want_prev);

	k = last_hash_key(line);
	ck_assert_ptr_nonnull(k);
	SHA256Data((const uint8_t *)line, (size_t)(k - line), want);
	ck_assert_str_eq(json_string_value(json_object_get(obj, "hash")), want);

	ck_assert_msg(audit_check_line(line, len - 1, prev, hash, &why) == 0,
	    "audit_check_line: %s", why);
	ck_assert_str_eq(prev, want_prev);
	ck_assert_str_eq(hash, want);
	return obj;
}

static void
is_hex(const char *s, size_t n)
{
	ck_assert_ptr_nonnull(s);
	ck_assert_uint_eq(strlen(s), n);
	for (size_t i = 0; i < n; i++)
		ck_assert_msg((s[i] >= '0' && s[i] <= '9') ||
		    (s[i] >= 'a' && s[i] <= 'f'), "not hex: %s", s);
}

static const char *
str_at(json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);

	ck_assert_msg(json_is_string(v), "\"%s\" is not a string", key);
	return json_string_value(v);
}

static json_int_t
int_at(json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);

	ck_assert_msg(json_is_integer(v), "\"%s\" is not an integer", key);
	return json_integer_value(v);
}

static double
real_at(json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);

	ck_assert_msg(json_is_real(v), "\"%s\" is not a real", key);
	return json_real_value(v);
}

static void
strings_are(json_t *arr, const char *const *want)
{
	size_t i;

	ck_assert(json_is_array(arr));
	for (i = 0; want[i] != NULL; i++) {
		ck_assert_msg(i < json_array_size(arr), "only %zu", i);
		ck_assert_str_eq(json_string_value(json_array_get(arr, i)),
		    want[i]);
	}
	ck_assert_uint_eq(json_array_size(arr), i);
}

/* ---- the record ------------------------------------------------------------- */

START_TEST(test_record_fields)
{
	json_t *obj, *j;
	struct fix x;
	char *line;

	fix_init(&x, plain_argv, true);
	j = audit_build(&x.in);
	line = audit_format(j, GX_ZERO_HASH);
	json_decref(j);
	obj = check_line(line, GX_ZERO_HASH);

	ck_assert_int_eq(int_at(obj, "v"), 1);
	is_hex(str_at(obj, "id"), 32);
	ck_assert_str_eq(str_at(obj, "start"), "2026-11-29T08:50:11.123456Z");
	ck_assert_str_eq(str_at(obj, "end"), "2026-11-29T08:50:12.000000Z");
	ck_assert_double_eq(real_at(obj, "duration_ms"), 876.5);
	ck_assert(json_is_string(json_object_get(obj, "host")));
	ck_assert_int_eq(int_at(obj, "uid"), getuid());
	j = json_object_get(obj, "user");
	ck_assert(json_is_string(j) || json_is_null(j));
	ck_assert_int_eq(int_at(obj, "pid"), getpid());
	ck_assert_str_eq(str_at(obj, "cwd"), "/home/alice/repo");
	strings_are(json_object_get(obj, "argv"),
	    (const char *[]){ "rm", "-rf", "/", NULL });
	ck_assert_ptr_null(json_object_get(obj, "argv_hex"));

	j = json_object_get(obj, "policy");
	ck_assert_str_eq(str_at(j, "name"), "agent");
	ck_assert_str_eq(str_at(j, "path"), "/etc/guardexec/agent.cfg");
	ck_assert_str_eq(str_at(j, "sha256"), policy_sha);

	/* names only, never values */
	j = json_object_get(obj, "env");
	strings_are(json_object_get(j, "passed"),
	    (const char *[]){ "HOME", "LANG", "LC_ALL", NULL });
	strings_are(json_object_get(j, "dropped"),
	    (const char *[]){ "AWS_SECRET_ACCESS_KEY", NULL });
	ck_assert_ptr_null(strstr(line, "s3cr3t"));
	ck_assert_ptr_null(strstr(line, "C.UTF-8"));

	j = json_array_get(json_object_get(obj, "advisory"), 0);
	ck_assert_uint_eq(json_array_size(json_object_get(obj, "advisory")), 1);
	ck_assert_str_eq(str_at(j, "rule"), "rm -rf /");
	ck_assert_str_eq(str_at(j, "reason"), "root");
	ck_assert(json_is_false(json_object_get(j, "enforced")));

	ck_assert_str_eq(str_at(obj, "status"), "signaled");
	ck_assert_int_eq(int_at(obj, "exit_code"), 137);
	ck_assert_int_eq(int_at(obj, "signal"), SIGKILL);
	ck_assert(json_is_false(json_object_get(obj, "timed_out")));
	ck_assert_int_eq(int_at(obj, "stdout_bytes"), 5);
	ck_assert_int_eq(int_at(obj, "stderr_bytes"), 7);
	ck_assert(json_is_true(json_object_get(obj, "truncated")));

	j = json_object_get(obj, "seccomp");
	ck_assert_str_eq(str_at(j, "action"), "errno");
	ck_assert_str_eq(str_at(j, "reporting"), "notify");
	ck_assert_uint_eq(json_array_size(json_object_get(j, "denied")), 2);
	ck_assert_str_eq(str_at(json_array_get(json_object_get(j, "denied"), 0),
	    "syscall"), "ptrace");
	ck_assert_int_eq(int_at(json_array_get(json_object_get(j, "denied"), 0),
	    "count"), 1);
	ck_assert_str_eq(str_at(json_array_get(json_object_get(j, "denied"), 1),
	    "syscall"), "mount");
	ck_assert_int_eq(int_at(json_array_get(json_object_get(j, "denied"), 1),
	    "count"), 3);
	ck_assert_ptr_null(json_object_get(j, "denied_truncated"));

	j = json_object_get(obj, "rusage");
	ck_assert_double_eq(real_at(j, "user_ms"), 1500.0);
	ck_assert_double_eq(real_at(j, "sys_ms"), 2.0);
	ck_assert_int_eq(int_at(j, "max_rss_kb"), 1234);
	ck_assert_str_eq(str_at(obj, "limit_hit"), "memory");
	j = json_object_get(obj, "limits_hit");
	ck_assert_int_eq(json_array_size(j), 2);
	ck_assert_str_eq(json_string_value(json_array_get(j, 0)), "memory");
	ck_assert_str_eq(json_string_value(json_array_get(j, 1)), "output");

	j = json_object_get(obj, "isolation");
	ck_assert_str_eq(str_at(j, "filesystem"), "landlock-4");
	ck_assert_str_eq(str_at(j, "network"), "netns");
	ck_assert(json_is_null(json_object_get(j, "cgroup")));
	ck_assert_str_eq(str_at(j, "user"), "nobody");

	strings_are(json_object_get(obj, "signals_received"),
	    (const char *[]){ "SIGTERM", NULL });
	ck_assert(json_is_true(json_object_get(obj, "left_running")));
	ck_assert_str_eq(json_object_iter_key(json_object_iter(obj)), "v");

	json_decref(obj);
	free(line);
	fix_free(&x);
}
END_TEST

/* Refused before the run: no outcome, no policy. */
START_TEST(test_record_refused)
{
	struct gx_record_in in = { 0 };
	char *argv[] = { "true", NULL };
	json_t *rec, *obj, *j;
	char *line;

	in.argv = argv;
	in.cwd = "/";
	in.policy_path = "bad.cfg";
	in.error = "bad.cfg:3: limits.memory: expected a size";
	rec = audit_build(&in);
	line = audit_format(rec, GX_ZERO_HASH);
	obj = check_line(line, GX_ZERO_HASH);
	ck_assert_str_eq(str_at(obj, "status"), "refused");
	ck_assert_int_eq(int_at(obj, "exit_code"), 125);
	ck_assert(json_is_null(json_object_get(obj, "signal")));
	ck_assert(json_is_null(json_object_get(obj, "exec")));
	ck_assert(json_is_null(json_object_get(obj, "limit_hit")));
	ck_assert(json_is_false(json_object_get(obj, "timed_out")));
	ck_assert_ptr_null(json_object_get(obj, "signals_received"));
	j = json_object_get(obj, "policy");
	ck_assert(json_is_null(json_object_get(j, "name")));
	ck_assert_str_eq(str_at(j, "path"), "bad.cfg");
	ck_assert(json_is_null(json_object_get(j, "sha256")));
	j = json_object_get(obj, "env");
	ck_assert_uint_eq(json_array_size(json_object_get(j, "passed")), 0);
	ck_assert_uint_eq(json_array_size(json_object_get(j, "dropped")), 0);
	j = json_object_get(obj, "seccomp");
	ck_assert(json_is_null(json_object_get(j, "action")));
	ck_assert_uint_eq(json_array_size(json_object_get(j, "denied")), 0);
	ck_assert_str_eq(str_at(j, "reporting"), "off");
	ck_assert_str_eq(str_at(obj, "error"), in.error);
	/* start and end are now */
	ck_assert_uint_eq(strlen(str_at(obj, "start")), 27);
	json_decref(obj);
	json_decref(rec);
	free(line);
}
END_TEST

/* --learn: the syscalls are "used", not "denied". */
START_TEST(test_record_learn)
{
	json_t *rec, *obj, *j;
	struct fix x;
	char *line;

	fix_init(&x, plain_argv, true);
	x.in.learn = true;
	x.out.denied_overflow = true;
	rec = audit_build(&x.in);
	line = audit_format(rec, GX_ZERO_HASH);
	obj = check_line(line, GX_ZERO_HASH);
	j = json_object_get(obj, "seccomp");
	ck_assert_str_eq(str_at(j, "action"), "learn");
	ck_assert_uint_eq(json_array_size(json_object_get(j, "used")), 2);
	ck_assert_uint_eq(json_array_size(json_object_get(j, "denied")), 0);
	ck_assert(json_is_true(json_object_get(j, "denied_truncated")));
	json_decref(obj);
	json_decref(rec);
	free(line);
	fix_free(&x);
}
END_TEST

/* Two records never share an id. */
START_TEST(test_record_ids)
{
	json_t *a = plain_record(), *b = plain_record();

	ck_assert_str_ne(json_string_value(json_object_get(a, "id")),
	    json_string_value(json_object_get(b, "id")));
	json_decref(a);
	json_decref(b);
}
END_TEST

/* No byte of an argument can break or forge a line. */
static char *const evil_argv[] = {
	"a\nb",
	"q\"uote\\",
	"\x01\x1f\x7f\x1b[31m",
	"%n%s%x",
	"\xff\xfe",
	"ok\xc3",
	"\xc3\xa9t\xc3\xa9",
	"\xe2\x80\xa8",                         /* U+2028 */
	",\"hash\":\"",
	"}\n{\"v\":1,\"prev\":\"0\"}",
	"\r\n",
	"",
	NULL
};

START_TEST(test_record_evil_argv)
{
	json_t *rec, *obj, *argv, *hex;
	struct fix x;
	char *line;

	fix_init(&x, evil_argv, true);
	x.in.cwd = "/tmp/\xff";
	rec = audit_build(&x.in);
	line = audit_format(rec, GX_ZERO_HASH);
	obj = check_line(line, GX_ZERO_HASH);
	ck_assert_ptr_eq(strchr(line, '\n'), line + strlen(line) - 1);

	argv = json_object_get(obj, "argv");
	ck_assert_uint_eq(json_array_size(argv), 12);
	for (size_t i = 0; evil_argv[i] != NULL; i++) {
		const char *got = json_string_value(json_array_get(argv, i));

		if (i == 4)
			ck_assert_str_eq(got, "\xef\xbf\xbd\xef\xbf\xbd");
		else if (i == 5)
			ck_assert_str_eq(got, "ok\xef\xbf\xbd");
		else
			ck_assert_str_eq(got, evil_argv[i]);
	}
	/* the exact bytes of the arguments that are not UTF-8 */
	hex = json_object_get(obj, "argv_hex");
	ck_assert(json_is_object(hex));
	ck_assert_uint_eq(json_object_size(hex), 2);
	ck_assert_str_eq(str_at(hex, "4"), "fffe");
	ck_assert_str_eq(str_at(hex, "5"), "6f6bc3");
	ck_assert_str_eq(str_at(obj, "cwd"), "/tmp/\xef\xbf\xbd");
	ck_assert_str_eq(str_at(obj, "cwd_hex"), "2f746d702fff");

	json_decref(obj);
	json_decref(rec);
	free(line);
	fix_free(&x);
}
END_TEST

/* Editing any one byte of a line is detected. */
START_TEST(test_check_line_edits)
{
	char prev[65], hash[65], *line;
	const char *why;
	json_t *rec = plain_record();
	size_t len;

	line = audit_format(rec, GX_ZERO_HASH);
	len = strlen(line) - 1;
	ck_assert_int_eq(audit_check_line(line, len, prev, hash, &why), 0);
	for (size_t i = 0; i < len; i++) {
		char c = line[i];

		line[i] = c == 'a' ? 'b' : 'a';
		why = NULL;
		ck_assert_msg(audit_check_line(line, len, prev, hash, &why) == -1,
		    "editing byte %zu ('%c') went unnoticed", i, c);
		ck_assert_ptr_nonnull(why);
		line[i] = c;
	}
	/* a byte more or less */
	ck_assert_int_eq(audit_check_line(line, len - 1, prev, hash, &why), -1);
	line[len] = ' ';
	ck_assert_int_eq(audit_check_line(line, len + 1, prev, hash, &why), -1);
	ck_assert_int_eq(audit_check_line("", 0, prev, hash, &why), -1);
	ck_assert_int_eq(audit_check_line("{}", 2, prev, hash, &why), -1);
	free(line);
	json_decref(rec);
}
END_TEST

/* Re-hashed forgeries: an extra key after "hash", a duplicate key. */
START_TEST(test_check_line_forged)
{
	char h[SHA256_DIGEST_STRING_LENGTH], prev[65], hash[65];
	const char *why, *k;
	char *line, *body, *forged;
	json_t *rec = plain_record();

	line = audit_format(rec, GX_ZERO_HASH);
	k = last_hash_key(line);

	/* {"hash":"0...0", <the record>,"hash":"<correct for these bytes>"} */
	body = xasprintf("{\"hash\":\"%s\",%.*s", GX_ZERO_HASH,
	    (int)(k - line - 1), line + 1);
	SHA256Data((const uint8_t *)body, strlen(body), h);
	forged = xasprintf("%s" HASH_KEY "%s\"}", body, h);
	ck_assert_int_eq(audit_check_line(forged, strlen(forged), prev, hash,
	    &why), -1);
	free(forged);
	free(body);

	/* a "hash" that is not the last key */
	forged = xasprintf("%.*s,\"x\":1}", (int)(strlen(line) - 2), line);
	ck_assert_int_eq(audit_check_line(forged, strlen(forged), prev, hash,
	    &why), -1);
	free(forged);

	/* no "prev" */
	body = xstrdup("{\"v\":1");
	SHA256Data((const uint8_t *)body, strlen(body), h);
	forged = xasprintf("%s" HASH_KEY "%s\"}", body, h);
	ck_assert_int_eq(audit_check_line(forged, strlen(forged), prev, hash,
	    &why), -1);
	free(forged);
	free(body);

	/* a well-formed minimal line passes: the check is the format's */
	body = xasprintf("{\"v\":1,\"prev\":\"%s\"", GX_ZERO_HASH);
	SHA256Data((const uint8_t *)body, strlen(body), h);
	forged = xasprintf("%s" HASH_KEY "%s\"}", body, h);
	ck_assert_int_eq(audit_check_line(forged, strlen(forged), prev, hash,
	    &why), 0);
	ck_assert_str_eq(hash, h);
	free(forged);
	free(body);
	free(line);
	json_decref(rec);
}
END_TEST

/* Formatting again replaces "prev" and "hash"; nothing doubles. */
START_TEST(test_format_twice)
{
	static const char other[] =
	    "abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789";
	json_t *rec = plain_record(), *obj;
	char *a, *b;

	a = audit_format(rec, GX_ZERO_HASH);
	b = audit_format(rec, other);
	obj = check_line(b, other);
	json_decref(obj);
	obj = check_line(a, GX_ZERO_HASH);
	json_decref(obj);
	ck_assert_str_ne(a, b);
	free(a);
	free(b);
	json_decref(rec);
}
END_TEST

/* ---- the local log ------------------------------------------------------- */

static char *
tmp_path(const char *name)
{
	return xasprintf("%s/%s", unit_tmpdir, name);
}

static char *
slurp(const char *path, size_t *len)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = fopen(path, "re");
	int c;

	ck_assert_msg(f != NULL, "%s: %s", path, strerror(errno));
	buf = xmalloc(1 << 20);
	while ((c = fgetc(f)) != EOF && n < (1 << 20) - 1)
		buf[n++] = (char)c;
	buf[n] = '\0';
	fclose(f);
	if (len)
		*len = n;
	return buf;
}

static void
spit(const char *path, const char *text)
{
	FILE *f = fopen(path, "we");

	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
}

/* Append one plain record; returns the line (caller frees). */
static char *
append_one(struct gx_log *log)
{
	struct gx_diag d = { 0 };
	json_t *rec = plain_record();
	char *line = NULL;

	if (audit_log_append(log, rec, true, &line, &d) != 0)
		ck_abort_msg("append: %s", d.msgs[0]);
	ck_assert_ptr_nonnull(line);
	json_decref(rec);
	return line;
}

/* audit_log_open() that must succeed. */
static void
log_open_ok(struct gx_log *log, const char *path, bool make_dirs)
{
	struct gx_diag d = { 0 };

	if (audit_log_open(log, path, make_dirs, &d) != 0)
		ck_abort_msg("%s: %s", path, d.msgs[0]);
}

/* Open the log @path, append one plain record, close it; the line. */
static char *
append_to(const char *path)
{
	struct gx_log log;
	char *line;

	log_open_ok(&log, path, false);
	line = append_one(&log);
	audit_log_close(&log);
	return line;
}

/*
 * Every line of @path checks on its own and chains to the one before;
 * returns the number of lines.  @restart_at (or -1): the line that
 * starts a new segment.
 */
static size_t
verify_chain(const char *path, long restart_at)
{
	char prev[65] = GX_ZERO_HASH, p[65], h[65];
	char *buf = slurp(path, NULL), *line, *save = NULL;
	const char *why;
	size_t n = 0;

	for (line = strtok_r(buf, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save), n++) {
		ck_assert_msg(audit_check_line(line, strlen(line), p, h, &why)
		    == 0, "line %zu: %s", n + 1, why);
		if ((long)n == restart_at)
			ck_assert_str_eq(p, GX_ZERO_HASH);
		else
			ck_assert_msg(strcmp(p, prev) == 0, "line %zu: prev "
			    "%s, want %s", n + 1, p, prev);
		memcpy(prev, h, sizeof(prev));
	}
	free(buf);
	return n;
}

START_TEST(test_log_chain)
{
	char *path = tmp_path("chain.log"), *lines[3], *all, *file;
	struct gx_log log;
	struct stat st;
	json_t *obj;

	log_open_ok(&log, path, false);
	ck_assert_int_eq(fstat(log.fd, &st), 0);
	ck_assert_uint_eq(st.st_mode & 07777, 0600);
	ck_assert_int_eq(fcntl(log.fd, F_GETFD) & FD_CLOEXEC, FD_CLOEXEC);
	ck_assert_int_eq(fcntl(log.fd, F_GETFL) & O_APPEND, O_APPEND);
	for (int i = 0; i < 3; i++)
		lines[i] = append_one(&log);
	audit_log_close(&log);

	obj = check_line(lines[0], GX_ZERO_HASH);
	for (int i = 1; i < 3; i++) {
		char want[65];

		snprintf(want, sizeof(want), "%s",
		    json_string_value(json_object_get(obj, "hash")));
		json_decref(obj);
		obj = check_line(lines[i], want);
	}
	json_decref(obj);
	/* the file holds exactly the lines returned */
	all = xasprintf("%s%s%s", lines[0], lines[1], lines[2]);
	file = slurp(path, NULL);
	ck_assert_str_eq(file, all);
	ck_assert_uint_eq(verify_chain(path, -1), 3);
	/* the head anchor holds the last hash */
	{
		char head[65];

		ck_assert_int_eq(audit_head_read(path, head), 0);
		ck_assert_mem_eq(head, audit_line_hash(lines[2], strlen(lines[2])), 64);
	}

	/* reopened later, the log goes on from its last line */
	free(append_to(path));
	ck_assert_uint_eq(verify_chain(path, -1), 4);

	for (int i = 0; i < 3; i++)
		free(lines[i]);
	free(all);
	free(file);
	free(path);
}
END_TEST

START_TEST(test_log_symlink)
{
	char *target = tmp_path("target"), *link_ = tmp_path("link.log"),
	    *dangling = tmp_path("dangling.log"), *nowhere, *want, *got;
	struct gx_diag d = { 0 };
	struct gx_log log;
	struct stat st;

	spit(target, "ORIGINAL\n");
	ck_assert_int_eq(symlink(target, link_), 0);
	errno = 0;
	ck_assert_int_eq(audit_log_open(&log, link_, false, &d), -1);
	ck_assert_int_eq(errno, ELOOP);
	ck_assert_int_eq(log.fd, -1);
	ck_assert_uint_eq(d.n, 1);
	want = xasprintf("audit log %s: is a symbolic link (refused)", link_);
	ck_assert_str_eq(d.msgs[0], want);
	audit_log_close(&log);
	diag_free(&d);
	got = slurp(target, NULL);
	ck_assert_str_eq(got, "ORIGINAL\n");
	free(got);
	free(want);

	/* a dangling link creates nothing behind it */
	nowhere = tmp_path("nowhere");
	ck_assert_int_eq(symlink(nowhere, dangling), 0);
	errno = 0;
	ck_assert_int_eq(audit_log_open(&log, dangling, false, &d), -1);
	ck_assert_int_eq(errno, ELOOP);
	ck_assert_int_eq(lstat(nowhere, &st), -1);
	audit_log_close(&log);
	diag_free(&d);

	free(nowhere);
	free(dangling);
	free(link_);
	free(target);
}
END_TEST

/* A crash mid-write left a torn line: the next record restarts the chain. */
START_TEST(test_log_torn)
{
	char *path = tmp_path("torn.log"), *first, *restart, *after, *buf,
	    *want;
	struct gx_log log;
	json_t *obj;
	int fd;

	log_open_ok(&log, path, false);
	first = append_one(&log);
	fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, "{\"v\":1,\"id\":\"ab", 15), 15);
	close(fd);

	restart = append_one(&log);
	obj = check_line(restart, GX_ZERO_HASH);
	ck_assert(json_is_string(json_object_get(obj, "chain_restart")));
	json_decref(obj);

	/* the one after chains normally again */
	after = append_one(&log);
	ck_assert_ptr_null(strstr(after, "chain_restart"));
	audit_log_close(&log);

	/* the torn line was ended, so the new record stands on its own */
	buf = slurp(path, NULL);
	want = xasprintf("%s{\"v\":1,\"id\":\"ab\n%s%s", first, restart,
	    after);
	ck_assert_str_eq(buf, want);
	free(buf);
	free(want);
	free(first);
	free(restart);
	free(after);
	free(path);
}
END_TEST

/* An empty log after rotation goes on from "<log>.1". */
START_TEST(test_log_rotated)
{
	char *old = tmp_path("rot.log.1"), *path = tmp_path("rot.log"),
	    *bad_old = tmp_path("rotbad.log.1"), *bad = tmp_path("rotbad.log"),
	    *first, *next, head[65];
	json_t *obj;

	first = append_to(old);
	/* logrotate moved it away and left an empty log */
	spit(path, "");
	next = append_to(path);
	memcpy(head, audit_line_hash(first, strlen(first)), 64);
	head[64] = '\0';
	obj = check_line(next, head);
	ck_assert_ptr_null(json_object_get(obj, "chain_restart"));
	json_decref(obj);
	free(next);

	/* a predecessor whose tail is not a record: a new segment */
	spit(bad_old, "not a record\n");
	next = append_to(bad);
	obj = check_line(next, GX_ZERO_HASH);
	ck_assert(json_is_string(json_object_get(obj, "chain_restart")));
	json_decref(obj);

	free(next);
	free(first);
	free(bad);
	free(bad_old);
	free(path);
	free(old);
}
END_TEST

/*
 * A last line that is complete but not a record also restarts; an empty
 * file is a new chain, not a restart.
 */
START_TEST(test_log_foreign_tail)
{
	static const struct {
		const char *tail;
		bool restart;
	} tails[] = {
		{ "hello\n", true },
		{ "x\n", true },
		{ ("{\"v\":1,\"prev\":\"0\",\"hash\":\"not hex at all, but of "
		  "the right length for a hash: 64 characters....\"}\n"), true },
		{ "", false },
	};

	for (size_t i = 0; i < sizeof(tails) / sizeof(tails[0]); i++) {
		char name[32], *path, *line;
		json_t *obj;

		snprintf(name, sizeof(name), "foreign%zu.log", i);
		path = tmp_path(name);
		spit(path, tails[i].tail);
		line = append_to(path);
		obj = check_line(line, GX_ZERO_HASH);
		ck_assert_msg((json_object_get(obj, "chain_restart") != NULL) ==
		    tails[i].restart, "tail %zu: chain_restart %s", i,
		    tails[i].restart ? "missing" : "where none belongs");
		json_decref(obj);
		free(line);
		free(path);
	}
}
END_TEST

START_TEST(test_log_open_dirs)
{
	char *one = tmp_path("new/a.log"), *deep = tmp_path("x/y/z/a.log"),
	    *dir = tmp_path("new"), *want;
	struct gx_diag d = { 0 };
	struct gx_log log;
	struct stat st;

	/* a missing directory is created 0700 when its parent exists */
	log_open_ok(&log, one, false);
	audit_log_close(&log);
	ck_assert_int_eq(stat(dir, &st), 0);
	ck_assert(S_ISDIR(st.st_mode));
	ck_assert_uint_eq(st.st_mode & 07777, 0700);

	/* several only when asked to */
	ck_assert_int_eq(audit_log_open(&log, deep, false, &d), -1);
	want = xasprintf("audit log %s: creating its directory: No such file "
	    "or directory", deep);
	ck_assert_str_eq(d.msgs[0], want);
	audit_log_close(&log);
	diag_free(&d);
	log_open_ok(&log, deep, true);
	audit_log_close(&log);
	ck_assert_int_eq(stat(deep, &st), 0);
	ck_assert(S_ISREG(st.st_mode));

	/* not a regular file */
	errno = 0;
	ck_assert_int_eq(audit_log_open(&log, "/dev/null", false, &d), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_str_eq(d.msgs[0], "audit log /dev/null: not a regular file");
	audit_log_close(&log);
	diag_free(&d);
	ck_assert_int_eq(audit_log_open(&log, unit_tmpdir, false, &d), -1);
	audit_log_close(&log);
	diag_free(&d);

	free(want);
	free(dir);
	free(deep);
	free(one);
}
END_TEST

/* Concurrent appenders never interleave, lose or break the chain. */
START_TEST(test_log_concurrent)
{
	enum { WRITERS = 4, EACH = 25 };
	char *path = tmp_path("concurrent.log");
	pid_t pids[WRITERS];
	int status;

	for (int w = 0; w < WRITERS; w++) {
		pids[w] = fork();
		ck_assert_int_ge(pids[w], 0);
		if (pids[w] == 0) {
			struct gx_diag d = { 0 };
			struct gx_log log;

			if (audit_log_open(&log, path, false, &d) != 0)
				_exit(1);
			for (int i = 0; i < EACH; i++) {
				json_t *rec = plain_record();
				char *line;

				if (audit_log_append(&log, rec, false, &line,
				    &d) != 0)
					_exit(2);
				free(line);
				json_decref(rec);
			}
			audit_log_close(&log);
			_exit(0);
		}
	}
	for (int w = 0; w < WRITERS; w++) {
		ck_assert_int_eq(waitpid(pids[w], &status, 0), pids[w]);
		ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		    "writer %d: status 0x%x", w, status);
	}
	ck_assert_uint_eq(verify_chain(path, -1), WRITERS * EACH);
	free(path);
}
END_TEST

/* ---- audit_compact (syslog) ---------------------------------------------- */

#define SYSLOG_MAX (4096 - 8)

static json_t *
parse_compact(const char *text, size_t max)
{
	json_error_t jerr;
	json_t *obj;

	ck_assert_msg(strlen(text) <= max, "%zu bytes", strlen(text));
	ck_assert_ptr_null(strchr(text, '\n'));
	obj = json_loads(text, JSON_REJECT_DUPLICATES, &jerr);
	ck_assert_msg(obj != NULL, "not JSON: %s", jerr.text);
	return obj;
}

START_TEST(test_compact_huge_argv)
{
	enum { ARGS = 10000, ARGLEN = 1000 };
	char **argv = xcalloc(ARGS + 1, sizeof(*argv));
	json_t *rec, *obj, *a;
	struct fix x;
	char *text;

	for (size_t i = 0; i < ARGS; i++) {
		argv[i] = xmalloc(ARGLEN + 1);
		memset(argv[i], 'a' + (int)(i % 26), ARGLEN);
		argv[i][ARGLEN] = '\0';
	}
	argv[1][0] = '\xff';            /* and an argv_hex too */
	fix_init(&x, argv, true);
	rec = audit_build(&x.in);
	text = audit_compact(rec, SYSLOG_MAX);
	obj = parse_compact(text, SYSLOG_MAX);
	ck_assert(json_is_true(json_object_get(obj, "compacted")));
	ck_assert(json_is_true(json_object_get(obj, "syslog_truncated")));
	ck_assert_str_eq(str_at(obj, "id"), str_at(rec, "id"));
	ck_assert_str_eq(str_at(obj, "status"), "signaled");
	a = json_object_get(obj, "argv");
	if (a != NULL) {
		/* shortened, and it says how much is missing */
		ck_assert_uint_lt(json_array_size(a), ARGS);
		ck_assert(strncmp(json_string_value(json_array_get(a,
		    json_array_size(a) - 1)), "...(", 4) == 0);
	}
	ck_assert_ptr_null(json_object_get(obj, "argv_hex"));
	/* the record itself is untouched */
	ck_assert_uint_eq(json_array_size(json_object_get(rec, "argv")), ARGS);
	json_decref(obj);
	free(text);
	json_decref(rec);
	fix_free(&x);
	for (size_t i = 0; i < ARGS; i++)
		free(argv[i]);
	free(argv);
}
END_TEST

START_TEST(test_compact_small)
{
	json_t *rec = plain_record(), *obj;
	char *text;

	/* small enough: the record as it is */
	text = audit_compact(rec, SYSLOG_MAX);
	obj = parse_compact(text, SYSLOG_MAX);
	ck_assert_ptr_null(json_object_get(obj, "compacted"));
	ck_assert_ptr_null(json_object_get(obj, "syslog_truncated"));
	ck_assert(json_equal(obj, rec));
	json_decref(obj);
	free(text);
	json_decref(rec);
}
END_TEST

/*
 * Filesystem denials (fswatch.h): each by path, access and rule, a
 * non-UTF-8 path also in hex; many long ones still fit syslog's copy.
 */
START_TEST(test_filesystem_denials)
{
	enum { N = 200 };
	json_t *rec, *obj, *fs, *d;
	char *notices[N + 1] = { NULL }, *text;
	struct fix x;

	fix_init(&x, plain_argv, true);
	x.pol.has_filesystem = true;
	strlcpy(x.out.fs_reporting, "learn", sizeof(x.out.fs_reporting));
	x.out.fs_denied = xcalloc(N, sizeof(*x.out.fs_denied));
	for (size_t i = 0; i < N; i++) {
		struct gx_fsdenial *fd = &x.out.fs_denied[i];

		fd->path = xasprintf("/home/alice/%0300zu", i);
		fd->write = i % 2;
		fd->count = i + 1;
		strlcpy(fd->syscall, "openat", sizeof(fd->syscall));
		notices[i] = xasprintf("filesystem: %s is outside x", fd->path);
	}
	x.out.fs_denied[0].path[1] = '\xff';
	x.out.n_fs_denied = N;
	x.in.notices = notices;
	rec = audit_build(&x.in);
	fs = json_object_get(rec, "filesystem");
	ck_assert_ptr_nonnull(fs);
	ck_assert_str_eq(str_at(fs, "observed"), "learn");
	ck_assert_uint_eq(json_array_size(json_object_get(fs, "paths")), N);
	d = json_array_get(json_object_get(fs, "paths"), 1);
	ck_assert_str_eq(str_at(d, "access"), "write");
	ck_assert_str_eq(str_at(d, "rule"), "filesystem.write");
	ck_assert_str_eq(str_at(d, "syscall"), "openat");
	ck_assert_int_eq(json_integer_value(json_object_get(d, "count")), 2);
	d = json_array_get(json_object_get(fs, "paths"), 0);
	ck_assert_str_eq(str_at(d, "access"), "read");
	ck_assert(strncmp(str_at(d, "path_hex"), "2fff", 4) == 0);
	text = audit_compact(rec, SYSLOG_MAX);
	obj = parse_compact(text, SYSLOG_MAX);
	ck_assert_str_eq(str_at(obj, "id"), str_at(rec, "id"));
	ck_assert_ptr_nonnull(json_object_get(obj, "filesystem"));
	json_decref(obj);
	free(text);
	json_decref(rec);
	for (size_t i = 0; i < N; i++) {
		free(x.out.fs_denied[i].path);
		free(notices[i]);
	}
	free(x.out.fs_denied);
	fix_free(&x);
}
END_TEST

/* Too long whatever argv holds (a huge cwd, error): the essentials. */
START_TEST(test_compact_essentials)
{
	char *cwd = xmalloc(20001), *text;
	json_t *rec, *obj;
	struct fix x;

	memset(cwd, 'c', 20000);
	cwd[0] = '/';
	cwd[20000] = '\0';
	fix_init(&x, plain_argv, true);
	x.in.cwd = cwd;
	x.in.error = cwd;
	rec = audit_build(&x.in);
	text = audit_compact(rec, SYSLOG_MAX);
	obj = parse_compact(text, SYSLOG_MAX);
	ck_assert(json_is_true(json_object_get(obj, "compacted")));
	ck_assert(json_is_true(json_object_get(obj, "syslog_truncated")));
	ck_assert_str_eq(str_at(obj, "id"), str_at(rec, "id"));
	ck_assert_int_eq(int_at(obj, "exit_code"), 137);
	json_decref(obj);
	free(text);
	json_decref(rec);
	fix_free(&x);
	free(cwd);
}
END_TEST

/* Multi-byte arguments cut short stay valid UTF-8 and JSON. */
START_TEST(test_compact_utf8)
{
	enum { ARGS = 200, CHARS = 400 };
	char **argv = xcalloc(ARGS + 1, sizeof(*argv));
	json_t *rec, *obj;
	struct fix x;
	char *text;

	for (size_t i = 0; i < ARGS; i++) {
		argv[i] = xmalloc(3 * CHARS + 1);
		for (size_t k = 0; k < CHARS; k++)
			memcpy(argv[i] + 3 * k, "\xe2\x82\xac", 3);   /* U+20AC */
		argv[i][3 * CHARS] = '\0';
	}
	fix_init(&x, argv, true);
	rec = audit_build(&x.in);
	text = audit_compact(rec, SYSLOG_MAX);
	obj = parse_compact(text, SYSLOG_MAX);
	ck_assert(utf8_valid(text, strlen(text)));
	json_decref(obj);
	free(text);
	json_decref(rec);
	fix_free(&x);
	for (size_t i = 0; i < ARGS; i++)
		free(argv[i]);
	free(argv);
}
END_TEST

/* ---- the library's edges ------------------------------------------------- */

/* audit_line_hash finds the hash the line ends with, newline or not. */
START_TEST(test_line_hash)
{
	static char *const av[] = { "true", NULL };
	struct gx_record_in in = { .argv = av, .cwd = "/" };
	json_t *rec = audit_build(&in);
	char *line = audit_format(rec, GX_ZERO_HASH), prev[65], hash[65];
	const char *why = NULL;
	size_t n = strlen(line);

	ck_assert_int_eq(audit_check_line(line, n - 1, prev, hash, &why), 0);
	ck_assert_mem_eq(audit_line_hash(line, n), hash, 64);
	ck_assert_mem_eq(audit_line_hash(line, n - 1), hash, 64);
	ck_assert(audit_ends_in_hash(line, n - 1, prev));
	ck_assert_str_eq(prev, hash);
	free(line);
	json_decref(rec);
}
END_TEST

/*
 * guardexec-audit links this library: a die() in it (running out of
 * memory) must keep the tool's exit status 2 and name the tool.
 */
START_TEST(test_die_as_audit_tool)
{
	log_set_program("guardexec-audit", 2);
	die("out of memory (json)");
}
END_TEST

/* The head anchor reader returns errors, never exits. */
START_TEST(test_head_read_errors)
{
	char hash[65];

	errno = 0;
	ck_assert_int_eq(audit_head_read("/nonexistent/dir/audit.log", hash),
	    -1);
	ck_assert_int_eq(errno, ENOENT);
}
END_TEST

Suite *
audit_suite(void)
{
	Suite *s = suite_create("audit");
	TCase *tc;

	tc = tcase_create("record");
	tcase_set_timeout(tc, 20);
	tcase_add_test(tc, test_record_fields);
	tcase_add_test(tc, test_record_refused);
	tcase_add_test(tc, test_record_learn);
	tcase_add_test(tc, test_record_ids);
	tcase_add_test(tc, test_record_evil_argv);
	tcase_add_test(tc, test_check_line_edits);
	tcase_add_test(tc, test_check_line_forged);
	tcase_add_test(tc, test_format_twice);
	suite_add_tcase(s, tc);

	tc = tcase_create("log");
	tcase_set_timeout(tc, 60);
	tcase_add_unchecked_fixture(tc, unit_tmp_setup, unit_tmp_teardown);
	tcase_add_test(tc, test_log_chain);
	tcase_add_test(tc, test_log_symlink);
	tcase_add_test(tc, test_log_torn);
	tcase_add_test(tc, test_log_foreign_tail);
	tcase_add_test(tc, test_log_rotated);
	tcase_add_test(tc, test_log_open_dirs);
	tcase_add_test(tc, test_log_concurrent);
	suite_add_tcase(s, tc);

	tc = tcase_create("compact");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_compact_huge_argv);
	tcase_add_test(tc, test_compact_small);
	tcase_add_test(tc, test_compact_essentials);
	tcase_add_test(tc, test_filesystem_denials);
	tcase_add_test(tc, test_compact_utf8);
	suite_add_tcase(s, tc);

	tc = tcase_create("library");
	tcase_add_test(tc, test_line_hash);
	tcase_add_exit_test(tc, test_die_as_audit_tool, 2);
	tcase_add_test(tc, test_head_read_errors);
	suite_add_tcase(s, tc);
	return s;
}

UNIT_MAIN(audit_suite)
