/* SPDX-License-Identifier: ISC */
/* The audit record: built once from a run, compacted for syslog. */
#include "config.h"

#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <syslog.h>
#include <unistd.h>

#include "log.h"
#include "record.h"
#include "env.h"
#include "policy.h"
#include "outcome.h"
#include "util.h"

/* As audit_format writes the record (chain.c). */
#define DUMP_FLAGS \
	(JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10))

static json_t *
xjson(json_t *j)
{
	if (j == NULL)
		die("out of memory (json)");
	return j;
}

static void
set(json_t *obj, const char *key, json_t *val)
{
	if (json_object_set_new(obj, key, xjson(val)) < 0)
		die("out of memory (json)");
}

/* A JSON string of @s; invalid UTF-8 bytes become U+FFFD. */
static json_t *
str_lossy(const char *s, bool *lossy)
{
	size_t n = strlen(s), o = 0;
	char *buf;
	json_t *j;

	if (lossy)
		*lossy = false;
	if (utf8_valid(s, n))
		return xjson(json_stringn(s, n));
	if (lossy)
		*lossy = true;
	buf = xmalloc(n * 3 + 1);
	for (size_t i = 0; i < n; ) {
		unsigned char c = (unsigned char)s[i];
		size_t len = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 :
		    (c & 0xf0) == 0xe0 ? 3 : (c & 0xf8) == 0xf0 ? 4 : 0;

		if (len > 0 && i + len <= n && utf8_valid(s + i, len)) {
			memcpy(buf + o, s + i, len);
			o += len;
			i += len;
		} else {
			memcpy(buf + o, "\xef\xbf\xbd", 3);
			o += 3;
			i++;
		}
	}
	j = xjson(json_stringn(buf, o));
	free(buf);
	return j;
}

static json_t *
str_or_null(const char *s)
{
	return s ? str_lossy(s, NULL) : json_null();
}

static json_t *
hex_of(const char *s)
{
	size_t n = strlen(s);
	char *h = xmalloc(2 * n + 1);
	json_t *j;

	hex_encode((const unsigned char *)s, n, h);
	j = xjson(json_string(h));
	free(h);
	return j;
}

static json_t *
strv_json(char *const *v)
{
	json_t *a = xjson(json_array());

	for (size_t i = 0; v != NULL && v[i] != NULL; i++)
		json_array_append_new(a, str_lossy(v[i], NULL));
	return a;
}

static double
tv_ms(const struct timeval *tv)
{
	return (double)tv->tv_sec * 1e3 + (double)tv->tv_usec / 1e3;
}

/*
 * A fresh random id (32 hex).  Should getrandom() fail (a kernel without
 * it), the id is still unique enough to name the record: the time, pid
 * and a counter, hashed; never a reason to lose the record.
 */
static void
record_id(char *id)
{
	unsigned char rnd[16];
	static unsigned long counter;

	if (getrandom(rnd, sizeof(rnd), GRND_NONBLOCK) !=
	    (ssize_t)sizeof(rnd)) {
		struct timespec ts;
		unsigned long v[4];

		clock_gettime(CLOCK_REALTIME, &ts);
		v[0] = (unsigned long)ts.tv_sec;
		v[1] = (unsigned long)ts.tv_nsec;
		v[2] = (unsigned long)getpid();
		v[3] = ++counter;
		for (size_t i = 0; i < sizeof(rnd); i++)
			rnd[i] = ((const unsigned char *)v)[i] ^
			    ((const unsigned char *)v)[i + sizeof(rnd)];
	}
	hex_encode(rnd, sizeof(rnd), id);
}

/* v, id, start, end, duration, host, uid, user, pid. */
static void
add_identity(json_t *rec, const struct gx_outcome *o)
{
	char id[33], ts[40], host[256];
	struct timespec now;
	struct passwd *pw;

	record_id(id);
	clock_gettime(CLOCK_REALTIME, &now);
	set(rec, "v", json_integer(1));
	set(rec, "id", json_string(id));
	format_iso8601(o ? &o->start : &now, ts, sizeof(ts));
	set(rec, "start", json_string(ts));
	format_iso8601(o ? &o->end : &now, ts, sizeof(ts));
	set(rec, "end", json_string(ts));
	set(rec, "duration_ms", json_real(o ? o->duration_ms : 0.0));
	if (gethostname(host, sizeof(host)) < 0)
		strlcpy(host, "?", sizeof(host));
	host[sizeof(host) - 1] = '\0';
	set(rec, "host", str_lossy(host, NULL));
	set(rec, "uid", json_integer(getuid()));
	pw = getpwuid(getuid());
	set(rec, "user", pw ? str_lossy(pw->pw_name, NULL) : json_null());
	set(rec, "pid", json_integer(getpid()));
}

