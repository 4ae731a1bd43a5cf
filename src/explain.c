/* SPDX-License-Identifier: ISC */
/*
 * Every refusal explains itself (issue 15): the notices a finished run
 * adds to its record and, unless -q, to stderr.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "explain.h"
#include "filter.h"
#include "fswatch.h"
#include "util.h"

/* @v bytes the way a policy writes a size: "2G", "512M", "64K", "100". */
static void
format_size(uint64_t v, char *buf, size_t len)
{
	static const char units[] = "GMK";

	for (int i = 0; i < 3; i++) {
		uint64_t u = 1ULL << (10 * (3 - i));

		if (v >= u && v % u == 0) {
			snprintf(buf, len, "%llu%c", (unsigned long long)(v / u),
			    units[i]);
			return;
		}
	}
	snprintf(buf, len, "%llu", (unsigned long long)v);
}

/*
 * Why was @dn refused?  The deny entry that did it, or the group that
 * would allow it.  The "denied: NAME" prefix stays, for grep.
 */
static void
explain_denial(struct gx_state *st, const struct gx_denial *dn)
{
	const struct gx_policy *pol = &st->pol;
	const char *g, *let = pol->default_action == GX_ACTION_LOG ?
	    "; let through (default_action = \"log\")" : "";

	if (strv_contains(pol->sys_deny, dn->name))
		notice(st, "denied: %s (x%lu) by syscalls.deny", dn->name,
		    dn->count);
	else if ((g = filter_group_of(dn->name, pol->sys_deny)) != NULL)
		notice(st, "denied: %s (x%lu) by syscalls.deny (%s)", dn->name,
		    dn->count, g);
	else if ((g = filter_group_of(dn->name, NULL)) != NULL)
		notice(st, "denied: %s (x%lu): not in syscalls.allow (%s or "
		    "\"%s\" would allow it)%s", dn->name, dn->count, g,
		    dn->name, let);
	else
		notice(st, "denied: %s (x%lu): not in syscalls.allow (\"%s\" "
		    "would allow it)%s", dn->name, dn->count, dn->name, let);
}

/*
 * Every refusal explains itself (issue 15): the timeout, the limit that
 * ended the run, the output cap, each denied syscall.  On stderr unless
 * -q, and in the record's notices.
 */
void
explain_outcome(struct gx_state *st, const struct gx_outcome *o, bool learn)
{
	const struct gx_limits *l = &st->pol.limits;
	const char *hit = o->limit_hit, *end;
	char v[64];

	end = o->status == GX_STATUS_SIGNALED ? ": killed" : "";
	if (o->timed_out) {
		notice(st, "timed out after %g s (limits.timeout)", l->timeout);
	} else if (hit != NULL && strcmp(hit, "memory") == 0) {
		format_size(l->memory.value, v, sizeof(v));
		notice(st, "memory limit (%s) reached%s", v, end);
	} else if (hit != NULL && strcmp(hit, "processes") == 0) {
		notice(st, "processes limit (%llu) reached%s",
		    (unsigned long long)st->processes_policy, end);
	} else if (hit != NULL && strcmp(hit, "cpu") == 0) {
		notice(st, "cpu limit (%llu s) reached%s",
		    (unsigned long long)l->cpu.value, end);
	} else if (hit != NULL && strcmp(hit, "file_size") == 0) {
		format_size(l->file_size.value, v, sizeof(v));
		notice(st, "file_size limit (%s) reached%s", v, end);
	} else if (hit != NULL && strcmp(hit, "output") == 0) {
		if (st->pol.on_overflow == GX_OVERFLOW_KILL)
			notice(st, "output limit (%llu bytes, output.max_bytes) "
			    "reached: killed",
			    (unsigned long long)st->pol.max_bytes);
		else    /* the marker line already said so on stderr */
			st->notices = strv_append(st->notices, "output "
			    "truncated (output.max_bytes)");
	}
	for (size_t i = 0; !learn && i < o->n_denied; i++)
		explain_denial(st, &o->denied[i]);
	for (size_t i = 0; i < o->n_fs_denied; i++) {
		char *msg = fswatch_explain(&o->fs_denied[i]);

		notice(st, "%s", msg);
		free(msg);
	}
}
