/* SPDX-License-Identifier: ISC */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cgroup.h"
#include "sentinel.h"
#include "sys.h"

/* The session id of @pid; -1 when it is gone or a zombie. */
static pid_t
session_of(pid_t pid)
{
	char path[64], buf[512], *p, state;
	int pp, ss;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	p = strrchr(buf, ')');
	if (p == NULL || sscanf(p + 1, " %c %d %*d %d", &state, &pp, &ss) != 3 ||
	    state == 'Z')
		return -1;
	return (pid_t)ss;
}

/*
 * The sentinel's whole life: wait for guardexec to end.  A byte means a
 * normal end; EOF means guardexec died with the command's family still
 * around: kill every process of the command's session and of its
 * cgroup.  (A process that left the session with setsid() is out of its
 * reach without a cgroup.)
 */
static void __attribute__((noreturn))
sentinel_main(int rfd, pid_t sid, const struct gx_cgroup *cg)
{
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
		struct dirent *de;
		int killed = 0;
		DIR *d = opendir("/proc");

		if (d == NULL)
			break;
		while ((de = readdir(d)) != NULL) {
			pid_t pid = (pid_t)atoi(de->d_name);

			if (pid > 0 && pid != getpid() && session_of(pid) == sid &&
			    kill(pid, SIGKILL) == 0)
				killed++;
		}
		closedir(d);
		if (cg != NULL)
			cgroup_kill_all(cg);
		if (killed == 0)
			break;
		usleep(5000);
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
		/* Keep nothing of ours: above all not the seccomp listener. */
		if (p[0] != 3 && dup3(p[0], 3, O_CLOEXEC) < 0)
			_exit(1);
		sys_close_from(4);
		for (int fd = 0; fd < 3; fd++) {
			int null = open("/dev/null", O_RDWR);

			if (null >= 0 && null != fd) {
				dup2(null, fd);
				close(null);
			}
		}
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
