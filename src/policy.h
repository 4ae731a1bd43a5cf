/* SPDX-License-Identifier: ISC */
#ifndef GX_POLICY_H
#define GX_POLICY_H

#include <regex.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "rlimits.h"
#include "log.h"

/*
 * A validated policy as plain data.  libconfig stays inside policy.c.
 * Paths are absolute (relative ones were resolved against the policy
 * file's directory), except write entries equal to "." which mean the
 * run's working directory and are kept as ".".
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

/* The isolation.require names, indexed by bit number; NULL-terminated. */
extern const char *const gx_iso_names[];

struct gx_advisory_rule {
	char *match;            /* substring, or NULL */
	char *regex;            /* POSIX ERE source, or NULL */
	regex_t re;             /* compiled when regex != NULL */
	char *reason;
};

struct gx_policy {
	char *path;             /* absolute path of the policy file */
	char *dir;              /* its directory */
	char sha256[65];        /* hex sha256 of the file's bytes */
	int version;
	char *name;

	enum gx_stdin stdin_mode;
	char *user;             /* command.user or NULL */

	bool has_env;
	char **env_allow;       /* patterns, NULL-terminated */
	char **env_set;         /* "NAME=value", NULL-terminated */

	struct gx_limits limits;

	uint64_t max_bytes;     /* 0 = no cap */
	enum gx_overflow on_overflow;
	enum gx_keep keep;

	bool has_syscalls;
	enum gx_action default_action;
	int sys_errno;
	char **sys_allow;       /* expanded, sorted, deny removed */
	char **sys_allow_src;   /* as written (groups unexpanded) */
	char **sys_deny;

	bool has_filesystem;
	char **fs_read;
	char **fs_write;
	enum gx_tmp fs_tmp;     /* filesystem.tmp */

	enum gx_net network;
	unsigned iso_require;   /* enum gx_iso bits */

	struct gx_advisory_rule *advisory;
	size_t n_advisory;

	char *audit_log;        /* NULL: the built-in default */
	bool audit_syslog;
	int audit_facility;     /* LOG_AUTHPRIV etc. */
	char *audit_facility_name;
	enum gx_logfail on_log_failure;
	bool audit_sync;
};

/*
 * Read, parse and validate the policy at @path.  Every problem found is
 * added to @diag as "FILE:LINE: key: message"; on any problem the return
 * is -1 and @pol is left empty (policy_free-able).  @privileged makes
 * the file-permission checks of guardexec(1) apply.  Returns 0 on success.
 */
int policy_load(const char *path, bool privileged, struct gx_policy *pol,
    struct gx_diag *diag);

/*
 * The same from an open stream (used by policy_load and by the tests);
 * @display is the name used in messages, @dir the directory relative
 * paths resolve against, @sha256 the hex digest recorded (may be NULL).
 */
int policy_load_stream(FILE *f, const char *display, const char *dir,
    const char *sha256, struct gx_policy *pol, struct gx_diag *diag);

/* Release everything @pol owns; leaves it zeroed. */
void policy_free(struct gx_policy *pol);

/*
 * Print the effective policy (defaults filled in, groups expanded) in
 * libconfig syntax to @out.  @allow_override replaces syscalls.allow
 * when non-NULL (used by --learn).
 */
void policy_print(const struct gx_policy *pol, FILE *out,
    char *const *allow_override);

/*
 * Advisory matches of @argv (joined with single spaces).  Returns a
 * NULL-terminated array of pointers into pol->advisory (caller frees the
 * array only), never NULL.
 */
const struct gx_advisory_rule **advisory_match(const struct gx_policy *pol,
    char *const *argv);

/*
 * --learn: write to @out_path the policy @pol as loaded (never the file
 * as it is now, which the command may have rewritten), printed as by
 * policy_print(), with syscalls.allow replaced by the sorted union of
 * its list as written and @used.  Paths are absolute (so the new file
 * works from any directory).  Comments are not kept.  Returns 0, or -1
 * with a message in @diag.
 */
int policy_write_learned(const struct gx_policy *pol, char *const *used,
    const char *out_path, struct gx_diag *diag);

/* Map a syslog facility name ("authpriv", "local0"...) to LOG_*; -1. */
int policy_facility_from_name(const char *name);

#endif
