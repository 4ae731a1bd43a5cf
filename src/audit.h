/* SPDX-License-Identifier: ISC */
#ifndef GX_AUDIT_H
#define GX_AUDIT_H

/*
 * The audit module, in three rooms (src/libgxaudit.a, which
 * guardexec-audit links alone, without the supervisor):
 *   record.h    the record built from a run, syslog's compacted copy
 *   chain.h     the hash chain: format a line, check a line
 *   auditlog.h  the local log: open, append under flock(), head anchor
 */
#include "auditlog.h"
#include "chain.h"
#include "record.h"

#endif
