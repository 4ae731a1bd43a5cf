/* SPDX-License-Identifier: ISC */
#ifndef GX_EMIT_H
#define GX_EMIT_H

#include <stdbool.h>

#include "log.h"
#include "outcome.h"
#include "state.h"

/*
 * Open --result (@st->opts.result) into @st->result_fd: /dev/stdout,
 * /dev/stderr and /dev/fd/N are duplicated, anything else is opened
 * O_NOFOLLOW, regular files only, truncated.  0, or -1 with a message in
 * @d.
 */
int emit_open_result(struct gx_state *st, struct gx_diag *d);

/*
 * Open the local audit log (-l, audit.log, else the default path) into
 * @st->log.  On failure, on_log_failure decides: "refuse" calls
 * emit_refuse() (exit 125), "warn" adds notices and goes on without it.
 */
void emit_open_log(struct gx_state *st, struct gx_diag *d);

/*
 * Build, chain and emit the record of @st and @o (NULL: nothing ran)
 * with @error (NULL: none): local log, --result, syslog.  Returns false
 * when the local log could not be written (said on stderr).
 */
bool emit(struct gx_state *st, const struct gx_outcome *o,
    const char *error);

/* Refuse before the run: print @d, emit a record, exit 125. */
void emit_refuse(struct gx_state *st, struct gx_diag *d)
    __attribute__((noreturn));

#endif
