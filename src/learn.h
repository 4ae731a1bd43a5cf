/* SPDX-License-Identifier: ISC */
#ifndef GX_LEARN_H
#define GX_LEARN_H

#include "log.h"
#include "outcome.h"
#include "state.h"

/*
 * --learn @out must not be a symlink or anything but a regular file: say
 * so before the run rather than after it.  0, or -1 with a message in @d.
 */
int learn_check_out(const char *out, struct gx_diag *d);

/*
 * Write the learned policy (@st's policy, its syscalls.allow joined by
 * what @out saw) to --learn OUT through a new file renamed over it, and
 * trust it when the input policy needed trust and is unchanged.  Errors
 * are printed, never fatal.
 */
void learn_write(struct gx_state *st, const struct gx_outcome *out);

#endif
