/* SPDX-License-Identifier: ISC */
/*
 * Filesystem denials named by path and rule; the paths --learn proposes.
 * See fswatch.h for what is observed when.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include <seccomp.h>

#include "fswatch.h"
#include "fswatch_int.h"
#include "log.h"
#include "outcome.h"
#include "policy.h"
#include "sys.h"
#include "util.h"

/*
 * How a call uses one of its paths:
 * STAT  looks at it (stat, access, readlink, chdir): the ancestors of a
 *       listed path are visible, so only a path outside every list and
 *       not above one is refused;
 * READ  reads or executes it;
 * OPEN  open(2) flags decide: O_CREAT is NEW, another write mode MOD,
 *       else READ;
 * MOD   changes it in place (chmod, utimensat, truncate, O_WRONLY):
 *       --learn proposes the path itself;
 * NEW   creates or removes it in its directory (mkdir, unlink, rename,
 *       O_CREAT): --learn proposes that directory.
 */
enum use { U_NONE, U_STAT, U_READ, U_OPEN, U_OPEN2, U_MOD, U_NEW };

struct path_arg {
	signed char dirfd;      /* argument index of the dirfd, or -1 */
	signed char path;       /* argument index of the path */
	unsigned char use;      /* enum use */
};

struct path_call {
	const char *name;
	struct path_arg a[2];
	signed char flags;      /* open: index of the flags (openat2: how) */
};

#define ONE(d, p, u) { { (d), (p), (u) }, { -1, -1, U_NONE } }
static const struct path_call calls[] = {
	{ "open", ONE(-1, 0, U_OPEN), 1 },
	{ "openat", ONE(0, 1, U_OPEN), 2 },
	{ "openat2", ONE(0, 1, U_OPEN2), 2 },
	{ "creat", ONE(-1, 0, U_NEW), -1 },
	{ "stat", ONE(-1, 0, U_STAT), -1 },
	{ "lstat", ONE(-1, 0, U_STAT), -1 },
	{ "newfstatat", ONE(0, 1, U_STAT), -1 },
	{ "statx", ONE(0, 1, U_STAT), -1 },
	{ "access", ONE(-1, 0, U_STAT), -1 },
	{ "faccessat", ONE(0, 1, U_STAT), -1 },
	{ "faccessat2", ONE(0, 1, U_STAT), -1 },
	{ "readlink", ONE(-1, 0, U_STAT), -1 },
	{ "readlinkat", ONE(0, 1, U_STAT), -1 },
	{ "chdir", ONE(-1, 0, U_STAT), -1 },
	{ "getxattr", ONE(-1, 0, U_STAT), -1 },
	{ "lgetxattr", ONE(-1, 0, U_STAT), -1 },
	{ "listxattr", ONE(-1, 0, U_STAT), -1 },
	{ "llistxattr", ONE(-1, 0, U_STAT), -1 },
	{ "execve", ONE(-1, 0, U_READ), -1 },
	{ "execveat", ONE(0, 1, U_READ), -1 },
	{ "mkdir", ONE(-1, 0, U_NEW), -1 },
	{ "mkdirat", ONE(0, 1, U_NEW), -1 },
	{ "rmdir", ONE(-1, 0, U_NEW), -1 },
	{ "unlink", ONE(-1, 0, U_NEW), -1 },
	{ "unlinkat", ONE(0, 1, U_NEW), -1 },
	{ "mknod", ONE(-1, 0, U_NEW), -1 },
	{ "mknodat", ONE(0, 1, U_NEW), -1 },
	{ "symlink", ONE(-1, 1, U_NEW), -1 },
	{ "symlinkat", ONE(1, 2, U_NEW), -1 },
	{ "rename", { { -1, 0, U_NEW }, { -1, 1, U_NEW } }, -1 },
	{ "renameat", { { 0, 1, U_NEW }, { 2, 3, U_NEW } }, -1 },
	{ "renameat2", { { 0, 1, U_NEW }, { 2, 3, U_NEW } }, -1 },
	{ "link", { { -1, 0, U_READ }, { -1, 1, U_NEW } }, -1 },
	{ "linkat", { { 0, 1, U_READ }, { 2, 3, U_NEW } }, -1 },
	{ "chmod", ONE(-1, 0, U_MOD), -1 },
	{ "fchmodat", ONE(0, 1, U_MOD), -1 },
	{ "fchmodat2", ONE(0, 1, U_MOD), -1 },
	{ "chown", ONE(-1, 0, U_MOD), -1 },
	{ "lchown", ONE(-1, 0, U_MOD), -1 },
	{ "fchownat", ONE(0, 1, U_MOD), -1 },
	{ "utimensat", ONE(0, 1, U_MOD), -1 },
	{ "utime", ONE(-1, 0, U_MOD), -1 },
	{ "utimes", ONE(-1, 0, U_MOD), -1 },
	{ "futimesat", ONE(0, 1, U_MOD), -1 },
	{ "truncate", ONE(-1, 0, U_MOD), -1 },
	{ "setxattr", ONE(-1, 0, U_MOD), -1 },
	{ "lsetxattr", ONE(-1, 0, U_MOD), -1 },
	{ "removexattr", ONE(-1, 0, U_MOD), -1 },
	{ "lremovexattr", ONE(-1, 0, U_MOD), -1 },
};
#define N_CALLS (sizeof(calls) / sizeof(calls[0]))

