/* SPDX-License-Identifier: ISC */
/*
 * The command's own world: namespaces, their id maps, the init process
 * and its life.  bubblewrap's --unshare-pid init is the model.  The mount
 * view the init builds is ns_view.c's (an op list decided in the parent,
 * applied by the init).
 *
 * guardexec is single-threaded; the init is a fork of it that never
 * execs, and keeps to plain system calls (no stdio, no malloc).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/securebits.h>
#include <linux/capability.h>
#include <linux/sched.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ns.h"
#include "ns_view.h"
#include "procfs.h"
#include "util.h"

const char *
ns_step_name(int step)
{
	switch (step) {
	case NS_STEP_SYNC: return "namespace init: waiting for guardexec";
	case NS_STEP_PRIVATE: return "namespace init: making mounts private";
	case NS_STEP_PROC: return "namespace init: mounting /proc";
	case NS_STEP_CLONE_TREE: return "namespace init: cloning a listed path";
	case NS_STEP_NEWROOT: return "namespace init: mounting the new root";
	case NS_STEP_PIVOT: return "namespace init: pivot_root";
	case NS_STEP_MOUNTPOINT:
		return "namespace init: creating a mount point";
	case NS_STEP_MOVE: return "namespace init: mounting a listed path";
	case NS_STEP_ATTR: return "namespace init: making a mount read-only, "
	    "nosuid, nodev";
	case NS_STEP_DEV: return "namespace init: building /dev";
	case NS_STEP_TMP: return "namespace init: mounting a private /tmp";
	case NS_STEP_LANDLOCK:
		return "namespace init: Landlock rules for the view";
	case NS_STEP_KERNEL_RO:
		return "namespace init: making /proc/sys and /sys read-only";
	case NS_STEP_FORK: return "namespace init: fork";
	default: return "namespace init";
	}
}

static void
close_all_but(int a, int b)
{
	int lo = a < b ? a : b, hi = a < b ? b : a;

	syscall(SYS_close_range, 3U, (unsigned)lo - 1, 0);
	if (hi > lo + 1)
		syscall(SYS_close_range, (unsigned)lo + 1, (unsigned)hi - 1, 0);
	syscall(SYS_close_range, (unsigned)hi + 1, ~0U, 0);
}

/*
 * The init's whole life.  @sync: EOF-or-byte pipe from guardexec (its
 * write end only guardexec holds, for the whole run); @report: where the
 * command's wait status goes.
 */
static void __attribute__((noreturn))
init_main(const struct gx_ns_spec *spec, const struct ns_view *plan, int sync,
    int report)
{
	struct pollfd pf = { sync, POLLIN, 0 };
	sigset_t all;
	pid_t cmd;
	char b;
	int st;

	/*
	 * Die with guardexec.  getppid() is 0 in a new PID namespace, so
	 * the check that guardexec did not die before the prctl is the
	 * pipe: its byte says the maps are written, and a hang-up after it
	 * says guardexec is gone.
	 */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0)
		_exit(125);
	if (read(sync, &b, 1) != 1)
		_exit(125);
	if (poll(&pf, 1, 0) > 0 && (pf.revents & (POLLHUP | POLLERR)))
		_exit(125);
	/* Dumpable only while guardexec wrote the maps. */
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	setsid();

	ns_view_apply(spec, plan);
	/* guardexec's answer on the adoption (see ns.h); EOF: it is gone. */
	if (spec->adopt != NULL) {
		if (read(sync, &b, 1) != 1)
			_exit(125);
		*spec->adopted = b == 'a';
	}

	cmd = fork();
	if (cmd < 0) {
		spec->fail(spec->arg, NS_STEP_FORK);
		_exit(125);
	}
	if (cmd == 0) {
		close(sync);
		close(report);
		spec->command(spec->arg);
		_exit(125);
	}
	/* Nothing of guardexec's stays open here: above all not its pipes. */
	close_all_but(sync, report);
	/*
	 * Signals: as the namespace's init we get none from inside it that
	 * we do not handle, and guardexec signals the family itself.
	 */
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, NULL);
	for (;;) {
		pid_t p = waitpid(-1, &st, 0);

		if (p < 0 && errno == EINTR)
			continue;
		if (p < 0)
			_exit(0);
		if (p == cmd)
			break;
	}
	/*
	 * Report, then wait for guardexec to end the rest of the family
	 * (it may grant a grace period after a relayed signal); it kills us,
	 * and with us the kernel kills the namespace.  EOF: it died.
	 */
	if (write(report, &st, sizeof(st)) != sizeof(st))
		_exit(125);
	for (;;) {
		pid_t p = waitpid(-1, &st, WNOHANG);

		if (p > 0)
			continue;
		pf = (struct pollfd){ sync, POLLIN, 0 };
		if (poll(&pf, 1, p == 0 ? 50 : -1) > 0)
			break;
	}
	kill(-1, SIGKILL);
	_exit(0);
}

