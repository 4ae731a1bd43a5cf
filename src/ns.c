/* SPDX-License-Identifier: ISC */
/*
 * The command's own world: namespaces, the init process, the mount view.
 * bubblewrap's setup_newroot() and its --unshare-pid init are the model:
 * the view is decided in the parent as a list of operations, then the
 * init applies them in order.
 *
 * guardexec is single-threaded; the init is a fork of it that never
 * execs, and keeps to plain system calls (no stdio, no malloc).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/securebits.h>
#include <linux/capability.h>
#include <linux/sched.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ns.h"
#include "policy.h"
#include "sandbox.h"
#include "util.h"

/* The init's setup steps (for ns_step_name). */
enum {
	STEP_SYNC = 1,
	STEP_PRIVATE,
	STEP_PROC,
	STEP_CLONE_TREE,
	STEP_NEWROOT,
	STEP_PIVOT,
	STEP_MOUNTPOINT,
	STEP_MOVE,
	STEP_ATTR,
	STEP_DEV,
	STEP_TMP,
	STEP_LANDLOCK,
	STEP_KERNEL_RO,
	STEP_FORK,
};

const char *
ns_step_name(int step)
{
	switch (step) {
	case STEP_SYNC: return "namespace init: waiting for guardexec";
	case STEP_PRIVATE: return "namespace init: making mounts private";
	case STEP_PROC: return "namespace init: mounting /proc";
	case STEP_CLONE_TREE: return "namespace init: cloning a listed path";
	case STEP_NEWROOT: return "namespace init: mounting the new root";
	case STEP_PIVOT: return "namespace init: pivot_root";
	case STEP_MOUNTPOINT: return "namespace init: creating a mount point";
	case STEP_MOVE: return "namespace init: mounting a listed path";
	case STEP_ATTR: return "namespace init: making a mount read-only, "
	    "nosuid, nodev";
	case STEP_DEV: return "namespace init: building /dev";
	case STEP_TMP: return "namespace init: mounting a private /tmp";
	case STEP_LANDLOCK: return "namespace init: Landlock rules for the view";
	case STEP_KERNEL_RO: return "namespace init: making /proc/sys and /sys "
	    "read-only";
	case STEP_FORK: return "namespace init: fork";
	default: return "namespace init";
	}
}

/* ---- the plan (parent side, may allocate) ---------------------------- */

enum op_kind { OP_RO, OP_RW };

struct op {
	enum op_kind kind;
	const char *path;           /* host path = view path */
	int fd;                     /* the clone, in the init */
};

/* The minimal /dev: these nodes, bound from the host's. */
static const char *const dev_nodes[] = { "null", "zero", "full", "random",
	"urandom", "tty", NULL };
#define N_DEV 6

struct plan {
	struct op *ops;
	size_t n;
	bool view;                  /* a new root (filesystem group) */
	bool proc;                  /* /proc in the view */
	bool tmp_private;
	bool tty;                   /* /dev/tty (stdin inherited) */
	bool hide_run;              /* an empty /run over the listed tree's */
	const char *cwd;
};

static bool
under(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	if (strcmp(dir, "/") == 0)
		return true;
	return strncmp(path, dir, n) == 0 && (path[n] == '\0' ||
	    path[n] == '/');
}

static void
plan_add(struct plan *p, enum op_kind kind, const char *path)
{
	if (under(path, "/dev") && strcmp(path, "/") != 0)
		return;         /* the minimal /dev stands there */
	if (under(path, "/proc") && strcmp(path, "/") != 0) {
		p->proc = true; /* a fresh one, never the host's */
		return;
	}
	if (strcmp(path, "/") == 0)
		p->proc = true;
	if ((under(path, "/run") || under(path, "/var/run")) &&
	    strcmp(path, "/") != 0)
		p->hide_run = false;
	p->ops = xreallocarray(p->ops, p->n + 1, sizeof(*p->ops));
	p->ops[p->n++] = (struct op){ kind, path, -1 };
}

