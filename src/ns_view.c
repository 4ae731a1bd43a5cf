/* SPDX-License-Identifier: ISC */
/*
 * The command's mount view (see ns_view.h): the op list decided in
 * guardexec, and its application by the namespace's init, which keeps
 * to plain system calls (no malloc, no stdio).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ns_view.h"
#include "policy.h"
#include "sandbox.h"
#include "util.h"

/* ---- the plan (parent side, may allocate) ---------------------------- */

/* The minimal /dev: these nodes, bound from the host's. */
static const char *const dev_nodes[] = { "null", "zero", "full", "random",
	"urandom", "tty", NULL };
#define N_DEV 6

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
plan_add(struct ns_view *p, enum ns_op_kind kind, const char *path)
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
	p->ops[p->n++] = (struct ns_op){ kind, path, -1 };
}

void
ns_view_plan(const struct gx_ns_spec *spec, struct ns_view *p)
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
		plan_add(p, NS_OP_RO, strcmp(pol->fs_read[i], ".") == 0 ?
		    spec->cwd : pol->fs_read[i]);
	for (size_t i = 0; pol->fs_write != NULL && pol->fs_write[i]; i++)
		plan_add(p, NS_OP_RW, strcmp(pol->fs_write[i], ".") == 0 ?
		    spec->cwd : pol->fs_write[i]);
	/*
	 * Parents before children (a parent path is always shorter), and
	 * at the same path read-only first, so the writable mount is on
	 * top.  Insertion sort: stable, and the lists are short.
	 */
	for (size_t i = 1; i < p->n; i++) {
		struct ns_op o = p->ops[i];
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
	const struct ns_view *plan;
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

/*
 * @a then @b into @buf (@n bytes, truncated like snprintf), by hand:
 * the init runs after fork, where snprintf is no async-signal-safe call.
 */
static const char *
cat2(char *buf, size_t n, const char *a, const char *b)
{
	size_t i = 0;

	for (; *a != '\0' && i + 1 < n; a++)
		buf[i++] = *a;
	for (; *b != '\0' && i + 1 < n; b++)
		buf[i++] = *b;
	buf[i] = '\0';
	return buf;
}

static int
mount_tmpfs(const char *path, const char *mode, unsigned long flags)
{
	char opts[64];

	cat2(opts, sizeof(opts), "mode=", mode);
	return mount("tmpfs", path, "tmpfs", MS_NOSUID | MS_NODEV | flags, opts);
}

static void
ll_allow(const struct init_ctx *c, const char *path, bool write)
{
	if (c->spec->landlock_fd < 0)
		return;
	if (sandbox_landlock_allow(c->spec->landlock_fd, c->spec->landlock_abi,
	    path, write) < 0)
		fail(c, NS_STEP_LANDLOCK);
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
		fail(c, NS_STEP_DEV);
	ll_allow(c, "/dev", false);
	for (int i = 0; dev_nodes[i] != NULL; i++) {
		if (c->dev_fd[i] < 0)
			continue;
		cat2(path, sizeof(path), "/dev/", dev_nodes[i]);
		if (attach(c->dev_fd[i], path) < 0 ||
		    setattr(path, 0, MOUNT_ATTR_NOSUID | MOUNT_ATTR_NOEXEC,
		    0) < 0)
			fail(c, NS_STEP_DEV);
		ll_allow(c, path, true);
	}
	if (mkpath("/dev/shm", false) < 0 ||
	    mount_tmpfs("/dev/shm", "1777", 0) < 0)
		fail(c, NS_STEP_DEV);
	ll_allow(c, "/dev/shm", true);
	if (mkpath("/dev/pts", false) < 0)
		fail(c, NS_STEP_DEV);
	if (mount("devpts", "/dev/pts", "devpts", MS_NOSUID | MS_NOEXEC,
	    "newinstance,ptmxmode=0666,mode=0620") == 0)
		ll_allow(c, "/dev/pts", true);
	for (size_t i = 0; i < sizeof(links) / sizeof(links[0]); i++)
		if (symlink(links[i][1], links[i][0]) < 0 && errno != EEXIST)
			fail(c, NS_STEP_DEV);
	if (setattr("/dev", 0, MOUNT_ATTR_RDONLY, 0) < 0)
		fail(c, NS_STEP_DEV);
}

/* filesystem.tmp = "private": an empty /tmp, under any listed path below. */
static void
private_tmp(const struct init_ctx *c)
{
	if (mkpath("/tmp", false) < 0 || mount_tmpfs("/tmp", "1777", 0) < 0)
		fail(c, NS_STEP_TMP);
	ll_allow(c, "/tmp", true);
}

/* A filesystem group: a new root holding only what the lists name. */
static void
build_view(struct init_ctx *c)
{
	const struct ns_view *p = c->plan;
	struct ns_op *ops = p->ops;
	bool own_root, tmp_done = false;

	/* Clone every listed tree now, as the host's paths resolve. */
	for (size_t i = 0; i < p->n; i++) {
		ops[i].fd = open_tree(AT_FDCWD, ops[i].path, OPEN_TREE_CLONE |
		    OPEN_TREE_CLOEXEC | AT_RECURSIVE);
		if (ops[i].fd < 0)
			fail(c, NS_STEP_CLONE_TREE);
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
		fail(c, NS_STEP_NEWROOT);
	if (chdir("/tmp") < 0 || syscall(SYS_pivot_root, ".", ".") < 0 ||
	    umount2(".", MNT_DETACH) < 0 || chdir("/") < 0)
		fail(c, NS_STEP_PIVOT);
	for (size_t i = 0; i < p->n; i++) {
		uint64_t set = MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV;

		if (ops[i].kind == NS_OP_RO)
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
				fail(c, NS_STEP_MOVE);
		}
		close(ops[i].fd);
		if (setattr(ops[i].path, AT_RECURSIVE, set, 0) < 0)
			fail(c, NS_STEP_ATTR);
	}
	if (p->proc) {
		if (attach(c->proc_fd, "/proc") < 0)
			fail(c, NS_STEP_PROC);
		ll_allow(c, "/proc", false);
	}
	close(c->proc_fd);
	build_dev(c);
	if (p->hide_run) {
		/* Sockets under /run (a docker.sock...) unless listed. */
		struct stat st;

		if (lstat("/run", &st) == 0 && S_ISDIR(st.st_mode) &&
		    mount_tmpfs("/run", "0755", MS_RDONLY) < 0)
			fail(c, NS_STEP_TMP);
		if (lstat("/var/run", &st) == 0 && S_ISDIR(st.st_mode) &&
		    mount_tmpfs("/var/run", "0755", MS_RDONLY) < 0)
			fail(c, NS_STEP_TMP);
	}
	if (p->tmp_private && !tmp_done)
		private_tmp(c);
	/* The working directory exists, if empty, when not listed. */
	(void)mkpath(p->cwd, false);
	if (own_root && setattr("/", 0, MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID |
	    MOUNT_ATTR_NODEV, 0) < 0)
		fail(c, NS_STEP_ATTR);
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
			fail(c, NS_STEP_KERNEL_RO);
	}
}

