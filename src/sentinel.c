/* SPDX-License-Identifier: ISC */
/*
 * The sentinel.  Everything it runs after fork is async-signal-safe:
 * raw getdents64 over /proc, numbers parsed by hand, open/read/close,
 * pidfds, nanosleep; no stdio, no malloc, no die().  What it needs is
 * computed before the fork.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cgroup.h"
#include "procfs.h"
#include "sentinel.h"
#include "sys.h"

/* The session id of @pid, or -1.  Zombies count: a leader whose main
 * thread has exited may still run other threads. */
static pid_t
session_of(pid_t pid)
{
	struct gx_proc_stat ps;

	return procfs_stat(pid, &ps) == 0 ? ps.session : -1;
}

/*
 * Kill @pid if it is in session @sid: pinned by a pidfd first, the
 * session read after, so a recycled pid is not hit.  1 when signalled.
 */
static int
kill_if_session(pid_t pid, pid_t sid)
{
	int pfd = (int)syscall(SYS_pidfd_open, pid, 0), rc = 0;

	if (pfd < 0)
		return 0;
	if (session_of(pid) == sid &&
	    syscall(SYS_pidfd_send_signal, pfd, SIGKILL, NULL, 0) == 0)
		rc = 1;
	close(pfd);
	return rc;
}

/* One pass over /proc with getdents64; how many were killed. */
static int
kill_session(pid_t sid)
{
	char buf[8192] __attribute__((aligned(8)));
	pid_t self = getpid();
	int killed = 0, dfd;
	long n;

	dfd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return 0;
	while ((n = syscall(SYS_getdents64, dfd, buf, sizeof(buf))) > 0) {
		for (long off = 0; off < n; ) {
			/* struct linux_dirent64: ino, off, reclen, type, name */
			unsigned short reclen;
			const char *name = buf + off + 19, *end;
			pid_t pid;

			memcpy(&reclen, buf + off + 16, sizeof(reclen));
			off += reclen;
			pid = procfs_parse_pid(name, &end);
			if (pid > 0 && *end == '\0' && pid != self)
				killed += kill_if_session(pid, sid);
		}
	}
	close(dfd);
	return killed;
}

/*
 * The sentinel's whole life: wait for guardexec to end.  A byte means a
 * normal end; EOF means guardexec died (SIGKILL, OOM...) with the
 * command's family still around: kill every process of the command's
 * session and of its cgroup.  (A process that left the session with
 * setsid() is out of its reach without a cgroup.)
 */
static void __attribute__((noreturn))
sentinel_main(int rfd, pid_t sid, const struct gx_cgroup *cg)
{
	struct timespec pause_5ms = { 0, 5000000 };
	sigset_t empty;
	char c;
	ssize_t n;

	for (int sig = 1; sig < NSIG; sig++)
		if (sig != SIGKILL && sig != SIGSTOP)
			signal(sig, SIG_IGN);
	sigemptyset(&empty);
	sigprocmask(SIG_SETMASK, &empty, NULL);
	do
		n = read(rfd, &c, 1);
	while (n < 0 && errno == EINTR);
	if (n == 1)
		_exit(0);
	for (int round = 0; round < 200; round++) {
		int killed = kill_session(sid);

		if (cg != NULL)
			cgroup_kill_all(cg);
		if (killed == 0)
			break;
		nanosleep(&pause_5ms, NULL);
	}
	/* The run's cgroup goes too, once empty (guardexec cannot). */
	for (int k = 0; cg != NULL && k < GX_CG_N; k++)
		if (cg->dir[k] != NULL)
			(void)rmdir(cg->dir[k]);
	_exit(0);
}

int
sentinel_start(pid_t sid, const struct gx_cgroup *cg, pid_t *pid_out)
{
	int p[2];
	pid_t pid;

	if (pipe2(p, O_CLOEXEC) < 0)
		return -1;
	pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (pid == 0) {
		int null;

		/* Keep nothing of ours: above all not the seccomp listener. */
		if (p[0] != 3 && dup3(p[0], 3, O_CLOEXEC) < 0)
			_exit(1);
		sys_close_from(4);
		null = open("/dev/null", O_RDWR | O_CLOEXEC);
		for (int fd = 0; fd < 3 && null >= 0; fd++)
			if (null != fd)
				(void)dup2(null, fd);
		sentinel_main(3, sid, cg != NULL && cg->active ? cg : NULL);
	}
	close(p[0]);
	*pid_out = pid;
	return p[1];
}

void
sentinel_dismiss(int fd, pid_t pid)
{
	if (write(fd, "q", 1) == 1 && pid > 0) {
		int st;

		waitpid(pid, &st, 0);
	}
	close(fd);
}
