/* SPDX-License-Identifier: ISC */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fsuid.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <unistd.h>

#include <seccomp.h>

#include "outcome.h"
#include "policy.h"
#include "filter.h"
#include "supervise.h"
#include "unixgate.h"
#include "util.h"

#ifndef PIDFD_THREAD
#define PIDFD_THREAD O_EXCL
#endif

/* The largest payload the gate copies for a sendto/sendmsg it makes. */
#define GATE_MAX_PAYLOAD (256 * 1024)

void
unixgate_init(struct gx_unixgate *g, const struct gx_run *run)
{
	const struct gx_policy *pol = run->pol;

	memset(g, 0, sizeof(*g));
	g->run = run;
	g->active = pol->network == GX_NET_NONE && !run->learn;
	if (!g->active)
		return;
	for (size_t i = 0; pol->fs_write != NULL && pol->fs_write[i]; i++) {
		const char *w = strcmp(pol->fs_write[i], ".") == 0 ? run->cwd :
		    pol->fs_write[i];
		char *r = realpath(w, NULL);

		g->writes = strv_append(g->writes, r != NULL ? r : w);
		free(r);
	}
	if (!pol->has_filesystem) {
		/* No filesystem group: the command's working tree and /tmp. */
		g->writes = strv_append(g->writes, run->cwd);
		g->writes = strv_append(g->writes, "/tmp");
	}
	g->tmp_ok = pol->fs_tmp == GX_TMP_PRIVATE && run->use_ns;
}

void
unixgate_outcome_free(struct gx_outcome *out)
{
	for (size_t i = 0; i < out->n_unix_denied; i++)
		free(out->unix_denied[i]);
	out->n_unix_denied = 0;
}

bool
unixgate_available(void)
{
	return !(syscall(SYS_pidfd_getfd, -1, 0, 0) < 0 && errno == ENOSYS) &&
	    !(syscall(SYS_openat2, -1, "", NULL, 0) < 0 && errno == ENOSYS);
}

const char *
unixgate_check_line(void)
{
	/* EBADF: the call exists (Linux >= 5.6 for both). */
	if (syscall(SYS_pidfd_getfd, -1, 0, 0) < 0 && errno == ENOSYS)
		return "open: this kernel has no pidfd_getfd (Linux >= 5.6): "
		    "the gate refuses every connect";
	if (syscall(SYS_openat2, -1, "", NULL, 0) < 0 && errno == ENOSYS)
		return "open: this kernel has no openat2 (Linux >= 5.6): "
		    "the gate refuses every connect";
	return "notify: connect, sendto and sendmsg to a pathname socket "
	    "outside filesystem.write and a private /tmp are refused "
	    "unless network.unix names it (needs the seccomp listener: "
	    "not inside another guardexec)";
}

void
unixgate_free(struct gx_unixgate *g)
{
	strv_free(g->writes);
	g->writes = NULL;
	g->active = false;
}

static bool
below(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	if (n == 1 && dir[0] == '/')
		return true;
	return strncmp(path, dir, n) == 0 &&
	    (path[n] == '\0' || path[n] == '/');
}

/*
 * Is the socket pinned by @fd (@st), seen as @path, reachable?  Named by
 * network.unix, or below a write path or the private /tmp on a writable
 * mount (in the mount view a read path below one is a read-only bind).
 */
static bool
reachable(const struct gx_unixgate *g, int fd, const char *path,
    const struct stat *st)
{
	struct statvfs vfs;

	char *const *allow = g->run->pol->net_unix;

	for (size_t i = 0; allow != NULL && allow[i] != NULL; i++) {
		struct stat a;

		if (stat(allow[i], &a) == 0 && a.st_dev == st->st_dev &&
		    a.st_ino == st->st_ino)
			return true;
	}
	if (fstatvfs(fd, &vfs) < 0 || (vfs.f_flag & ST_RDONLY))
		return false;
	if (g->tmp_ok && below(path, "/tmp"))
		return true;
	for (size_t i = 0; g->writes != NULL && g->writes[i] != NULL; i++)
		if (below(path, g->writes[i]))
			return true;
	return false;
}

