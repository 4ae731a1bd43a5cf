/* SPDX-License-Identifier: ISC */
#ifndef GX_DECIDE_H
#define GX_DECIDE_H

#include "log.h"
#include "state.h"

/*
 * @st->cwd: the real path of -C, else the caller's working directory;
 * on failure a refusal (emit_refuse: record, exit 125).
 */
void decide_cwd(struct gx_state *st, struct gx_diag *d);

/*
 * The run's write paths, "." made the working directory, with every
 * symlink resolved.  Returns a malloc'd NULL-terminated vector
 * (strv_free), or NULL when there are none.
 */
char **decide_write_paths(const struct gx_state *st);

/*
 * Guarantee 12: a policy the command could change (inside a write path
 * of the run, or not owned by root or the caller) runs only if the
 * caller trusted its exact bytes with --trust.  The trust store itself
 * must lie outside every write path.  Sets @st->policy_writable and
 * @st->trusted ("owner", "hash"); 0, or -1 with a message in @d.
 */
int decide_trust(struct gx_state *st, struct gx_diag *d);

#endif
