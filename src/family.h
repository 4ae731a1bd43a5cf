/* SPDX-License-Identifier: ISC */
#ifndef GX_FAMILY_H
#define GX_FAMILY_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/resource.h>
#include <sys/types.h>

/*
 * The command's family: every process it started, found through /proc
 * below guardexec (the child subreaper, so orphans come back to us).
 * Signalling, reaping, and the resource use of everything reaped.  Runs
 * in guardexec (the parent), never after fork.
 */
struct gx_family {
	pid_t self;                 /* guardexec, the subreaper */
	pid_t child;                /* the command */
	pid_t pgid;                 /* the command's group, swept with SIGKILL; or 0 */
	pid_t exclude;              /* our own helper (the sentinel), or 0 */
	bool exclude_reaped;        /* it ended early and family_reap took it */
	bool child_done;            /* the command was reaped */
	int child_status;           /* its wait status, once done */
	/*
	 * Resource use of everything this run reaped (the command and the
	 * orphans it left us), each including what it had reaped itself.
	 * Not getrusage(RUSAGE_CHILDREN): that also counts whatever the
	 * process that exec'd guardexec had waited for before.
	 */
	struct rusage ru;
};

/* Start tracking the family of @child (started by the calling process). */
void family_init(struct gx_family *f, pid_t child);

/* Add @ru to the family's resource use (a child reaped elsewhere). */
void family_add_rusage(struct gx_family *f, const struct rusage *ru);

/*
 * Every process below guardexec is family except @helper (the
 * sentinel): never signalled, its rusage not counted, and not waited
 * for by family_kill_all().
 */
void family_exclude(struct gx_family *f, pid_t helper);

/*
 * Send @sig to every process of the family.  Each one is pinned with a
 * pidfd when found and proven to descend from guardexec after that, so
 * a recycled pid is never signalled; a thread-group leader whose main
 * thread has exited (a zombie in /proc) is signalled like any other.
 * SIGCONT follows TERM, INT and HUP, so a stopped process gets them.
 * Returns how many were signalled.
 */
size_t family_signal(struct gx_family *f, int sig);

/* Reap every child that is done (WNOHANG); notes the command's status. */
void family_reap(struct gx_family *f);

/*
 * Kill everything left until no child of ours remains, bounded in time.
 * With @grace_ms, first let the family end by itself for that long (a
 * relayed signal may still be in its handlers).  Returns false when
 * something could not be reaped in time.
 */
bool family_kill_all(struct gx_family *f, double grace_ms);

#endif
