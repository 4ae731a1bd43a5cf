/* SPDX-License-Identifier: ISC */
#include "outcome.h"

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
