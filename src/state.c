/* SPDX-License-Identifier: ISC */
/* The run state of one invocation: see state.h. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "state.h"
#include "util.h"

void
state_init(struct gx_state *st)
{
	*st = (struct gx_state){ .result_fd = -1 };
	st->sb.landlock_fd = -1;
	st->log.fd = -1;
	st->log.head_fd = -1;
	for (int c = 0; c < GX_CG_N; c++)
		st->cg.procs_fd[c] = -1;
}

void
notice(struct gx_state *st, const char *fmt, ...)
{
	va_list ap;
	char *m;

	va_start(ap, fmt);
	if (vasprintf(&m, fmt, ap) < 0)
		die("out of memory");
	va_end(ap);
	st->notices = strv_append(st->notices, m);
	if (!st->opts.quiet)
		warnx_gx("%s", m);
	free(m);
}

void
state_free(struct gx_state *st)
{
	free(st->policy_path);
	free(st->store);
	strv_free(st->notices);
	cgroup_destroy(&st->cg);
	sandbox_free(&st->sb);
	audit_log_close(&st->log);
	free(st->adv);
	free(st->exec_path);
	free(st->cwd);
	if (st->have_env)
		env_free(&st->env);
	if (st->have_policy)
		policy_free(&st->pol);
	if (st->result_fd >= 0)
		close(st->result_fd);
}