/* No filesystem group: the host's tree, nosuid and nodev throughout. */
static void
build_host(struct init_ctx *c)
{
	if (move_mount(c->proc_fd, "", AT_FDCWD, "/proc",
	    MOVE_MOUNT_F_EMPTY_PATH) < 0)
		fail(c, NS_STEP_PROC);
	close(c->proc_fd);
	if (setattr("/", AT_RECURSIVE, MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV,
	    0) < 0)
		fail(c, NS_STEP_ATTR);
	build_dev(c);
	if (c->plan->tmp_private && mount_tmpfs("/tmp", "1777", 0) < 0)
		fail(c, NS_STEP_TMP);
}

void
ns_view_free(struct ns_view *v)
{
	free(v->ops);
	v->ops = NULL;
	v->n = 0;
}

void
ns_view_apply(const struct gx_ns_spec *spec, const struct ns_view *plan)
{
	struct init_ctx ctx = { .spec = spec, .plan = plan, .proc_fd = -1 };
	struct init_ctx *c = &ctx;

	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		fail(c, NS_STEP_PRIVATE);
	for (int i = 0; i < N_DEV; i++) {
		c->dev_fd[i] = -1;
		if (strcmp(dev_nodes[i], "tty") == 0 && !plan->tty)
			continue;
		{
			char path[32];

			cat2(path, sizeof(path), "/dev/", dev_nodes[i]);
			c->dev_fd[i] = open_tree(AT_FDCWD, path,
			    OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);
		}
	}
	/* A /proc of this PID namespace, over the host's (then cloned). */
	if (mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC,
	    NULL) < 0)
		fail(c, NS_STEP_PROC);
	c->proc_fd = open_tree(AT_FDCWD, "/proc", OPEN_TREE_CLONE |
	    OPEN_TREE_CLOEXEC);
	if (c->proc_fd < 0 || umount2("/proc", MNT_DETACH) < 0)
		fail(c, NS_STEP_PROC);
	if (plan->view)
		build_view(c);
	else
		build_host(c);
	protect_kernel(c);
}
