/* SPDX-License-Identifier: ISC */
/*
 * The supervised run: fork, the child's fixed setup order, execve, and
 * the parent's single poll loop (bubblewrap's monitor_child is the model).
 *
 * guardexec is single-threaded.  Keep it so: the child side between
 * fork() and execve() calls only async-signal-safe functions.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <seccomp.h>

#include "cgroup.h"
#include "filter.h"
#include "rlimits.h"
#include "log.h"
#include "ns.h"
#include "policy.h"
#include "supervise.h"
#include "util.h"

#ifndef SYS_landlock_restrict_self
#define SYS_landlock_restrict_self 446
#endif
#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_pidfd_send_signal
#define SYS_pidfd_send_signal 424
#endif
#ifndef SYS_pidfd_getfd
#define SYS_pidfd_getfd 438
#endif
#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif

#define RELAY_BUF (256 * 1024)
#define PIPE_SIZE (1024 * 1024)
/* After the family is dead, how long a pipe may stay open with no data. */
#define DRAIN_IDLE_MS 500
/* How long to keep killing and reaping before giving up on leftovers. */
#define REAP_LIMIT_MS 5000

static const int relayed_signals[] = { SIGINT, SIGTERM, SIGHUP };

int
supervise_init(void)
{
	sigset_t set;

	/* Orphaned descendants (setsid daemons, double forks) become ours. */
	if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) < 0)
		return -1;
	/*
	 * Not dumpable: a command running as the same user cannot ptrace us
	 * or read /proc/<our pid>/environ (which main also wipes).
	 */
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0)
		return -1;
	signal(SIGPIPE, SIG_IGN);
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	for (size_t i = 0; i < sizeof(relayed_signals) / sizeof(int); i++)
		sigaddset(&set, relayed_signals[i]);
	if (sigprocmask(SIG_BLOCK, &set, NULL) < 0)
		return -1;
	/*
	 * An ignored signal is never pending, so signalfd would not see it:
	 * a caller that ignores SIGINT (a background job of a script) must
	 * still be able to reach the command through us.  Blocked first, so
	 * the default action cannot strike in between.
	 */
	for (size_t i = 0; i < sizeof(relayed_signals) / sizeof(int); i++)
		signal(relayed_signals[i], SIG_DFL);
	return 0;
}

/* ---- the child ---------------------------------------------------- */

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
	STAGE_NS,           /* the namespace init; arg: its step */
	STAGE_CAPS,
	/* Not failures: the listener handshake (see bootstrap()). */
	STAGE_LISTENER_READY = 100,
	STAGE_LISTENER_FALLBACK,
};

/*
 * The child moves the status pipe to fd 3 and closes everything above
 * it before loading the notify filter, so the listener is always fd 4:
 * guardexec takes it with pidfd_getfd() while the child waits in the
 * marker syscall.
 */
#define STATUS_FD 3
#define LISTENER_FD 4

struct child_err {
	int stage;
	int err;
	int arg;
};

/* Set before the fork: the child runs as pid 2 of its own namespaces. */
static bool child_in_ns;

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

/* Mark every fd from 3 up close-on-exec. */
static int
cloexec_from3(void)
{
	struct rlimit rl;

	if (syscall(SYS_close_range, 3U, ~0U, CLOSE_RANGE_CLOEXEC) == 0)
		return 0;
	if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
		return -1;
	for (rlim_t fd = 3; fd < rl.rlim_cur && fd < 65536; fd++)
		fcntl((int)fd, F_SETFD, FD_CLOEXEC);
	return 0;
}

/*
 * The child's setup order is fixed; each step depends on the ones
 * before it.  Only async-signal-safe calls from here to execve.
 */
