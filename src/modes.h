/* SPDX-License-Identifier: ISC */
#ifndef GX_MODES_H
#define GX_MODES_H

#include "state.h"

/*
 * --trust FILE (@st->opts.trust): show it, what changed since it was
 * last trusted, and record its sha256 in @st->store.  Returns the exit
 * status (0, or 125 with the errors printed).
 */
int mode_trust(struct gx_state *st);

/*
 * --check, after the decide phase: the effective policy, the trust
 * state, the command (@lookup_rc: sys_lookup_command's) with its
 * environment and advisories, the namespaces this kernel grants, and
 * notices (allow/deny overlaps, root without command.user).  Runs
 * nothing; dies if stdout fails.
 */
void mode_check(struct gx_state *st, int lookup_rc);

/*
 * --init [DIR]: write a starter policy (sys_init_policy).  Returns the
 * exit status (0, or 125 with the error printed).
 */
int mode_init(struct gx_state *st);

#endif