/* cwd, argv (with their exact bytes in hex when not UTF-8), exec. */
static void
add_command(json_t *rec, const struct gx_record_in *in)
{
	json_t *j, *hexes = NULL;
	bool lossy;

	set(rec, "cwd", in->cwd ? str_lossy(in->cwd, &lossy) : json_null());
	if (in->cwd && lossy)
		set(rec, "cwd_hex", hex_of(in->cwd));
	j = xjson(json_array());
	for (size_t i = 0; in->argv != NULL && in->argv[i] != NULL; i++) {
		json_array_append_new(j, str_lossy(in->argv[i], &lossy));
		if (lossy) {
			char key[24];

			if (hexes == NULL)
				hexes = xjson(json_object());
			snprintf(key, sizeof(key), "%zu", i);
			set(hexes, key, hex_of(in->argv[i]));
		}
	}
	set(rec, "argv", j);
	if (hexes != NULL)
		set(rec, "argv_hex", hexes);
	set(rec, "exec", str_or_null(in->exec_path));
}

/* policy, policy_writable, env, advisory. */
static void
add_policy(json_t *rec, const struct gx_record_in *in)
{
	json_t *j = xjson(json_object());

	if (in->pol != NULL) {
		set(j, "name", str_lossy(in->pol->name, NULL));
		set(j, "path", str_or_null(in->pol->path));
		set(j, "sha256", json_string(in->pol->sha256));
		set(j, "trusted", str_or_null(in->policy_trusted));
	} else {
		set(j, "name", json_null());
		set(j, "path", str_or_null(in->policy_path));
		set(j, "sha256", json_null());
		set(j, "trusted", json_null());
	}
	set(rec, "policy", j);
	if (in->policy_writable)
		set(rec, "policy_writable", json_true());

	j = xjson(json_object());
	set(j, "passed", strv_json(in->env ? in->env->passed : NULL));
	set(j, "dropped", strv_json(in->env ? in->env->dropped : NULL));
	set(rec, "env", j);

	j = xjson(json_array());
	for (size_t i = 0; in->advisory != NULL && in->advisory[i]; i++) {
		const struct gx_advisory_rule *r = in->advisory[i];
		json_t *a = xjson(json_object());

		set(a, "rule", str_lossy(r->match ? r->match : r->regex, NULL));
		set(a, "reason", str_lossy(r->reason, NULL));
		set(a, "enforced", json_false());
		json_array_append_new(j, a);
	}
	set(rec, "advisory", j);
}

/* status, exit_code, signal, timed_out, output sizes, truncated. */
static void
add_result(json_t *rec, const struct gx_outcome *o)
{
	set(rec, "status", json_string(outcome_status_name(o ? o->status :
	    GX_STATUS_REFUSED)));
	set(rec, "exit_code", json_integer(o ? o->exit_code : 125));
	set(rec, "signal", o && o->signal ? json_integer(o->signal) :
	    json_null());
	set(rec, "timed_out", json_boolean(o && o->timed_out));
	set(rec, "stdout_bytes", json_integer(o ? (json_int_t)o->stdout_bytes :
	    0));
	set(rec, "stderr_bytes", json_integer(o ? (json_int_t)o->stderr_bytes :
	    0));
	set(rec, "truncated", json_boolean(o && o->truncated));
}

/* seccomp: the action, denials (or what a learning run used). */
static void
add_seccomp(json_t *rec, const struct gx_record_in *in)
{
	const struct gx_outcome *o = in->outcome;
	json_t *j = xjson(json_object()), *list = xjson(json_array());

	if (in->learn) {
		set(j, "action", json_string("learn"));
	} else if (in->pol != NULL && in->pol->has_syscalls) {
		static const char *const act[] = { "errno", "kill", "log" };

		set(j, "action", json_string(act[in->pol->default_action]));
	} else {
		set(j, "action", json_null());
	}
	for (size_t i = 0; o != NULL && i < o->n_denied; i++) {
		json_t *d = xjson(json_object());

		set(d, "syscall", json_string(o->denied[i].name));
		set(d, "count", json_integer((json_int_t)o->denied[i].count));
		json_array_append_new(list, d);
	}
	set(j, in->learn ? "used" : "denied", list);
	if (in->learn)
		set(j, "denied", json_array());
	set(j, "reporting", json_string(o != NULL && o->reporting[0] ?
	    o->reporting : "off"));
	if (o != NULL && o->denied_overflow)
		set(j, "denied_truncated", json_true());
	set(rec, "seccomp", j);
}