static int
read_mem(pid_t pid, uint64_t addr, void *buf, size_t len)
{
	struct iovec l = { buf, len };
	struct iovec r = { (void *)(uintptr_t)addr, len };

	if (len == 0)
		return 0;
	if (process_vm_readv(pid, &l, 1, &r, 1, 0) != (ssize_t)len)
		return -EFAULT;
	return 0;
}

static void
note_denied(struct gx_outcome *out, const char *call, const char *path)
{
	char *s = xasprintf("%s to the AF_UNIX socket %s", call, path);

	for (size_t i = 0; i < out->n_unix_denied; i++)
		if (strcmp(out->unix_denied[i], s) == 0) {
			free(s);
			return;
		}
	if (out->n_unix_denied == GX_MAX_UNIX_DENIED) {
		free(s);
		return;
	}
	out->unix_denied[out->n_unix_denied++] = s;
}

/*
 * Decide on the address @sa (@len bytes, our copy) of a call by @pid.
 * A pathname is resolved in the task's root and pinned: on success
 * *@pfd is the O_PATH fd of the socket and @sa is rewritten to reach it
 * through /proc/self/fd (@len with it).  Returns 0 (go on), or -errno
 * to answer with (-EACCES: refused, named in @out).
 */
static int
decide(struct gx_unixgate *g, pid_t pid, const char *call,
    struct sockaddr_un *sa, socklen_t *len, int *pfd, struct gx_outcome *out)
{
	struct open_how how = { .flags = O_PATH | O_CLOEXEC,
		.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS };
	size_t off = offsetof(struct sockaddr_un, sun_path);
	char path[sizeof(sa->sun_path) + 1], dir[64], seen[PATH_MAX];
	struct stat st;
	int dfd, fd;
	ssize_t n;

	*pfd = -1;
	if (*len <= off || sa->sun_family != AF_UNIX || sa->sun_path[0] == '\0')
		return 0;       /* unnamed, abstract (the netns) or not unix */
	if (*len > sizeof(*sa))
		return -EINVAL; /* as unix_validate_addr() says */
	memcpy(path, sa->sun_path, *len - off);
	path[*len - off] = '\0';
	snprintf(dir, sizeof(dir), "/proc/%d/%s", (int)pid,
	    path[0] == '/' ? "root" : "cwd");
	dfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return -ESRCH;
	fd = (int)syscall(SYS_openat2, dfd, path, &how, sizeof(how));
	close(dfd);
	if (fd < 0)
		return -errno;
	snprintf(dir, sizeof(dir), "/proc/self/fd/%d", fd);
	n = readlink(dir, seen, sizeof(seen) - 1);
	if (fstat(fd, &st) < 0 || n <= 0) {
		close(fd);
		return -ECONNREFUSED;
	}
	seen[n] = '\0';
	if (!S_ISSOCK(st.st_mode)) {
		close(fd);
		return -ECONNREFUSED;   /* what connect(2) says */
	}
	if (!reachable(g, fd, seen, &st)) {
		close(fd);
		note_denied(out, call, seen);
		return -EACCES;
	}
	memset(sa->sun_path, 0, sizeof(sa->sun_path));
	memcpy(sa->sun_path, dir, strlen(dir));
	*len = (socklen_t)(off + strlen(dir) + 1);
	*pfd = fd;
	return 0;
}

/* The task's socket, and our copy of its address. */
struct call {
	pid_t pid;
	int sfd, pfd;
	struct sockaddr_storage ss;
	socklen_t len;
	bool blocking;
};

/* The thread group of task @tid (before Linux 6.9, no PIDFD_THREAD). */
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

