/* SPDX-License-Identifier: ISC */
/*
 * The post-fork child: the only code of guardexec that runs between
 * fork() and execve().  guardexec is single-threaded, so the libc state
 * inherited here is consistent; still, only async-signal-safe calls:
 * no stdio, no malloc, no die().  Failures go to the parent as a struct
 * child_err on a close-on-exec pipe.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cgroup.h"
#include "child.h"
#include "ns.h"
#include "filter.h"
#include "policy.h"
#include "rlimits.h"
#include "supervise.h"
#include "sys.h"
#include "util.h"

#ifndef SYS_landlock_restrict_self
#define SYS_landlock_restrict_self 446
#endif

static void
child_say(int fd, int stage, int err)
{
	struct child_err ce = { stage, err, 0 };
	ssize_t n __attribute__((unused));

	n = write(fd, &ce, sizeof(ce));
}

static void __attribute__((noreturn))
child_fail(int fd, int stage, int arg)
{
	struct child_err ce = { stage, errno, arg };
	ssize_t n __attribute__((unused));

	n = write(fd, &ce, sizeof(ce));
	if (stage != STAGE_EXEC)
		_exit(GX_EXIT_FAILURE);
	_exit(ce.err == ENOENT ? GX_EXIT_NOTFOUND : GX_EXIT_NOEXEC);
}

void
child_fail_ns(int errfd, int step)
{
	child_fail(errfd, STAGE_NS, step);
}

/* (6) command.user: groups, then gid, then uid; verify each took. */
static void
drop_user(const struct gx_run *run, int errfd)
{
	uid_t r, e, s;

	/* No capability can come back: bounding and ambient sets too. */
	for (int cap = 0; cap < 64; cap++)
		if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) < 0 && errno != EINVAL)
			child_fail(errfd, STAGE_USER, 2);
	prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
	if (setgroups(run->ngroups, run->groups) < 0 ||
	    setresgid(run->gid, run->gid, run->gid) < 0 ||
	    setresuid(run->uid, run->uid, run->uid) < 0)
		child_fail(errfd, STAGE_USER, 0);
	if (getresuid(&r, &e, &s) < 0 || r != run->uid || e != run->uid ||
	    s != run->uid || setuid(0) == 0) {
		errno = EPERM;
		child_fail(errfd, STAGE_USER, 1);
	}
}

/*
 * (9) seccomp, always last: after it, only allowed syscalls work.
 * Returns the status pipe's fd (moved to CHILD_STATUS_FD for notify).
 */
static int
load_seccomp(const struct gx_run *run, bool plain, int errfd)
{
	if (filter_load_guard(run->filter) < 0)
		child_fail(errfd, STAGE_SECCOMP, 0);
	if (run->filter->notify.len == 0 || plain) {
		if (filter_load_plain(run->filter) < 0)
			child_fail(errfd, STAGE_SECCOMP, 0);
		return errfd;
	}
	if (errfd != CHILD_STATUS_FD) {
		if (dup3(errfd, CHILD_STATUS_FD, O_CLOEXEC) < 0)
			child_fail(errfd, STAGE_FDS, 0);
		errfd = CHILD_STATUS_FD;
	}
	sys_close_from(CHILD_LISTENER_FD);
	child_say(errfd, STAGE_LISTENER_READY, 0);
	if (filter_load_notify(run->filter) >= 0) {
		/* Wait here until guardexec holds the listener. */
		syscall(GX_MARKER_SYSCALL);
	} else if (errno == EBUSY && !run->learn) {
		/*
		 * A listener up the stack (nested): guardexec starts the
		 * child again with the plain filter.
		 */
		child_say(errfd, STAGE_LISTENER_FALLBACK, errno);
		_exit(GX_EXIT_FAILURE);
	} else {
		child_fail(errfd, STAGE_SECCOMP, 1);
	}
	return errfd;
}

/*
 * The child's setup order is fixed; each step depends on the ones
 * before it.  Only async-signal-safe calls from here to execve.
 */
