/* SPDX-License-Identifier: ISC */
#ifndef GX_MECHANISMS_H
#define GX_MECHANISMS_H

#include <stdbool.h>

#include "log.h"
#include "state.h"

/*
 * isolation.require: refuse (emit_refuse: record, exit 125) when a
 * required mechanism is not in force for this run (@st->sb, @st->cg).
 */
void mechanisms_require(struct gx_state *st, struct gx_diag *d);

/*
 * How limits.processes and limits.memory hold for this run: sets
 * @st->proc_by, @st->mem_by and @st->processes_policy, and raises
 * limits.processes by the tasks the user already runs where
 * RLIMIT_NPROC enforces it.  May add a notice.
 */
void mechanisms_limits(struct gx_state *st);

/*
 * Does this run need a mount namespace (a root caller's command with a
 * filesystem group and no command.user)?
 */
bool mechanisms_need_mount_ns(const struct gx_state *st);

#endif