/*
 * filesystem (with a filesystem group): how denials are observed, and
 * each path the lists refused, by path, access and rule (fswatch.h).
 * Named apart from seccomp's "denied" and "reporting", so that no
 * reader of one finds the other.
 */
static void
add_filesystem(json_t *rec, const struct gx_record_in *in)
{
	const struct gx_outcome *o = in->outcome;
	json_t *j, *list;

	if (o == NULL || in->pol == NULL || !in->pol->has_filesystem)
		return;
	j = xjson(json_object());
	list = xjson(json_array());
	set(j, "observed", json_string(o->fs_reporting[0] ? o->fs_reporting :
	    "not observable here (no seccomp listener)"));
	for (size_t i = 0; i < o->n_fs_denied; i++) {
		const struct gx_fsdenial *fd = &o->fs_denied[i];
		json_t *d = xjson(json_object());
		bool lossy;

		set(d, "path", str_lossy(fd->path, &lossy));
		if (lossy) {
			size_t n = strlen(fd->path);
			char *hex = xmalloc(2 * n + 1);

			hex_encode((const unsigned char *)fd->path, n, hex);
			set(d, "path_hex", json_string(hex));
			free(hex);
		}
		set(d, "access", json_string(fd->write ? "write" : "read"));
		set(d, "rule", json_string(fd->write ? "filesystem.write" :
		    "filesystem.read"));
		set(d, "syscall", json_string(fd->syscall));
		set(d, "count", json_integer((json_int_t)fd->count));
		json_array_append_new(list, d);
	}
	set(j, "paths", list);
	if (o->fs_denied_overflow)
		set(j, "paths_truncated", json_true());
	set(rec, "filesystem", j);
}

/* rusage, limit_hit, isolation. */
static void
add_resources(json_t *rec, const struct gx_record_in *in)
{
	const struct gx_outcome *o = in->outcome;
	json_t *j = xjson(json_object());

	set(j, "user_ms", json_real(o ? tv_ms(&o->ru.ru_utime) : 0.0));
	set(j, "sys_ms", json_real(o ? tv_ms(&o->ru.ru_stime) : 0.0));
	set(j, "max_rss_kb", json_integer(o ? o->ru.ru_maxrss : 0));
	set(rec, "rusage", j);
	set(rec, "limit_hit", str_or_null(o ? o->limit_hit : NULL));
	j = xjson(json_array());
	for (size_t i = 0; o != NULL && i < o->n_limits_hit; i++)
		json_array_append_new(j, xjson(json_string(o->limits_hit[i])));
	set(rec, "limits_hit", j);

	j = xjson(json_object());
	set(j, "filesystem", str_or_null(in->isolation_fs));
	set(j, "network", str_or_null(in->isolation_net));
	set(j, "cgroup", str_or_null(in->isolation_cgroup));
	set(j, "user", str_or_null(in->isolation_user));
	if (in->isolation_cgroup_why != NULL)
		set(j, "cgroup_why", str_lossy(in->isolation_cgroup_why, NULL));
	{
		unsigned have = o != NULL ? o->namespaces : 0;
		unsigned miss = in->isolation_ns_wanted & ~have;
		json_t *a = xjson(json_array()), *m = xjson(json_array());

		for (int b = 0; gx_ns_names[b] != NULL; b++) {
			if (have & (1u << b))
				json_array_append_new(a,
				    json_string(gx_ns_names[b]));
			if (miss & (1u << b))
				json_array_append_new(m,
				    json_string(gx_ns_names[b]));
		}
		set(j, "namespaces", a);
		if (json_array_size(m) > 0) {
			set(j, "missing", m);
			if (in->isolation_ns_why != NULL)
				set(j, "missing_why",
				    str_lossy(in->isolation_ns_why, NULL));
		} else {
			json_decref(m);
		}
	}
	if (in->limits_processes != NULL || in->limits_memory != NULL) {
		json_t *l = xjson(json_object());

		if (in->limits_processes != NULL)
			set(l, "processes", json_string(in->limits_processes));
		if (in->limits_memory != NULL)
			set(l, "memory", json_string(in->limits_memory));
		set(j, "limits", l);
	}
	set(rec, "isolation", j);
	set(rec, "notices", strv_json(in->notices));
}

