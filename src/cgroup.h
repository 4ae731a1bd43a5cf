/* SPDX-License-Identifier: ISC */
#ifndef GX_CGROUP_H
#define GX_CGROUP_H

#include <stdbool.h>
#include <sys/types.h>

struct gx_policy;

/*
 * A cgroup of the run's own, nested under the cgroup guardexec was
 * started in (never above or beside it), holding limits.processes
 * (pids.max) and limits.memory (memory.max / memory.limit_in_bytes).
 * cgroup v2 is preferred; v1's pids and memory hierarchies (hybrid hosts)
 * work too.  The child joins it as the first step after fork; at the end
 * everything in it is killed and it is removed.
 */
enum { GX_CG_PIDS, GX_CG_MEMORY, GX_CG_N };

struct gx_cgroup {
	bool active;
	int version;                /* 1 or 2 */
	char *dir[GX_CG_N];         /* v1: one per controller; v2: dir[0] */
	int procs_fd[GX_CG_N];      /* cgroup.procs, for the child; or -1 */
	int dir_fd;                 /* v2: the command's cgroup (for clone3) */
	bool scope;                 /* v2 inside a systemd scope of our own */
	bool undo_move;             /* v2: we moved ourselves into sup_dir */
	const char *undo_ctl;       /* what to write back to subtree_control */
	char *base_dir;             /* v2: the delegated cgroup */
	char *sup_dir;              /* v2: guardexec's own leaf in it */
	bool pids, memory;          /* which limits it enforces */
	unsigned long long pids_max; /* v1: limits.processes (issue 18) */
	char desc[512];             /* the record's isolation.cgroup */
	char why[320];              /* why there is none */
};

/*
 * Make the run's cgroup when the policy sets limits.processes or
 * limits.memory.  cgroup v2: under systemd, a transient scope with
 * Delegate=yes from the system manager (root) or the caller's user
 * manager, guardexec in its leaf "supervisor", the command in its leaf
 * "command" with the limits; without systemd, the same inside guardexec's
 * own cgroup when guardexec is alone in it (or it is the root cgroup).
 * cgroup v1: a cgroup per controller under guardexec's, as root.
 * Never fails the run: without one, @cg is inactive and @cg->why says
 * why (the rlimits still apply).  Returns 0.
 */
int cgroup_prepare(const struct gx_policy *pol, struct gx_cgroup *cg);

/* Child side, async-signal-safe: move the calling process in.  0 / -1. */
int cgroup_join(const struct gx_cgroup *cg);

/*
 * issue 18, v1 only: guardexec moves the namespace init (@pid, ours) in
 * while the init builds the view, so the migration's RCU grace period
 * overlaps that work instead of delaying the command; pids.max grows by
 * one for the init, so the command's family keeps exactly
 * limits.processes.  The command is then forked inside.  0, or -1 with
 * nothing changed (the command joins itself, as before).
 */
int cgroup_adopt_init(const struct gx_cgroup *cg, pid_t pid);
/* Back to pids.max = limits.processes (the init did not live). */
void cgroup_adopt_undo(const struct gx_cgroup *cg);

/*
 * Kill everything still in the cgroup (v2's cgroup.kill where
 * available), wait until it is empty (bounded).  Async-signal-safe (no
 * allocation, no stdio): guardexec at the end, and the sentinel.
 */
void cgroup_kill_all(const struct gx_cgroup *cg);

/* "memory" or "processes" when the cgroup's limit was hit, else NULL. */
const char *cgroup_limit_hit(const struct gx_cgroup *cg);

/*
 * Every cgroup limit that was hit ("memory", "processes"): their names
 * (static strings) in @hit, their number returned.
 */
size_t cgroup_limits_hit(const struct gx_cgroup *cg, const char *hit[2]);

/* Remove the cgroup directories and free @cg. */
void cgroup_destroy(struct gx_cgroup *cg);

#endif
