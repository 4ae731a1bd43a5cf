/* SPDX-License-Identifier: ISC */
#include "config.h"

#include <math.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>

#include "filter.h"
#include "policy.h"
#include "policy_keys.h"
#include "policy_value.h"
#include "util.h"

/* With keep = "head_tail" the tail is held in memory. */
#define MAX_TAIL_BYTES (256ULL << 20)

/* "unknown key", with the nearest known one when there is one. */
static void
err_unknown(struct gx_parse *ps, const config_setting_t *s, const char *key,
    const char *group)
{
	const char *near = policy_key_nearest(group, config_setting_name(s));
	const struct gx_key *other;

	if (near != NULL)
		value_err(ps, s, key, "unknown key (did you mean \"%s\"?)", near);
	else if ((other = policy_key_elsewhere(group,
	    config_setting_name(s))) != NULL)
		value_err(ps, s, key, "unknown key (%s belongs in the %s "
		    "group)", other->name, other->group);
	else
		value_err(ps, s, key, "unknown key");
}

/* Top-level names: the keys without a group, and the groups. */
static bool
known(const char *group, const char *name)
{
	if (policy_key_find(group, name) != NULL)
		return true;
	for (size_t i = 0; group == NULL && gx_groups[i].name != NULL; i++)
		if (strcmp(gx_groups[i].name, name) == 0)
			return true;
	return false;
}

/*
 * Every member of a group must be a known key of @group (NULL: the top
 * level); unknown ones are reported and the known ones are still checked
 * (every problem is reported).  Returns false only when @g is not a
 * group at all.
 */
static bool
check_group(struct gx_parse *ps, const config_setting_t *g, const char *group)
{
	int n;

	if (config_setting_type(g) != CONFIG_TYPE_GROUP) {
		value_err(ps, g, config_setting_name(g), "expected a group "
		    "{ ... }, got %s", value_type_name(g));
		return false;
	}
	n = config_setting_length(g);
	for (int i = 0; i < n; i++) {
		config_setting_t *s = config_setting_get_elem(g, (unsigned)i);
		const char *name = config_setting_name(s);
		char *k;

		if (known(group, name))
			continue;
		k = group ? xasprintf("%s.%s", group, name) : xstrdup(name);
		err_unknown(ps, s, k, group);
		free(k);
	}
	return true;
}

static void
parse_env_set(struct gx_parse *ps, const config_setting_t *s)
{
	config_setting_t *e;

	if (config_setting_type(s) != CONFIG_TYPE_GROUP) {
		value_err(ps, s, "env.set", "expected a group like "
		    "{ PATH = \"/usr/bin:/bin\"; }, got %s", value_type_name(s));
		return;
	}
	for (int j = 0; (e = config_setting_get_elem(s, (unsigned)j)) != NULL;
	    j++) {
		const char *name = config_setting_name(e);
		char *k = xasprintf("env.set.%s", name);
		const char *v = value_string(ps, e, k);
		char *kv;

		if (v != NULL && !value_env_name(name, false)) {
			value_err(ps, e, k, "not a variable name");
		} else if (v != NULL) {
			kv = xasprintf("%s=%s", name, v);
			ps->pol->env_set = strv_append(ps->pol->env_set, kv);
			free(kv);
		}
		free(k);
	}
}

static void
parse_errno(struct gx_parse *ps, const config_setting_t *s,
    const struct gx_key *key, const char *k)
{
	const char *n;
	int v;

	if (value_is_int(s)) {
		v = config_setting_get_int(s);
		if (v < key->min || v > key->max)
			value_err(ps, s, k, "expected an errno name like "
			    "\"EPERM\" or %.0f to %.0f, got %d", key->min,
			    key->max, v);
		else
			ps->pol->sys_errno = v;
		return;
	}
	n = value_string(ps, s, k);
	if (n != NULL && (v = errno_from_name(n)) < 0)
		value_err(ps, s, k, "unknown errno name \"%s\"", n);
	else if (n != NULL)
		ps->pol->sys_errno = v;
}

/* "1M", "64K": a minimum size as the messages write it. */
static char *
size_text(uint64_t v)
{
	if (v % (1ULL << 30) == 0 && v > 0)
		return xasprintf("%lluG", (unsigned long long)(v >> 30));
	if (v % (1ULL << 20) == 0 && v > 0)
		return xasprintf("%lluM", (unsigned long long)(v >> 20));
	if (v % (1ULL << 10) == 0 && v > 0)
		return xasprintf("%lluK", (unsigned long long)(v >> 10));
	return xasprintf("%llu", (unsigned long long)v);
}