static void
plan_build(const struct gx_ns_spec *spec, struct plan *p)
{
	const struct gx_policy *pol = spec->pol;

	memset(p, 0, sizeof(*p));
	p->cwd = spec->cwd;
	p->tty = pol->stdin_mode == GX_STDIN_INHERIT;
	p->tmp_private = pol->fs_tmp == GX_TMP_PRIVATE;
	p->view = pol->has_filesystem;
	if (!p->view) {
		p->proc = true;
		return;
	}
	p->hide_run = true;
	for (size_t i = 0; pol->fs_read != NULL && pol->fs_read[i]; i++)
		plan_add(p, OP_RO, strcmp(pol->fs_read[i], ".") == 0 ?
		    spec->cwd : pol->fs_read[i]);
	for (size_t i = 0; pol->fs_write != NULL && pol->fs_write[i]; i++)
		plan_add(p, OP_RW, strcmp(pol->fs_write[i], ".") == 0 ?
		    spec->cwd : pol->fs_write[i]);
	/*
	 * Parents before children (a parent path is always shorter), and
	 * at the same path read-only first, so the writable mount is on
	 * top.  Insertion sort: stable, and the lists are short.
	 */
	for (size_t i = 1; i < p->n; i++) {
		struct op o = p->ops[i];
		size_t j = i;

		while (j > 0 && strlen(p->ops[j - 1].path) > strlen(o.path)) {
			p->ops[j] = p->ops[j - 1];
			j--;
		}
		p->ops[j] = o;
	}
}

/* ---- the init (no malloc, no stdio) --------------------------------- */

struct init_ctx {
	const struct gx_ns_spec *spec;
	const struct plan *plan;
	int dev_fd[N_DEV];
	int proc_fd;
};

static void __attribute__((noreturn))
fail(const struct init_ctx *c, int step)
{
	c->spec->fail(c->spec->arg, step);
	_exit(125);
}

/* mkdir -p @path (inside the view); the last component a file if @file. */
static int
mkpath(const char *path, bool file)
{
	char buf[PATH_MAX];
	size_t len = strlen(path);
	int fd;

	if (len >= sizeof(buf)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(buf, path, len + 1);
	for (char *s = buf + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(buf, 0755) < 0 && errno != EEXIST)
			return -1;
		*s = '/';
	}
	if (!file)
		return mkdir(buf, 0755) < 0 && errno != EEXIST ? -1 : 0;
	fd = open(buf, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0)
		return errno == EEXIST || errno == EISDIR ? 0 : -1;
	close(fd);
	return 0;
}

static int
setattr(const char *path, unsigned flags, uint64_t set, uint64_t clr)
{
	struct mount_attr a = { .attr_set = set, .attr_clr = clr };

	return mount_setattr(AT_FDCWD, path, flags, &a, sizeof(a));
}

/* Place the detached tree @fd at @path (created as a dir or file). */
static int
attach(int fd, const char *path)
{
	struct stat st;

	if (fstat(fd, &st) < 0 || mkpath(path, !S_ISDIR(st.st_mode)) < 0)
		return -1;
	return move_mount(fd, "", AT_FDCWD, path, MOVE_MOUNT_F_EMPTY_PATH);
}

static int
mount_tmpfs(const char *path, const char *mode, unsigned long flags)
{
	char opts[64];

	snprintf(opts, sizeof(opts), "mode=%s", mode);
	return mount("tmpfs", path, "tmpfs", MS_NOSUID | MS_NODEV | flags, opts);
}

static void
ll_allow(const struct init_ctx *c, const char *path, bool write)
{
	if (c->spec->landlock_fd < 0)
		return;
	if (sandbox_landlock_allow(c->spec->landlock_fd, c->spec->landlock_abi,
	    path, write) < 0)
		fail(c, STEP_LANDLOCK);
}

/*
 * The minimal /dev: a tmpfs with the host's harmless nodes bound in
 * (they stay usable: their own mounts are not nodev), a private devpts
 * (so no terminal of the caller is reachable), /dev/shm; then the tmpfs
 * itself goes read-only.
 */
