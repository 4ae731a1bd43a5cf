/* SPDX-License-Identifier: ISC */
#ifndef GX_POLICY_NAMES_H
#define GX_POLICY_NAMES_H

/*
 * The policy's enumerations and the one table of names for each: the
 * parser, the printer, the --init template, the filter and the record
 * all look names up here, by value, never by indexing an array with an
 * enum.  Pure data; no dependencies.
 */

enum gx_stdin { GX_STDIN_NULL, GX_STDIN_INHERIT };
enum gx_overflow { GX_OVERFLOW_TRUNCATE, GX_OVERFLOW_KILL };
enum gx_keep { GX_KEEP_HEAD, GX_KEEP_HEAD_TAIL };
enum gx_action { GX_ACTION_ERRNO, GX_ACTION_KILL, GX_ACTION_LOG };
enum gx_net { GX_NET_ALL, GX_NET_NONE };
enum gx_logfail { GX_LOGFAIL_REFUSE, GX_LOGFAIL_WARN };
enum gx_tmp { GX_TMP_SHARED, GX_TMP_PRIVATE };

/* isolation.require: mechanisms whose absence refuses the run (bits). */
enum gx_iso {
	GX_ISO_USER = 1 << 0,
	GX_ISO_PID = 1 << 1,
	GX_ISO_MOUNT = 1 << 2,
	GX_ISO_NETWORK = 1 << 3,
	GX_ISO_CGROUP = 1 << 4,
	GX_ISO_LANDLOCK = 1 << 5,
};

/* One name of an enumeration; a table ends with a NULL name. */
struct gx_name {
	const char *name;
	int value;
};

/* In the order the policy's diagnostics list them. */
extern const struct gx_name gx_stdin_names[];
extern const struct gx_name gx_overflow_names[];
extern const struct gx_name gx_keep_names[];
extern const struct gx_name gx_action_names[];
extern const struct gx_name gx_net_names[];
extern const struct gx_name gx_logfail_names[];
extern const struct gx_name gx_tmp_names[];
extern const struct gx_name gx_facility_names[];   /* value: LOG_* */

/* The isolation.require names, indexed by bit number; NULL-terminated. */
extern const char *const gx_iso_names[];

/* The name of @value in @table, or "?" when it has none (pure). */
const char *policy_name_of(const struct gx_name *table, int value);

/*
 * The value named @name in @table (exact, case-sensitive), or -1 when
 * there is none (pure).
 */
int policy_value_of(const struct gx_name *table, const char *name);

/* Map a syslog facility name ("authpriv", "local0"...) to LOG_*; -1. */
int policy_facility_from_name(const char *name);

#endif