json_t *
audit_build(const struct gx_record_in *in)
{
	const struct gx_outcome *o = in->outcome;
	json_t *rec = xjson(json_object()), *j;

	add_identity(rec, o);
	add_command(rec, in);
	add_policy(rec, in);
	add_result(rec, o);
	add_seccomp(rec, in);
	add_filesystem(rec, in);
	add_resources(rec, in);
	if (o != NULL && o->n_forwarded > 0) {
		j = xjson(json_array());
		for (size_t i = 0; i < o->n_forwarded; i++)
			json_array_append_new(j, xjson(json_string(
			    signal_name(o->forwarded[i]))));
		set(rec, "signals_received", j);
	}
	if (o != NULL && o->left_running)
		set(rec, "left_running", json_true());
	if (in->error != NULL)
		set(rec, "error", str_lossy(in->error, NULL));
	return rec;
}

static void
cut_strings(json_t *arr, size_t keep, size_t maxlen)
{
	size_t n = json_array_size(arr);

	for (size_t i = 0; i < n && i < keep; i++) {
		json_t *s = json_array_get(arr, i);

		if (json_is_string(s) && json_string_length(s) > maxlen) {
			const char *v = json_string_value(s);
			size_t l = maxlen;
			char *t;

			/* Cut before a UTF-8 continuation byte, not inside. */
			while (l > 0 && ((unsigned char)v[l] & 0xc0) == 0x80)
				l--;
			t = xasprintf("%.*s...", (int)l, v);
			json_array_set_new(arr, i, str_lossy(t, NULL));
			free(t);
		}
	}
	if (n > keep) {
		while (json_array_size(arr) > keep)
			json_array_remove(arr, keep);
		json_array_append_new(arr, xjson(json_sprintf("...(%zu more)",
		    n - keep)));
	}
}

char *
audit_compact(json_t *rec, size_t max)
{
	static const struct { size_t args, len, names; } steps[] = {
		{ 64, 512, 64 }, { 16, 128, 16 }, { 8, 64, 4 }, { 4, 32, 0 },
	};
	json_t *c = json_deep_copy(rec);
	char *text;

	for (size_t i = 0; ; i++) {
		text = json_dumps(c, DUMP_FLAGS);
		if (text == NULL)
			die("out of memory (json)");
		if (strlen(text) <= max || i == sizeof(steps) / sizeof(steps[0]))
			break;
		free(text);
		json_object_del(c, "argv_hex");
		json_object_del(c, "cwd_hex");
		cut_strings(json_object_get(c, "argv"), steps[i].args,
		    steps[i].len);
		cut_strings(json_object_get(json_object_get(c, "env"),
		    "passed"), steps[i].names, 64);
		cut_strings(json_object_get(json_object_get(c, "env"),
		    "dropped"), steps[i].names, 64);
		cut_strings(json_object_get(c, "advisory"), 4, 64);
		/* A filesystem denial is a path and a notice: many can be long. */
		cut_strings(json_object_get(json_object_get(c, "filesystem"),
		    "paths"), steps[i].names, 0);
		cut_strings(json_object_get(c, "notices"), steps[i].names + 4,
		    steps[i].len);
		set(c, "compacted", json_true());
		set(c, "syslog_truncated", json_true());
	}
	if (strlen(text) > max) {
		/* Still too long (a huge cwd or error): keep the essentials. */
		json_t *m = xjson(json_object());
		static const char *const keep[] = { "v", "id", "start", "uid",
			"pid", "status", "exit_code", "hash", NULL };

		free(text);
		for (size_t i = 0; keep[i] != NULL; i++) {
			json_t *v = json_object_get(rec, keep[i]);

			if (v != NULL)
				json_object_set(m, keep[i], v);
		}
		set(m, "compacted", json_true());
		set(m, "syslog_truncated", json_true());
		text = json_dumps(m, DUMP_FLAGS);
		json_decref(m);
		if (text == NULL)
			die("out of memory (json)");
	}
	json_decref(c);
	return text;
}

void
audit_syslog(json_t *rec, int facility)
{
	const char *status = json_string_value(json_object_get(rec, "status"));
	bool notice;
	char *text;

	notice = json_array_size(json_object_get(rec, "advisory")) > 0 ||
	    json_array_size(json_object_get(json_object_get(rec, "seccomp"),
	    "denied")) > 0 || (status != NULL && strcmp(status, "exited") != 0);
	text = audit_compact(rec, 4096 - 8);
	openlog("guardexec", LOG_PID | LOG_NDELAY, facility);
	syslog(notice ? LOG_NOTICE : LOG_INFO, "@cee: %s", text);
	closelog();
	free(text);
}
