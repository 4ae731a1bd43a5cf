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
#include "procfs.h"
#include "sys.h"

/* How long to keep killing and reaping before giving up on leftovers. */
#define REAP_LIMIT_MS 5000

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

/* A process found in the family, pinned by its pidfd (or -1). */
struct member {
	pid_t pid;
	int pidfd;
};

struct members {
	struct member *v;
	size_t n, cap;
};

static void
mv_push(struct members *mv, pid_t pid, int pidfd)
{
	if (mv->n == mv->cap) {
		mv->cap = mv->cap ? mv->cap * 2 : 64;
		mv->v = xreallocarray(mv->v, mv->cap, sizeof(*mv->v));
	}
	mv->v[mv->n].pid = pid;
	mv->v[mv->n++].pidfd = pidfd;
}

static bool
mv_has(const struct members *mv, pid_t pid)
{
	for (size_t i = 0; i < mv->n; i++)
		if (mv->v[i].pid == pid)
			return true;
	return false;
}

static void
mv_free(struct members *mv)
{
	for (size_t i = 0; i < mv->n; i++)
		if (mv->v[i].pidfd >= 0)
			close(mv->v[i].pidfd);
	free(mv->v);
	memset(mv, 0, sizeof(*mv));
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

/*
 * Direct children of @pid from /proc/PID/task/TID/children (every
 * thread's, so a leader whose main thread has exited still shows the
 * children of its other threads).  0, also when @pid is gone; -1 when
 * the kernel has no such file (CONFIG_PROC_CHILDREN); -2 when /proc
 * could not be read (EMFILE...): nothing is known.
 */
static int
children_of(pid_t pid, struct pidvec *out)
{
	char path[320];
	struct dirent *de;
	DIR *d;
	int rc = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (d == NULL)
		return errno == ENOENT || errno == ESRCH ? 0 : -2;
	while ((de = readdir(d)) != NULL) {
		int fd;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%s/children",
		    (int)pid, de->d_name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			/* A thread that just ended, or no such file at all. */
			if (errno == ENOENT && pid == getpid())
				rc = -1;
			else if (errno != ENOENT && errno != ESRCH)
				rc = -2;
			continue;
		}
		push_listed(fd, out);
		close(fd);
	}
	closedir(d);
	return rc;
}

/* Every process and its parent, from one pass over /proc (the fallback). */
struct ptable {
	struct pidvec pids, ppids;
};

static int
scan_proc(struct ptable *t)
{
	struct dirent *de;
	DIR *d = opendir("/proc");

	if (d == NULL)
		return -1;
	while ((de = readdir(d)) != NULL) {
		struct gx_proc_stat ps;
		pid_t pid;

		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		pid = (pid_t)atoi(de->d_name);
		/* Zombies too: a leader whose main thread exited shows Z. */
		if (procfs_stat(pid, &ps) == 0) {
			pv_push(&t->pids, pid);
			pv_push(&t->ppids, ps.ppid);
		}
	}
	closedir(d);
	return 0;
}

/*
 * Children of @parent: from /proc/PID/task/TID/children, else the table.
 * Returns 0, or -1 when they could not be listed (nothing is known).
 */
static int
list_children(pid_t parent, struct ptable *t, bool *use_table,
    struct pidvec *kids)
{
	int rc;

	kids->n = 0;
	if (!*use_table) {
		rc = children_of(parent, kids);
		if (rc == 0)
			return 0;
		if (rc == -2)
			return -1;
		*use_table = true;
		if (scan_proc(t) < 0)
			return -1;
	}
	kids->n = 0;
	for (size_t i = 0; i < t->pids.n; i++)
		if (t->ppids.v[i] == parent)
			pv_push(kids, t->pids.v[i]);
	return 0;
}

/*
 * Pin @pid with a pidfd and prove it is a child of @parent (pinned by
 * @parent_fd, or guardexec itself when -1): its parent, read after the
 * pidfd was opened, is @parent, and @parent still exists afterwards, so
 * the number @parent still named the process we found.  A recycled pid
 * fails one of the two.  Returns the pidfd, -1 when not proven, or -2
 * when the kernel has no pidfd_open (then @pid is checked the same way,
 * without the pin).
 */
static int
pin_child(pid_t pid, pid_t parent, int parent_fd)
{
	struct gx_proc_stat ps;
	int pfd = (int)syscall(SYS_pidfd_open, pid, 0);

	if (pfd < 0 && errno != ENOSYS)
		return -1;
	if (procfs_stat(pid, &ps) < 0 || ps.ppid != parent ||
	    (parent_fd >= 0 &&
	    syscall(SYS_pidfd_send_signal, parent_fd, 0, NULL, 0) < 0)) {
		if (pfd >= 0)
			close(pfd);
		return -1;
	}
	return pfd >= 0 ? pfd : -2;
}