/* ---- guardexec's side ------------------------------------------------ */

static int
write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), errsv;
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, text, strlen(text));
	errsv = errno;
	close(fd);
	errno = errsv;
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

/*
 * The id maps.  Root: every id maps to itself, so command.user and the
 * file owners are what they are outside.  The command holds no
 * capability, but uid 0 still owns root's files and passes the checks
 * that look at the uid alone: only read-only mounts (the view's, and
 * protect_kernel()'s) stop its writes.  Anyone else: the caller's own
 * uid and gid, and setgroups denied (the kernel requires it).
 */
static int
write_maps(pid_t pid)
{
	char path[64], line[64];

	snprintf(path, sizeof(path), "/proc/%d/uid_map", (int)pid);
	/*
	 * Root without CAP_SETUID over the parent namespace (a nested
	 * guardexec, root in a container) maps its own ids only, below.
	 */
	if (geteuid() == 0 && write_file(path, "0 0 4294967295\n") == 0) {
		snprintf(path, sizeof(path), "/proc/%d/gid_map", (int)pid);
		return write_file(path, "0 0 4294967295\n");
	}
	snprintf(path, sizeof(path), "/proc/%d/setgroups", (int)pid);
	if (write_file(path, "deny") < 0 && errno != ENOENT)
		return -1;
	snprintf(path, sizeof(path), "/proc/%d/uid_map", (int)pid);
	snprintf(line, sizeof(line), "%u %u 1\n", (unsigned)geteuid(),
	    (unsigned)geteuid());
	if (write_file(path, line) < 0)
		return -1;
	snprintf(path, sizeof(path), "/proc/%d/gid_map", (int)pid);
	snprintf(line, sizeof(line), "%u %u 1\n", (unsigned)getegid(),
	    (unsigned)getegid());
	return write_file(path, line);
}

static unsigned long
clone_flags(bool netns)
{
	return CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNS | CLONE_NEWIPC |
	    (netns ? CLONE_NEWNET : 0);
}

#ifndef CLONE_INTO_CGROUP
#define CLONE_INTO_CGROUP 0x200000000ULL
#endif

/*
 * fork() into new namespaces: clone with no new stack.  With a cgroup v2
 * directory fd, clone3(CLONE_INTO_CGROUP) starts the init inside the
 * run's cgroup, so no process of the run ever runs outside it; where the
 * kernel (or a seccomp filter around us) refuses clone3, plain clone,
 * and the command joins the cgroup as its first step (child.c).
 */
static pid_t
clone_ns(unsigned long flags, int cgroup_fd)
{
	if (cgroup_fd >= 0) {
		struct clone_args ca;
		pid_t pid;

		memset(&ca, 0, sizeof(ca));
		ca.flags = flags | CLONE_INTO_CGROUP;
		ca.exit_signal = SIGCHLD;
		ca.cgroup = (unsigned long long)cgroup_fd;
		pid = (pid_t)syscall(SYS_clone3, &ca, sizeof(ca));
		if (pid >= 0)
			return pid;
		if (errno != ENOSYS && errno != E2BIG && errno != EINVAL &&
		    errno != EPERM && errno != EOPNOTSUPP)
			return -1;
	}
	return (pid_t)syscall(SYS_clone, flags | SIGCHLD, NULL, NULL, NULL,
	    NULL);
}

