/* SPDX-License-Identifier: ISC */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <seccomp.h>

#include "child.h"
#include "ns.h"
#include "filter.h"
#include "notify.h"
#include "policy.h"
#include "supervise.h"
#include "sys.h"
#include "util.h"

/* Linux >= 6.6: wake the supervisor on the notifying task's CPU. */
#ifndef SECCOMP_IOCTL_NOTIF_SET_FLAGS
#define SECCOMP_IOCTL_NOTIF_SET_FLAGS _IOW('!', 4, uint64_t)
#endif
#ifndef SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP
#define SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP 1UL
#endif

int
notify_init(struct gx_notify *ns, const struct gx_run *run,
    struct gx_outcome *out)
{
	memset(ns, 0, sizeof(*ns));
	ns->fd = -1;
	ns->run = run;
	ns->out = out;
	strlcpy(out->reporting, run->filter->notify.len > 0 ? "notify" : "off",
	    sizeof(out->reporting));
	fswatch_init(&ns->fs, run->pol, run->cwd, run->learn);
	if (run->filter->notify.len > 0 &&
	    seccomp_notify_alloc(&ns->req, &ns->resp) != 0)
		return -1;
	return 0;
}

/* The record's filesystem.reporting, once the listener's fate is known. */
static void
fs_reporting(struct gx_notify *ns)
{
	const char *how;

	if (ns->out == NULL || !ns->fs.active)
		return;
	if (strcmp(ns->out->reporting, "notify") != 0)
		how = "not observable here (needs --learn, or a syscalls group "
		    "for the paths of refused syscalls)";
	else if (ns->run->learn)
		how = "learn: every path syscall checked against the lists";
	else
		how = "path syscalls: open, create, remove and change checked "
		    "against the lists (lexically); stat, access, exec and "
		    "paths below /dev and /proc are not observable here "
		    "(needs --learn)";
	strlcpy(ns->out->fs_reporting, how, sizeof(ns->out->fs_reporting));
}

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
void
notify_handle(struct gx_notify *ns)
{
	const struct gx_policy *pol = ns->run->pol;
	struct seccomp_notif *req = ns->req;
	struct seccomp_notif_resp *resp = ns->resp;
	int64_t noop_val;
	char *name;

	memset(req, 0, sizeof(*req));
	if (seccomp_notify_receive(ns->fd, req) < 0)
		return;         /* the task died meanwhile */
	memset(resp, 0, sizeof(*resp));
	resp->id = req->id;
	if (!ns->exec_done && req->data.nr == GX_MARKER_SYSCALL) {
		resp->error = -ENOSYS;
	} else if (filter_noop_id_call(req, &noop_val) &&
	    seccomp_notify_id_valid(ns->fd, req->id) == 0) {
		resp->val = noop_val;   /* a no-op id call: not a denial */
	} else {
		bool path_call = fswatch_observe(&ns->fs, req, ns->fd, ns->out);

		name = filter_syscall_name(req->data.arch, req->data.nr);
		/*
		 * A path syscall the allowlist has is notified only for its
		 * path (fswatch_watched, fswatch_watched_ordinary): the kernel
		 * decides; it is neither used nor denied.
		 */
		if (path_call && pol->has_syscalls &&
		    strv_contains(pol->sys_allow, name)) {
			free(name);
			resp->flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
			(void)seccomp_notify_respond(ns->fd, resp);
			return;
		}
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
 * The child announced a listener: try to take it.  Returns 1 when taken,
 * 0 to go on waiting/reading, -2 when it cannot be had.
 */
static int
take_listener(struct gx_notify *ns, int pidfd, struct pollfd *p,
    bool *expect_listener)
{
	int fd = (int)syscall(SYS_pidfd_getfd, pidfd, CHILD_LISTENER_FD, 0);

	if (fd >= 0) {
		ns->fd = fd;
		/*
		 * The watched path syscalls are a round trip each: a
		 * synchronous wake-up roughly halves it where the kernel has it
		 * (an optimisation only: older kernels say EINVAL).
		 */
		(void)ioctl(fd, SECCOMP_IOCTL_NOTIF_SET_FLAGS,
		    SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP, 0);
		strlcpy(ns->out->reporting, "notify", sizeof(ns->out->reporting));
		return 1;
	}
	if (errno != EBADF && poll(p, 1, errno == ESRCH ? 100 : 0) > 0) {
		/* The child said why (or died): read it first. */
		*expect_listener = false;
		return 0;
	}
	if (errno != EBADF) {
		snprintf(ns->out->reporting, sizeof(ns->out->reporting),
		    "unavailable: pidfd_getfd: %s", strerror(errno));
		kill(ns->child, SIGKILL);
		waitpid(ns->child, NULL, 0);
		return -2;
	}
	if (poll(p, 1, 0) == 0) {
		usleep(20);
		return 1;
	}
	return 0;
}

int
notify_bootstrap(struct gx_notify *ns, pid_t child, int stp,
    struct child_err *ce)
{
	int pidfd = ns->in_ns ? -1 : (int)syscall(SYS_pidfd_open, child, 0);
	bool expect_listener = false;
	int rc = 0;

	ns->child = child;
	ns->cmd = ns->in_ns ? 0 : child;
	ns->exec_done = false;
	for (;;) {
		struct pollfd p[2] = { { stp, POLLIN, 0 }, { ns->fd, POLLIN, 0 } };
		ssize_t n;

		if (expect_listener && ns->fd < 0) {
			/* The child is loading it or waits in the marker. */
			int t = take_listener(ns, pidfd, p, &expect_listener);

			if (t == -2) {
				rc = -2;
				break;
			}
			if (t == 1)
				continue;
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
			if (pidfd < 0 && ns->in_ns) {
				/* In a PID namespace: the init's one child. */
				ns->cmd = ns_command_pid(child);
				pidfd = (int)syscall(SYS_pidfd_open, ns->cmd, 0);
			}
		} else if (ce->stage == STAGE_LISTENER_FALLBACK) {
			snprintf(ns->out->reporting, sizeof(ns->out->reporting),
			    "unavailable: %s (plain seccomp actions, no names)",
			    ce->err == EBUSY ? "a seccomp listener is already "
			    "installed (nested guardexec?)" : strerror(ce->err));
			if (ns->in_ns)
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

void
notify_close(struct gx_notify *ns)
{
	if (ns->fd >= 0)
		close(ns->fd);
	ns->fd = -1;
}

void
notify_free(struct gx_notify *ns)
{
	fs_reporting(ns);
	notify_close(ns);
	fswatch_free(&ns->fs);
	seccomp_notify_free(ns->req, ns->resp);
	ns->req = NULL;
	ns->resp = NULL;
}
