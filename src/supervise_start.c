/* SPDX-License-Identifier: ISC */
/*
 * Starting the supervised command: its pipes, the fork (or the clone of
 * the namespace init, ns.c), the seccomp listener taken over
 * (notify_bootstrap), a second fork with the plain filter where no
 * listener can be had, and the outcome of a child that failed before
 * execve.  The child itself is child.c's.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cgroup.h"
#include "child.h"
#include "filter.h"
#include "log.h"
#include "policy.h"
#include "supervise_int.h"
#include "util.h"

/* The command's side of a namespace run (see ns.h). */
struct ns_child {
	struct gx_run *run;
	bool plain;
	int errfd, out_w, err_w;
	bool adopted;   /* issue 18: in the init: it is in the cgroup already */
	bool moved;     /* in guardexec: cgroup_adopt_init() succeeded */
};

static void
set_pipe_size(int fd)
{
	/* Fewer wake-ups with a larger pipe; the default is fine too. */
	if (fcntl(fd, F_SETPIPE_SZ, PIPE_SIZE) < 0)
		(void)fcntl(fd, F_SETPIPE_SZ, 256 * 1024);
}

static void
ns_command(void *arg)
{
	struct ns_child *c = arg;

	/* Forked inside the cgroup (issue 18): nothing to join. */
	if (c->adopted)
		c->run->cgroup = NULL;
	child_run(c->run, c->plain, 1, c->errfd, c->out_w, c->err_w);
}

/* issue 18: guardexec moves the init into a v1 cgroup (see ns.h). */
static int
ns_adopt(void *arg, pid_t init)
{
	struct ns_child *c = arg;

	if (cgroup_adopt_init(c->run->cgroup, init) < 0)
		return -1;
	c->moved = true;
	return 0;
}

static void
ns_fail(void *arg, int step)
{
	child_fail_ns(((const struct ns_child *)arg)->errfd, step);
}

/*
 * Start the child: in its own namespaces when the run asks for them and
 * the kernel allows (then the namespace's init is our child, and it
 * forks the command), else by fork.  Returns our child's pid, or -1.
 */
static pid_t
start_child(struct run_state *st, bool plain, int errfd, int out_w,
    int err_w)
{
	struct gx_run in_ns = *st->run;
	struct ns_child c = { &in_ns, plain, errfd, out_w, err_w, false,
	    false };
	bool v1 = st->run->cgroup != NULL && st->run->cgroup->active &&
	    st->run->cgroup->version == 1;
	struct gx_ns_spec spec = {
		.pol = st->run->pol, .cwd = st->run->cwd,
		.landlock_fd = st->run->landlock_fd,
		.landlock_abi = st->run->landlock_abi,
		.netns = st->run->netns,
		.cgroup_fd = st->run->cgroup != NULL && st->run->cgroup->active ?
		    st->run->cgroup->dir_fd : -1,
		.command = ns_command, .fail = ns_fail, .arg = &c,
		.adopt = v1 ? ns_adopt : NULL, .adopted = &c.adopted,
	};
	pid_t pid;

	ns_end(&st->nsr);
	st->out->namespaces = 0;
	st->ns.in_ns = false;
	if (st->run->use_ns) {
		/* The init never returns from ns_start: in_ns stays valid. */
		in_ns.in_ns = true;
		if (ns_start(&spec, &st->nsr) == 0) {
			st->out->namespaces = st->nsr.namespaces;
			st->ns.in_ns = true;
			return st->nsr.init;
		}
		snprintf(st->out->ns_missing, sizeof(st->out->ns_missing),
		    "the kernel refused new namespaces: %s", strerror(errno));
		/* The init is gone: pids.max back to the family's own. */
		if (c.moved)
			cgroup_adopt_undo(st->run->cgroup);
		if (st->run->ns_required) {
			/* Root's filesystem group: see mechanisms.c. */
			snprintf(st->out->error, sizeof(st->out->error),
			    GX_ROOT_FS_NEEDS_NS, strerror(errno));
			return -1;
		}
	}
	pid = fork();
	if (pid == 0)
		child_run(st->run, plain, st->fam.self, errfd, out_w, err_w);
	return pid;
}

/*
 * Fork the child once (@plain: with the plain seccomp variant) and
 * follow its setup.  Returns notify_bootstrap()'s answer, or -3 when
 * the pipes or the fork failed (out->error says why).
 */