static const struct path_call *
call_of(int nr)
{
	static int nrs[N_CALLS];
	static bool done;

	if (!done) {
		for (size_t i = 0; i < N_CALLS; i++)
			nrs[i] = seccomp_syscall_resolve_name(calls[i].name);
		done = true;
	}
	for (size_t i = 0; nr >= 0 && i < N_CALLS; i++)
		if (nrs[i] == nr)
			return &calls[i];
	return NULL;
}

bool
fswatch_watched(const struct gx_policy *pol, int nr)
{
	return pol->has_filesystem && call_of(nr) != NULL;
}

bool
fswatch_watched_ordinary(const struct gx_policy *pol, int nr)
{
	const struct path_call *c;

	if (!pol->has_filesystem || !pol->has_syscalls ||
	    (c = call_of(nr)) == NULL)
		return false;
	/* Opens, reads or writes; creating, removing, changing: not a look. */
	return c->a[0].use != U_STAT && strcmp(c->name, "execve") != 0 &&
	    strcmp(c->name, "execveat") != 0;
}

const char *
fswatch_check_note(const struct gx_policy *pol)
{
	if (!pol->has_filesystem)
		return NULL;
	if (!pol->has_syscalls)
		return "# filesystem denials: not observable in a run (no "
		    "syscalls group); --learn OUT names every path outside "
		    "the lists";
	return "# filesystem denials: named for path syscalls that open, "
	    "create, remove or change (not stat, access, exec, nor below "
	    "/dev and /proc); --learn OUT names every path outside the lists";
}

const char *
fswatch_rule(bool write)
{
	return write ? "filesystem.write" : "filesystem.read";
}

/* realpath(@p), or of its directory plus the last name; else @p. */
static char *
real_of(const char *p)
{
	char *r = realpath(p, NULL), *dir, *rd;
	const char *base;

	if (r != NULL)
		return r;
	dir = path_dirname(p);
	base = strrchr(p, '/');
	rd = realpath(dir, NULL);
	free(dir);
	if (rd == NULL || base == NULL)
		return xstrdup(p);
	r = strcmp(rd, "/") == 0 ? xasprintf("%s", base) :
	    xasprintf("%s%s", rd, base);
	free(rd);
	return r;
}

char **
fsw_real_list(char *const *list, const char *cwd)
{
	char **out = NULL;

	for (size_t i = 0; list != NULL && list[i] != NULL; i++) {
		const char *p = strcmp(list[i], ".") == 0 ? cwd : list[i];
		char *r = real_of(p);

		out = strv_append(out, r);
		if (strcmp(r, p) != 0)  /* and as written: /bin, not /usr/bin */
			out = strv_append(out, p);
		free(r);
	}
	return out;
}

/* Set once by main, before the run (guardexec is single-threaded). */
char *fsw_caller_home;

void
fswatch_set_home(const char *home)
{
	free(fsw_caller_home);
	fsw_caller_home = home != NULL ? real_of(home) : NULL;
}

void
fswatch_init(struct gx_fswatch *w, const struct gx_policy *pol,
    const char *cwd, bool learn)
{
	memset(w, 0, sizeof(*w));
	w->active = pol->has_filesystem;
	w->learn = learn;
	w->tmp_private = pol->fs_tmp == GX_TMP_PRIVATE;
	if (!w->active)
		return;
	w->read = fsw_real_list(pol->fs_read, cwd);
	w->write = fsw_real_list(pol->fs_write, cwd);
}

void
fswatch_free(struct gx_fswatch *w)
{
	strv_free(w->read);
	strv_free(w->write);
	memset(w, 0, sizeof(*w));
}

/* @p is @dir or below it. */
bool
fsw_below(const char *p, const char *dir)
{
	size_t n = strlen(dir);

	if (strcmp(dir, "/") == 0)
		return true;
	return strncmp(p, dir, n) == 0 && (p[n] == '\0' || p[n] == '/');
}

bool
fsw_covered(const char *p, char *const *list)
{
	for (size_t i = 0; list != NULL && list[i] != NULL; i++)
		if (fsw_below(p, list[i]))
			return true;
	return false;
}