/* Limits that become rlimits: GX_K_CPU, GX_K_COUNT, GX_K_RSIZE. */
static void
parse_rlimit(struct gx_parse *ps, const config_setting_t *s,
    const struct gx_key *key, const char *k, struct gx_rlimit_val *rv)
{
	uint64_t min = (uint64_t)key->min, max = (uint64_t)key->max, v;
	long long iv;
	double secs;
	char *t;

	if (key->kind == GX_K_CPU) {
		if (value_seconds(ps, s, k, &secs) < 0)
			return;
		rv->set = true;
		rv->value = (uint64_t)ceil(secs);
		if (rv->value < min)
			value_err(ps, s, k, "must be at least 1 second");
	} else if (key->kind == GX_K_COUNT) {
		iv = config_setting_get_int64(s);
		if (!value_is_int(s)) {
			value_err(ps, s, k, "expected an integer, got %s",
			    value_type_name(s));
		} else if (iv < (long long)min || (uint64_t)iv > max) {
			value_err(ps, s, k, "expected %llu to %llu, got %lld",
			    (unsigned long long)min, (unsigned long long)max, iv);
		} else {
			rv->set = true;
			rv->value = (uint64_t)iv;
		}
	} else if (value_size(ps, s, k, &v) == 0) {
		if (v < min) {
			t = size_text(min);
			value_err(ps, s, k, "at least %s, got %llu bytes", t,
			    (unsigned long long)v);
			free(t);
		}
		rv->set = true;
		rv->value = v;
	}
}

/* The kinds that store a scalar at key->off. */
static void
parse_scalar(struct gx_parse *ps, const config_setting_t *s,
    const struct gx_key *key, const char *k)
{
	void *field = (char *)ps->pol + key->off;
	double secs;
	int v;

	switch (key->kind) {
	case GX_K_ENUM:
		if ((v = value_enum(ps, s, k, key->choices)) >= 0)
			*(int *)field = v;
		break;
	case GX_K_BOOL:
		value_bool(ps, s, k, field);
		break;
	case GX_K_DURATION:
		if (value_seconds(ps, s, k, &secs) < 0)
			break;
		if (secs > key->max)
			value_err(ps, s, k, "at most %g seconds, got %g",
			    key->max, secs);
		else
			*(double *)field = secs;
		break;
	case GX_K_SIZE:
		if (value_size(ps, s, k, field) == 0 && s != NULL)
			ps->max_bytes = s;
		break;
	case GX_K_CPU: case GX_K_COUNT: case GX_K_RSIZE:
		parse_rlimit(ps, s, key, k, field);
		break;
	case GX_K_VERSION: case GX_K_NAME: case GX_K_USER: case GX_K_ENV_ALLOW:
	case GX_K_ENV_SET: case GX_K_SYS_ALLOW: case GX_K_SYS_DENY:
	case GX_K_ERRNO: case GX_K_PATHS: case GX_K_ISO: case GX_K_WARN:
	case GX_K_RULE: case GX_K_LOG: case GX_K_FACILITY:
		break;
	}
}

static void
parse_user(struct gx_parse *ps, const config_setting_t *s, const char *k)
{
	const char *u = value_string(ps, s, k);

	if (u == NULL)
		return;
	if (getpwnam(u) == NULL)
		value_err(ps, s, k, "no such user \"%s\"", u);
	else
		ps->pol->user = xstrdup(u);
}

static void
parse_audit_string(struct gx_parse *ps, const config_setting_t *s,
    const struct gx_key *key, const char *k)
{
	struct gx_policy *pol = ps->pol;
	const char *v = value_string(ps, s, k);
	int f;

	if (v == NULL)
		return;
	if (key->kind == GX_K_LOG) {
		if (v[0] == '\0')
			value_err(ps, s, k, "empty path");
		else
			pol->audit_log = path_resolve(ps->dir, v);
	} else if ((f = policy_value_of(key->choices, v)) < 0) {
		value_err(ps, s, k, "unknown syslog facility \"%s\" (auth, "
		    "authpriv, daemon, user, local0 to local7)", v);
	} else {
		pol->audit_facility = f;
		free(pol->audit_facility_name);
		pol->audit_facility_name = xstrdup(v);
	}
}

/* One rule of advisory.warn; false when it is not valid (reported). */
static bool
parse_rule(struct gx_parse *ps, const config_setting_t *r, int i,
    struct gx_advisory_rule *rule)
{
	config_setting_t *s;
	bool ok = true;
	int rc;