/*
 * The family, top-down, each member pinned by a pidfd opened at
 * discovery and proven to descend from guardexec.  Our own helper
 * (the sentinel) is not family.  Zombie leaders are kept: one whose
 * main thread has exited may still run other threads.
 */
static void
discover(const struct gx_family *f, struct members *out)
{
	struct ptable t = { 0 };
	struct pidvec kids = { 0 };
	bool use_table = false;

	for (size_t i = 0; i <= out->n && i < 1000000; i++) {
		pid_t parent = i == 0 ? f->self : out->v[i - 1].pid;
		int parent_fd = i == 0 ? -1 : out->v[i - 1].pidfd;

		if (i > 0 && parent_fd == -1)
			continue;       /* not pinned: do not trust its children */
		list_children(parent, &t, &use_table, &kids);
		for (size_t k = 0; k < kids.n; k++) {
			pid_t pid = kids.v[k];
			int pfd;

			if (pid == f->exclude || mv_has(out, pid))
				continue;
			pfd = pin_child(pid, parent, parent_fd < 0 ? -1 :
			    parent_fd);
			if (pfd != -1)
				mv_push(out, pid, pfd);
		}
	}
	free(kids.v);
	free(t.pids.v);
	free(t.ppids.v);
}

/* Signal a pinned member; never a pid that may have been recycled. */
static void
signal_member(const struct member *m, int sig)
{
	if (m->pidfd >= 0)
		(void)syscall(SYS_pidfd_send_signal, m->pidfd, sig, NULL, 0);
	else if (m->pidfd == -2)
		(void)kill(m->pid, sig);        /* kernel without pidfds */
}

static void
signal_with_cont(const struct member *m, int sig)
{
	signal_member(m, sig);
	if (sig == SIGTERM || sig == SIGHUP || sig == SIGINT)
		signal_member(m, SIGCONT);
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
family_exclude(struct gx_family *f, pid_t helper)
{
	f->exclude = helper;
	f->exclude_reaped = false;
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
	struct members pv = { 0 }, again = { 0 };
	size_t n;

	discover(f, &pv);
	for (size_t i = 0; i < pv.n; i++)
		signal_with_cont(&pv.v[i], sig);
	/*
	 * The command's group, for members not yet found.  Only while the
	 * command is unreaped: its pid (the group's id) cannot be reused
	 * before that.
	 */
	if (sig == SIGKILL && f->pgid > 0 && !f->child_done)
		kill(-f->pgid, sig);
	discover(f, &again);
	for (size_t i = 0; i < again.n; i++)
		if (!mv_has(&pv, again.v[i].pid))
			signal_with_cont(&again.v[i], sig);
	n = pv.n;
	mv_free(&pv);
	mv_free(&again);
	return n;
}

void
family_reap(struct gx_family *f)
{
	struct rusage ru;
	int st;
	pid_t p;

	while ((p = wait4(-1, &st, WNOHANG, &ru)) > 0) {
		if (p == f->exclude) {
			/* Our sentinel, not the command's: not in the record. */
			f->exclude = 0;
			f->exclude_reaped = true;
			continue;
		}
		family_add_rusage(f, &ru);
		/* A namespace init has reported the command's status before. */
		if (p == f->child && !f->child_done) {
			f->child_done = true;
			f->child_status = st;
		}
	}
}

/*
 * No child left but our sentinel means no descendant left: we are the
 * subreaper.  Call after family_reap(), so zombies are gone.  Never
 * true while the command is unreaped, nor when /proc cannot be read.
 */
static bool
none_left(const struct gx_family *f)
{
	struct ptable t = { 0 };
	struct pidvec kids = { 0 };
	bool use_table = false, none = f->child_done || f->child <= 0;

	if (list_children(f->self, &t, &use_table, &kids) < 0)
		none = false;
	for (size_t i = 0; i < kids.n; i++)
		if (kids.v[i] != f->exclude)
			none = false;
	free(kids.v);
	free(t.pids.v);
	free(t.ppids.v);
	return none;
}

/*
 * Sleep up to @us microseconds, waking early when a child changes state
 * (SIGCHLD, blocked by the supervisor): a killed family is reaped as soon
 * as it is gone, not a fixed tick later.  Where SIGCHLD is not blocked,
 * this is the plain sleep it replaces.
 */
static void
wait_child_event(long us)
{
	struct timespec ts = { 0, us * 1000 };
	sigset_t chld;

	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	(void)sigtimedwait(&chld, NULL, &ts);
}

bool
family_kill_all(struct gx_family *f, double grace_ms)
{
	double until = sys_now_ms() + REAP_LIMIT_MS;
	double grace_end = sys_now_ms() + grace_ms;

	while (grace_ms > 0 && sys_now_ms() < grace_end) {
		family_reap(f);
		if (none_left(f))
			return true;
		wait_child_event(2000);
	}
	for (;;) {
		family_reap(f);
		if (none_left(f))
			return true;
		family_signal(f, SIGKILL);
		if (sys_now_ms() > until)
			return false;
		wait_child_event(1000);
	}
}
