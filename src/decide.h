/* SPDX-License-Identifier: ISC */
#ifndef GX_DECIDE_H
#define GX_DECIDE_H

#include "log.h"
#include "state.h"

/*
 * The decide phase: @st->cwd (-C, else the caller's), the command's
 * environment, its path on that PATH, the advisory matches and the trust
 * decision (guarantee 12: sets @st->policy_writable, @st->trusted).  A
 * refusal (a bad -C, an untrusted policy) is emit_refuse: record, exit
 * 125; under --check an untrusted policy is a notice instead.  Returns
 * sys_lookup_command's result (0, -ENOENT, -EACCES), 0 with no command.
 */
int decide_run(struct gx_state *st, struct gx_diag *d);

/*
 * The run's write paths, "." made the working directory, with every
 * symlink resolved.  Returns a malloc'd NULL-terminated vector
 * (strv_free), or NULL when there are none.
 */
char **decide_write_paths(const struct gx_state *st);

#endif