	for (int j = 0; (s = config_setting_get_elem(r, (unsigned)j)) != NULL;
	    j++) {
		const char *name = config_setting_name(s);
		char *k = xasprintf("advisory.warn.%s", name);
		const char *v;

		if (policy_key_find("advisory.warn", name) == NULL) {
			err_unknown(ps, s, k, "advisory.warn");
			ok = false;
		} else if ((v = value_string(ps, s, k)) == NULL) {
			ok = false;
		} else if (strcmp(name, "match") == 0) {
			rule->match = xstrdup(v);
		} else if (strcmp(name, "regex") == 0) {
			rule->regex = xstrdup(v);
		} else {
			rule->reason = xstrdup(v);
		}
		free(k);
	}
	if (ok && (rule->match == NULL) == (rule->regex == NULL)) {
		value_err(ps, r, "advisory.warn", "rule %d: needs exactly one "
		    "of match or regex", i + 1);
		ok = false;
	}
	if (ok && rule->reason == NULL) {
		value_err(ps, r, "advisory.warn", "rule %d: needs a reason",
		    i + 1);
		ok = false;
	}
	if (ok && rule->match != NULL && rule->match[0] == '\0') {
		value_err(ps, r, "advisory.warn.match", "empty pattern");
		ok = false;
	}
	if (ok && rule->regex != NULL && (rc = regcomp(&rule->re,
	    rule->regex, REG_EXTENDED | REG_NOSUB)) != 0) {
		char buf[256];

		regerror(rc, &rule->re, buf, sizeof(buf));
		value_err(ps, r, "advisory.warn.regex", "%s: \"%s\"", buf,
		    rule->regex);
		free(rule->regex);
		rule->regex = NULL;
		ok = false;
	}
	return ok;
}