static void __attribute__((noreturn))
child_main(const struct gx_run *run, bool plain, pid_t parent, int errfd,
    int out_w, int err_w)
{
	sigset_t empty;
	int fd;

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
	if (getppid() != parent)
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
	if (cloexec_from3() < 0)
		child_fail(errfd, STAGE_FDS, 0);
	if (chdir(run->cwd) < 0)
		child_fail(errfd, STAGE_CHDIR, 0);

	/* (4) rlimits. */
	{
		int res = 0;

		if (limits_apply(&run->pol->limits, run->use_rlimit_as,
		    &res) < 0)
			child_fail(errfd, STAGE_RLIMIT, res);
	}

	/* (5) Namespaces need privileges we are about to drop. */
	if (run->netns && !child_in_ns && unshare(CLONE_NEWNET) < 0)
		child_fail(errfd, STAGE_NETNS, 0);

	/* (5b) In our own user namespace: see (6b). */
	if (child_in_ns && ns_limit_caps() < 0)
		child_fail(errfd, STAGE_CAPS, 0);

	/* (6) command.user: groups, then gid, then uid; verify each took. */
	if (run->drop_user) {
		uid_t r, e, s;

		/* No capability can come back: bounding and ambient sets too. */
		for (int cap = 0; cap < 64; cap++)
			if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) < 0 &&
			    errno != EINVAL)
				child_fail(errfd, STAGE_USER, 2);
		prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
		if (setgroups(run->ngroups, run->groups) < 0 ||
		    setresgid(run->gid, run->gid, run->gid) < 0 ||
		    setresuid(run->uid, run->uid, run->uid) < 0)
			child_fail(errfd, STAGE_USER, 0);
		if (getresuid(&r, &e, &s) < 0 || r != run->uid ||
		    e != run->uid || s != run->uid || setuid(0) == 0) {
			errno = EPERM;
			child_fail(errfd, STAGE_USER, 1);
		}
	}

	/*
	 * (6b) In our own user namespace we hold every capability there
	 * (uid 0 or not): none may reach the command, which could otherwise
	 * remount the view read-write, mount, or chown what it sees.
	 */
	if (child_in_ns && ns_drop_caps() < 0)
		child_fail(errfd, STAGE_CAPS, 0);

	/* (7) no_new_privs: setuid binaries no longer raise privileges. */
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		child_fail(errfd, STAGE_NNP, 0);

	/* (8) Landlock (needs no_new_privs when unprivileged). */
	if (run->landlock_fd >= 0 &&
	    syscall(SYS_landlock_restrict_self, run->landlock_fd, 0) < 0)
		child_fail(errfd, STAGE_LANDLOCK, 0);

	/* (9) seccomp, always last: after it, only allowed syscalls work. */
	if (filter_load_guard(run->filter) < 0)
		child_fail(errfd, STAGE_SECCOMP, 0);
	if (run->filter->notify.len > 0 && !plain) {
		if (errfd != STATUS_FD) {
			if (dup3(errfd, STATUS_FD, O_CLOEXEC) < 0)
				child_fail(errfd, STAGE_FDS, 0);
			errfd = STATUS_FD;
		}
		if (syscall(SYS_close_range, LISTENER_FD, ~0U, 0) < 0)
			for (int fd2 = LISTENER_FD; fd2 < 1024; fd2++)
				close(fd2);
		child_say(errfd, STAGE_LISTENER_READY, 0);
		if (filter_load_notify(run->filter) >= 0) {
			/* Wait here until guardexec holds the listener. */
			syscall(GX_MARKER_SYSCALL);
		} else if (errno == EBUSY && !run->learn) {
			/*
			 * A listener up the stack (nested): guardexec starts
			 * the child again with the plain filter.
			 */
			child_say(errfd, STAGE_LISTENER_FALLBACK, errno);
			_exit(GX_EXIT_FAILURE);
		} else {
			child_fail(errfd, STAGE_SECCOMP, 1);
		}
	} else if (filter_load_plain(run->filter) < 0) {
		child_fail(errfd, STAGE_SECCOMP, 0);
	}

	execve(run->exec_path, run->argv, run->envp);
	child_fail(errfd, STAGE_EXEC, 0);
}

static void
describe_child_err(const struct child_err *ce, struct gx_outcome *out)
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

/* ---- the family: everything the command started -------------------- */

/*
 * State, parent and session of @pid from /proc/PID/stat (the fields
 * after the command name, which may itself hold ')' and spaces).
 */
static int
proc_stat(pid_t pid, char *state, pid_t *ppid, pid_t *sid)
{
	char path[64], buf[512], *p;
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
	if (p == NULL || sscanf(p + 1, " %c %d %*d %d", state, &pp, &ss) != 3)
		return -1;
	*ppid = (pid_t)pp;
	*sid = (pid_t)ss;
	return 0;
}

