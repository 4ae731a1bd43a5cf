/* SPDX-License-Identifier: ISC */
#ifndef GX_POLICY_H
#define GX_POLICY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "advisory.h"
#include "log.h"
#include "policy_names.h"
#include "rlimits.h"

/*
 * A validated policy as plain data.  libconfig stays inside the policy
 * modules: policy_load.c (the file and its guards), policy_parse.c (the
 * keys, by the table in policy_keys.c), policy_print.c (--check, --learn,
 * --init); the enum names are in policy_names.h, matching in advisory.h.
 * Paths are absolute (relative ones were resolved against the policy
 * file's directory), except write entries equal to "." which mean the
 * run's working directory and are kept as ".".
 */

struct gx_policy {
	char *path;             /* absolute path of the policy file */
	char *dir;              /* its directory */
	char sha256[65];        /* hex sha256 of the file's bytes */
	char *text;             /* those bytes (policy_load), or NULL: */
	size_t text_len;        /*   --learn keeps their comments */
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
 * --learn: write to @out_path the policy @pol as loaded (never the file
 * as it is now, which the command may have rewritten), printed as by
 * policy_print(), with syscalls.allow replaced by the sorted union of
 * its list as written and @used, and @reads and @writes (may be NULL)
 * added to filesystem.read and filesystem.write (a comment says which).
 * Paths are absolute (so the new file works from any directory).  The
 * comments of the loaded bytes (pol->text) are kept, each above the
 * setting it stood above or beside (those of a setting not printed at
 * the end).  Returns 0, or -1 with a message in @diag.
 */
int policy_write_learned(const struct gx_policy *pol, char *const *used,
    char *const *reads, char *const *writes, const char *out_path,
    struct gx_diag *diag);

/*
 * --init: write the starter policy to @out, generated from the key table:
 * every key with a template value, each with its one-line doc as a
 * comment.  @name is the policy's name, @reads the filesystem.read list
 * (the directories this machine has).
 */
void policy_print_template(FILE *out, const char *name, char *const *reads);

#endif