/* @p is an ancestor of a listed path (visible on the way to it). */
static bool
above(const char *p, char *const *list)
{
	for (size_t i = 0; list != NULL && list[i] != NULL; i++)
		if (fsw_below(list[i], p))
			return true;
	return false;
}

/*
 * The NUL-terminated string at @addr in task @tid, read page by page (a
 * string may end just before an unmapped page).  NULL when unreadable.
 */
static char *
read_string(pid_t tid, uint64_t addr)
{
	char *buf = xmalloc(PATH_MAX);
	size_t got = 0;

	while (got < PATH_MAX) {
		size_t chunk = 4096 - ((addr + got) & 4095);
		struct iovec l, r;
		ssize_t n;

		if (chunk > PATH_MAX - got)
			chunk = PATH_MAX - got;
		l.iov_base = buf + got;
		l.iov_len = chunk;
		r.iov_base = (void *)(uintptr_t)(addr + got);
		r.iov_len = chunk;
		n = process_vm_readv(tid, &l, 1, &r, 1, 0);
		if (n <= 0)
			break;
		if (memchr(buf + got, '\0', (size_t)n) != NULL)
			return buf;
		got += (size_t)n;
	}
	free(buf);
	return NULL;
}

static int
read_u64(pid_t tid, uint64_t addr, uint64_t *v)
{
	struct iovec l = { v, sizeof(*v) };
	struct iovec r = { (void *)(uintptr_t)addr, sizeof(*v) };

	return process_vm_readv(tid, &l, 1, &r, 1, 0) == (ssize_t)sizeof(*v) ?
	    0 : -1;
}

