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
#include "sentinel.h"
#include "sys.h"

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_pidfd_send_signal
#define SYS_pidfd_send_signal 424
#endif

/* Parse a decimal pid at @s (up to a non-digit); 0 when there is none. */
static pid_t
parse_pid(const char *s, const char **end)
{
	long v = 0;

	while (*s >= '0' && *s <= '9' && v < 100000000)
		v = v * 10 + (*s++ - '0');
	if (end != NULL)
		*end = s;
	return (pid_t)v;
}

/* "/proc/@pid/stat" into @buf (at least 32 bytes), by hand. */
static void
stat_path(char *buf, pid_t pid)
{
	char digits[16];
	int n = 0;

	do {
		digits[n++] = (char)('0' + pid % 10);
		pid /= 10;
	} while (pid > 0 && n < (int)sizeof(digits));
	memcpy(buf, "/proc/", 6);
	for (int i = 0; i < n; i++)
		buf[6 + i] = digits[n - 1 - i];
	memcpy(buf + 6 + n, "/stat", 6);
}

/*
 * The session id of @pid from /proc/PID/stat, or -1.  Zombies count: a
 * leader whose main thread has exited may still run other threads.
 */
static pid_t
session_of(pid_t pid)
{
	char path[32], buf[512];
	const char *p = NULL;
	ssize_t n;
	int fd, field = 0;

	stat_path(path, pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	/* After the last ')': state, ppid, pgrp, session. */
	for (ssize_t i = n - 1; i >= 0 && p == NULL; i--)
		if (buf[i] == ')')
			p = buf + i + 1;
	if (p == NULL)
		return -1;
	while (*p != '\0' && field < 4) {
		while (*p == ' ')
			p++;
		if (++field == 4)
			break;
		while (*p != ' ' && *p != '\0')
			p++;
	}
	return field == 4 && *p >= '0' && *p <= '9' ? parse_pid(p, NULL) : -1;
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
			pid = parse_pid(name, &end);
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