static int
read_ppid(pid_t pid, pid_t *ppid, char *state)
{
	pid_t sid;

	return proc_stat(pid, state, ppid, &sid);
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

/* Direct children of @pid from /proc/PID/task/TID/children; -1 if absent. */
static int
children_of(pid_t pid, struct pidvec *out)
{
	char path[320], buf[4096];
	struct dirent *de;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (d == NULL)
		return errno == ENOENT ? 0 : -1;
	while ((de = readdir(d)) != NULL) {
		size_t len = 0;
		ssize_t n;
		char *p, *end;
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
		/* Entries are "pid " each; a short final read is fine. */
		while (len < sizeof(buf) - 1 &&
		    (n = read(fd, buf + len, sizeof(buf) - 1 - len)) > 0)
			len += (size_t)n;
		close(fd);
		buf[len] = '\0';
		for (p = buf; *p != '\0'; p = end) {
			long v = strtol(p, &end, 10);

			if (end == p)
				break;
			if (v > 0)
				pv_push(out, (pid_t)v);
		}
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
family(pid_t self, struct pidvec *out)
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

static bool
pv_has(const struct pidvec *pv, pid_t pid)
{
	for (size_t i = 0; i < pv->n; i++)
		if (pv->v[i] == pid)
			return true;
	return false;
}

/*
 * Send @sig to the whole family; returns how many were signalled.  The
 * family is walked before anything is signalled (a parent that exits on
 * the signal would otherwise hide its children while they are being
 * reparented to us), then walked again for any that moved meanwhile.
 */
static size_t
signal_family(pid_t self, pid_t pgid, int sig)
{
	struct pidvec pv = { 0 }, again = { 0 };
	size_t n;

	family(self, &pv);
	for (size_t i = 0; i < pv.n; i++) {
		signal_one(pv.v[i], sig);
		if (sig == SIGTERM || sig == SIGHUP || sig == SIGINT)
			signal_one(pv.v[i], SIGCONT);
	}
	if (sig == SIGKILL && pgid > 0)
		kill(-pgid, sig);
	family(self, &again);
	for (size_t i = 0; i < again.n; i++) {
		if (pv_has(&pv, again.v[i]))
			continue;
		signal_one(again.v[i], sig);
		if (sig == SIGTERM || sig == SIGHUP || sig == SIGINT)
			signal_one(again.v[i], SIGCONT);
	}
	n = pv.n;
	free(pv.v);
	free(again.v);
	return n;
}

static double
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* ---- the sentinel ------------------------------------------------------ */

/* The session id of @pid; -1 when it is gone or a zombie. */
static pid_t
session_of(pid_t pid)
{
	pid_t ppid, sid;
	char state;

	if (proc_stat(pid, &state, &ppid, &sid) < 0 || state == 'Z')
		return -1;
	return sid;
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

/*
 * Start the sentinel for the command started as @child (its session id).
 * Returns the write end of its pipe, or -1 (then there is none).
 */
static int
sentinel_start(pid_t child, const struct gx_cgroup *cg, pid_t *pid_out)
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
		if (syscall(SYS_close_range, 4U, ~0U, 0) < 0)
			for (int fd = 4; fd < 1024; fd++)
				close(fd);
		for (int fd = 0; fd < 3; fd++) {
			int null = open("/dev/null", O_RDWR);

			if (null >= 0 && null != fd) {
				dup2(null, fd);
				close(null);
			}
		}
		sentinel_main(3, child, cg != NULL && cg->active ? cg : NULL);
	}
	close(p[0]);
	*pid_out = pid;
	return p[1];
}

/* ---- output ----------------------------------------------------------- */

struct sink {
	int fd;             /* where the bytes go */
	bool own_fd;        /* fd was opened by us (non-blocking reopen) */
	bool dead;          /* EPIPE or another error: discard */
	char *pend;
	size_t pend_len, pend_off, pend_cap;
	bool last_nl;       /* last byte written was '\n' (or none yet) */
	bool any;
};

/*
 * A pipe at fd 1 or 2 is reopened through /proc as a separate,
 * non-blocking open file description, so a slow reader never blocks the
 * loop (timeouts keep firing) and the caller's description keeps its
 * flags.  Files and terminals are written as they are.
 */
static void
sink_open(struct sink *s, int fd)
{
	char path[64];
	struct stat st;
	int nfd;

	memset(s, 0, sizeof(*s));
	s->fd = fd;
	s->last_nl = true;
	if (fstat(fd, &st) < 0) {
		s->dead = true;
		return;
	}
	if (!S_ISFIFO(st.st_mode))
		return;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	nfd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
	if (nfd >= 0) {
		s->fd = nfd;
		s->own_fd = true;
	}
}

static void
sink_flush(struct sink *s)
{
	while (!s->dead && s->pend_off < s->pend_len) {
		ssize_t n = write(s->fd, s->pend + s->pend_off,
		    s->pend_len - s->pend_off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return;
		if (n <= 0) {
			s->dead = true;
			break;
		}
		s->pend_off += (size_t)n;
	}
	s->pend_off = s->pend_len = 0;
}

static bool
sink_busy(const struct sink *s)
{
	return !s->dead && s->pend_off < s->pend_len;
}

/* Write what can be written now; queue the rest (at most one read). */
static void
sink_write(struct sink *s, const char *buf, size_t n)
{
	if (n == 0)
		return;
	s->any = true;
	s->last_nl = buf[n - 1] == '\n';
	if (s->dead)
		return;
	if (!sink_busy(s)) {
		s->pend_off = s->pend_len = 0;
		while (n > 0) {
			ssize_t w = write(s->fd, buf, n);

			if (w < 0 && errno == EINTR)
				continue;
			if (w < 0 && errno == EAGAIN)
				break;
			if (w <= 0) {
				s->dead = true;
				return;
			}
			buf += w;
			n -= (size_t)w;
		}
		if (n == 0)
			return;
	}
	if (s->pend_off > 0) {
		memmove(s->pend, s->pend + s->pend_off,
		    s->pend_len - s->pend_off);
		s->pend_len -= s->pend_off;
		s->pend_off = 0;
	}
	if (s->pend_len + n > s->pend_cap) {
		s->pend = xreallocarray(s->pend, s->pend_len + n, 1);
		s->pend_cap = s->pend_len + n;
	}
	memcpy(s->pend + s->pend_len, buf, n);
	s->pend_len += n;
}

/* Block until everything pending is written (end of run). */
static void
sink_drain(struct sink *s)
{
	while (sink_busy(s)) {
		struct pollfd p = { s->fd, POLLOUT, 0 };

		if (poll(&p, 1, -1) < 0 && errno != EINTR)
			break;
		sink_flush(s);
	}
}

struct relay {
	const struct gx_policy *pol;
	struct sink sink[2];        /* stdout, stderr */
	uint64_t total;             /* bytes of both streams */
	uint64_t head;              /* bytes passed live before the cap */
	/* head_tail: a ring of the last (max - head) bytes, tagged. */
	char *ring;
	unsigned char *tag;
	uint64_t ring_cap, ring_len, ring_pos;
	bool truncated;
	bool marker_done;
	bool overflow_kill;         /* on_overflow = "kill" fired */
};

static void
relay_init(struct relay *r, const struct gx_policy *pol)
{
	memset(r, 0, sizeof(*r));
	r->pol = pol;
	sink_open(&r->sink[0], 1);
	sink_open(&r->sink[1], 2);
	if (pol->max_bytes == 0)
		return;
	if (pol->keep == GX_KEEP_HEAD) {
		r->head = pol->max_bytes;
		return;
	}
	r->head = pol->max_bytes / 2;
	r->ring_cap = pol->max_bytes - r->head;
	if (r->ring_cap > 0) {
		r->ring = xmalloc((size_t)r->ring_cap);
		r->tag = xmalloc((size_t)r->ring_cap);
	}
}

static void
marker(struct relay *r, const char *text)
{
	struct sink *e = &r->sink[1];

	if (e->any && !e->last_nl)
		sink_write(e, "\n", 1);
	sink_write(e, text, strlen(text));
}

static void
ring_push(struct relay *r, int stream, const char *buf, size_t n)
{
	if (r->ring_cap == 0)
		return;
	if (n >= r->ring_cap) {
		buf += n - r->ring_cap;
		n = (size_t)r->ring_cap;
	}
	for (size_t i = 0; i < n; ) {
		size_t chunk = (size_t)(r->ring_cap - r->ring_pos);

		if (chunk > n - i)
			chunk = n - i;
		memcpy(r->ring + r->ring_pos, buf + i, chunk);
		memset(r->tag + r->ring_pos, stream, chunk);
		r->ring_pos = (r->ring_pos + chunk) % r->ring_cap;
		i += chunk;
	}
	r->ring_len = r->ring_len + n > r->ring_cap ? r->ring_cap :
	    r->ring_len + n;
}

/* Account and pass on @n bytes the command wrote to @stream (0 or 1). */
static void
relay_data(struct relay *r, int stream, const char *buf, size_t n)
{
	uint64_t max = r->pol->max_bytes;

	if (max == 0) {
		sink_write(&r->sink[stream], buf, n);
		return;
	}
	if (r->total < r->head) {
		size_t k = (size_t)(r->head - r->total < n ? r->head - r->total :
		    n);

		sink_write(&r->sink[stream], buf, k);
		r->total += k;
		buf += k;
		n -= k;
	}
	if (n == 0)
		return;
	r->total += n;
	if (r->pol->keep == GX_KEEP_HEAD_TAIL)
		ring_push(r, stream, buf, n);
	if (r->total > max) {
		r->truncated = true;
		if (r->pol->keep == GX_KEEP_HEAD && !r->marker_done) {
			char text[96];

			snprintf(text, sizeof(text), "[guardexec: output truncated "
			    "at %llu bytes]\n", (unsigned long long)max);
			marker(r, text);
			r->marker_done = true;
		}
		if (r->pol->on_overflow == GX_OVERFLOW_KILL)
			r->overflow_kill = true;
	}
}

/* End of run: the omitted-bytes marker and the tail (head_tail). */
static void
relay_finish(struct relay *r)
{
	if (r->pol->keep == GX_KEEP_HEAD_TAIL && r->total > r->head) {
		uint64_t omitted = r->total - r->head - r->ring_len;
		uint64_t start = (r->ring_pos + r->ring_cap - r->ring_len) %
		    (r->ring_cap ? r->ring_cap : 1);

		if (omitted > 0) {
			char text[96];

			snprintf(text, sizeof(text), "[guardexec: %llu bytes "
			    "omitted]\n", (unsigned long long)omitted);
			marker(r, text);
		}
		for (uint64_t i = 0; i < r->ring_len; ) {
			uint64_t at = (start + i) % r->ring_cap, run = 1;
			int stream = r->tag[at];

			while (i + run < r->ring_len && at + run < r->ring_cap &&
			    r->tag[at + run] == stream)
				run++;
			sink_write(&r->sink[stream], r->ring + at, (size_t)run);
			sink_drain(&r->sink[stream]);
			i += run;
		}
	}
	for (int i = 0; i < 2; i++) {
		sink_drain(&r->sink[i]);
		if (r->sink[i].own_fd)
			close(r->sink[i].fd);
		free(r->sink[i].pend);
	}
	free(r->ring);
	free(r->tag);
}

/* ---- seccomp notifications ------------------------------------------- */

struct notify {
	int fd;                     /* the listener, or -1 */
	struct seccomp_notif *req;
	struct seccomp_notif_resp *resp;
	const struct gx_run *run;
	pid_t child;                /* ours: the command, or the namespace init */
	pid_t cmd;                  /* the command (0: not known yet) */
	bool exec_done;
	struct gx_outcome *out;
};

static void
count_denial(struct gx_outcome *out, const char *name)
{
	for (size_t i = 0; i < out->n_denied; i++) {
		if (strcmp(out->denied[i].name, name) == 0) {
			out->denied[i].count++;
			return;
		}
	}
	if (out->n_denied == GX_MAX_DENIED) {
		out->denied_overflow = true;
		return;
	}
	strlcpy(out->denied[out->n_denied].name, name,
	    sizeof(out->denied[0].name));
	out->denied[out->n_denied++].count = 1;
}

/* The thread group of task @tid (a notification names a thread). */
static pid_t
tgid_of(pid_t tid)
{
	char path[64], line[128];
	pid_t tgid = tid;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
	f = fopen(path, "re");
	if (f == NULL)
		return tid;
	while (fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, "Tgid: %d", &tgid) == 1)
			break;
	fclose(f);
	return tgid;
}

/*
 * Answer one notification: the marker before exec; otherwise count the
 * syscall by name and apply the policy's action (learn and log let it
 * through; kill ends the process, reported as SIGSYS like the kernel's
 * own kill action would).
 */
static void
notify_handle(struct notify *ns)
{
	const struct gx_policy *pol = ns->run->pol;
	struct seccomp_notif *req = ns->req;
	struct seccomp_notif_resp *resp = ns->resp;
	char *name;

	memset(req, 0, sizeof(*req));
	if (seccomp_notify_receive(ns->fd, req) < 0)
		return;         /* the task died meanwhile */
	memset(resp, 0, sizeof(*resp));
	resp->id = req->id;
	if (!ns->exec_done && req->data.nr == GX_MARKER_SYSCALL) {
		resp->error = -ENOSYS;
	} else {
		name = filter_syscall_name(req->data.arch, req->data.nr);
		count_denial(ns->out, name);
		free(name);
		if (ns->run->learn || pol->default_action == GX_ACTION_LOG) {
			resp->flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
		} else if (pol->default_action == GX_ACTION_KILL) {
			pid_t tgid = tgid_of((pid_t)req->pid);

			if (seccomp_notify_id_valid(ns->fd, req->id) == 0) {
				if (tgid == ns->cmd)
					ns->out->seccomp_killed = true;
				kill(tgid, SIGKILL);
			}
			resp->error = -EPERM;
		} else {
			resp->error = -pol->sys_errno;
		}
	}
	(void)seccomp_notify_respond(ns->fd, resp);
}

/*
 * Between fork and the command's exec: follow the child's status
 * messages, take the seccomp listener when it announces one, answer the
 * marker.  Returns 0 once execve happened, -1 when the child reported a
 * failure (@ce), -2 when the listener could not be taken (the child was
 * killed; start again with the plain filter).
 */
static int
bootstrap(struct notify *ns, int stp, struct child_err *ce)
{
	int pidfd = ns->cmd > 0 ? (int)syscall(SYS_pidfd_open, ns->cmd, 0) : -1;
	bool expect_listener = false;
	int rc = 0;

	for (;;) {
		struct pollfd p[2] = { { stp, POLLIN, 0 }, { ns->fd, POLLIN, 0 } };
		ssize_t n;

		if (expect_listener && ns->fd < 0) {
			/* The child is loading it or waits in the marker. */
			int fd = (int)syscall(SYS_pidfd_getfd, pidfd, LISTENER_FD, 0);

			if (fd >= 0) {
				ns->fd = fd;
				strlcpy(ns->out->reporting, "notify",
				    sizeof(ns->out->reporting));
				continue;
			}
			if (errno != EBADF && poll(p, 1, errno == ESRCH ? 100 : 0)
			    > 0) {
				/* The child said why (or died): read it first. */
				expect_listener = false;
			} else if (errno != EBADF) {
				snprintf(ns->out->reporting,
				    sizeof(ns->out->reporting), "unavailable: "
				    "pidfd_getfd: %s", strerror(errno));
				kill(ns->child, SIGKILL);
				waitpid(ns->child, NULL, 0);
				rc = -2;
				break;
			} else if (poll(p, 1, 0) == 0) {
				usleep(20);
				continue;
			}
		} else if (poll(p, ns->fd >= 0 ? 2 : 1, -1) < 0) {
			if (errno == EINTR)
				continue;
			rc = -1;
			ce->stage = STAGE_SETSID;
			ce->err = errno;
			break;
		}
		if (ns->fd >= 0 && (p[1].revents & POLLIN))
			notify_handle(ns);
		if (!(p[0].revents & (POLLIN | POLLHUP)))
			continue;
		n = read(stp, ce, sizeof(*ce));
		if (n < 0 && errno == EINTR)
			continue;
		if (n == 0 || n < 0)
			break;          /* EOF: execve happened */
		if (ce->stage == STAGE_LISTENER_READY) {
			expect_listener = true;
			if (pidfd < 0) {
				/* In a PID namespace: the init's one child. */
				ns->cmd = ns_command_pid(ns->child);
				pidfd = (int)syscall(SYS_pidfd_open, ns->cmd, 0);
			}
		} else if (ce->stage == STAGE_LISTENER_FALLBACK) {
			snprintf(ns->out->reporting, sizeof(ns->out->reporting),
			    "unavailable: %s (plain seccomp actions, no names)",
			    ce->err == EBUSY ? "a seccomp listener is already "
			    "installed (nested guardexec?)" : strerror(ce->err));
			if (ns->child != ns->cmd)
				kill(ns->child, SIGKILL);  /* the init */
			waitpid(ns->child, NULL, 0);
			rc = -2;
			break;
		} else {
			rc = -1;
			break;
		}
	}
	if (pidfd >= 0)
		close(pidfd);
	ns->exec_done = true;
	return rc;
}

/* ---- the parent loop ----------------------------------------------- */

static void
set_pipe_size(int fd)
{
	/* Fewer wake-ups with a larger pipe; the default is fine too. */
	if (fcntl(fd, F_SETPIPE_SZ, PIPE_SIZE) < 0)
		(void)fcntl(fd, F_SETPIPE_SZ, 256 * 1024);
}

static void
note_signal(struct gx_outcome *out, int sig)
{
	if (out->n_forwarded < GX_MAX_FORWARDED)
		out->forwarded[out->n_forwarded++] = sig;
}

/*
 * Resource use of everything this run reaped (the command and the
 * orphans it left us), each including what it had reaped itself.  Not
 * getrusage(RUSAGE_CHILDREN): that also counts whatever the process that
 * exec'd guardexec had waited for before (a shell running a build).
 */
static struct rusage reaped_ru;

static void
add_rusage(const struct rusage *ru)
{
	timeradd(&reaped_ru.ru_utime, &ru->ru_utime, &reaped_ru.ru_utime);
	timeradd(&reaped_ru.ru_stime, &ru->ru_stime, &reaped_ru.ru_stime);
	if (ru->ru_maxrss > reaped_ru.ru_maxrss)
		reaped_ru.ru_maxrss = ru->ru_maxrss;
}

/* Reap every child that is done; note the command's own status. */
static void
reap(pid_t child, bool *child_done, int *child_status)
{
	struct rusage ru;
	int st;
	pid_t p;

	while ((p = wait4(-1, &st, WNOHANG, &ru)) > 0) {
		add_rusage(&ru);
		/* A namespace init reports the command's status before. */
		if (p == child && !*child_done) {
			*child_done = true;
			*child_status = st;
		}
	}
}

/*
 * Kill everything left, until no child of ours remains (bounded).  With
 * @grace_ms, first let the family end by itself for that long (a signal
 * we relayed may still be in its handlers).
 */
static bool
kill_all_and_reap(pid_t self, pid_t pgid, pid_t child, bool *child_done,
    int *child_status, double grace_ms)
{
	double until = now_ms() + REAP_LIMIT_MS, grace_end = now_ms() + grace_ms;
	siginfo_t gsi;

	while (grace_ms > 0 && now_ms() < grace_end) {
		reap(child, child_done, child_status);
		if (waitid(P_ALL, 0, &gsi, WEXITED | WNOHANG | WNOWAIT) < 0 &&
		    errno == ECHILD)
			return true;
		usleep(2000);
	}
	for (;;) {
		siginfo_t si;

		reap(child, child_done, child_status);
		/* No child left means no descendant left: we are the subreaper. */
		if (waitid(P_ALL, 0, &si, WEXITED | WNOHANG | WNOWAIT) < 0 &&
		    errno == ECHILD)
			return true;
		signal_family(self, pgid, SIGKILL);
		if (now_ms() > until)
			return false;
		usleep(1000);
	}
}

/* The command's side of a namespace run (see ns.h). */
struct ns_child {
	const struct gx_run *run;
	bool plain;
	int errfd, out_w, err_w;
};

static void
ns_command(void *arg)
{
	const struct ns_child *c = arg;

	child_main(c->run, c->plain, 1, c->errfd, c->out_w, c->err_w);
}

static void
ns_fail(void *arg, int step)
{
	const struct ns_child *c = arg;

	child_fail(c->errfd, STAGE_NS, step);
}

/*
 * Start the command: in its own namespaces when the run asks for them
 * and the kernel allows (the init is then our child), else by fork.
 */
static pid_t
start_child(const struct gx_run *run, bool plain, pid_t self, int errfd,
    int out_w, int err_w, struct gx_ns_run *nsr, struct gx_outcome *out)
{
	struct ns_child c = { run, plain, errfd, out_w, err_w };
	struct gx_ns_spec spec = {
		.pol = run->pol, .cwd = run->cwd,
		.landlock_fd = run->landlock_fd,
		.landlock_abi = run->landlock_abi,
		.netns = run->netns,
		.command = ns_command, .fail = ns_fail, .arg = &c,
	};
	pid_t pid;

	child_in_ns = false;
	out->namespaces = 0;
	if (run->use_ns) {
		child_in_ns = true;
		if (ns_start(&spec, nsr) == 0) {
			out->namespaces = nsr->namespaces;
			return nsr->init;
		}
		child_in_ns = false;
		snprintf(out->ns_missing, sizeof(out->ns_missing),
		    "the kernel refused new namespaces: %s", strerror(errno));
	}
	pid = fork();
	if (pid == 0)
		child_main(run, plain, self, errfd, out_w, err_w);
	return pid;
}

int
supervise_run(const struct gx_run *run, struct gx_outcome *out)
{
	int outp[2] = { -1, -1 }, errp[2] = { -1, -1 }, stp[2] = { -1, -1 };
	int sfd = -1, child_status = 0, rc = 0;
	pid_t self = getpid(), child;
	struct child_err ce;
	struct timespec mono0, mono1;
	double deadline = 0, kill_at = 0, idle_since = 0;
	bool child_done = false, family_dead = false, killed_overflow = false;
	struct notify ns = { 0 };
	struct gx_ns_run nsr = { .init = -1, .alive_w = -1, .report_r = -1 };
	int sentinel_fd = -1;
	pid_t sentinel_pid = -1;
	struct relay r;
	sigset_t set;
	char *buf;
	ssize_t n;
	int bs;

	memset(out, 0, sizeof(*out));
	memset(&reaped_ru, 0, sizeof(reaped_ru));
	clock_gettime(CLOCK_REALTIME, &out->start);
	clock_gettime(CLOCK_MONOTONIC, &mono0);

	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	for (size_t i = 0; i < sizeof(relayed_signals) / sizeof(int); i++)
		sigaddset(&set, relayed_signals[i]);
	sfd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	if (sfd < 0) {
		snprintf(out->error, sizeof(out->error), "signalfd: %s",
		    strerror(errno));
		goto refused;
	}
	ns.fd = -1;
	ns.run = run;
	ns.out = out;
	strlcpy(out->reporting, run->filter->notify.len > 0 ? "notify" : "off",
	    sizeof(out->reporting));
	if (run->filter->notify.len > 0 &&
	    seccomp_notify_alloc(&ns.req, &ns.resp) != 0) {
		snprintf(out->error, sizeof(out->error), "seccomp_notify_alloc "
		    "failed");
		goto refused;
	}

	for (int attempt = 0; ; attempt++) {
		if (pipe2(outp, O_CLOEXEC) < 0 || pipe2(errp, O_CLOEXEC) < 0 ||
		    pipe2(stp, O_CLOEXEC) < 0) {
			snprintf(out->error, sizeof(out->error), "pipe: %s",
			    strerror(errno));
			goto refused;
		}
		set_pipe_size(outp[1]);
		set_pipe_size(errp[1]);

		ns_end(&nsr);
		child = start_child(run, attempt > 0, self, stp[1], outp[1],
		    errp[1], &nsr, out);
		if (child < 0) {
			snprintf(out->error, sizeof(out->error), "fork: %s",
			    strerror(errno));
			goto refused;
		}
		close(stp[1]);
		close(outp[1]);
		close(errp[1]);
		stp[1] = outp[1] = errp[1] = -1;
		ns.child = child;
		ns.cmd = out->namespaces ? 0 : child;
		ns.exec_done = false;
		bs = bootstrap(&ns, stp[0], &ce);
		close(stp[0]);
		stp[0] = -1;
		if (bs != -2 || attempt > 0 || run->learn)
			break;
		/* No listener to be had: again, with the plain filter. */
		close(outp[0]);
		close(errp[0]);
		outp[0] = errp[0] = -1;
		{
			struct gx_diag d = { 0 };

			if (filter_build_plain(run->pol, run->filter, &d) < 0) {
				strlcpy(out->error, d.n ? d.msgs[0] :
				    "building the plain seccomp filter",
				    sizeof(out->error));
				diag_free(&d);
				goto refused;
			}
		}
	}
	if (bs == -2) {
		snprintf(out->error, sizeof(out->error), "--learn needs a "
		    "seccomp listener: %s", out->reporting);
		bs = -1;
		ce.stage = 0;
	}
	if (bs == -1) {
		{
			struct rusage ru;

			if (out->namespaces)
				kill(child, SIGKILL);   /* the init */
			if (wait4(child, NULL, 0, &ru) == child)
				add_rusage(&ru);
		}
		close(outp[0]);
		close(errp[0]);
		close(sfd);
		if (ns.fd >= 0)
			close(ns.fd);
		ns_end(&nsr);
		seccomp_notify_free(ns.req, ns.resp);
		clock_gettime(CLOCK_REALTIME, &out->end);
		clock_gettime(CLOCK_MONOTONIC, &mono1);
		out->duration_ms = timespec_diff_ms(&mono0, &mono1);
		out->ru = reaped_ru;
		if (ce.stage == STAGE_EXEC) {
			out->status = GX_STATUS_EXEC_FAILED;
			out->exit_code = ce.err == ENOENT ? GX_EXIT_NOTFOUND :
			    GX_EXIT_NOEXEC;
			out->exec_errno = ce.err;
			snprintf(out->error, sizeof(out->error), "%s: %s",
			    run->argv[0], strerror(ce.err));
		} else {
			if (ce.stage != 0)
				describe_child_err(&ce, out);
			out->status = GX_STATUS_REFUSED;
			out->exit_code = GX_EXIT_FAILURE;
		}
		return -1;
	}

	/*
	 * If guardexec dies from here on, the namespace init dies with it
	 * and the kernel ends the family; without namespaces, the sentinel
	 * does what it can.
	 */
	if (!out->namespaces)
		sentinel_fd = sentinel_start(child, run->cgroup, &sentinel_pid);
	relay_init(&r, run->pol);
	buf = xmalloc(RELAY_BUF);
	if (run->pol->limits.timeout > 0)
		deadline = now_ms() + run->pol->limits.timeout * 1e3;

	for (;;) {
		struct pollfd pfd[7];
		int np = 0, timeout_ms = -1, ix_out = -1, ix_err = -1, ix_n = -1;
		double now = now_ms(), next = 0;
		int nst;

		/* The namespace init reports the command's end. */
		if (nsr.report_r >= 0 && ns_read_status(&nsr, &nst) == 1) {
			child_status = nst;
			child_done = true;
		}

		/* Timers: the wall-clock timeout, then the kill grace. */
		if (!child_done && deadline > 0 && now >= deadline &&
		    !out->timed_out) {
			out->timed_out = true;
			signal_family(self, child, SIGTERM);
			kill_at = now + run->pol->limits.kill_grace * 1e3;
		}
		if (!child_done && kill_at > 0 && now >= kill_at) {
			signal_family(self, child, SIGKILL);
			kill_at = 0;
		}
		if (r.overflow_kill && !killed_overflow) {
			killed_overflow = true;
			signal_family(self, child, SIGKILL);
		}
		if (child_done && !family_dead && sentinel_fd >= 0) {
			/* A normal end: the sentinel leaves without acting. */
			if (write(sentinel_fd, "q", 1) == 1) {
				int sst;

				waitpid(sentinel_pid, &sst, 0);
			}
			close(sentinel_fd);
			sentinel_fd = -1;
		}
		if (child_done && !family_dead) {
			/* The command ended: nothing it started may stay. */
			if (!kill_all_and_reap(self, child, child, &child_done,
			    &child_status, out->n_forwarded > 0 ?
			    run->pol->limits.kill_grace * 1e3 : 0))
				out->left_running = true;
			family_dead = true;
			idle_since = now_ms();
		}
		if (family_dead && outp[0] < 0 && errp[0] < 0)
			break;
		if (family_dead && (sink_busy(&r.sink[0]) ||
		    sink_busy(&r.sink[1])))
			idle_since = now_ms();  /* our reader is slow, not idle */

		pfd[np++] = (struct pollfd){ sfd, POLLIN, 0 };
		if (ns.fd >= 0) {
			ix_n = np;
			pfd[np++] = (struct pollfd){ ns.fd, POLLIN, 0 };
		}
		if (outp[0] >= 0 && !sink_busy(&r.sink[0])) {
			ix_out = np;
			pfd[np++] = (struct pollfd){ outp[0], POLLIN, 0 };
		}
		if (errp[0] >= 0 && !sink_busy(&r.sink[1])) {
			ix_err = np;
			pfd[np++] = (struct pollfd){ errp[0], POLLIN, 0 };
		}
		for (int i = 0; i < 2; i++)
			if (sink_busy(&r.sink[i]))
				pfd[np++] = (struct pollfd){ r.sink[i].fd,
				    POLLOUT, 0 };
		if (nsr.report_r >= 0 && !child_done)
			pfd[np++] = (struct pollfd){ nsr.report_r, POLLIN, 0 };

		if (!child_done && deadline > 0 && !out->timed_out)
			next = deadline;
		if (!child_done && kill_at > 0)
			next = kill_at;
		if (family_dead)
			next = idle_since + DRAIN_IDLE_MS;
		if (next > 0) {
			double d = next - now_ms();

			timeout_ms = d <= 0 ? 0 : (int)d + 1;
		}
		if (poll(pfd, (nfds_t)np, timeout_ms) < 0) {
			if (errno == EINTR)
				continue;
			die_errno("poll");
		}
		if (family_dead && now_ms() >= idle_since + DRAIN_IDLE_MS) {
			/* Someone outside the family holds the pipes. */
			if (outp[0] >= 0)
				close(outp[0]);
			if (errp[0] >= 0)
				close(errp[0]);
			outp[0] = errp[0] = -1;
			continue;
		}
		if (pfd[0].revents & POLLIN) {
			struct signalfd_siginfo si;

			while (read(sfd, &si, sizeof(si)) == sizeof(si)) {
				if ((int)si.ssi_signo == SIGCHLD)
					continue;
				note_signal(out, (int)si.ssi_signo);
				if (!child_done)
					signal_family(self, child,
					    (int)si.ssi_signo);
			}
			reap(child, &child_done, &child_status);
		}
		if (ix_n >= 0 && (pfd[ix_n].revents & POLLIN))
			notify_handle(&ns);
		else if (ix_n >= 0 && (pfd[ix_n].revents & (POLLHUP | POLLERR))) {
			close(ns.fd);   /* no task holds the filter any more */
			ns.fd = -1;
		}
		for (int i = 0; i < 2; i++)
			sink_flush(&r.sink[i]);
		for (int s = 0; s < 2; s++) {
			int ix = s == 0 ? ix_out : ix_err;
			int *fdp = s == 0 ? &outp[0] : &errp[0];

			if (ix < 0 || !(pfd[ix].revents & (POLLIN | POLLHUP |
			    POLLERR)))
				continue;
			n = read(*fdp, buf, RELAY_BUF);
			if (n < 0 && (errno == EINTR || errno == EAGAIN))
				continue;
			if (n <= 0) {
				close(*fdp);
				*fdp = -1;
				continue;
			}
			if (s == 0)
				out->stdout_bytes += (uint64_t)n;
			else
				out->stderr_bytes += (uint64_t)n;
			relay_data(&r, s, buf, (size_t)n);
			if (family_dead)
				idle_since = now_ms();
		}
	}
	free(buf);
	close(sfd);
	if (sentinel_fd >= 0)
		close(sentinel_fd);
	if (ns.fd >= 0)
		close(ns.fd);
	seccomp_notify_free(ns.req, ns.resp);
	relay_finish(&r);
	/* Stragglers: anything reparented to us since, or left in the cgroup. */
	if (run->cgroup != NULL)
		cgroup_kill_all(run->cgroup);
	kill_all_and_reap(self, 0, child, &child_done, &child_status, 0);
	ns_end(&nsr);

	clock_gettime(CLOCK_REALTIME, &out->end);
	clock_gettime(CLOCK_MONOTONIC, &mono1);
	out->duration_ms = timespec_diff_ms(&mono0, &mono1);
	out->ru = reaped_ru;
	out->truncated = r.truncated;

	if (WIFSIGNALED(child_status))
		out->signal = WTERMSIG(child_status);
	/* Killed on a denied syscall: report it as the kernel would. */
	if (out->seccomp_killed && out->signal == SIGKILL && !out->timed_out)
		child_status = SIGSYS, out->signal = SIGSYS;
	if (out->timed_out) {
		out->status = GX_STATUS_TIMEOUT;
		out->exit_code = GX_EXIT_TIMEOUT;
		out->limit_hit = "timeout";
	} else if (WIFEXITED(child_status)) {
		out->status = GX_STATUS_EXITED;
		out->exit_code = WEXITSTATUS(child_status);
	} else {
		out->status = GX_STATUS_SIGNALED;
		out->exit_code = 128 + out->signal;
	}
	if (out->limit_hit == NULL && run->cgroup != NULL)
		out->limit_hit = cgroup_limit_hit(run->cgroup);
	if (out->limit_hit == NULL) {
		if (r.overflow_kill || r.truncated)
			out->limit_hit = "output";
		else if (out->signal == SIGXCPU)
			out->limit_hit = "cpu";
		else if (out->signal == SIGXFSZ)
			out->limit_hit = "file_size";
	}
	return rc;

refused:
	for (int i = 0; i < 2; i++) {
		if (outp[i] >= 0)
			close(outp[i]);
		if (errp[i] >= 0)
			close(errp[i]);
		if (stp[i] >= 0)
			close(stp[i]);
	}
	if (sfd >= 0)
		close(sfd);
	ns_end(&nsr);
	clock_gettime(CLOCK_REALTIME, &out->end);
	out->status = GX_STATUS_REFUSED;
	out->exit_code = GX_EXIT_FAILURE;
	return -1;
}