static int
fork_once(struct run_state *st, bool plain, pid_t *child, struct child_err *ce)
{
	int outp[2] = { -1, -1 }, errp[2] = { -1, -1 }, stp[2] = { -1, -1 };
	int bs;

	if (pipe2(outp, O_CLOEXEC) < 0 || pipe2(errp, O_CLOEXEC) < 0 ||
	    pipe2(stp, O_CLOEXEC) < 0) {
		snprintf(st->out->error, sizeof(st->out->error), "pipe: %s",
		    strerror(errno));
		goto fail;
	}
	set_pipe_size(outp[1]);
	set_pipe_size(errp[1]);
	*child = start_child(st, plain, stp[1], outp[1], errp[1]);
	if (*child < 0) {
		if (st->out->error[0] == '\0')
			snprintf(st->out->error, sizeof(st->out->error),
			    "fork: %s", strerror(errno));
		goto fail;
	}
	close(stp[1]);
	close(outp[1]);
	close(errp[1]);
	st->pipe[0] = outp[0];
	st->pipe[1] = errp[0];
	bs = notify_bootstrap(&st->ns, *child, stp[0], ce);
	close(stp[0]);
	return bs;
fail:
	for (int i = 0; i < 2; i++) {
		sv_close_fd(&outp[i]);
		sv_close_fd(&errp[i]);
		sv_close_fd(&stp[i]);
	}
	return -3;
}

/* The child ended before execve: fill the outcome from @ce. */
static void
child_failed(struct run_state *st, pid_t child, const struct child_err *ce)
{
	struct gx_outcome *out = st->out;
	struct rusage ru;

	if (out->namespaces)
		kill(child, SIGKILL);   /* the init, waiting to be told */
	if (wait4(child, NULL, 0, &ru) == child)
		family_add_rusage(&st->fam, &ru);
	sv_close_fd(&st->pipe[0]);
	sv_close_fd(&st->pipe[1]);
	sv_stamp_end(st);
	if (ce->stage == STAGE_EXEC) {
		out->status = GX_STATUS_EXEC_FAILED;
		out->exit_code = ce->err == ENOENT ? GX_EXIT_NOTFOUND :
		    GX_EXIT_NOEXEC;
		out->exec_errno = ce->err;
		snprintf(out->error, sizeof(out->error), "%s: %s",
		    st->run->argv[0], strerror(ce->err));
	} else {
		if (ce->stage != 0)
			child_describe_err(ce, out);
		out->status = GX_STATUS_REFUSED;
		out->exit_code = GX_EXIT_FAILURE;
	}
}

static int
build_plain(struct run_state *st)
{
	struct gx_diag d = { 0 };

	if (filter_build_plain(st->run->pol, st->run->filter, &d) == 0)
		return 0;
	strlcpy(st->out->error, d.n ? d.msgs[0] :
	    "building the plain seccomp filter", sizeof(st->out->error));
	diag_free(&d);
	return -1;
}

/*
 * Start the command.  Returns 0 once it runs, -1 when it could not be
 * started for want of a pipe, a fork or a filter (out->error says
 * why), -2 when the child failed before execve (the outcome is
 * filled).  A listener that cannot be had (a nested guardexec) means a
 * second fork with the plain filter.
 */
int
sv_start(struct run_state *st)
{
	const struct gx_run *run = st->run;
	struct child_err ce;
	pid_t child = -1;
	int bs;

	for (int attempt = 0; ; attempt++) {
		bs = fork_once(st, attempt > 0, &child, &ce);
		if (bs == -3)
			return -1;
		st->fam.child = st->fam.pgid = child;
		if (bs != -2 || attempt > 0 || run->learn)
			break;
		/* No listener to be had: again, with the plain filter. */
		sv_close_fd(&st->pipe[0]);
		sv_close_fd(&st->pipe[1]);
		if (build_plain(st) < 0)
			return -1;
	}
	if (bs == -2) {
		snprintf(st->out->error, sizeof(st->out->error), "--learn needs "
		    "a seccomp listener: %s", st->out->reporting);
		ce.stage = 0;
		bs = -1;
	}
	if (bs == -1) {
		child_failed(st, child, &ce);
		return -2;
	}
	return 0;
}
