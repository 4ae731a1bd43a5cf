/* SPDX-License-Identifier: ISC */
#ifndef GX_CHILD_H
#define GX_CHILD_H

#include <stdbool.h>
#include <sys/types.h>

struct gx_run;
struct gx_outcome;

/*
 * The post-fork child: the only code of guardexec that runs between
 * fork() and execve().  Everything in child.c is async-signal-safe: no
 * stdio, no malloc, no syslog, no die().
 */

/* Where the child's setup stopped; sent to the parent on the status pipe. */
enum child_stage {
	STAGE_CGROUP = 1,
	STAGE_SETSID,
	STAGE_PDEATHSIG,
	STAGE_STDIN,
	STAGE_STDIO,
	STAGE_FDS,
	STAGE_CHDIR,
	STAGE_RLIMIT,
	STAGE_NETNS,
	STAGE_USER,
	STAGE_NNP,
	STAGE_LANDLOCK,
	STAGE_SECCOMP,
	STAGE_EXEC,
	STAGE_NS,                   /* the namespace init; arg: its step (ns.h) */
	STAGE_CAPS,
	/* Not failures: the listener handshake (see notify_bootstrap()). */
	STAGE_LISTENER_READY = 100,
	STAGE_LISTENER_FALLBACK,
};

/*
 * The child moves the status pipe to fd 3 and closes everything above
 * it before loading the notify filter, so the listener is always fd 4:
 * guardexec takes it with pidfd_getfd() while the child waits in the
 * marker syscall.
 */
#define CHILD_STATUS_FD 3
#define CHILD_LISTENER_FD 4

/* One message on the status pipe (EOF instead means execve happened). */
struct child_err {
	int stage;                  /* enum child_stage, or 0 */
	int err;                    /* errno */
	int arg;                    /* stage-specific detail */
};

/*
 * Child side of fork(): the fixed setup order, then execve of
 * run->exec_path.  @plain loads the plain seccomp variant (no listener);
 * @parent is guardexec's pid (for the PDEATHSIG race check); @errfd is
 * the status pipe's write end; @out_w and @err_w become fds 1 and 2.
 * Never returns: execs, or writes a struct child_err and _exit()s
 * (125, or 126/127 for an execve failure).
 */
void child_run(const struct gx_run *run, bool plain, pid_t parent, int errfd,
    int out_w, int err_w) __attribute__((noreturn));

/*
 * The namespace init's setup failed at @step (errno set): report it on
 * the status pipe @errfd as STAGE_NS and _exit(125).
 */
void child_fail_ns(int errfd, int step) __attribute__((noreturn));

/*
 * Parent side: describe a failure @ce in out->error and set
 * out->exec_errno.
 */
void child_describe_err(const struct child_err *ce, struct gx_outcome *out);

#endif
