/* SPDX-License-Identifier: ISC */
#ifndef GX_AUDIT_H
#define GX_AUDIT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "log.h"

struct gx_outcome;
struct gx_policy;
struct gx_env;
struct gx_advisory_rule;

/*
 * The audit record: built once from a run (audit_build), formatted with
 * its place in the hash chain (audit_format), appended to the local log
 * under a lock (audit_log_append), and sent to syslog compacted.
 * The chain: "hash" is the last key, the lowercase hex sha256 of the
 * line's bytes before ',"hash":"'; "prev" is the previous line's hash,
 * or 64 zeros for the first line of a chain.
 */

#define GX_ZERO_HASH \
	"0000000000000000000000000000000000000000000000000000000000000000"

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
	const char *limits_processes;       /* how processes holds, or NULL */
	const char *limits_memory;          /* how memory holds, or NULL */
	bool policy_writable;
	bool learn;                         /* --learn run */
};

/*
 * Build the record object (without "prev" and "hash").  Strings that are
 * not valid UTF-8 are stored with U+FFFD replacements, and their exact
 * bytes in hex in a sibling "<field>_hex" (for argv: "argv_hex", an
 * object from index to hex).  Returns a new reference; dies on OOM.
 */
json_t *audit_build(const struct gx_record_in *in);

/*
 * The complete log line for @rec chained to @prev (64 hex chars): one
 * line, ending in "\n", "hash" last.  Returns a malloc'd string.
 * Adds "prev" to @rec.
 */
char *audit_format(json_t *rec, const char *prev);

/*
 * Check one line (without its newline) on its own: parses as a JSON
 * object, "hash" last and equal to the sha256 of the bytes before it.
 * On success fills @prev and @hash (65 bytes each) and returns 0; on
 * failure returns -1 with a reason in @why (static string).
 */
int audit_check_line(const char *line, size_t len, char *prev, char *hash,
    const char **why);

/*
 * The same check without parsing the JSON: the line's shape ("{" ...
 * ',"prev":"<64 hex>","hash":"<64 hex>"}', the way audit_format writes
 * it) and the hash over its bytes.  Any edit of a line guardexec wrote
 * still fails (the hash); what it cannot see is a line forged with a
 * recomputed hash that is not JSON, which audit_check_line rejects.
 */
int audit_check_line_fast(const char *line, size_t len, char *prev,
    char *hash, const char **why);

/* An open local log, checked usable before the run. */
struct gx_log {
	int fd;
	int head_fd;            /* "<path>.head", or -1 */
	char *path;
};

/*
 * Open (creating 0600) the log at @path for appending: O_APPEND,
 * O_NOFOLLOW (a symlink is refused), O_CLOEXEC.  A missing parent
 * directory is created 0700 when its own parent exists (all missing
 * ones with @mkdir_parents).  A full filesystem counts as unusable.
 * Returns 0 or -1 with errno and a message in @diag.
 */
int audit_log_open(struct gx_log *log, const char *path, bool mkdir_parents,
    struct gx_diag *diag);

/*
 * Append @rec to the log: under flock(), read the previous hash from the
 * file's tail, format, write() the line at once, fdatasync when @sync.
 * A torn last line (a crash mid-write) starts a new chain segment: the
 * record gets "chain_restart" and prev = zeros.  A short write is cut
 * back off so no torn record stays.  *@line_out gets the line written
 * (malloc'd).  Returns 0 or -1 with errno and a message in @diag.
 */
int audit_log_append(struct gx_log *log, json_t *rec, bool sync,
    char **line_out, struct gx_diag *diag);

void audit_log_close(struct gx_log *log);

/*
 * The head anchor: "<log>.head" holds the hash of the log's last line,
 * rewritten under the log's lock by every append, so that a log cut
 * short (its last lines deleted) no longer matches it.  Reads it into
 * @hash (65 bytes); returns 0, or -1 with errno (ENOENT: no anchor).
 */
int audit_head_read(const char *log_path, char *hash);

/*
 * Send the record to syslog as "@cee: {json}", compacted to at most
 * 4 KiB by shortening argv and the env lists.  Priority NOTICE for
 * refusals, denials, timeouts and advisories, INFO otherwise.
 */
void audit_syslog(json_t *rec, int facility);

/* Compacted JSON text of @rec for syslog (exposed for tests). */
char *audit_compact(json_t *rec, size_t max);

#endif
