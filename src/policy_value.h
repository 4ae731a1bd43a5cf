/* SPDX-License-Identifier: ISC */
#ifndef GX_POLICY_VALUE_H
#define GX_POLICY_VALUE_H

#include <libconfig.h>
#include <stdbool.h>
#include <stdint.h>

#include "policy.h"

/*
 * Inside the policy modules only: the parser's state and the typed
 * readers of one libconfig setting.  Each reader reports a problem as
 * "FILE:LINE: KEY: message" into the state's diag and counts it; none
 * prints or exits.
 */

/* Parser state: no globals, one per load (minijail's parser_state). */
struct gx_parse {
	const char *file;       /* as named on the command line */
	const char *dir;        /* relative paths resolve here */
	struct gx_diag *diag;
	struct gx_policy *pol;
	int errors;
	const config_setting_t *max_bytes;   /* for a check across keys */
};

/* Add "FILE:LINE: KEY: message" (line 0 when @s is NULL); count it. */
void value_err(struct gx_parse *ps, const config_setting_t *s,
    const char *key, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* "an integer", "a string"... for messages. */
const char *value_type_name(const config_setting_t *s);

bool value_is_int(const config_setting_t *s);

/* The string, or NULL (reported) when @s is not a string. */
const char *value_string(struct gx_parse *ps, const config_setting_t *s,
    const char *key);

/* 0 and *out, or -1 (reported). */
int value_bool(struct gx_parse *ps, const config_setting_t *s,
    const char *key, bool *out);

/* The value of the name @s holds among @choices, or -1 (reported). */
int value_enum(struct gx_parse *ps, const config_setting_t *s,
    const char *key, const struct gx_name *choices);

/* A size (an integer, or a string like "512M"): 0 and *out, or -1. */
int value_size(struct gx_parse *ps, const config_setting_t *s,
    const char *key, uint64_t *out);

/*
 * A duration (an integer or float of seconds, or a string like "10m"),
 * not negative and at most a year: 0 and *out, or -1 (reported).
 */
int value_seconds(struct gx_parse *ps, const config_setting_t *s,
    const char *key, double *out);

/*
 * An array or list of strings: @each is called with every string element
 * (other elements are reported).  Returns 0, or -1 (reported) when @s is
 * not a list.
 */
int value_strings(struct gx_parse *ps, const config_setting_t *s,
    const char *key, void (*each)(struct gx_parse *,
    const config_setting_t *, const char *, const char *, void *),
    void *arg);

/*
 * A variable name (letters, digits, _); with @pattern, an optional
 * trailing * (a prefix match).
 */
bool value_env_name(const char *n, bool pattern);

/*
 * Element checkers for value_strings(); each reports a bad element and
 * adds a good one.  env.allow: a name or NAME* (to pol->env_allow);
 * syscalls: a known name or @group (to the char ** at @arg, once);
 * paths: resolved against the policy's directory, must exist ("." kept)
 * (to the char ** at @arg, once); isolation.require: a mechanism name
 * (a bit of pol->iso_require).
 */
void value_add_env_allow(struct gx_parse *ps, const config_setting_t *e,
    const char *key, const char *v, void *arg);
void value_add_syscall(struct gx_parse *ps, const config_setting_t *e,
    const char *key, const char *v, void *arg);
void value_add_path(struct gx_parse *ps, const config_setting_t *e,
    const char *key, const char *v, void *arg);
void value_add_iso(struct gx_parse *ps, const config_setting_t *e,
    const char *key, const char *v, void *arg);

/* Sort the NULL-terminated @v in place (strcmp order). */
void value_sort(char **v);

#endif
