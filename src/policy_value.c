/* SPDX-License-Identifier: ISC */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "filter.h"
#include "policy_value.h"
#include "util.h"

/* A year and a day: longer durations can only be mistakes. */
#define MAX_SECONDS (366.0 * 24 * 3600)

void
value_err(struct gx_parse *ps, const config_setting_t *s, const char *key,
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

const char *
value_type_name(const config_setting_t *s)
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

bool
value_is_int(const config_setting_t *s)
{
	return config_setting_type(s) == CONFIG_TYPE_INT ||
	    config_setting_type(s) == CONFIG_TYPE_INT64;
}

const char *
value_string(struct gx_parse *ps, const config_setting_t *s, const char *key)
{
	if (config_setting_type(s) != CONFIG_TYPE_STRING) {
		value_err(ps, s, key, "expected a string, got %s",
		    value_type_name(s));
		return NULL;
	}
	return config_setting_get_string(s);
}

int
value_bool(struct gx_parse *ps, const config_setting_t *s, const char *key,
    bool *out)
{
	if (config_setting_type(s) != CONFIG_TYPE_BOOL) {
		value_err(ps, s, key, "expected true or false, got %s",
		    value_type_name(s));
		return -1;
	}
	*out = config_setting_get_bool(s);
	return 0;
}

int
value_enum(struct gx_parse *ps, const config_setting_t *s, const char *key,
    const struct gx_name *choices)
{
	const char *v = value_string(ps, s, key);
	char expect[256] = "";
	int r;

	if (v == NULL)
		return -1;
	if ((r = policy_value_of(choices, v)) >= 0)
		return r;
	for (int i = 0; choices[i].name != NULL; i++) {
		strlcat(expect, i ? (choices[i + 1].name ? ", \"" : " or \"") :
		    "\"", sizeof(expect));
		strlcat(expect, choices[i].name, sizeof(expect));
		strlcat(expect, "\"", sizeof(expect));
	}
	value_err(ps, s, key, "expected %s, got \"%s\"", expect, v);
	return -1;
}

int
value_size(struct gx_parse *ps, const config_setting_t *s, const char *key,
    uint64_t *out)
{
	long long iv;
	const char *sv;

	if (value_is_int(s)) {
		iv = config_setting_get_int64(s);
		if (iv < 0) {
			value_err(ps, s, key, "must not be negative, got %lld",
			    iv);
			return -1;
		}
		*out = (uint64_t)iv;
		return 0;
	}
	if (config_setting_type(s) == CONFIG_TYPE_STRING) {
		sv = config_setting_get_string(s);
		if (limits_parse_size(sv, out) == 0)
			return 0;
		value_err(ps, s, key, "expected a size like \"512M\", got \"%s\"",
		    sv);
		return -1;
	}
	value_err(ps, s, key, "expected a size like \"512M\", got %s",
	    value_type_name(s));
	return -1;
}

int
value_seconds(struct gx_parse *ps, const config_setting_t *s,
    const char *key, double *out)
{
	const char *sv;
	double v;

	if (value_is_int(s)) {
		v = (double)config_setting_get_int64(s);
	} else if (config_setting_type(s) == CONFIG_TYPE_FLOAT) {
		v = config_setting_get_float(s);
	} else if (config_setting_type(s) == CONFIG_TYPE_STRING) {
		sv = config_setting_get_string(s);
		if (limits_parse_duration(sv, &v) < 0) {
			value_err(ps, s, key, "expected a duration like \"90s\" "
			    "or \"10m\", got \"%s\"", sv);
			return -1;
		}
	} else {
		value_err(ps, s, key, "expected seconds (an integer, a number "
		    "or a string like \"10m\"), got %s", value_type_name(s));
		return -1;
	}
	if (!isfinite(v) || v < 0) {
		value_err(ps, s, key, "must not be negative, got %g", v);
		return -1;
	}
	if (v > MAX_SECONDS) {
		value_err(ps, s, key, "%g seconds is more than a year", v);
		return -1;
	}
	*out = v;
	return 0;
}

int
value_strings(struct gx_parse *ps, const config_setting_t *s,
    const char *key, void (*each)(struct gx_parse *,
    const config_setting_t *, const char *, const char *, void *),
    void *arg)
{
	int n;

	if (config_setting_type(s) != CONFIG_TYPE_ARRAY &&
	    config_setting_type(s) != CONFIG_TYPE_LIST) {
		value_err(ps, s, key, "expected a list of strings like "
		    "[ \"a\", \"b\" ], got %s", value_type_name(s));
		return -1;
	}
	n = config_setting_length(s);
	for (int i = 0; i < n; i++) {
		config_setting_t *e = config_setting_get_elem(s, (unsigned)i);

		if (config_setting_type(e) != CONFIG_TYPE_STRING) {
			value_err(ps, e, key, "element %d: expected a string, "
			    "got %s", i + 1, value_type_name(e));
			continue;
		}
		each(ps, e, key, config_setting_get_string(e), arg);
	}
	return 0;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void
value_sort(char **v)
{
	qsort(v, strv_len(v), sizeof(*v), cmp_str);
}

bool
value_env_name(const char *n, bool pattern)
{
	size_t len = strlen(n);

	if (len == 0)
		return false;
	for (size_t i = 0; i < len; i++) {
		if (pattern && n[i] == '*' && i == len - 1)
			continue;
		if (!(isalnum((unsigned char)n[i]) || n[i] == '_'))
			return false;
	}
	return true;
}

void
value_add_env_allow(struct gx_parse *ps, const config_setting_t *e, const char *key,
    const char *v, void *arg)
{
	(void)arg;
	if (!value_env_name(v, true)) {
		value_err(ps, e, key, "\"%s\" is not a variable name (letters, "
		    "digits and _, with an optional trailing *)", v);
		return;
	}
	ps->pol->env_allow = strv_append(ps->pol->env_allow, v);
}

void
value_add_syscall(struct gx_parse *ps, const config_setting_t *e, const char *key,
    const char *v, void *arg)
{
	char ***list = arg;

	if (v[0] == '@') {
		if (filter_group(v) == NULL) {
			value_err(ps, e, key, "unknown syscall group \"%s\"", v);
			return;
		}
	} else if (filter_resolve(v) == -1) {
		value_err(ps, e, key, "unknown syscall \"%s\"", v);
		return;
	}
	if (!strv_contains(*list, v))
		*list = strv_append(*list, v);
}

void
value_add_path(struct gx_parse *ps, const config_setting_t *e, const char *key,
    const char *v, void *arg)
{
	char ***list = arg;
	struct stat st;
	char *abs;

	if (v[0] == '\0') {
		value_err(ps, e, key, "empty path");
		return;
	}
	if (strcmp(v, ".") == 0) {
		*list = strv_append(*list, ".");
		return;
	}
	abs = path_resolve(ps->dir, v);
	if (stat(abs, &st) < 0)
		value_err(ps, e, key, "%s: %s", abs, strerror(errno));
	else if (!strv_contains(*list, abs))
		*list = strv_append(*list, abs);
	free(abs);
}

void
value_add_iso(struct gx_parse *ps, const config_setting_t *e, const char *key,
    const char *v, void *arg)
{
	(void)arg;
	for (int b = 0; gx_iso_names[b] != NULL; b++)
		if (strcmp(v, gx_iso_names[b]) == 0) {
			ps->pol->iso_require |= 1u << b;
			return;
		}
	value_err(ps, e, key, "unknown mechanism \"%s\" (expected user, pid, "
	    "mount, network, cgroup or landlock)", v);
}
