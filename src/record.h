/* SPDX-License-Identifier: ISC */
#ifndef GX_RECORD_H
#define GX_RECORD_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

struct gx_outcome;
struct gx_policy;
struct gx_env;
struct gx_advisory_rule;

/*
 * The audit record: built once from a run (audit_build), then chained
 * and written by auditlog.h, and sent to syslog compacted.
 */

/* Everything that goes into one record besides the outcome. */
struct gx_record_in {
	char *const *argv;
	const char *cwd;
	const char *exec_path;              /* resolved, or NULL */
	const struct gx_policy *pol;        /* NULL: the policy failed */
	const char *policy_path;            /* as given, when pol is NULL */
	const struct gx_env *env;           /* NULL: not built */
	const struct gx_advisory_rule *const *advisory;  /* may be NULL */
	const struct gx_outcome *outcome;   /* NULL: refused before the run */
	const char *error;                  /* why refused / exec failed */
	const char *isolation_fs, *isolation_net, *isolation_cgroup,
	    *isolation_user;
	const char *isolation_cgroup_why;   /* why cgroup is null */
	unsigned isolation_ns_wanted;       /* GX_NS_* asked for (ns.h) */
	const char *isolation_ns_why;       /* why some did not apply */
	const char *limits_processes;       /* how processes holds, or NULL */
	const char *limits_memory;          /* how memory holds, or NULL */
	bool policy_writable;
	const char *policy_trusted;         /* "owner" | "hash" | NULL */
	char *const *notices;               /* guardexec's own warnings */
	bool learn;                         /* --learn run */
};

/*
 * Build the record object (without "prev" and "hash").  Strings that are
 * not valid UTF-8 are stored with U+FFFD replacements, and their exact
 * bytes in hex in a sibling "<field>_hex" (for argv: "argv_hex", an
 * object from index to hex).  Returns a new reference; never fails but
 * on OOM (dies).
 */
json_t *audit_build(const struct gx_record_in *in);

/*
 * Send the record to syslog as "@cee: {json}", compacted to at most
 * 4 KiB by shortening argv and the env lists.  Priority NOTICE for
 * refusals, denials, timeouts and advisories, INFO otherwise.
 */
void audit_syslog(json_t *rec, int facility);

/* Compacted JSON text of @rec for syslog (exposed for tests). */
char *audit_compact(json_t *rec, size_t max);

#endif
