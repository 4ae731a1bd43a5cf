/* SPDX-License-Identifier: ISC */
#ifndef GX_MECHANISMS_H
#define GX_MECHANISMS_H

#include <stdbool.h>

#include "log.h"
#include "state.h"

/*
 * Prepare the mechanisms of this run and check them: sandbox_prepare
 * (Landlock, namespaces, network, command.user), cgroup_prepare, then
 * isolation.require and a root caller's need of a mount namespace (a
 * refusal: emit_refuse, record, exit 125); notices where namespaces are
 * missing.  Last, how limits.processes and limits.memory hold: sets
 * @st->proc_by, @st->mem_by and @st->processes_policy, and raises
 * limits.processes by the tasks the user already runs where
 * RLIMIT_NPROC enforces it.
 */
void mechanisms_decide(struct gx_state *st, struct gx_diag *d);

/*
 * Does this run need a mount namespace (a root caller's command with a
 * filesystem group and no command.user)?
 */
bool mechanisms_need_mount_ns(const struct gx_state *st);

#endif