static int
take_socket(const struct seccomp_notif *req, int listener, struct call *c)
{
	int pidfd = (int)syscall(SYS_pidfd_open, req->pid, PIDFD_THREAD);

	c->pid = (pid_t)req->pid;
	c->sfd = c->pfd = -1;
	if (pidfd < 0)
		pidfd = (int)syscall(SYS_pidfd_open, tgid_of((pid_t)req->pid), 0);
	if (pidfd < 0)
		return -ESRCH;
	/* The pid is the notification's task, not a reused one. */
	if (seccomp_notify_id_valid(listener, req->id) != 0) {
		close(pidfd);
		return -ESRCH;
	}
	c->sfd = (int)syscall(SYS_pidfd_getfd, pidfd, (int)req->data.args[0], 0);
	close(pidfd);
	if (c->sfd < 0)
		return errno == EBADF ? -EBADF : -errno;
	c->blocking = !(fcntl(c->sfd, F_GETFL) & O_NONBLOCK);
	return 0;
}

static int
take_addr(struct gx_unixgate *g, struct call *c, const char *name,
    uint64_t addr, uint64_t len, struct gx_outcome *out)
{
	int rc;

	if (len > sizeof(c->ss))
		return -EINVAL;
	memset(&c->ss, 0, sizeof(c->ss));
	c->len = (socklen_t)len;
	if ((rc = read_mem(c->pid, addr, &c->ss, len)) < 0)
		return rc;
	return decide(g, c->pid, name, (struct sockaddr_un *)&c->ss, &c->len,
	    &c->pfd, out);
}

/*
 * The call as the command's user (a root guardexec with command.user:
 * the socket's permission bits are checked against the command's ids).
 */
static void
as_command(const struct gx_run *run, bool on)
{
	if (!run->drop_user || geteuid() != 0)
		return;
	setfsgid(on ? run->gid : 0);
	setfsuid(on ? run->uid : 0);
}

static long
do_connect(const struct gx_run *run, struct call *c)
{
	struct timeval tv = { 0, 100000 }, old;
	socklen_t ol = sizeof(old);
	bool timeo = c->blocking &&
	    getsockopt(c->sfd, SOL_SOCKET, SO_SNDTIMEO, &old, &ol) == 0;
	long rc;

	/*
	 * guardexec must not wait on a full backlog (its loop keeps the
	 * timeout): a blocking connect waits 100 ms at most, then EAGAIN.
	 */
	if (timeo)
		(void)setsockopt(c->sfd, SOL_SOCKET, SO_SNDTIMEO, &tv,
		    sizeof(tv));
	as_command(run, true);
	rc = connect(c->sfd, (struct sockaddr *)&c->ss, c->len) < 0 ?
	    -errno : 0;
	as_command(run, false);
	if (timeo)
		(void)setsockopt(c->sfd, SOL_SOCKET, SO_SNDTIMEO, &old, ol);
	return rc;
}

/* sendto/sendmsg with a destination, the payload copied (no control data). */
static long
do_send(const struct gx_run *run, struct call *c, const struct iovec *riov,
    size_t niov, int flags)
{
	size_t total = 0;
	char *buf;
	long rc;

	for (size_t i = 0; i < niov; i++) {
		if (riov[i].iov_len > GATE_MAX_PAYLOAD - total)
			return -EMSGSIZE;
		total += riov[i].iov_len;
	}
	buf = xmalloc(total + 1);
	total = 0;
	for (size_t i = 0; i < niov; i++) {
		if (read_mem(c->pid, (uintptr_t)riov[i].iov_base, buf + total,
		    riov[i].iov_len) < 0) {
			free(buf);
			return -EFAULT;
		}
		total += riov[i].iov_len;
	}
	as_command(run, true);
	rc = sendto(c->sfd, buf, total, flags | MSG_DONTWAIT | MSG_NOSIGNAL,
	    (struct sockaddr *)&c->ss, c->len);
	rc = rc < 0 ? -errno : rc;
	as_command(run, false);
	free(buf);
	return rc;
}

/* sendmsg/sendmmsg: a destination is emulated; none goes on as it is. */
static long
gate_msg(struct gx_unixgate *g, const struct seccomp_notif *req,
    struct call *c, bool mmsg, bool *cont, struct gx_outcome *out)
{
	struct msghdr m;
	struct iovec iov[64];
	long rc;