/* The target of /proc/TID/@what ("cwd", "fd/3"), if it is a path. */
static char *
proc_link(pid_t tid, const char *what)
{
	char link[64], *buf = xmalloc(PATH_MAX);
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/%d/%s", (int)tid, what);
	n = readlink(link, buf, PATH_MAX - 1);
	if (n <= 0 || buf[0] != '/') {
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	return buf;
}

/*
 * The absolute path argument @a of @req names, as the task sees it
 * (relative ones against its cwd or dirfd).  NULL when it cannot be had
 * or is empty.
 */
static char *
arg_path(const struct seccomp_notif *req, const struct path_arg *a)
{
	pid_t tid = (pid_t)req->pid;
	uint64_t addr = req->data.args[(int)a->path];
	int dirfd = a->dirfd >= 0 ? (int)req->data.args[(int)a->dirfd] :
	    AT_FDCWD;
	char *path = addr ? read_string(tid, addr) : NULL, *base, *abs;
	char what[32];

	if (path != NULL && path[0] == '/') {
		abs = path_resolve(NULL, path);
		free(path);
		return abs;
	}
	/*
	 * No path, or an empty one (fstat, futimens, fexecve): a call on a
	 * descriptor already open, which no filesystem rule looks at again
	 * (stdin may be a file outside the lists).
	 */
	if (path == NULL || path[0] == '\0') {
		free(path);
		return NULL;
	}
	if (dirfd == AT_FDCWD) {
		base = proc_link(tid, "cwd");
	} else {
		snprintf(what, sizeof(what), "fd/%d", dirfd);
		base = proc_link(tid, what);
	}
	if (base == NULL) {
		free(path);
		return NULL;
	}
	abs = path_resolve(base, path);
	free(path);
	free(base);
	return abs;
}

static void
note(struct gx_outcome *out, const char *path, const char *entry,
    bool write, const char *call)
{
	struct gx_fsdenial *d;

	for (size_t i = 0; i < out->n_fs_denied; i++) {
		d = &out->fs_denied[i];
		if (d->write == write && strcmp(d->path, path) == 0) {
			d->count++;
			return;
		}
	}
	if (out->n_fs_denied == GX_MAX_FS_DENIED) {
		out->fs_denied_overflow = true;
		return;
	}
	if (out->fs_denied == NULL)
		out->fs_denied = xcalloc(GX_MAX_FS_DENIED,
		    sizeof(*out->fs_denied));
	d = &out->fs_denied[out->n_fs_denied++];
	d->path = xstrdup(path);
	d->entry = entry != NULL ? xstrdup(entry) : NULL;
	d->write = write;
	d->count = 1;
	strlcpy(d->syscall, call, sizeof(d->syscall));
}

bool
fsw_exists(const char *p)
{
	struct stat sb;

	return lstat(p, &sb) == 0;
}

/*
 * @p holds a ".git": a work tree whose subdirectory the lists name.  In
 * the run's mount view @p is only an empty directory on the way to that
 * subdirectory (and another filesystem, where git's discovery stops), so
 * looking at it is a denial too: git status in a subdirectory.
 */
static bool
git_tree(const char *p)
{
	char *g = xasprintf("%s/.git", p);
	bool yes = fsw_exists(g);

	free(g);
	return yes;
}

/* Check one path of a call against the lists; note a refusal. */
static void
check_path(struct gx_fswatch *w, const char *abs, enum use use,
    const char *call, struct gx_outcome *out)
{
	/*
	 * Only a learning run looks at the host for the command's paths
	 * (symlinks, existence, .git): a trusted run (guardexec(1)).  In an
	 * ordinary run that would tell a hostile command, through the
	 * notices, what exists outside its view: there the path is
	 * compared as written, resolved lexically only.
	 */
	bool host = w->learn;
	char *real = host ? real_of(abs) : xstrdup(abs), *entry = NULL;
	bool write = use == U_MOD || use == U_NEW, refused;

	if (w->tmp_private && fsw_below(abs, "/tmp"))
		goto done;
	/* The mount view's own /dev and /proc: not the lists' business. */
	if (!host && (fsw_below(abs, "/dev") || fsw_below(abs, "/proc")))
		goto done;
	switch (use) {
	case U_STAT:
		refused = (!host || fsw_exists(real)) && !fsw_covered(real, w->read) &&
		    !fsw_covered(real, w->write) && ((!above(real, w->read) &&
		    !above(real, w->write)) || (host && git_tree(real)));
		break;
	case U_READ:
		refused = (!host || fsw_exists(real)) && !fsw_covered(real, w->read) &&
		    !fsw_covered(real, w->write);
		break;
	case U_MOD:
		/* touch: utimensat on a file its open(O_CREAT) could not make */
		if (host && !fsw_exists(real))
			entry = path_dirname(real);
		refused = (!host || fsw_exists(entry != NULL ? entry : real)) &&
		    !fsw_covered(real, w->write);
		break;
	case U_NEW:
		entry = path_dirname(real);
		refused = (!host || fsw_exists(entry)) && !fsw_covered(real, w->write);
		break;
	case U_NONE: case U_OPEN: case U_OPEN2:
	default:
		refused = false;
		break;
	}
	if (refused)
		note(out, abs, entry != NULL ? entry : real, write, call);
done:
	free(entry);
	free(real);
}

bool
fswatch_observe(struct gx_fswatch *w, const struct seccomp_notif *req,
    int listener, struct gx_outcome *out)
{
	const struct path_call *c;

	if (req->data.arch != seccomp_arch_native() ||
	    (c = call_of((int)req->data.nr)) == NULL)
		return false;
	if (!w->active)
		return true;
	for (int i = 0; i < 2 && c->a[i].use != U_NONE; i++) {
		enum use use = c->a[i].use;
		uint64_t flags = 0;
		char *abs;

		if (use == U_OPEN)
			flags = req->data.args[(int)c->flags];
		else if (use == U_OPEN2 && read_u64((pid_t)req->pid,
		    req->data.args[(int)c->flags], &flags) < 0)
			continue;
		if ((use == U_OPEN || use == U_OPEN2) && (flags & O_PATH))
			use = U_STAT;   /* no access: Landlock does not check it */
		else if (use == U_OPEN || use == U_OPEN2)
			use = (flags & O_CREAT) ? U_NEW :
			    (flags & (O_WRONLY | O_RDWR | O_TRUNC)) ? U_MOD :
			    U_READ;
		abs = arg_path(req, &c->a[i]);
		/* Only what the same task asked (its memory was ours to read). */
		if (abs != NULL && seccomp_notify_id_valid(listener, req->id) == 0)
			check_path(w, abs, use, c->name, out);
		free(abs);
	}
	return true;
}

/* A copy of @s with the bytes that are not printable as '?'. */
char *
fsw_printable(const char *s)
{
	char *p = xstrdup(s);

	for (unsigned char *c = (unsigned char *)p; *c != '\0'; c++)
		if (*c < 0x20 || *c == 0x7f)
			*c = '?';
	return p;
}

char *
fswatch_explain(const struct gx_fsdenial *d)
{
	char *p = fsw_printable(d->path), *msg;

	if (d->count > 1)
		msg = xasprintf("filesystem: %s is outside %s (%s, x%lu)", p,
		    fswatch_rule(d->write), d->syscall, d->count);
	else
		msg = xasprintf("filesystem: %s is outside %s (%s)", p,
		    fswatch_rule(d->write), d->syscall);
	free(p);
	return msg;
}

void
fswatch_outcome_free(struct gx_outcome *out)
{
	for (size_t i = 0; i < out->n_fs_denied; i++) {
		free(out->fs_denied[i].path);
		free(out->fs_denied[i].entry);
	}
	free(out->fs_denied);
	out->fs_denied = NULL;
	out->n_fs_denied = 0;
}