static void
build_dev(const struct init_ctx *c)
{
	static const char *const links[][2] = { { "/dev/fd", "/proc/self/fd" },
		{ "/dev/stdin", "/proc/self/fd/0" },
		{ "/dev/stdout", "/proc/self/fd/1" },
		{ "/dev/stderr", "/proc/self/fd/2" },
		{ "/dev/ptmx", "pts/ptmx" } };
	char path[64];

	if (mkpath("/dev", false) < 0 ||
	    mount_tmpfs("/dev", "0755", MS_NOEXEC) < 0)
		fail(c, STEP_DEV);
	ll_allow(c, "/dev", false);
	for (int i = 0; dev_nodes[i] != NULL; i++) {
		if (c->dev_fd[i] < 0)
			continue;
		snprintf(path, sizeof(path), "/dev/%s", dev_nodes[i]);
		if (attach(c->dev_fd[i], path) < 0 ||
		    setattr(path, 0, MOUNT_ATTR_NOSUID | MOUNT_ATTR_NOEXEC,
		    0) < 0)
			fail(c, STEP_DEV);
		ll_allow(c, path, true);
	}
	if (mkpath("/dev/shm", false) < 0 ||
	    mount_tmpfs("/dev/shm", "1777", 0) < 0)
		fail(c, STEP_DEV);
	ll_allow(c, "/dev/shm", true);
	if (mkpath("/dev/pts", false) < 0)
		fail(c, STEP_DEV);
	if (mount("devpts", "/dev/pts", "devpts", MS_NOSUID | MS_NOEXEC,
	    "newinstance,ptmxmode=0666,mode=0620") == 0)
		ll_allow(c, "/dev/pts", true);
	for (size_t i = 0; i < sizeof(links) / sizeof(links[0]); i++)
		if (symlink(links[i][1], links[i][0]) < 0 && errno != EEXIST)
			fail(c, STEP_DEV);
	if (setattr("/dev", 0, MOUNT_ATTR_RDONLY, 0) < 0)
		fail(c, STEP_DEV);
}

/* filesystem.tmp = "private": an empty /tmp, under any listed path below. */
static void
private_tmp(const struct init_ctx *c)
{
	if (mkpath("/tmp", false) < 0 || mount_tmpfs("/tmp", "1777", 0) < 0)
		fail(c, STEP_TMP);
	ll_allow(c, "/tmp", true);
}

/* A filesystem group: a new root holding only what the lists name. */
static void
build_view(struct init_ctx *c)
{
	const struct plan *p = c->plan;
	struct op *ops = p->ops;
	bool own_root, tmp_done = false;

	/* Clone every listed tree now, as the host's paths resolve. */
	for (size_t i = 0; i < p->n; i++) {
		ops[i].fd = open_tree(AT_FDCWD, ops[i].path, OPEN_TREE_CLONE |
		    OPEN_TREE_CLOEXEC | AT_RECURSIVE);
		if (ops[i].fd < 0)
			fail(c, STEP_CLONE_TREE);
	}
	/*
	 * The new root is a tmpfs over /tmp (its old contents were cloned
	 * above if listed), or the clone of "/" when that is listed; pivot
	 * into it and drop the host's tree at once, so that every path
	 * below resolves inside the view.
	 */
	own_root = p->n == 0 || strcmp(ops[0].path, "/") != 0;
	if (own_root ? mount_tmpfs("/tmp", "0755", 0) < 0 :
	    move_mount(ops[0].fd, "", AT_FDCWD, "/tmp",
	    MOVE_MOUNT_F_EMPTY_PATH) < 0)
		fail(c, STEP_NEWROOT);
	if (chdir("/tmp") < 0 || syscall(SYS_pivot_root, ".", ".") < 0 ||
	    umount2(".", MNT_DETACH) < 0 || chdir("/") < 0)
		fail(c, STEP_PIVOT);
	for (size_t i = 0; i < p->n; i++) {
		uint64_t set = MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV;

		if (ops[i].kind == OP_RO)
			set |= MOUNT_ATTR_RDONLY;
		if (p->tmp_private && !tmp_done && (i > 0 || own_root) &&
		    under(ops[i].path, "/tmp")) {
			private_tmp(c);
			tmp_done = true;
		}
		if (p->tmp_private && strcmp(ops[i].path, "/tmp") == 0) {
			close(ops[i].fd);   /* the private one stands there */
			continue;
		}
		if (i > 0 || own_root) {
			if (attach(ops[i].fd, ops[i].path) < 0)
				fail(c, STEP_MOVE);
		}
		close(ops[i].fd);
		if (setattr(ops[i].path, AT_RECURSIVE, set, 0) < 0)
			fail(c, STEP_ATTR);
	}
	if (p->proc) {
		if (attach(c->proc_fd, "/proc") < 0)
			fail(c, STEP_PROC);
		ll_allow(c, "/proc", false);
	}
	close(c->proc_fd);
	build_dev(c);
	if (p->hide_run) {
		/* Sockets under /run (a docker.sock...) unless listed. */
		struct stat st;

		if (lstat("/run", &st) == 0 && S_ISDIR(st.st_mode) &&
		    mount_tmpfs("/run", "0755", MS_RDONLY) < 0)
			fail(c, STEP_TMP);
		if (lstat("/var/run", &st) == 0 && S_ISDIR(st.st_mode) &&
		    mount_tmpfs("/var/run", "0755", MS_RDONLY) < 0)
			fail(c, STEP_TMP);
	}
	if (p->tmp_private && !tmp_done)
		private_tmp(c);
	/* The working directory exists, if empty, when not listed. */
	(void)mkpath(p->cwd, false);
	if (own_root && setattr("/", 0, MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID |
	    MOUNT_ATTR_NODEV, 0) < 0)
		fail(c, STEP_ATTR);
}

