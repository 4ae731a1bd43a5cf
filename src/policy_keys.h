/* SPDX-License-Identifier: ISC */
#ifndef GX_POLICY_KEYS_H
#define GX_POLICY_KEYS_H

#include <stddef.h>

/*
 * The one declarative list of policy keys (nsjail's config.proto idea):
 * every group and key, its kind, range, default and a one-line doc.
 * The parser (policy_parse.c) validates by it, --check's printer and
 * --learn (policy_print.c) print by it, --init's template is generated
 * from it, unknown keys are matched against it, and a unit test checks
 * that guardexec.cfg(5) documents every entry with the same type.
 * Pure data.
 */

/* How a key's value is read, stored and printed. */
enum gx_kind {
	GX_K_VERSION,           /* top level: the integer 1 */
	GX_K_NAME,              /* top level: a non-empty string */
	GX_K_ENUM,              /* a string of @choices -> int at @off */
	GX_K_BOOL,              /* bool at @off */
	GX_K_DURATION,          /* seconds -> double at @off, at most @max */
	GX_K_CPU,               /* seconds, rounded up -> gx_rlimit_val */
	GX_K_COUNT,             /* integer @min..@max -> gx_rlimit_val */
	GX_K_RSIZE,             /* size, at least @min -> gx_rlimit_val */
	GX_K_SIZE,              /* size -> uint64_t at @off */
	GX_K_USER,              /* command.user: an existing user */
	GX_K_ENV_ALLOW,         /* env.allow: variable names or NAME* */
	GX_K_ENV_SET,           /* env.set: a group of NAME = "value" */
	GX_K_SYS_ALLOW,         /* syscalls.allow: names and @groups */
	GX_K_SYS_DENY,          /* syscalls.deny: names and @groups */
	GX_K_ERRNO,             /* syscalls.errno: a name or 1..4095 */
	GX_K_PATHS,             /* a list of paths -> char ** at @off */
	GX_K_ISO,               /* isolation.require: mechanism names */
	GX_K_WARN,              /* advisory.warn: a list of rules */
	GX_K_RULE,              /* a member of an advisory.warn rule */
	GX_K_LOG,               /* audit.log: a path */
	GX_K_FACILITY,          /* audit.facility: a syslog facility */
};

struct gx_name;

struct gx_key {
	const char *group;      /* "limits"; NULL: top level */
	const char *name;       /* "timeout" */
	enum gx_kind kind;
	const char *type;       /* as guardexec.cfg(5) writes it */
	size_t off;             /* offsetof(struct gx_policy, ...) */
	const struct gx_name *choices;   /* GX_K_ENUM */
	double min, max;        /* range, where the kind has one */
	const char *def;        /* the default as a value, or NULL: none */
	const char *doc;        /* one line */
	const char *init;       /* the --init template's value, or NULL */
};

struct gx_group {
	const char *name;
	const char *doc;        /* one line, the --init template's comment */
	long has_off;           /* offsetof the "group present" bool, or -1 */
	const char *absent;     /* --check's line when absent, or NULL */
};

/* In the order they are checked and printed; each ends with a NULL name. */
extern const struct gx_key gx_keys[];
extern const struct gx_group gx_groups[];

/* The key @name of @group (NULL: top level), or NULL (pure). */
const struct gx_key *policy_key_find(const char *group, const char *name);

/*
 * The known key of @group (NULL: top level, where group names count as
 * keys) nearest to the unknown @name: at most two edits (a swap of
 * neighbours is one), and fewer than half of @name's letters; NULL when
 * none is that close (pure).
 */
const char *policy_key_nearest(const char *group, const char *name);

/*
 * The key named exactly @name in another group than @group (a key
 * written in the wrong group, such as a top-level "timeout"), when
 * exactly one group has it; else NULL (pure).
 */
const struct gx_key *policy_key_elsewhere(const char *group,
    const char *name);

#endif
