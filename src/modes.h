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
 * --check: print the effective policy, the trust state and, with a
 * command, its resolved path (@lookup_rc: sys_lookup_command's), the
 * environment names and the advisory matches.  Dies if stdout fails.
 */
void mode_print_check(struct gx_state *st, int lookup_rc);

/*
 * --check: a notice where syscalls.allow and syscalls.deny overlap
 * (deny wins, so the allow entry does nothing for those).
 */
void mode_check_overlap(struct gx_state *st);

#endif
