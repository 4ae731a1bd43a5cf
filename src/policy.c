/* SPDX-License-Identifier: ISC */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <libconfig.h>
#include <math.h>
#include <pwd.h>
#include <sha2.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <syslog.h>
#include <unistd.h>

#include "filter.h"
#include "policy.h"
#include "util.h"

/* Largest policy file read (a policy is configuration, not data). */
#define POLICY_MAX_BYTES (1024 * 1024)
/* Caps on values that could only be mistakes. */
#define MAX_SECONDS (366.0 * 24 * 3600)
#define MAX_PROCESSES 4194304
#define MAX_OPEN_FILES (1 << 20)
#define MAX_TAIL_BYTES (256ULL << 20)

/* Parser state: no globals, one per load (minijail's parser_state). */
struct ps {
	const char *file;       /* as named on the command line */
	const char *dir;        /* relative paths resolve here */
	struct gx_diag *diag;
	struct gx_policy *pol;
	int errors;
};

static void
err(struct ps *ps, const config_setting_t *s, const char *key,
    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void
err(struct ps *ps, const config_setting_t *s, const char *key,
    const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		die("out of memory");
	va_end(ap);
	diag_add(ps->diag, "%s:%d: %s: %s", ps->file,
	    s ? config_setting_source_line(s) : 0, key, msg);
	free(msg);
	ps->errors++;
}

/* "command.user" from a setting's place in the tree. */
static char *
key_of(const config_setting_t *s)
{
	const config_setting_t *p = config_setting_parent(s);
	const char *name = config_setting_name(s);

	if (p == NULL || config_setting_is_root(p) || name == NULL)
		return xstrdup(name ? name : "?");
	return xasprintf("%s.%s", config_setting_name(p), name);
}

static const char *
type_name(const config_setting_t *s)
{
	switch (config_setting_type(s)) {
	case CONFIG_TYPE_INT: case CONFIG_TYPE_INT64: return "an integer";
	case CONFIG_TYPE_FLOAT: return "a number";
	case CONFIG_TYPE_STRING: return "a string";
	case CONFIG_TYPE_BOOL: return "a boolean";
	case CONFIG_TYPE_ARRAY: return "an array";
	case CONFIG_TYPE_LIST: return "a list";
	case CONFIG_TYPE_GROUP: return "a group";
	default: return "something else";
	}
}

static bool
is_int(const config_setting_t *s)
{
	return config_setting_type(s) == CONFIG_TYPE_INT ||
	    config_setting_type(s) == CONFIG_TYPE_INT64;
}

static const char *
get_string(struct ps *ps, const config_setting_t *s, const char *key)
{
	const char *v;

	if (config_setting_type(s) != CONFIG_TYPE_STRING) {
		err(ps, s, key, "expected a string, got %s", type_name(s));
		return NULL;
	}
	v = config_setting_get_string(s);
	return v;
}

static int
get_bool(struct ps *ps, const config_setting_t *s, const char *key, bool *out)
{
	if (config_setting_type(s) != CONFIG_TYPE_BOOL) {
		err(ps, s, key, "expected true or false, got %s", type_name(s));
		return -1;
	}
	*out = config_setting_get_bool(s);
	return 0;
}

/* One of a fixed set of strings; returns its index or -1. */
static int
get_enum(struct ps *ps, const config_setting_t *s, const char *key,
    const char *const *choices)
{
	const char *v = get_string(ps, s, key);
	char expect[256] = "";

	if (v == NULL)
		return -1;
	for (int i = 0; choices[i] != NULL; i++)
		if (strcmp(v, choices[i]) == 0)
			return i;
	for (int i = 0; choices[i] != NULL; i++) {
		strlcat(expect, i ? (choices[i + 1] ? ", \"" : " or \"") : "\"",
		    sizeof(expect));
		strlcat(expect, choices[i], sizeof(expect));
		strlcat(expect, "\"", sizeof(expect));
	}
	err(ps, s, key, "expected %s, got \"%s\"", expect, v);
	return -1;
}

static int
get_size(struct ps *ps, const config_setting_t *s, const char *key,
    uint64_t *out)
{
	long long iv;
	const char *sv;

	if (is_int(s)) {
		iv = config_setting_get_int64(s);
		if (iv < 0) {
			err(ps, s, key, "must not be negative, got %lld", iv);
			return -1;
		}
		*out = (uint64_t)iv;
		return 0;
	}
	if (config_setting_type(s) == CONFIG_TYPE_STRING) {
		sv = config_setting_get_string(s);
		if (limits_parse_size(sv, out) == 0)
			return 0;
		err(ps, s, key, "expected a size like \"512M\", got \"%s\"", sv);
		return -1;
	}
	err(ps, s, key, "expected a size like \"512M\", got %s", type_name(s));
	return -1;
}

static int
get_seconds(struct ps *ps, const config_setting_t *s, const char *key,
    double *out)
{
	double v;

	if (is_int(s)) {
		v = (double)config_setting_get_int64(s);
	} else if (config_setting_type(s) == CONFIG_TYPE_FLOAT) {
		v = config_setting_get_float(s);
	} else {
		err(ps, s, key, "expected seconds (an integer or a number), "
		    "got %s", type_name(s));
		return -1;
	}
	if (!isfinite(v) || v < 0) {
		err(ps, s, key, "must not be negative, got %g", v);
		return -1;
	}
	if (v > MAX_SECONDS) {
		err(ps, s, key, "%g seconds is more than a year", v);
		return -1;
	}
	*out = v;
	return 0;
}

/* An array or list of strings; each element is passed to @each. */
static int
get_strings(struct ps *ps, const config_setting_t *s, const char *key,
    void (*each)(struct ps *, const config_setting_t *, const char *,
    const char *, void *), void *arg)
{
	int n;

	if (config_setting_type(s) != CONFIG_TYPE_ARRAY &&
	    config_setting_type(s) != CONFIG_TYPE_LIST) {
		err(ps, s, key, "expected a list of strings like [ \"a\", \"b\" ], "
		    "got %s", type_name(s));
		return -1;
	}
	n = config_setting_length(s);
	for (int i = 0; i < n; i++) {
		config_setting_t *e = config_setting_get_elem(s, (unsigned)i);

		if (config_setting_type(e) != CONFIG_TYPE_STRING) {
			err(ps, e, key, "element %d: expected a string, got %s",
			    i + 1, type_name(e));
			continue;
		}
		each(ps, e, key, config_setting_get_string(e), arg);
	}
	return 0;
}

static bool
known(const char *const *keys, const char *name)
{
	for (size_t j = 0; keys[j] != NULL; j++)
		if (strcmp(name, keys[j]) == 0)
			return true;
	return false;
}

/*
 * Every member of a group must be a known key; unknown ones are reported
 * and the known ones are still checked (every problem is reported).
 * Returns false only when @g is not a group at all.
 */
static bool
check_group(struct ps *ps, const config_setting_t *g, const char *const *keys)
{
	int n;

	if (config_setting_type(g) != CONFIG_TYPE_GROUP) {
		err(ps, g, config_setting_name(g), "expected a group { ... }, "
		    "got %s", type_name(g));
		return false;
	}
	n = config_setting_length(g);
	for (int i = 0; i < n; i++) {
		config_setting_t *s = config_setting_get_elem(g, (unsigned)i);
		char *k;

		if (!known(keys, config_setting_name(s))) {
			k = key_of(s);
			err(ps, s, k, "unknown key");
			free(k);
		}
	}
	return true;
}

/* Iterate the members of a group with a key among @keys. */
#define FOR_KNOWN(g, s, i, keys) \
	for (int i = 0; (s = config_setting_get_elem(g, (unsigned)i)) != NULL; \
	    i++) \
		if (known(keys, config_setting_name(s)))

/* Iterate every member (a group of free names, like env.set). */
#define FOR_MEMBERS(g, s, i) \
	for (int i = 0; (s = config_setting_get_elem(g, (unsigned)i)) != NULL; \
	    i++)

static void
parse_command(struct ps *ps, const config_setting_t *g)
{
	static const char *const keys[] = { "stdin", "user", NULL };
	static const char *const stdins[] = { "null", "inherit", NULL };
	config_setting_t *s;

	if (!check_group(ps, g, keys))
		return;
	FOR_KNOWN(g, s, i, keys) {
		const char *name = config_setting_name(s);
		int v;

		if (strcmp(name, "stdin") == 0) {
			if ((v = get_enum(ps, s, "command.stdin", stdins)) >= 0)
				ps->pol->stdin_mode = (enum gx_stdin)v;
		} else if (strcmp(name, "user") == 0) {
			const char *u = get_string(ps, s, "command.user");

			if (u == NULL)
				continue;
			if (getpwnam(u) == NULL)
				err(ps, s, "command.user", "no such user \"%s\"", u);
			else
				ps->pol->user = xstrdup(u);
		}
	}
}

static bool
valid_env_name(const char *n, bool pattern)
{
	size_t len = strlen(n);

	if (len == 0)
		return false;
	for (size_t i = 0; i < len; i++) {
		if (pattern && n[i] == '*' && i == len - 1 && len > 0)
			continue;
		if (!(isalnum((unsigned char)n[i]) || n[i] == '_'))
			return false;
	}
	return true;
}

static void
add_env_allow(struct ps *ps, const config_setting_t *e, const char *key,
    const char *v, void *arg)
{
	(void)arg;
	if (!valid_env_name(v, true)) {
		err(ps, e, key, "\"%s\" is not a variable name (letters, digits "
		    "and _, with an optional trailing *)", v);
		return;
	}
	ps->pol->env_allow = strv_append(ps->pol->env_allow, v);
}

/* Add or replace NAME=value in env.set. */
static void
set_env(struct gx_policy *pol, const char *name, const char *v)
{
	char *kv = xasprintf("%s=%s", name, v);

	pol->env_set = strv_append(pol->env_set, kv);
	free(kv);
}

static void
parse_env(struct ps *ps, const config_setting_t *g)
{
	static const char *const keys[] = { "allow", "set", NULL };
	config_setting_t *s, *e;

	ps->pol->has_env = true;
	if (!check_group(ps, g, keys))
		return;
	FOR_KNOWN(g, s, i, keys) {
		if (strcmp(config_setting_name(s), "allow") == 0) {
			get_strings(ps, s, "env.allow", add_env_allow, NULL);
			continue;
		}
		if (config_setting_type(s) != CONFIG_TYPE_GROUP) {
			err(ps, s, "env.set", "expected a group like "
			    "{ PATH = \"/usr/bin:/bin\"; }, got %s", type_name(s));
			continue;
		}
		FOR_MEMBERS(s, e, j) {
			const char *name = config_setting_name(e);
			char *k = xasprintf("env.set.%s", name);
			const char *v = get_string(ps, e, k);

			if (v != NULL && !valid_env_name(name, false))
				err(ps, e, k, "not a variable name");
			else if (v != NULL)
				set_env(ps->pol, name, v);
			free(k);
		}
	}
}

static void
parse_limits(struct ps *ps, const config_setting_t *g)
{
	static const char *const keys[] = { "timeout", "kill_grace", "cpu",
		"memory", "processes", "open_files", "file_size", "core",
		"stack", NULL };
	struct gx_limits *l = &ps->pol->limits;
	config_setting_t *s;

	if (!check_group(ps, g, keys))
		return;
	FOR_KNOWN(g, s, i, keys) {
		const char *name = config_setting_name(s);
		char *k = xasprintf("limits.%s", name);
		struct gx_rlimit_val *rv = NULL;
		double secs;
		uint64_t v;

		if (strcmp(name, "timeout") == 0) {
			get_seconds(ps, s, k, &l->timeout);
		} else if (strcmp(name, "kill_grace") == 0) {
			if (get_seconds(ps, s, k, &secs) < 0)
				;
			else if (secs > 3600)
				err(ps, s, k, "at most 3600 seconds, got %g", secs);
			else
				l->kill_grace = secs;
		} else if (strcmp(name, "cpu") == 0) {
			if (get_seconds(ps, s, k, &secs) == 0) {
				l->cpu.set = true;
				l->cpu.value = (uint64_t)ceil(secs);
				if (l->cpu.value == 0) {
					err(ps, s, k, "must be at least 1 second");
				}
			}
		} else if (strcmp(name, "processes") == 0 ||
		    strcmp(name, "open_files") == 0) {
			uint64_t max = name[0] == 'p' ? MAX_PROCESSES :
			    MAX_OPEN_FILES;

			rv = name[0] == 'p' ? &l->processes : &l->open_files;
			if (!is_int(s)) {
				err(ps, s, k, "expected an integer, got %s",
				    type_name(s));
			} else if (config_setting_get_int64(s) < 1 ||
			    (uint64_t)config_setting_get_int64(s) > max) {
				err(ps, s, k, "expected 1 to %llu, got %lld",
				    (unsigned long long)max,
				    config_setting_get_int64(s));
			} else {
				rv->set = true;
				rv->value = (uint64_t)config_setting_get_int64(s);
			}
		} else {
			if (strcmp(name, "memory") == 0)
				rv = &l->memory;
			else if (strcmp(name, "file_size") == 0)
				rv = &l->file_size;
			else if (strcmp(name, "core") == 0)
				rv = &l->core;
			else
				rv = &l->stack;
			if (get_size(ps, s, k, &v) == 0) {
				if (rv == &l->memory && v < (1 << 20))
					err(ps, s, k, "at least 1M, got %llu bytes",
					    (unsigned long long)v);
				else if (rv == &l->stack && v < (64 << 10))
					err(ps, s, k, "at least 64K, got %llu bytes",
					    (unsigned long long)v);
				rv->set = true;
				rv->value = v;
			}
		}
		free(k);
	}
}

static void
parse_output(struct ps *ps, const config_setting_t *g)
{
	static const char *const keys[] = { "max_bytes", "on_overflow", "keep",
		NULL };
	static const char *const overflows[] = { "truncate", "kill", NULL };
	static const char *const keeps[] = { "head", "head_tail", NULL };
	struct gx_policy *pol = ps->pol;
	config_setting_t *s, *mb = NULL;
	int v;

	if (!check_group(ps, g, keys))
		return;
	FOR_KNOWN(g, s, i, keys) {
		const char *name = config_setting_name(s);

		if (strcmp(name, "max_bytes") == 0) {
			mb = s;
			get_size(ps, s, "output.max_bytes", &pol->max_bytes);
		} else if (strcmp(name, "on_overflow") == 0) {
			if ((v = get_enum(ps, s, "output.on_overflow",
			    overflows)) >= 0)
				pol->on_overflow = (enum gx_overflow)v;
		} else if ((v = get_enum(ps, s, "output.keep", keeps)) >= 0) {
			pol->keep = (enum gx_keep)v;
		}
	}
	if (pol->keep == GX_KEEP_HEAD_TAIL && pol->max_bytes > MAX_TAIL_BYTES)
		err(ps, mb, "output.max_bytes", "at most 256M with keep = "
		    "\"head_tail\" (the tail is held in memory)");
}

static void
add_syscall(struct ps *ps, const config_setting_t *e, const char *key,
    const char *v, void *arg)
{
	char ***list = arg;

	if (v[0] == '@') {
		if (filter_group(v) == NULL) {
			err(ps, e, key, "unknown syscall group \"%s\"", v);
			return;
		}
	} else if (filter_resolve(v) == -1) {
		err(ps, e, key, "unknown syscall \"%s\"", v);
		return;
	}
	if (!strv_contains(*list, v))
		*list = strv_append(*list, v);
}

/* Expand groups, drop what deny names (deny wins), sort. */
static char **
expand_allow(char *const *src, char *const *deny)
{
	char **out = NULL, **deny_x = NULL;

	for (size_t i = 0; deny != NULL && deny[i] != NULL; i++) {
		const char *const *m = filter_group(deny[i]);

		if (m == NULL) {
			deny_x = strv_append(deny_x, deny[i]);
			continue;
		}
		for (; *m != NULL; m++)
			deny_x = strv_append(deny_x, *m);
	}
	for (size_t i = 0; src != NULL && src[i] != NULL; i++) {
		const char *const *m = filter_group(src[i]);
		const char *one[2] = { src[i], NULL };

		for (m = m ? m : one; *m != NULL; m++)
			if (!strv_contains(out, *m) && !strv_contains(deny_x, *m))
				out = strv_append(out, *m);
	}
	if (out == NULL)
		out = xcalloc(1, sizeof(*out));
	strv_sort(out);
	strv_free(deny_x);
	return out;
}

static void
parse_syscalls(struct ps *ps, const config_setting_t *g)
{
	static const char *const keys[] = { "default_action", "errno", "allow",
		"deny", NULL };
	static const char *const actions[] = { "errno", "kill", "log", NULL };
	struct gx_policy *pol = ps->pol;
	char **deny = NULL;
	config_setting_t *s;
	int v;

	pol->has_syscalls = true;
	if (!check_group(ps, g, keys))
		return;
	FOR_KNOWN(g, s, i, keys) {
		const char *name = config_setting_name(s);

		if (strcmp(name, "default_action") == 0) {
			if ((v = get_enum(ps, s, "syscalls.default_action",
			    actions)) >= 0)
				pol->default_action = (enum gx_action)v;
		} else if (strcmp(name, "errno") == 0) {
			if (is_int(s)) {
				v = config_setting_get_int(s);
				if (v < 1 || v > 4095)
					err(ps, s, "syscalls.errno", "expected an "
					    "errno name like \"EPERM\" or 1 to "
					    "4095, got %d", v);
				else
					pol->sys_errno = v;
			} else {
				const char *n = get_string(ps, s,
				    "syscalls.errno");

				if (n != NULL && (v = errno_from_name(n)) < 0)
					err(ps, s, "syscalls.errno", "unknown errno "
					    "name \"%s\"", n);
				else if (n != NULL)
					pol->sys_errno = v;
			}
		} else if (strcmp(name, "allow") == 0) {
			get_strings(ps, s, "syscalls.allow", add_syscall,
			    &pol->sys_allow_src);
		} else {
			get_strings(ps, s, "syscalls.deny", add_syscall, &deny);
		}
	}
	pol->sys_deny = deny ? deny : xcalloc(1, sizeof(char *));
	if (pol->sys_allow_src == NULL)
		pol->sys_allow_src = xcalloc(1, sizeof(char *));
	pol->sys_allow = expand_allow(pol->sys_allow_src, pol->sys_deny);
}

static void
add_path(struct ps *ps, const config_setting_t *e, const char *key,
    const char *v, void *arg)
{
	char ***list = arg;
	struct stat st;
	char *abs;

	if (v[0] == '\0') {
		err(ps, e, key, "empty path");
		return;
	}
	if (strcmp(v, ".") == 0) {
		*list = strv_append(*list, ".");
		return;
	}
	abs = path_resolve(ps->dir, v);
	if (stat(abs, &st) < 0)
		err(ps, e, key, "%s: %s", abs, strerror(errno));
	else if (!strv_contains(*list, abs))
		*list = strv_append(*list, abs);
	free(abs);
}

static void
parse_filesystem(struct ps *ps, const config_setting_t *g)
{
	static const char *const keys[] = { "read", "write", "tmp", NULL };
	static const char *const tmps[] = { "shared", "private", NULL };
	config_setting_t *s;
	int v;

	ps->pol->has_filesystem = true;
	if (!check_group(ps, g, keys))
		return;
	FOR_KNOWN(g, s, i, keys) {
		if (strcmp(config_setting_name(s), "read") == 0)
			get_strings(ps, s, "filesystem.read", add_path,
			    &ps->pol->fs_read);
		else if (strcmp(config_setting_name(s), "tmp") == 0) {
			if ((v = get_enum(ps, s, "filesystem.tmp", tmps)) >= 0)
				ps->pol->fs_tmp = (enum gx_tmp)v;
		} else
			get_strings(ps, s, "filesystem.write", add_path,
			    &ps->pol->fs_write);
	}
}

static void
parse_network(struct ps *ps, const config_setting_t *g)
{
	static const char *const keys[] = { "mode", NULL };
	static const char *const modes[] = { "all", "none", NULL };
	config_setting_t *s;
	int v;

	if (!check_group(ps, g, keys))
		return;
	FOR_KNOWN(g, s, i, keys)
		if ((v = get_enum(ps, s, "network.mode", modes)) >= 0)
			ps->pol->network = (enum gx_net)v;
}

const char *const gx_iso_names[] = { "user", "pid", "mount", "network",
	"cgroup", "landlock", NULL };

static void
add_iso(struct ps *ps, const config_setting_t *e, const char *key,
    const char *v, void *arg)
{
	(void)arg;
	for (int b = 0; gx_iso_names[b] != NULL; b++)
		if (strcmp(v, gx_iso_names[b]) == 0) {
			ps->pol->iso_require |= 1u << b;
			return;
		}
	err(ps, e, key, "unknown mechanism \"%s\" (expected user, pid, "
	    "mount, network, cgroup or landlock)", v);
}

static void
parse_isolation(struct ps *ps, const config_setting_t *g)
{
	static const char *const keys[] = { "require", NULL };
	config_setting_t *s;

	if (!check_group(ps, g, keys))
		return;
	FOR_KNOWN(g, s, i, keys)
		get_strings(ps, s, "isolation.require", add_iso, NULL);
}

static void
parse_advisory(struct ps *ps, const config_setting_t *g)
{
	static const char *const keys[] = { "warn", NULL };
	static const char *const rule_keys[] = { "match", "regex", "reason",
		NULL };
	struct gx_policy *pol = ps->pol;
	config_setting_t *w, *r, *s;

	if (!check_group(ps, g, keys))
		return;
	w = config_setting_get_member(g, "warn");
	if (w == NULL)
		return;
	if (config_setting_type(w) != CONFIG_TYPE_LIST &&
	    config_setting_type(w) != CONFIG_TYPE_ARRAY) {
		err(ps, w, "advisory.warn", "expected a list of rules like "
		    "( { match = \"...\"; reason = \"...\"; } ), got %s",
		    type_name(w));
		return;
	}
	FOR_MEMBERS(w, r, i) {
		struct gx_advisory_rule rule = { 0 };
		int ok = 1, rc;

		if (config_setting_type(r) != CONFIG_TYPE_GROUP) {
			err(ps, r, "advisory.warn", "rule %d: expected a group "
			    "{ match = \"...\"; reason = \"...\"; }", i + 1);
			continue;
		}
		FOR_MEMBERS(r, s, j) {
			const char *name = config_setting_name(s);
			char *k = xasprintf("advisory.warn.%s", name);
			bool known = false;
			const char *v;

			for (size_t m = 0; rule_keys[m] != NULL; m++)
				known |= strcmp(rule_keys[m], name) == 0;
			if (!known) {
				err(ps, s, k, "unknown key");
				ok = 0;
			} else if ((v = get_string(ps, s, k)) == NULL) {
				ok = 0;
			} else if (name[0] == 'm') {
				rule.match = xstrdup(v);
			} else if (name[1] == 'e' && name[2] == 'g') {
				rule.regex = xstrdup(v);
			} else {
				rule.reason = xstrdup(v);
			}
			free(k);
		}
		if (ok && (rule.match == NULL) == (rule.regex == NULL)) {
			err(ps, r, "advisory.warn", "rule %d: needs exactly one "
			    "of match or regex", i + 1);
			ok = 0;
		}
		if (ok && rule.reason == NULL) {
			err(ps, r, "advisory.warn", "rule %d: needs a reason",
			    i + 1);
			ok = 0;
		}
		if (ok && rule.match != NULL && rule.match[0] == '\0') {
			err(ps, r, "advisory.warn.match", "empty pattern");
			ok = 0;
		}
		if (ok && rule.regex != NULL && (rc = regcomp(&rule.re,
		    rule.regex, REG_EXTENDED | REG_NOSUB)) != 0) {
			char buf[256];

			regerror(rc, &rule.re, buf, sizeof(buf));
			err(ps, r, "advisory.warn.regex", "%s: \"%s\"", buf,
			    rule.regex);
			free(rule.regex);
			rule.regex = NULL;
			ok = 0;
		}
		if (!ok) {
			free(rule.match);
			free(rule.regex);
			free(rule.reason);
			continue;
		}
		pol->advisory = xreallocarray(pol->advisory, pol->n_advisory + 1,
		    sizeof(*pol->advisory));
		pol->advisory[pol->n_advisory++] = rule;
	}
}

static const struct {
	const char *name;
	int value;
} facilities[] = {
	{ "auth", LOG_AUTH }, { "authpriv", LOG_AUTHPRIV },
	{ "daemon", LOG_DAEMON }, { "user", LOG_USER },
	{ "local0", LOG_LOCAL0 }, { "local1", LOG_LOCAL1 },
	{ "local2", LOG_LOCAL2 }, { "local3", LOG_LOCAL3 },
	{ "local4", LOG_LOCAL4 }, { "local5", LOG_LOCAL5 },
	{ "local6", LOG_LOCAL6 }, { "local7", LOG_LOCAL7 },
};

int
policy_facility_from_name(const char *name)
{
	for (size_t i = 0; i < sizeof(facilities) / sizeof(facilities[0]); i++)
		if (strcmp(facilities[i].name, name) == 0)
			return facilities[i].value;
	return -1;
}

static void
parse_audit(struct ps *ps, const config_setting_t *g)
{
	static const char *const keys[] = { "log", "syslog", "facility",
		"on_log_failure", "sync", NULL };
	static const char *const fails[] = { "refuse", "warn", NULL };
	struct gx_policy *pol = ps->pol;
	config_setting_t *s;
	const char *v;
	int f;

	if (!check_group(ps, g, keys))
		return;
	FOR_KNOWN(g, s, i, keys) {
		const char *name = config_setting_name(s);

		if (strcmp(name, "log") == 0) {
			if ((v = get_string(ps, s, "audit.log")) == NULL)
				continue;
			if (v[0] == '\0')
				err(ps, s, "audit.log", "empty path");
			else
				pol->audit_log = path_resolve(ps->dir, v);
		} else if (strcmp(name, "syslog") == 0) {
			get_bool(ps, s, "audit.syslog", &pol->audit_syslog);
		} else if (strcmp(name, "sync") == 0) {
			get_bool(ps, s, "audit.sync", &pol->audit_sync);
		} else if (strcmp(name, "facility") == 0) {
			if ((v = get_string(ps, s, "audit.facility")) == NULL)
				continue;
			if ((f = policy_facility_from_name(v)) < 0) {
				err(ps, s, "audit.facility", "unknown syslog "
				    "facility \"%s\" (auth, authpriv, daemon, "
				    "user, local0 to local7)", v);
			} else {
				pol->audit_facility = f;
				free(pol->audit_facility_name);
				pol->audit_facility_name = xstrdup(v);
			}
		} else if ((f = get_enum(ps, s, "audit.on_log_failure",
		    fails)) >= 0) {
			pol->on_log_failure = (enum gx_logfail)f;
		}
	}
}

static void
defaults(struct gx_policy *pol)
{
	pol->limits.kill_grace = 2;
	pol->sys_errno = EPERM;
	pol->audit_syslog = true;
	pol->audit_facility = LOG_AUTHPRIV;
	pol->audit_facility_name = xstrdup("authpriv");
	pol->audit_sync = true;
}

/*
 * libconfig 1.5 silently wraps an integer literal of 2^31 or more that
 * has no L suffix ("max_bytes = 4294967296;" would read as 0: no cap).
 * Find such literals in the text (outside strings and comments) before
 * parsing.  Returns the line of the first, or 0.
 */
static int
find_wrapping_int(const char *buf, size_t len)
{
	int line = 1;

	for (size_t i = 0; i < len; i++) {
		char c = buf[i];

		if (c == '\n') {
			line++;
		} else if (c == '"') {
			for (i++; i < len && buf[i] != '"'; i++) {
				if (buf[i] == '\\')
					i++;
				else if (buf[i] == '\n')
					line++;
			}
		} else if (c == '#' || (c == '/' && i + 1 < len &&
		    buf[i + 1] == '/')) {
			while (i + 1 < len && buf[i + 1] != '\n')
				i++;
		} else if (c == '/' && i + 1 < len && buf[i + 1] == '*') {
			for (i += 2; i + 1 < len && !(buf[i] == '*' &&
			    buf[i + 1] == '/'); i++)
				if (buf[i] == '\n')
					line++;
			i++;
		} else if (isdigit((unsigned char)c) && (i == 0 ||
		    !(isalnum((unsigned char)buf[i - 1]) || buf[i - 1] == '_' ||
		    buf[i - 1] == '.'))) {
			unsigned long long v = 0;
			bool big = false, hex = false;
			size_t j = i;

			if (c == '0' && j + 1 < len && (buf[j + 1] == 'x' ||
			    buf[j + 1] == 'X')) {
				hex = true;
				j += 2;
			}
			for (; j < len && (hex ? isxdigit((unsigned char)buf[j]) :
			    isdigit((unsigned char)buf[j])); j++) {
				int d = isdigit((unsigned char)buf[j]) ?
				    buf[j] - '0' : (tolower(buf[j]) - 'a' + 10);

				v = v * (hex ? 16 : 10) + (unsigned long long)d;
				if (v > (hex ? 0xffffffffULL : 2147483647ULL))
					big = true;
				if (v > (1ULL << 60))
					v = 1ULL << 60;
			}
			if (j < len && (buf[j] == '.' || buf[j] == 'e' ||
			    buf[j] == 'E'))
				big = false;    /* a float */
			if (j < len && buf[j] == 'L')
				big = false;
			if (big)
				return line;
			i = j - 1;
		}
	}
	return 0;
}

/* libconfig 1.5 cannot turn @include off; a policy is one file. */
static const char *
find_include(const char *buf, size_t len, int *line)
{
	int ln = 1;

	for (size_t i = 0; i < len; i++) {
		size_t j = i;

		while (j < len && (buf[j] == ' ' || buf[j] == '\t'))
			j++;
		if (len - j >= 8 && memcmp(buf + j, "@include", 8) == 0) {
			*line = ln;
			return buf + j;
		}
		while (i < len && buf[i] != '\n')
			i++;
		ln++;
	}
	return NULL;
}

int
policy_load_stream(FILE *f, const char *display, const char *dir,
    const char *sha256, struct gx_policy *pol, struct gx_diag *diag)
{
	static const char *const top[] = { "version", "name", "command", "env",
		"limits", "output", "syscalls", "filesystem", "network",
		"isolation", "advisory", "audit", NULL };
	struct ps ps = { display, dir, diag, pol, 0 };
	config_setting_t *root, *s;
	config_t cfg;

	memset(pol, 0, sizeof(*pol));
	defaults(pol);
	config_init(&cfg);
	if (config_read(&cfg, f) != CONFIG_TRUE) {
		diag_add(diag, "%s:%d: %s", display, config_error_line(&cfg),
		    config_error_text(&cfg));
		config_destroy(&cfg);
		policy_free(pol);
		return -1;
	}
	root = config_root_setting(&cfg);
	check_group(&ps, root, top);
	if (sha256 != NULL)
		strlcpy(pol->sha256, sha256, sizeof(pol->sha256));
	pol->dir = xstrdup(dir);

	if ((s = config_setting_get_member(root, "version")) == NULL) {
		diag_add(diag, "%s:1: version: missing (add \"version = 1;\")",
		    display);
		ps.errors++;
	} else if (!is_int(s) || config_setting_get_int(s) != 1) {
		err(&ps, s, "version", "only version 1 is known");
	} else {
		pol->version = 1;
	}
	if ((s = config_setting_get_member(root, "name")) == NULL) {
		diag_add(diag, "%s:1: name: missing (add \"name = \\\"...\\\";\")",
		    display);
		ps.errors++;
	} else {
		const char *v = get_string(&ps, s, "name");

		if (v != NULL && v[0] == '\0')
			err(&ps, s, "name", "must not be empty");
		else if (v != NULL)
			pol->name = xstrdup(v);
	}
	if ((s = config_setting_get_member(root, "command")) != NULL)
		parse_command(&ps, s);
	if ((s = config_setting_get_member(root, "env")) != NULL)
		parse_env(&ps, s);
	if ((s = config_setting_get_member(root, "limits")) != NULL)
		parse_limits(&ps, s);
	if ((s = config_setting_get_member(root, "output")) != NULL)
		parse_output(&ps, s);
	if ((s = config_setting_get_member(root, "syscalls")) != NULL)
		parse_syscalls(&ps, s);
	if ((s = config_setting_get_member(root, "filesystem")) != NULL)
		parse_filesystem(&ps, s);
	if ((s = config_setting_get_member(root, "network")) != NULL)
		parse_network(&ps, s);
	if ((s = config_setting_get_member(root, "isolation")) != NULL)
		parse_isolation(&ps, s);
	if ((s = config_setting_get_member(root, "advisory")) != NULL)
		parse_advisory(&ps, s);
	if ((s = config_setting_get_member(root, "audit")) != NULL)
		parse_audit(&ps, s);
	config_destroy(&cfg);
	if (ps.errors > 0) {
		policy_free(pol);
		return -1;
	}
	return 0;
}

int
policy_load(const char *path, bool privileged, struct gx_policy *pol,
    struct gx_diag *diag)
{
	unsigned char digest[SHA256_DIGEST_LENGTH];
	char hex[65], cwd[4096], *abs, *dir;
	struct stat st;
	SHA2_CTX ctx;
	ssize_t n;
	size_t len = 0;
	int fd, line, rc;
	char *buf;
	FILE *f;

	memset(pol, 0, sizeof(*pol));
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		diag_add(diag, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		diag_add(diag, "%s: not a regular file", path);
		close(fd);
		return -1;
	}
	/*
	 * Run by root, a policy that others can edit would let them choose
	 * what root runs (doas parseconfig()).
	 */
	if (privileged && ((st.st_mode & S_IWOTH) ||
	    ((st.st_mode & S_IWGRP) && st.st_gid != 0))) {
		diag_add(diag, "%s: refusing a policy writable by group or "
		    "others while running as root (chmod go-w)", path);
		close(fd);
		return -1;
	}
	if (st.st_size > POLICY_MAX_BYTES) {
		diag_add(diag, "%s: larger than 1M; not a policy", path);
		close(fd);
		return -1;
	}
	buf = xmalloc((size_t)st.st_size + 1);
	while (len <= (size_t)st.st_size &&
	    (n = read(fd, buf + len, (size_t)st.st_size + 1 - len)) > 0)
		len += (size_t)n;
	close(fd);
	if (len > (size_t)st.st_size) {
		diag_add(diag, "%s: changed while being read", path);
		free(buf);
		return -1;
	}
	if (find_include(buf, len, &line) != NULL) {
		diag_add(diag, "%s:%d: @include: not supported (a policy is one "
		    "file, so that its sha256 covers all of it)", path, line);
		free(buf);
		return -1;
	}
	if ((line = find_wrapping_int(buf, len)) != 0) {
		diag_add(diag, "%s:%d: an integer of 2^31 or more needs an L "
		    "suffix (or write a size as a string like \"4G\")", path,
		    line);
		free(buf);
		return -1;
	}
	SHA256Init(&ctx);
	SHA256Update(&ctx, (const uint8_t *)buf, len);
	SHA256Final(digest, &ctx);
	hex_encode(digest, sizeof(digest), hex);

	if (path[0] != '/' && getcwd(cwd, sizeof(cwd)) == NULL) {
		diag_add(diag, "getcwd: %s", strerror(errno));
		free(buf);
		return -1;
	}
	abs = path_resolve(path[0] == '/' ? NULL : cwd, path);
	dir = path_dirname(abs);
	/* The bytes parsed are the bytes hashed: no second open. */
	buf[len] = '\n';
	f = fmemopen(buf, len + 1, "r");
	if (f == NULL)
		die("fmemopen: out of memory");
	rc = policy_load_stream(f, path, dir, hex, pol, diag);
	fclose(f);
	free(buf);
	free(dir);
	if (rc == 0)
		pol->path = abs;
	else
		free(abs);
	return rc;
}

void
policy_free(struct gx_policy *pol)
{
	free(pol->path);
	free(pol->dir);
	free(pol->name);
	free(pol->user);
	strv_free(pol->env_allow);
	strv_free(pol->env_set);
	strv_free(pol->sys_allow);
	strv_free(pol->sys_allow_src);
	strv_free(pol->sys_deny);
	strv_free(pol->fs_read);
	strv_free(pol->fs_write);
	for (size_t i = 0; i < pol->n_advisory; i++) {
		free(pol->advisory[i].match);
		if (pol->advisory[i].regex != NULL)
			regfree(&pol->advisory[i].re);
		free(pol->advisory[i].regex);
		free(pol->advisory[i].reason);
	}
	free(pol->advisory);
	free(pol->audit_log);
	free(pol->audit_facility_name);
	memset(pol, 0, sizeof(*pol));
}

/* A libconfig string literal. */
static void
print_str(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s != '\0'; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", out);
		else if (c == '\t')
			fputs("\\t", out);
		else if (c < 0x20 || c == 0x7f)
			fprintf(out, "\\x%02x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

static void
print_list(FILE *out, const char *key, char *const *v)
{
	fprintf(out, "  %s = [", key);
	for (size_t i = 0; v != NULL && v[i] != NULL; i++) {
		fputs(i ? ", " : " ", out);
		print_str(out, v[i]);
	}
	fputs(v != NULL && v[0] != NULL ? " ];\n" : " ];\n", out);
}

static void
print_limit(FILE *out, const char *key, const struct gx_rlimit_val *v)
{
	if (v->set)
		fprintf(out, "  %s = %llu%s;\n", key, (unsigned long long)v->value,
		    v->value > INT32_MAX ? "L" : "");
	else
		fprintf(out, "  # %s: inherited\n", key);
}

void
policy_print(const struct gx_policy *pol, FILE *out,
    char *const *allow_override)
{
	static const char *const actions[] = { "errno", "kill", "log" };
	const struct gx_limits *l = &pol->limits;

	fprintf(out, "# effective policy of %s\n# sha256 %s\n",
	    pol->path ? pol->path : "(stream)", pol->sha256);
	fprintf(out, "version = %d;\nname = ", pol->version);
	print_str(out, pol->name);
	fprintf(out, ";\n\ncommand: {\n  stdin = \"%s\";\n",
	    pol->stdin_mode == GX_STDIN_NULL ? "null" : "inherit");
	if (pol->user != NULL) {
		fputs("  user = ", out);
		print_str(out, pol->user);
		fputs(";\n", out);
	}
	fputs("};\n\n", out);
	if (pol->has_env) {
		fputs("env: {\n", out);
		print_list(out, "allow", pol->env_allow);
		fputs("  set = {", out);
		for (size_t i = 0; pol->env_set != NULL && pol->env_set[i]; i++) {
			const char *eq = strchr(pol->env_set[i], '=');

			fprintf(out, " %.*s = ", (int)(eq - pol->env_set[i]),
			    pol->env_set[i]);
			print_str(out, eq + 1);
			fputs(";", out);
		}
		fputs(" };\n};\n\n", out);
	} else {
		fputs("# no env group: only PATH=/usr/bin:/bin is passed\n\n",
		    out);
	}
	fprintf(out, "limits: {\n  timeout = %g;\n  kill_grace = %g;\n",
	    l->timeout, l->kill_grace);
	print_limit(out, "cpu", &l->cpu);
	print_limit(out, "memory", &l->memory);
	print_limit(out, "processes", &l->processes);
	print_limit(out, "open_files", &l->open_files);
	print_limit(out, "file_size", &l->file_size);
	print_limit(out, "core", &l->core);
	print_limit(out, "stack", &l->stack);
	fputs("};\n\n", out);
	fprintf(out, "output: {\n  max_bytes = %llu%s;\n  on_overflow = \"%s\";\n"
	    "  keep = \"%s\";\n};\n\n", (unsigned long long)pol->max_bytes,
	    pol->max_bytes > INT32_MAX ? "L" : "",
	    pol->on_overflow == GX_OVERFLOW_KILL ? "kill" : "truncate",
	    pol->keep == GX_KEEP_HEAD ? "head" : "head_tail");
	if (pol->has_syscalls || allow_override != NULL) {
		fprintf(out, "syscalls: {\n  default_action = \"%s\";\n",
		    actions[pol->default_action]);
		fprintf(out, "  errno = \"%s\";\n",
		    errno_name(pol->sys_errno) ?: "EPERM");
		print_list(out, "allow", allow_override ? allow_override :
		    pol->sys_allow);
		print_list(out, "deny", pol->sys_deny);
		fputs("};\n\n", out);
	} else {
		fputs("# no syscalls group: no seccomp syscall filter (only the "
		    "TIOCSTI/TIOCLINUX/TIOCSCTTY guard)\n\n", out);
	}
	if (pol->has_filesystem) {
		fputs("filesystem: {\n", out);
		print_list(out, "read", pol->fs_read);
		print_list(out, "write", pol->fs_write);
		fprintf(out, "  tmp = \"%s\";\n", pol->fs_tmp == GX_TMP_PRIVATE ?
		    "private" : "shared");
		fputs("};\n\n", out);
	} else {
		fputs("# no filesystem group: no filesystem restriction\n\n",
		    out);
	}
	fprintf(out, "network: {\n  mode = \"%s\";\n};\n\n",
	    pol->network == GX_NET_NONE ? "none" : "all");
	if (pol->iso_require != 0) {
		fputs("isolation: {\n  require = [ ", out);
		for (int b = 0, n = 0; gx_iso_names[b] != NULL; b++)
			if (pol->iso_require & (1u << b))
				fprintf(out, "%s\"%s\"", n++ ? ", " : "",
				    gx_iso_names[b]);
		fputs(" ];\n};\n\n", out);
	}
	if (pol->n_advisory > 0) {
		fputs("advisory: {\n  # warnings only, NOT a security control\n"
		    "  warn = (\n", out);
		for (size_t i = 0; i < pol->n_advisory; i++) {
			const struct gx_advisory_rule *r = &pol->advisory[i];

			fputs(r->match ? "    { match = " : "    { regex = ", out);
			print_str(out, r->match ? r->match : r->regex);
			fputs("; reason = ", out);
			print_str(out, r->reason);
			fputs(i + 1 < pol->n_advisory ? "; },\n" : "; }\n", out);
		}
		fputs("  );\n};\n\n", out);
	}
	fputs("audit: {\n", out);
	if (pol->audit_log != NULL) {
		fputs("  log = ", out);
		print_str(out, pol->audit_log);
		fputs(";\n", out);
	} else {
		fputs("  # log: the default (see guardexec(1), FILES)\n", out);
	}
	fprintf(out, "  syslog = %s;\n  facility = \"%s\";\n"
	    "  on_log_failure = \"%s\";\n  sync = %s;\n};\n",
	    pol->audit_syslog ? "true" : "false", pol->audit_facility_name,
	    pol->on_log_failure == GX_LOGFAIL_REFUSE ? "refuse" : "warn",
	    pol->audit_sync ? "true" : "false");
}

const struct gx_advisory_rule **
advisory_match(const struct gx_policy *pol, char *const *argv)
{
	const struct gx_advisory_rule **out;
	size_t len = 1, n = 0;
	char *line;

	for (size_t i = 0; argv[i] != NULL; i++)
		len += strlen(argv[i]) + 1;
	line = xmalloc(len);
	len = 0;
	for (size_t i = 0; argv[i] != NULL; i++) {
		size_t alen = strlen(argv[i]);

		if (i > 0)
			line[len++] = ' ';
		memcpy(line + len, argv[i], alen);
		len += alen;
	}
	line[len] = '\0';
	out = xcalloc(pol->n_advisory + 1, sizeof(*out));
	for (size_t i = 0; i < pol->n_advisory; i++) {
		const struct gx_advisory_rule *r = &pol->advisory[i];

		if ((r->match != NULL && strstr(line, r->match) != NULL) ||
		    (r->regex != NULL && regexec(&r->re, line, 0, NULL, 0) == 0))
			out[n++] = r;
	}
	free(line);
	return out;
}

/* Make a relative path setting absolute against the policy's directory. */
static void
absolutize(config_setting_t *s, const char *dir)
{
	const char *v;
	char *abs;

	if (s == NULL || config_setting_type(s) != CONFIG_TYPE_STRING)
		return;
	v = config_setting_get_string(s);
	if (v[0] == '/' || strcmp(v, ".") == 0 || v[0] == '\0')
		return;
	abs = path_resolve(dir, v);
	config_setting_set_string(s, abs);
	free(abs);
}

int
policy_write_learned(const struct gx_policy *pol, char *const *used,
    const char *out_path, struct gx_diag *diag)
{
	config_setting_t *root, *sys, *allow, *fs, *s;
	char **names = NULL;
	config_t cfg;
	int rc = -1;

	config_init(&cfg);
	if (config_read_file(&cfg, pol->path) != CONFIG_TRUE) {
		diag_add(diag, "%s:%d: %s", pol->path, config_error_line(&cfg),
		    config_error_text(&cfg));
		goto out;
	}
	root = config_root_setting(&cfg);
	sys = config_setting_get_member(root, "syscalls");
	if (sys == NULL) {
		sys = config_setting_add(root, "syscalls", CONFIG_TYPE_GROUP);
		s = config_setting_add(sys, "default_action", CONFIG_TYPE_STRING);
		config_setting_set_string(s, "errno");
	}
	for (size_t i = 0; pol->sys_allow_src != NULL &&
	    pol->sys_allow_src[i] != NULL; i++)
		names = strv_append(names, pol->sys_allow_src[i]);
	for (size_t i = 0; used != NULL && used[i] != NULL; i++)
		if (!strv_contains(names, used[i]))
			names = strv_append(names, used[i]);
	if (names != NULL)
		strv_sort(names);
	if (config_setting_get_member(sys, "allow") != NULL)
		config_setting_remove(sys, "allow");
	allow = config_setting_add(sys, "allow", CONFIG_TYPE_ARRAY);
	for (size_t i = 0; names != NULL && names[i] != NULL; i++)
		config_setting_set_string_elem(allow, -1, names[i]);

	/* Relative paths meant the policy's directory: keep that meaning. */
	absolutize(config_lookup(&cfg, "audit.log"), pol->dir);
	if ((fs = config_setting_get_member(root, "filesystem")) != NULL) {
		const char *keys[] = { "read", "write" };

		for (size_t k = 0; k < 2; k++) {
			config_setting_t *l = config_setting_get_member(fs,
			    keys[k]);

			for (int i = 0; l != NULL &&
			    i < config_setting_length(l); i++)
				absolutize(config_setting_get_elem(l,
				    (unsigned)i), pol->dir);
		}
	}
	if (config_write_file(&cfg, out_path) != CONFIG_TRUE) {
		diag_add(diag, "--learn %s: cannot write the policy: %s",
		    out_path, strerror(errno));
		goto out;
	}
	rc = 0;
out:
	strv_free(names);
	config_destroy(&cfg);
	return rc;
}