	if (read_mem(c->pid, req->data.args[1], &m, sizeof(m)) < 0)
		return -EFAULT;
	if (mmsg && req->data.args[2] == 0)
		return 0;
	if (m.msg_name == NULL || m.msg_namelen == 0) {
		/* sendmmsg: a later message with a destination is refused. */
		for (uint64_t i = 1; mmsg && i < req->data.args[2] && i < 1024;
		    i++) {
			struct msghdr o;

			if (read_mem(c->pid, req->data.args[1] +
			    i * sizeof(struct mmsghdr), &o, sizeof(o)) < 0)
				return -EFAULT;
			if (o.msg_name != NULL && o.msg_namelen > 0)
				return -EOPNOTSUPP;
		}
		*cont = true;
		return 0;
	}
	if (m.msg_controllen > 0)
		return -EOPNOTSUPP;     /* fds with a destination: see man page */
	if (m.msg_iovlen > sizeof(iov) / sizeof(iov[0]))
		return -EMSGSIZE;
	if (read_mem(c->pid, (uintptr_t)m.msg_iov, iov,
	    m.msg_iovlen * sizeof(iov[0])) < 0)
		return -EFAULT;
	rc = take_addr(g, c, "sendmsg", (uintptr_t)m.msg_name, m.msg_namelen,
	    out);
	if (rc < 0)
		return rc;
	rc = do_send(g->run, c, iov, m.msg_iovlen,
	    (int)(mmsg ? req->data.args[3] : req->data.args[2]));
	if (mmsg && rc >= 0) {
		/* One message sent: sendmmsg says 1 and its msg_len. */
		unsigned int sent = (unsigned int)rc;
		struct iovec l = { &sent, sizeof(sent) };
		struct iovec r = { (void *)(uintptr_t)(req->data.args[1] +
		    offsetof(struct mmsghdr, msg_len)), sizeof(sent) };

		rc = process_vm_writev(c->pid, &l, 1, &r, 1, 0) < 0 ?
		    -EFAULT : 1;
	}
	return rc;
}

bool
unixgate_handle(struct gx_unixgate *g, const struct seccomp_notif *req,
    struct seccomp_notif_resp *resp, int listener, struct gx_outcome *out)
{
	const struct gx_policy *pol;
	struct call c;
	bool cont = false;
	char *name;
	long rc;
	int nr = req->data.nr;

	if (!g->active || (nr != SCMP_SYS(connect) && nr != SCMP_SYS(sendto) &&
	    nr != SCMP_SYS(sendmsg) && nr != SCMP_SYS(sendmmsg)))
		return false;
	pol = g->run->pol;
	name = filter_syscall_name(req->data.arch, req->data.nr);
	if (pol->has_syscalls && !strv_contains(pol->sys_allow, name)) {
		free(name);
		return false;           /* the policy refuses it: a denial */
	}
	if (nr == SCMP_SYS(sendto) && req->data.args[4] == 0) {
		/* send(2): no destination, and the register cannot change. */
		free(name);
		resp->flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
		return true;
	}
	rc = take_socket(req, listener, &c);
	if (rc < 0) {
		/* ok */
	} else if (nr == SCMP_SYS(connect)) {
		rc = take_addr(g, &c, name, req->data.args[1], req->data.args[2],
		    out);
		if (rc == 0)
			rc = do_connect(g->run, &c);
	} else if (nr == SCMP_SYS(sendto)) {
		struct iovec iov = { (void *)(uintptr_t)req->data.args[1],
			(size_t)req->data.args[2] };

		rc = take_addr(g, &c, name, req->data.args[4],
		    req->data.args[5], out);
		if (rc == 0)
			rc = do_send(g->run, &c, &iov, 1, (int)req->data.args[3]);
	} else {
		rc = gate_msg(g, req, &c, nr == SCMP_SYS(sendmmsg), &cont, out);
	}
	free(name);
	if (c.sfd >= 0)
		close(c.sfd);
	if (c.pfd >= 0)
		close(c.pfd);
	if (cont)
		resp->flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
	else if (rc < 0)
		resp->error = (int32_t)rc;
	else
		resp->val = rc;
	return true;
}