int
ns_start(const struct gx_ns_spec *spec, struct gx_ns_run *nr)
{
	int sync[2], report[2], errsv;
	struct ns_view plan;
	pid_t pid;

	memset(nr, 0, sizeof(*nr));
	nr->alive_w = nr->report_r = -1;
	ns_view_plan(spec, &plan);
	if (pipe2(sync, O_CLOEXEC) < 0)
		return -1;
	if (pipe2(report, O_CLOEXEC) < 0) {
		errsv = errno;
		close(sync[0]);
		close(sync[1]);
		errno = errsv;
		return -1;
	}
	/*
	 * The maps are written through /proc/PID, which is ours only while
	 * the process is dumpable: dumpable for the clone, the init drops
	 * it again once the maps are in (before anything else runs).
	 */
	prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
	pid = clone_ns(clone_flags(spec->netns), spec->cgroup_fd);
	errsv = errno;
	if (pid == 0) {
		close(sync[1]);
		close(report[0]);
		init_main(spec, &plan, sync[0], report[1]);
	}
	if (pid > 0 && write_maps(pid) < 0) {
		errsv = errno;
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		pid = -1;
	}
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	ns_view_free(&plan);
	close(sync[0]);
	close(report[1]);
	if (pid < 0) {
		close(sync[1]);
		close(report[0]);
		errno = errsv;
		return -1;
	}
	if (write(sync[1], "g", 1) != 1) {
		errsv = errno;
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		close(sync[1]);
		close(report[0]);
		errno = errsv;
		return -1;
	}
	/*
	 * issue 18: the adoption runs while the init builds the view.  A
	 * failed write means the init is gone (its setup failed): it has
	 * reported why on the command's error pipe, as without adoption.
	 */
	if (spec->adopt != NULL)
		(void)!write(sync[1], spec->adopt(spec->arg, pid) == 0 ? "a" :
		    "n", 1);
	fcntl(report[0], F_SETFL, O_NONBLOCK);
	nr->init = pid;
	nr->alive_w = sync[1];
	nr->report_r = report[0];
	nr->namespaces = GX_NS_USER | GX_NS_PID | GX_NS_MOUNT | GX_NS_IPC |
	    (spec->netns ? GX_NS_NET : 0);
	return 0;
}

pid_t
ns_command_pid(pid_t init)
{
	char path[64], buf[64];

	snprintf(path, sizeof(path), "/proc/%d/task/%d/children", (int)init,
	    (int)init);
	if (procfs_read(path, buf, sizeof(buf)) < 0)
		return -1;
	return (pid_t)atoi(buf);
}

int
ns_read_status(struct gx_ns_run *nr, int *status)
{
	ssize_t n;

	if (nr->report_r < 0)
		return -1;
	n = read(nr->report_r, status, sizeof(*status));
	if (n == (ssize_t)sizeof(*status))
		return 1;
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return 0;
	close(nr->report_r);
	nr->report_r = -1;
	return -1;
}

void
ns_end(struct gx_ns_run *nr)
{
	if (nr->alive_w >= 0)
		close(nr->alive_w);
	if (nr->report_r >= 0)
		close(nr->report_r);
	nr->alive_w = nr->report_r = -1;
}

int
ns_limit_caps(void)
{
	for (int cap = 0; cap < 64; cap++)
		if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) < 0 && errno != EINVAL)
			return -1;
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0 &&
	    errno != EINVAL)
		return -1;
	/*
	 * uid 0 gains nothing at execve, and the bits stay set; a switch
	 * to another uid still clears the sets (no SECBIT_NO_SETUID_FIXUP).
	 */
	return prctl(PR_SET_SECUREBITS, SECBIT_NOROOT | SECBIT_NOROOT_LOCKED |
	    SECBIT_NO_SETUID_FIXUP_LOCKED | SECBIT_KEEP_CAPS_LOCKED, 0, 0, 0);
}

int
ns_drop_caps(void)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];

	memset(d, 0, sizeof(d));
	return (int)syscall(SYS_capset, &h, d);
}

unsigned
ns_probe(bool netns, char *why, size_t whylen)
{
	pid_t pid;
	int st;

	pid = clone_ns(clone_flags(netns), -1);
	if (pid < 0 && netns) {
		/*
		 * Only the network namespace refused (user.max_net_namespaces,
		 * an LSM)?  Then the others still apply, and only "net" is
		 * missing.
		 */
		snprintf(why, whylen, "network namespace: %s", strerror(errno));
		netns = false;
		pid = clone_ns(clone_flags(netns), -1);
	}
	if (pid == 0)
		_exit(0);
	if (pid < 0) {
		snprintf(why, whylen, "%s", strerror(errno));
		return 0;
	}
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	return GX_NS_USER | GX_NS_PID | GX_NS_MOUNT | GX_NS_IPC |
	    (netns ? GX_NS_NET : 0);
}
