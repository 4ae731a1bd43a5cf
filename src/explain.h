/* SPDX-License-Identifier: ISC */
#ifndef GX_EXPLAIN_H
#define GX_EXPLAIN_H

#include <stdbool.h>

#include "outcome.h"
#include "state.h"

/*
 * Explain how the run @o ended, as notice()s of @st: the timeout, the
 * limit that ended it, the output cap and (unless @learn) each denied
 * syscall with the policy entry that refused it.
 */
void explain_outcome(struct gx_state *st, const struct gx_outcome *o,
    bool learn);

#endif
