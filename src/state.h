/* SPDX-License-Identifier: ISC */
#ifndef GX_STATE_H
#define GX_STATE_H

#include <stdbool.h>
#include <stdint.h>

#include "cgroup.h"
#include "cli.h"
#include "env.h"
#include "auditlog.h"
#include "policy.h"
#include "sandbox.h"

/*
 * Everything one invocation of guardexec decided, for the record at the
 * end: the run state main() threads through its phases (decide.c,
 * mechanisms.c, emit.c, modes.c, learn.c, explain.c).  Plain data.
 */
struct gx_state {
	struct gx_opts opts;
	char *policy_path;          /* -p after sys_find_policy */
	struct gx_policy pol;
	bool have_policy;
	char *cwd;
	struct gx_env env;
	bool have_env;
	char *exec_path;
	const struct gx_advisory_rule **adv;
	struct gx_sandbox sb;
	struct gx_cgroup cg;
	struct gx_log log;
	bool have_log;
	int result_fd;
	bool policy_writable;
	char *store;                /* the caller's trust store, or NULL */
	const char *trusted;        /* "owner", "hash", or NULL: untrusted */
	char **notices;             /* our own warnings, for the record */
	char proc_by[160];          /* how limits.processes is enforced */
	uint64_t processes_policy;  /* limits.processes as written */
	const char *mem_by;         /* how limits.memory is enforced */
};

/* An empty state: every fd -1, nothing owned. */
void state_init(struct gx_state *st);

/*
 * One of guardexec's own warnings about this run: it goes into the
 * record's "notices" and, unless -q, to stderr.  Hard errors do not come
 * here: they always reach stderr.  Dies on OOM.  Unprefixed, like
 * die() and warnx_gx(): every phase of a run calls it.
 */
void notice(struct gx_state *st, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Free and close everything @st owns (the cgroup is removed). */
void state_free(struct gx_state *st);

#endif
