/* SPDX-License-Identifier: ISC */
#include <string.h>

#include "outcome.h"

const char *const gx_ns_names[] = { "user", "pid", "mount", "ipc", "net",
	NULL };

void
outcome_limit_reached(struct gx_outcome *o, const char *name)
{
	for (size_t i = 0; i < o->n_limits_hit; i++)
		if (strcmp(o->limits_hit[i], name) == 0)
			return;
	if (o->n_limits_hit < GX_MAX_LIMITS)
		o->limits_hit[o->n_limits_hit++] = name;
}

const char *
outcome_status_name(enum gx_status s)
{
	switch (s) {
	case GX_STATUS_EXITED: return "exited";
	case GX_STATUS_SIGNALED: return "signaled";
	case GX_STATUS_TIMEOUT: return "timeout";
	case GX_STATUS_EXEC_FAILED: return "exec_failed";
	case GX_STATUS_REFUSED: return "refused";
	}
	return "refused";
}
