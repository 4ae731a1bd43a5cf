/* SPDX-License-Identifier: ISC */
/*
 * The command's family, found through /proc: discovery, signalling by
 * pidfd, reaping, rusage.  Parent side only.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "family.h"
#include "log.h"
#include "sys.h"

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_pidfd_send_signal
#define SYS_pidfd_send_signal 424
#endif

/* How long to keep killing and reaping before giving up on leftovers. */
#define REAP_LIMIT_MS 5000

/*
 * State and parent of @pid from /proc/PID/stat (the fields after the
 * command name, which may itself hold ')' and spaces).
 */
static int
read_ppid(pid_t pid, pid_t *ppid, char *state)
{
	char path[64], buf[512], *p;
	int pp;
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
	if (p == NULL || sscanf(p + 1, " %c %d", state, &pp) != 2)
		return -1;
	*ppid = (pid_t)pp;
	return 0;
}

struct pidvec {
	pid_t *v;
	size_t n, cap;
};

static void
pv_push(struct pidvec *pv, pid_t pid)
{
	if (pv->n == pv->cap) {
		pv->cap = pv->cap ? pv->cap * 2 : 64;
		pv->v = xreallocarray(pv->v, pv->cap, sizeof(*pv->v));
	}
	pv->v[pv->n++] = pid;
}

static bool
pv_has(const struct pidvec *pv, pid_t pid)
{
	for (size_t i = 0; i < pv->n; i++)
		if (pv->v[i] == pid)
			return true;
	return false;
}

/* Append the pids listed in the open "children" file @fd. */
static void
push_listed(int fd, struct pidvec *out)
{
	char buf[4096], *p, *end;
	size_t len = 0;
	ssize_t n;

	/* Entries are "pid " each; a short final read is fine. */
	while (len < sizeof(buf) - 1 &&
	    (n = read(fd, buf + len, sizeof(buf) - 1 - len)) > 0)
		len += (size_t)n;
	buf[len] = '\0';
	for (p = buf; *p != '\0'; p = end) {
		long v = strtol(p, &end, 10);

		if (end == p)
			break;
		if (v > 0)
			pv_push(out, (pid_t)v);
	}
}

/* Direct children of @pid from /proc/PID/task/TID/children; -1 if absent. */
static int
children_of(pid_t pid, struct pidvec *out)
{
	char path[320];
	struct dirent *de;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (d == NULL)
		return errno == ENOENT ? 0 : -1;
	while ((de = readdir(d)) != NULL) {
		int fd;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%s/children",
		    (int)pid, de->d_name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			closedir(d);
			return errno == ENOENT ? -1 : 0;
		}
		push_listed(fd, out);
		close(fd);
	}
	closedir(d);
	return 0;
}

/* Fallback: every process whose ancestry leads to @self, from /proc. */
static void
scan_proc(pid_t self, struct pidvec *out)
{
	struct pidvec pids = { 0 }, ppids = { 0 };
	struct dirent *de;
	bool changed = true;
	bool *mark;
	DIR *d;

	d = opendir("/proc");
	if (d == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		pid_t pid, ppid;
		char st;

		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		pid = (pid_t)atoi(de->d_name);
		if (read_ppid(pid, &ppid, &st) == 0 && st != 'Z') {
			pv_push(&pids, pid);
			pv_push(&ppids, ppid);
		}
	}
	closedir(d);
	mark = xcalloc(pids.n + 1, sizeof(bool));
	while (changed) {
		changed = false;
		for (size_t i = 0; i < pids.n; i++) {
			if (mark[i])
				continue;
			if (ppids.v[i] == self)
				mark[i] = changed = true;
			for (size_t j = 0; !mark[i] && j < pids.n; j++)
				if (mark[j] && pids.v[j] == ppids.v[i])
					mark[i] = changed = true;
		}
	}
	for (size_t i = 0; i < pids.n; i++)
		if (mark[i])
			pv_push(out, pids.v[i]);
	free(mark);
	free(pids.v);
	free(ppids.v);
}