static void
parse_warn(struct gx_parse *ps, const config_setting_t *w)
{
	struct gx_policy *pol = ps->pol;
	config_setting_t *r;

	if (config_setting_type(w) != CONFIG_TYPE_LIST &&
	    config_setting_type(w) != CONFIG_TYPE_ARRAY) {
		value_err(ps, w, "advisory.warn", "expected a list of rules like "
		    "( { match = \"...\"; reason = \"...\"; } ), got %s",
		    value_type_name(w));
		return;
	}
	for (int i = 0; (r = config_setting_get_elem(w, (unsigned)i)) != NULL;
	    i++) {
		struct gx_advisory_rule rule = { 0 };

		if (config_setting_type(r) != CONFIG_TYPE_GROUP) {
			value_err(ps, r, "advisory.warn", "rule %d: expected a "
			    "group { match = \"...\"; reason = \"...\"; }",
			    i + 1);
			continue;
		}
		if (!parse_rule(ps, r, i, &rule)) {
			/* Never compiled: nothing to regfree. */
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

/* One known key of a group: @k is its full name, "limits.timeout". */
static void
parse_key(struct gx_parse *ps, const config_setting_t *s,
    const struct gx_key *key, const char *k)
{
	void *field = (char *)ps->pol + key->off;

	switch (key->kind) {
	case GX_K_USER:
		parse_user(ps, s, k);
		break;
	case GX_K_ENV_ALLOW:
		value_strings(ps, s, k, value_add_env_allow, NULL);
		break;
	case GX_K_ENV_SET:
		parse_env_set(ps, s);
		break;
	case GX_K_SYS_ALLOW: case GX_K_SYS_DENY:
		value_strings(ps, s, k, value_add_syscall, field);
		break;
	case GX_K_ERRNO:
		parse_errno(ps, s, key, k);
		break;
	case GX_K_PATHS:
		value_strings(ps, s, k, value_add_path, field);
		break;
	case GX_K_ISO:
		value_strings(ps, s, k, value_add_iso, NULL);
		break;
	case GX_K_WARN:
		parse_warn(ps, s);
		break;
	case GX_K_LOG: case GX_K_FACILITY:
		parse_audit_string(ps, s, key, k);
		break;
	case GX_K_VERSION: case GX_K_NAME: case GX_K_ENUM: case GX_K_BOOL:
	case GX_K_DURATION: case GX_K_CPU: case GX_K_COUNT: case GX_K_RSIZE:
	case GX_K_SIZE: case GX_K_RULE:
		parse_scalar(ps, s, key, k);
		break;
	}
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
	value_sort(out);
	strv_free(deny_x);
	return out;
}

/* Checks across the keys of a group, once they are all read. */
static void
finish_group(struct gx_parse *ps, const char *group)
{
	struct gx_policy *pol = ps->pol;

	if (strcmp(group, "output") == 0 && pol->keep == GX_KEEP_HEAD_TAIL &&
	    pol->max_bytes > MAX_TAIL_BYTES)
		value_err(ps, ps->max_bytes, "output.max_bytes", "at most 256M "
		    "with keep = \"head_tail\" (the tail is held in memory)");
	if (strcmp(group, "syscalls") == 0) {
		if (pol->sys_deny == NULL)
			pol->sys_deny = xcalloc(1, sizeof(char *));
		if (pol->sys_allow_src == NULL)
			pol->sys_allow_src = xcalloc(1, sizeof(char *));
		pol->sys_allow = expand_allow(pol->sys_allow_src, pol->sys_deny);
	}
}

/* One group of the table: its known keys in the file's order. */
static void
parse_group(struct gx_parse *ps, const config_setting_t *g,
    const struct gx_group *grp)
{
	const struct gx_key *key;
	config_setting_t *s;

	if (grp->has_off >= 0)
		*(bool *)((char *)ps->pol + grp->has_off) = true;
	if (!check_group(ps, g, grp->name))
		return;
	for (int i = 0; (s = config_setting_get_elem(g, (unsigned)i)) != NULL;
	    i++) {
		char *k;

		key = policy_key_find(grp->name, config_setting_name(s));
		if (key == NULL)
			continue;
		k = xasprintf("%s.%s", grp->name, key->name);
		parse_key(ps, s, key, k);
		free(k);
	}
	finish_group(ps, grp->name);
}

/*
 * The table's defaults, for the kinds that hold one value (the lists
 * default to empty, which the zeroed policy already is).
 */
static void
defaults(struct gx_policy *pol)
{
	for (const struct gx_key *k = gx_keys; k->name != NULL; k++) {
		void *field = (char *)pol + k->off;
		char v[64];

		if (k->def == NULL)
			continue;
		/* A string default is quoted, as a policy writes it. */
		strlcpy(v, k->def + (k->def[0] == '"'), sizeof(v));
		v[strcspn(v, "\"")] = '\0';
		switch (k->kind) {
		case GX_K_ENUM:
			*(int *)field = policy_value_of(k->choices, v);
			break;
		case GX_K_BOOL:
			*(bool *)field = strcmp(v, "true") == 0;
			break;
		case GX_K_DURATION:
			*(double *)field = strtod(v, NULL);
			break;
		case GX_K_SIZE:
			*(uint64_t *)field = strtoull(v, NULL, 10);
			break;
		case GX_K_ERRNO:
			pol->sys_errno = errno_from_name(v);
			break;
		case GX_K_FACILITY:
			pol->audit_facility = policy_value_of(k->choices, v);
			pol->audit_facility_name = xstrdup(v);
			break;
		case GX_K_VERSION: case GX_K_NAME: case GX_K_CPU:
		case GX_K_COUNT: case GX_K_RSIZE: case GX_K_USER:
		case GX_K_ENV_ALLOW: case GX_K_ENV_SET: case GX_K_SYS_ALLOW:
		case GX_K_SYS_DENY: case GX_K_PATHS: case GX_K_ISO:
		case GX_K_WARN: case GX_K_RULE: case GX_K_LOG:
			break;
		}
	}
}

/* version and name: required. */
static void
parse_top(struct gx_parse *ps, const config_setting_t *root)
{
	config_setting_t *s;
	const char *v;

	if ((s = config_setting_get_member(root, "version")) == NULL) {
		diag_add(ps->diag, "%s:1: version: missing (add \"version = "
		    "1;\")", ps->file);
		ps->errors++;
	} else if (!value_is_int(s) || config_setting_get_int(s) != 1) {
		value_err(ps, s, "version", "only version 1 is known");
	} else {
		ps->pol->version = 1;
	}
	if ((s = config_setting_get_member(root, "name")) == NULL) {
		diag_add(ps->diag, "%s:1: name: missing (add \"name = "
		    "\\\"...\\\";\")", ps->file);
		ps->errors++;
	} else if ((v = value_string(ps, s, "name")) != NULL && v[0] == '\0') {
		value_err(ps, s, "name", "must not be empty");
	} else if (v != NULL) {
		ps->pol->name = xstrdup(v);
	}
}

int
policy_load_stream(FILE *f, const char *display, const char *dir,
    const char *sha256, struct gx_policy *pol, struct gx_diag *diag)
{
	struct gx_parse ps = { display, dir, diag, pol, 0, NULL };
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
	check_group(&ps, root, NULL);
	if (sha256 != NULL)
		strlcpy(pol->sha256, sha256, sizeof(pol->sha256));
	pol->dir = xstrdup(dir);
	parse_top(&ps, root);
	for (size_t i = 0; gx_groups[i].name != NULL; i++)
		if ((s = config_setting_get_member(root, gx_groups[i].name)))
			parse_group(&ps, s, &gx_groups[i]);
	config_destroy(&cfg);
	if (ps.errors > 0) {
		policy_free(pol);
		return -1;
	}
	return 0;
}
