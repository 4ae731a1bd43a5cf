/* SPDX-License-Identifier: ISC */
#ifndef GX_NS_H
#define GX_NS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "outcome.h"

struct gx_policy;

/*
 * The command's own world: user, PID, mount, IPC (and network)
 * namespaces, and the filesystem view built in them.  See guardexec(1)
 * THE COMMAND'S WORLD for what the command sees.
 *
 * guardexec clones an init process into the new namespaces; guardexec
 * writes its id maps; the init builds the mount view, forks the command
 * (pid 2), reaps everything, reports the command's wait status on a
 * pipe and dies with guardexec (PR_SET_PDEATHSIG), which makes the
 * kernel kill every process left in the PID namespace.
 */

/* What the init needs; decided before the clone. */
struct gx_ns_spec {
	const struct gx_policy *pol;
	const char *cwd;            /* the run's working directory */
	int landlock_fd;            /* ruleset to add the view's own mounts to */
	int landlock_abi;
	bool netns;                 /* also a new network namespace */
	int cgroup_fd;              /* cgroup v2 dir to start in, or -1 */
	/*
	 * In the command (pid 2): the command's own setup and execve; never
	 * returns.  @fail: the init's setup failed at step @step with errno
	 * set; reports it and never returns.
	 */
	void (*command)(void *arg);
	void (*fail)(void *arg, int step);
	void *arg;
	/*
	 * issue 18: when set, guardexec calls it with the init's pid (ours)
	 * once the init runs, while the init builds the view (a cgroup v1
	 * migration); the init forks the command only after it, setting
	 * *@adopted when it returned 0.  NULL: not used.
	 */
	int (*adopt)(void *arg, pid_t init);
	bool *adopted;
};

/* A started namespace run, as guardexec holds it. */
struct gx_ns_run {
	pid_t init;                 /* the init's pid (ours) */
	int alive_w;                /* kept open for the run: the init's lifeline */
	int report_r;               /* the command's wait status (an int) */
	unsigned namespaces;        /* GX_NS_* that applied */
};

enum gx_ns_kind {
	GX_NS_USER = 1 << 0,
	GX_NS_PID = 1 << 1,
	GX_NS_MOUNT = 1 << 2,
	GX_NS_IPC = 1 << 3,
	GX_NS_NET = 1 << 4,
};

/* Names for the GX_NS_* bits: gx_ns_names in outcome.h. */

/*
 * Start the init in new namespaces (@spec->netns adds a network one).
 * Returns 0 with @nr filled, or -1 with errno when the kernel refused
 * the namespaces (EPERM, EINVAL, ENOSPC, EUSERS, ENOSYS...): nothing
 * was started, the caller falls back to a plain fork.  Single-threaded
 * callers only (the init is a fork of the caller that never execs).
 */
int ns_start(const struct gx_ns_spec *spec, struct gx_ns_run *nr);

/* The command's pid (ours) once the init has forked it, or -1. */
pid_t ns_command_pid(pid_t init);

/*
 * Read the command's wait status if the init has reported it: 1 (in
 * @status), 0 (not yet), -1 (never: the pipe is closed empty).
 */
int ns_read_status(struct gx_ns_run *nr, int *status);

/* Close guardexec's ends (after the init has been reaped). */
void ns_end(struct gx_ns_run *nr);

/*
 * In the command, before any user switch: empty the bounding and
 * ambient sets and lock securebits so that uid 0 never regains a
 * capability at execve.  Then, after the switch, ns_drop_caps() empties
 * the rest (inheritable, permitted, effective).  Async-signal-safe.
 * Both return 0 or -1 with errno.
 */
int ns_limit_caps(void);
int ns_drop_caps(void);

/* What the init was doing at @step, for the error message. */
const char *ns_step_name(int step);

/*
 * Whether the kernel lets us create the namespaces now (a throwaway
 * clone).  Returns the GX_NS_* bits that work: all, none, or (@netns
 * refused alone) all but GX_NS_NET; on a refusal, @why says why.
 */
unsigned ns_probe(bool netns, char *why, size_t whylen);

#endif
