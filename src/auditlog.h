/* SPDX-License-Identifier: ISC */
#ifndef GX_AUDITLOG_H
#define GX_AUDITLOG_H

#include <jansson.h>
#include <stdbool.h>

#include "log.h"

/*
 * The local audit log: opened (and checked usable) before the run,
 * appended to under flock() after it, with its head anchor "<log>.head".
 */

/* An open local log. */
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
 * @hash (65 bytes); returns 0, or -1 with errno (ENOENT: no anchor,
 * ENODATA: an empty anchor, EINVAL: not a hash, ENOMEM).  Never exits.
 */
int audit_head_read(const char *log_path, char *hash);

/*
 * The log guardexec writes when neither the policy nor -l names one:
 * /var/log/guardexec/audit.log for root, else
 * $XDG_STATE_HOME/guardexec/audit.log or
 * $HOME/.local/state/guardexec/audit.log.  Returns a malloc'd path, or
 * NULL when neither variable holds an absolute path.
 */
char *audit_log_default_path(void);

#endif