/* All live descendants of @self, top-down. */
static void
discover(pid_t self, struct pidvec *out)
{
	out->n = 0;
	if (children_of(self, out) < 0) {
		out->n = 0;
		scan_proc(self, out);
		return;
	}
	for (size_t i = 0; i < out->n && i < 1000000; i++)
		if (children_of(out->v[i], out) < 0)
			break;
}

/*
 * Signal one process by pidfd after checking it is still the one we
 * found (its parent unchanged), so a recycled pid is never hit.
 */
static void
signal_one(pid_t pid, int sig)
{
	pid_t ppid;
	char st;
	int pfd;

	pfd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (pfd < 0) {
		if (errno == ENOSYS)
			kill(pid, sig);
		return;
	}
	if (read_ppid(pid, &ppid, &st) == 0 && st != 'Z')
		syscall(SYS_pidfd_send_signal, pfd, sig, NULL, 0);
	close(pfd);
}

static void
signal_with_cont(pid_t pid, int sig)
{
	signal_one(pid, sig);
	if (sig == SIGTERM || sig == SIGHUP || sig == SIGINT)
		signal_one(pid, SIGCONT);
}

void
family_init(struct gx_family *f, pid_t child)
{
	memset(f, 0, sizeof(*f));
	f->self = getpid();
	f->child = child;
	f->pgid = child;
}

void
family_add_rusage(struct gx_family *f, const struct rusage *ru)
{
	timeradd(&f->ru.ru_utime, &ru->ru_utime, &f->ru.ru_utime);
	timeradd(&f->ru.ru_stime, &ru->ru_stime, &f->ru.ru_stime);
	if (ru->ru_maxrss > f->ru.ru_maxrss)
		f->ru.ru_maxrss = ru->ru_maxrss;
}

/*
 * The family is walked before anything is signalled (a parent that
 * exits on the signal would otherwise hide its children while they are
 * being reparented to us), then walked again for any that moved
 * meanwhile.
 */
size_t
family_signal(struct gx_family *f, int sig)
{
	struct pidvec pv = { 0 }, again = { 0 };
	size_t n;

	discover(f->self, &pv);
	for (size_t i = 0; i < pv.n; i++)
		signal_with_cont(pv.v[i], sig);
	if (sig == SIGKILL && f->pgid > 0)
		kill(-f->pgid, sig);
	discover(f->self, &again);
	for (size_t i = 0; i < again.n; i++)
		if (!pv_has(&pv, again.v[i]))
			signal_with_cont(again.v[i], sig);
	n = pv.n;
	free(pv.v);
	free(again.v);
	return n;
}

void
family_reap(struct gx_family *f)
{
	struct rusage ru;
	int st;
	pid_t p;

	while ((p = wait4(-1, &st, WNOHANG, &ru)) > 0) {
		family_add_rusage(f, &ru);
		if (p == f->child) {
			f->child_done = true;
			f->child_status = st;
		}
	}
}

/* No child left means no descendant left: we are the subreaper. */
static bool
none_left(void)
{
	siginfo_t si;

	return waitid(P_ALL, 0, &si, WEXITED | WNOHANG | WNOWAIT) < 0 &&
	    errno == ECHILD;
}

bool
family_kill_all(struct gx_family *f, double grace_ms)
{
	double until = sys_now_ms() + REAP_LIMIT_MS;
	double grace_end = sys_now_ms() + grace_ms;

	while (grace_ms > 0 && sys_now_ms() < grace_end) {
		family_reap(f);
		if (none_left())
			return true;
		usleep(2000);
	}
	for (;;) {
		family_reap(f);
		if (none_left())
			return true;
		family_signal(f, SIGKILL);
		if (sys_now_ms() > until)
			return false;
		usleep(1000);
	}
}