/*
 * The kernel's own files that check the uid, not a capability: a
 * sysctl is writable by euid GLOBAL_ROOT_UID (proc_sys_permission),
 * sysfs and cgroupfs files (cgroup.procs: leaving the run's cgroup)
 * by their mode.  A root caller's command is uid 0 mapped to host 0,
 * so these go read-only over themselves wherever the view has them, as
 * bubblewrap does (--ro-bind /proc/sys and friends).  A bind first:
 * mount_setattr() on a path that is no mount point would change the
 * mount it lies in.  Absent paths are skipped.
 */
static void
protect_kernel(const struct init_ctx *c)
{
	static const char *const paths[] = { "/proc/sys",
		"/proc/sysrq-trigger", "/proc/irq", "/proc/bus", "/sys", NULL };
	struct stat st;

	for (int i = 0; paths[i] != NULL; i++) {
		if (lstat(paths[i], &st) < 0 && errno == ENOENT)
			continue;
		if (mount(paths[i], paths[i], NULL, MS_BIND | MS_REC,
		    NULL) < 0 || setattr(paths[i], AT_RECURSIVE,
		    MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV |
		    MOUNT_ATTR_NOEXEC, 0) < 0)
			fail(c, STEP_KERNEL_RO);
	}
}

/* No filesystem group: the host's tree, nosuid and nodev throughout. */
static void
build_host(struct init_ctx *c)
{
	if (move_mount(c->proc_fd, "", AT_FDCWD, "/proc",
	    MOVE_MOUNT_F_EMPTY_PATH) < 0)
		fail(c, STEP_PROC);
	close(c->proc_fd);
	if (setattr("/", AT_RECURSIVE, MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV,
	    0) < 0)
		fail(c, STEP_ATTR);
	build_dev(c);
	if (c->plan->tmp_private && mount_tmpfs("/tmp", "1777", 0) < 0)
		fail(c, STEP_TMP);
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
init_main(const struct gx_ns_spec *spec, const struct plan *plan, int sync,
    int report)
{
	struct init_ctx c = { .spec = spec, .plan = plan, .proc_fd = -1 };
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

	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		fail(&c, STEP_PRIVATE);
	for (int i = 0; i < N_DEV; i++) {
		c.dev_fd[i] = -1;
		if (strcmp(dev_nodes[i], "tty") == 0 && !plan->tty)
			continue;
		{
			char path[32];

			snprintf(path, sizeof(path), "/dev/%s", dev_nodes[i]);
			c.dev_fd[i] = open_tree(AT_FDCWD, path,
			    OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);
		}
	}
	/* A /proc of this PID namespace, over the host's (then cloned). */
	if (mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC,
	    NULL) < 0)
		fail(&c, STEP_PROC);
	c.proc_fd = open_tree(AT_FDCWD, "/proc", OPEN_TREE_CLONE |
	    OPEN_TREE_CLOEXEC);
	if (c.proc_fd < 0 || umount2("/proc", MNT_DETACH) < 0)
		fail(&c, STEP_PROC);
	if (plan->view)
		build_view(&c);
	else
		build_host(&c);
	protect_kernel(&c);

	cmd = fork();
	if (cmd < 0)
		fail(&c, STEP_FORK);
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
	struct plan plan;
	pid_t pid;

	memset(nr, 0, sizeof(*nr));
	nr->alive_w = nr->report_r = -1;
	plan_build(spec, &plan);
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
	free(plan.ops);
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
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/children", (int)init,
	    (int)init);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
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