void
child_run(const struct gx_run *run, bool plain, pid_t parent, int errfd,
    int out_w, int err_w)
{
	sigset_t empty;
	int fd, res = 0;

	/* (1) Default signal dispositions and an empty mask. */
	for (int sig = 1; sig < NSIG; sig++)
		if (sig != SIGKILL && sig != SIGSTOP)
			signal(sig, SIG_DFL);
	sigemptyset(&empty);
	sigprocmask(SIG_SETMASK, &empty, NULL);

	/* (1b) Into the run's cgroup before anything can fork. */
	if (run->cgroup != NULL && run->cgroup->active &&
	    cgroup_join(run->cgroup) < 0)
		child_fail(errfd, STAGE_CGROUP, 0);

	/*
	 * (2) A new session: its own process group and no controlling
	 * terminal, so TIOCSTI and job-control tricks on the caller's tty
	 * are out of reach.  Then die with guardexec; the getppid() check
	 * closes the race with a parent that died before the prctl.
	 */
	if (setsid() < 0)
		child_fail(errfd, STAGE_SETSID, 0);
	if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0)
		child_fail(errfd, STAGE_PDEATHSIG, 0);
	if (getppid() != (run->in_ns ? 1 : parent))
		_exit(GX_EXIT_FAILURE);
	/* guardexec is not dumpable; its child must be, for pidfd_getfd. */
	prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);

	/* (3) stdio, then nothing else survives execve. */
	if (run->pol->stdin_mode == GX_STDIN_NULL) {
		fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
		if (fd < 0 || dup2(fd, 0) < 0)
			child_fail(errfd, STAGE_STDIN, 0);
	}
	if (dup2(out_w, 1) < 0 || dup2(err_w, 2) < 0)
		child_fail(errfd, STAGE_STDIO, 0);
	if (sys_cloexec_from(3) < 0)
		child_fail(errfd, STAGE_FDS, 0);
	if (chdir(run->cwd) < 0)
		child_fail(errfd, STAGE_CHDIR, 0);

	/* (4) rlimits. */
	if (limits_apply(&run->pol->limits, run->use_rlimit_as, &res) < 0)
		child_fail(errfd, STAGE_RLIMIT, res);

	/* (5) Namespaces need privileges we are about to drop. */
	if (run->netns && !run->in_ns && unshare(CLONE_NEWNET) < 0)
		child_fail(errfd, STAGE_NETNS, 0);

	/*
	 * (5b) In our own user namespace we hold every capability there,
	 * uid 0 or not: none may reach the command, which could otherwise
	 * remount the view read-write, mount, or chown what it sees.  The
	 * bounding set and securebits now, the rest after (6).
	 */
	if (run->in_ns && ns_limit_caps() < 0)
		child_fail(errfd, STAGE_CAPS, 0);

	if (run->drop_user)
		drop_user(run, errfd);
	if (run->in_ns && ns_drop_caps() < 0)
		child_fail(errfd, STAGE_CAPS, 1);

	/* (7) no_new_privs: setuid binaries no longer raise privileges. */
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		child_fail(errfd, STAGE_NNP, 0);

	/* (8) Landlock (needs no_new_privs when unprivileged). */
	if (run->landlock_fd >= 0 &&
	    syscall(SYS_landlock_restrict_self, run->landlock_fd, 0) < 0)
		child_fail(errfd, STAGE_LANDLOCK, 0);

	errfd = load_seccomp(run, plain, errfd);
	execve(run->exec_path, run->argv, run->envp);
	child_fail(errfd, STAGE_EXEC, 0);
}

/* Runs in the parent (stdio is fine here). */
void
child_describe_err(const struct child_err *ce, struct gx_outcome *out)
{
	const char *what;

	switch (ce->stage) {
	case STAGE_CGROUP: what = "joining the run's cgroup"; break;
	case STAGE_SETSID: what = "setsid"; break;
	case STAGE_PDEATHSIG: what = "prctl(PR_SET_PDEATHSIG)"; break;
	case STAGE_STDIN: what = "opening /dev/null for stdin"; break;
	case STAGE_STDIO: what = "setting up stdout and stderr"; break;
	case STAGE_FDS: what = "closing inherited file descriptors"; break;
	case STAGE_CHDIR: what = "changing to the working directory"; break;
	case STAGE_RLIMIT: what = limits_resource_name(ce->arg); break;
	case STAGE_NETNS: what = "unshare(CLONE_NEWNET)"; break;
	case STAGE_NS: what = ns_step_name(ce->arg); break;
	case STAGE_CAPS: what = "dropping capabilities"; break;
	case STAGE_USER: what = ce->arg ? "dropping privileges did not take" :
	    "switching to command.user"; break;
	case STAGE_NNP: what = "prctl(PR_SET_NO_NEW_PRIVS)"; break;
	case STAGE_LANDLOCK: what = "landlock_restrict_self"; break;
	case STAGE_SECCOMP: what = ce->arg == 1 ?
	    "installing the seccomp listener" : ce->err == EINVAL ?
	    "loading the seccomp filter (EINVAL: kernel without "
	    "CONFIG_SECCOMP_FILTER?)" : "loading the seccomp filter"; break;
	default: what = "setup"; break;
	}
	snprintf(out->error, sizeof(out->error), "%s: %s", what,
	    strerror(ce->err));
	out->exec_errno = ce->err;
}
