/* SPDX-License-Identifier: ISC */
/*
 * The supervised run: start the command (child.c), take its seccomp
 * listener (notify.c), then one poll loop (bubblewrap's monitor_child is
 * the model) over the signalfd, the listener and the output pipes
 * (relay.c), with the timeout and the kill grace as its deadlines; at
 * the end nothing the command started may remain (family.c).
 *
 * guardexec is single-threaded.  Keep it so: the child side between
 * fork() and execve() (child.c) calls only async-signal-safe functions.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cgroup.h"
#include "child.h"
#include "family.h"
#include "filter.h"
#include "log.h"
#include "notify.h"
#include "ns.h"
#include "policy.h"
#include "relay.h"
#include "sentinel.h"
#include "prof.h"
#include "supervise.h"
#include "sys.h"
#include "util.h"

#define RELAY_BUF (256 * 1024)
#define PIPE_SIZE (1024 * 1024)
/*
 * After the family is dead, what may still come through the pipes: what
 * they held when it died (at most their capacity), with no pause over
 * DRAIN_IDLE_MS, and no more than DRAIN_LIMIT_MS spent waiting for it.
 * Whatever writes beyond that is outside the family (it was handed the
 * pipe): the pipes are closed and the run ends, whatever still writes.
 */
#define DRAIN_IDLE_MS 500
#define DRAIN_LIMIT_MS 5000
#define DRAIN_MAX_BYTES (2 * (uint64_t)PIPE_SIZE)

static const int relayed_signals[] = { SIGINT, SIGTERM, SIGHUP };

/* Everything one run's loop works on. */
struct run_state {
	const struct gx_run *run;
	struct gx_outcome *out;
	struct gx_family fam;
	struct gx_notify ns;
	struct gx_relay relay;
	struct gx_ns_run nsr;       /* the namespace init, when there is one */
	int sfd;                    /* signalfd */
	int pipe[2];                /* read ends of the command's stdout, stderr */
	int sentinel_fd;
	pid_t sentinel_pid;
	bool report_quiet;          /* poll saw nothing on nsr.report_r */
	double deadline;            /* the timeout, or 0 */
	double kill_at;             /* SIGKILL after the grace, or 0 */
	double idle_since;          /* draining: last data seen */
	double drain_waited;        /* draining: ms spent waiting on the pipes */
	uint64_t drain_bytes;       /* draining: bytes read since the family died */
	bool family_dead;           /* the command ended, its family killed */
	bool killed_overflow;
	struct timespec mono0;
	char *buf;
	bool failed;                /* guardexec itself failed mid-run */
};

/*
 * For supervise_abort() (single-threaded): the run whose command may
 * be running, and whether supervise_run() has filled the outcome.
 */
static struct run_state *current;
static bool run_over;

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

static void
set_pipe_size(int fd)
{
	/* Fewer wake-ups with a larger pipe; the default is fine too. */
	if (fcntl(fd, F_SETPIPE_SZ, PIPE_SIZE) < 0)
		(void)fcntl(fd, F_SETPIPE_SZ, 256 * 1024);
}

static void
close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static void
stamp_end(struct run_state *st)
{
	struct timespec mono1;

	clock_gettime(CLOCK_REALTIME, &st->out->end);
	clock_gettime(CLOCK_MONOTONIC, &mono1);
	st->out->duration_ms = timespec_diff_ms(&st->mono0, &mono1);
	st->out->ru = st->fam.ru;
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

	child_run(c->run, c->plain, 1, c->errfd, c->out_w, c->err_w);
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
	struct ns_child c = { &in_ns, plain, errfd, out_w, err_w };
	struct gx_ns_spec spec = {
		.pol = st->run->pol, .cwd = st->run->cwd,
		.landlock_fd = st->run->landlock_fd,
		.landlock_abi = st->run->landlock_abi,
		.netns = st->run->netns,
		.cgroup_fd = st->run->cgroup != NULL && st->run->cgroup->active ?
		    st->run->cgroup->dir_fd : -1,
		.command = ns_command, .fail = ns_fail, .arg = &c,
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
		if (st->run->ns_required) {
			/* Root's filesystem group: see need_mount_ns() in main.c. */
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
		close_fd(&outp[i]);
		close_fd(&errp[i]);
		close_fd(&stp[i]);
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
	close_fd(&st->pipe[0]);
	close_fd(&st->pipe[1]);
	stamp_end(st);
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
static int
start(struct run_state *st)
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
		close_fd(&st->pipe[0]);
		close_fd(&st->pipe[1]);
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

/*
 * The timers and the end of the command: the timeout (SIGTERM to the
 * family, SIGKILL after the grace), on_overflow = "kill", and once the
 * command is reaped, the sentinel dismissed and the family killed.
 */
static void
tick(struct run_state *st)
{
	const struct gx_policy *pol = st->run->pol;
	double now = sys_now_ms();
	int status;

	/*
	 * The namespace init reports the command's end (then waits).  Read
	 * only when poll said so: not a failed read per relayed chunk.
	 */
	if (st->nsr.report_r >= 0 && !st->report_quiet &&
	    ns_read_status(&st->nsr, &status) == 1) {
		st->fam.child_status = status;
		st->fam.child_done = true;
	}

	if (!st->fam.child_done && st->deadline > 0 && now >= st->deadline &&
	    !st->out->timed_out) {
		st->out->timed_out = true;
		family_signal(&st->fam, SIGTERM);
		st->kill_at = now + pol->limits.kill_grace * 1e3;
	}
	if (!st->fam.child_done && st->kill_at > 0 && now >= st->kill_at) {
		family_signal(&st->fam, SIGKILL);
		st->kill_at = 0;
	}
	if (st->relay.overflow_kill && !st->killed_overflow) {
		st->killed_overflow = true;
		family_signal(&st->fam, SIGKILL);
	}
	if (!st->fam.child_done || st->family_dead)
		return;
	/* The command ended: nothing it started may stay. */
	if (!family_kill_all(&st->fam, st->out->n_forwarded > 0 ?
	    pol->limits.kill_grace * 1e3 : 0))
		st->out->left_running = true;
	st->family_dead = true;
	st->idle_since = sys_now_ms();
}

/* The poll timeout (ms, or -1) for the next deadline. */
static int
next_timeout(const struct run_state *st)
{
	double next = 0, d;

	if (!st->fam.child_done && st->deadline > 0 && !st->out->timed_out)
		next = st->deadline;
	if (!st->fam.child_done && st->kill_at > 0)
		next = st->kill_at;
	if (st->family_dead)
		next = st->idle_since + DRAIN_IDLE_MS;
	if (next <= 0)
		return -1;
	d = next - sys_now_ms();
	return d <= 0 ? 0 : (int)d + 1;
}

/* Indexes into the poll set; -1 when not polled. */
struct pollset {
	struct pollfd pfd[7];
	int n, ix_notify, ix_pipe[2], ix_report;
};

static void
build_pollset(const struct run_state *st, struct pollset *ps)
{
	ps->n = 0;
	ps->ix_notify = ps->ix_pipe[0] = ps->ix_pipe[1] = -1;
	ps->pfd[ps->n++] = (struct pollfd){ st->sfd, POLLIN, 0 };
	if (st->ns.fd >= 0) {
		ps->ix_notify = ps->n;
		ps->pfd[ps->n++] = (struct pollfd){ st->ns.fd, POLLIN, 0 };
	}
	for (int s = 0; s < 2; s++) {
		if (st->pipe[s] < 0 || relay_busy(&st->relay, s))
			continue;
		ps->ix_pipe[s] = ps->n;
		ps->pfd[ps->n++] = (struct pollfd){ st->pipe[s], POLLIN, 0 };
	}
	for (int s = 0; s < 2; s++)
		if (relay_busy(&st->relay, s))
			ps->pfd[ps->n++] = (struct pollfd){ st->relay.sink[s].fd,
			    POLLOUT, 0 };
	ps->ix_report = -1;
	if (st->nsr.report_r >= 0 && !st->fam.child_done) {
		ps->ix_report = ps->n;
		ps->pfd[ps->n++] = (struct pollfd){ st->nsr.report_r, POLLIN,
		    0 };
	}
}

static void
note_signal(struct gx_outcome *out, int sig)
{
	if (out->n_forwarded < GX_MAX_FORWARDED)
		out->forwarded[out->n_forwarded++] = sig;
}

/* Relay what arrived on the signalfd; reap. */
static void
handle_signals(struct run_state *st)
{
	struct signalfd_siginfo si;

	while (read(st->sfd, &si, sizeof(si)) == sizeof(si)) {
		if ((int)si.ssi_signo == SIGCHLD)
			continue;
		note_signal(st->out, (int)si.ssi_signo);
		if (!st->fam.child_done)
			family_signal(&st->fam, (int)si.ssi_signo);
	}
	family_reap(&st->fam);
}

/* One read from the command's @s pipe, passed to the relay. */
static void
read_pipe(struct run_state *st, int s)
{
	ssize_t n = read(st->pipe[s], st->buf, RELAY_BUF);

	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n <= 0) {
		close_fd(&st->pipe[s]);
		return;
	}
	if (s == 0)
		st->out->stdout_bytes += (uint64_t)n;
	else
		st->out->stderr_bytes += (uint64_t)n;
	relay_data(&st->relay, s, st->buf, (size_t)n);
	if (st->family_dead) {
		st->idle_since = sys_now_ms();
		st->drain_bytes += (uint64_t)n;
	}
}

/* Draining after the family's death: time to stop reading the pipes? */
static bool
drain_over(const struct run_state *st)
{
	return sys_now_ms() >= st->idle_since + DRAIN_IDLE_MS ||
	    st->drain_waited >= DRAIN_LIMIT_MS ||
	    st->drain_bytes > DRAIN_MAX_BYTES;
}

/* The loop: until the family is dead and both pipes are closed. */
static void
loop(struct run_state *st)
{
	struct pollset ps;
	bool busy;
	double t0;

	for (;;) {
		tick(st);
		if (st->family_dead && st->pipe[0] < 0 && st->pipe[1] < 0)
			break;
		busy = relay_busy(&st->relay, 0) || relay_busy(&st->relay, 1);
		if (st->family_dead && busy)
			st->idle_since = sys_now_ms();  /* a slow reader, not idle */
		build_pollset(st, &ps);
		t0 = sys_now_ms();
		if (poll(ps.pfd, (nfds_t)ps.n, next_timeout(st)) < 0) {
			if (errno == EINTR)
				continue;
			/* Fail, but with the family killed and a record. */
			snprintf(st->out->error, sizeof(st->out->error),
			    "supervising the command: poll: %s",
			    strerror(errno));
			st->failed = true;
			family_signal(&st->fam, SIGKILL);
			return;
		}
		if (st->family_dead && !busy)
			st->drain_waited += sys_now_ms() - t0;
		if (st->family_dead && relay_stuck(&st->relay))
			relay_abandon(&st->relay);  /* a stopped reader */
		if (st->family_dead && drain_over(st)) {
			/* Someone outside the family holds the pipes. */
			close_fd(&st->pipe[0]);
			close_fd(&st->pipe[1]);
			continue;
		}
		st->report_quiet = ps.ix_report >= 0 &&
		    ps.pfd[ps.ix_report].revents == 0;
		if (ps.pfd[0].revents & POLLIN)
			handle_signals(st);
		if (ps.ix_notify >= 0 && (ps.pfd[ps.ix_notify].revents & POLLIN))
			notify_handle(&st->ns);
		else if (ps.ix_notify >= 0 &&
		    (ps.pfd[ps.ix_notify].revents & (POLLHUP | POLLERR)))
			notify_close(&st->ns);  /* no task holds the filter */
		relay_flush(&st->relay);
		for (int s = 0; s < 2; s++)
			if (ps.ix_pipe[s] >= 0 && (ps.pfd[ps.ix_pipe[s]].revents &
			    (POLLIN | POLLHUP | POLLERR)))
				read_pipe(st, s);
	}
}

/* Every limit the run reached: the one that ended it first. */
static void
limits_reached(const struct gx_run *run, struct gx_outcome *out, bool output)
{
	const char *hit[2];
	size_t n = run->cgroup != NULL ? cgroup_limits_hit(run->cgroup, hit) : 0;

	if (out->limit_hit != NULL)
		outcome_limit_reached(out, out->limit_hit);
	if (out->timed_out)
		outcome_limit_reached(out, "timeout");
	for (size_t i = 0; i < n; i++)
		outcome_limit_reached(out, hit[i]);
	if (output)
		outcome_limit_reached(out, "output");
	if (out->signal == SIGXCPU)
		outcome_limit_reached(out, "cpu");
	if (out->signal == SIGXFSZ)
		outcome_limit_reached(out, "file_size");
}

/*
 * Nothing the command started may remain: stragglers reparented to us,
 * or left in the cgroup.  Only then is the sentinel dismissed.
 */
static void
end_family(struct run_state *st)
{
	if (st->run->cgroup != NULL)
		cgroup_kill_all(st->run->cgroup);
	family_kill_all(&st->fam, 0);
	ns_end(&st->nsr);
	if (st->sentinel_fd >= 0)
		sentinel_dismiss(st->sentinel_fd, st->fam.exclude_reaped ? -1 :
		    st->sentinel_pid);
	st->sentinel_fd = -1;
}

/* How the run ended, from the command's wait status and what happened. */
static void
conclude(struct run_state *st)
{
	struct gx_outcome *out = st->out;
	int status = st->fam.child_status;

	stamp_end(st);
	out->truncated = st->relay.truncated;
	if (WIFSIGNALED(status))
		out->signal = WTERMSIG(status);
	/* Killed on a denied syscall: report it as the kernel would. */
	if (out->seccomp_killed && out->signal == SIGKILL && !out->timed_out)
		status = SIGSYS, out->signal = SIGSYS;
	if (out->timed_out) {
		out->status = GX_STATUS_TIMEOUT;
		out->exit_code = GX_EXIT_TIMEOUT;
		out->limit_hit = "timeout";
	} else if (WIFEXITED(status)) {
		out->status = GX_STATUS_EXITED;
		out->exit_code = WEXITSTATUS(status);
	} else {
		out->status = GX_STATUS_SIGNALED;
		out->exit_code = 128 + out->signal;
	}
	if (st->failed)
		out->exit_code = GX_EXIT_FAILURE;
	if (out->limit_hit == NULL && st->run->cgroup != NULL)
		out->limit_hit = cgroup_limit_hit(st->run->cgroup);
	if (out->limit_hit == NULL) {
		if (st->relay.overflow_kill || st->relay.truncated)
			out->limit_hit = "output";
		else if (out->signal == SIGXCPU)
			out->limit_hit = "cpu";
		else if (out->signal == SIGXFSZ)
			out->limit_hit = "file_size";
	}
	limits_reached(st->run, out, st->relay.overflow_kill ||
	    st->relay.truncated);
}

/* Could not start: a refusal, with out->error already set. */
static void
refuse(struct run_state *st)
{
	clock_gettime(CLOCK_REALTIME, &st->out->end);
	st->out->status = GX_STATUS_REFUSED;
	st->out->exit_code = GX_EXIT_FAILURE;
}

static int
open_signalfd(struct run_state *st)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	for (size_t i = 0; i < sizeof(relayed_signals) / sizeof(int); i++)
		sigaddset(&set, relayed_signals[i]);
	st->sfd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	if (st->sfd >= 0)
		return 0;
	snprintf(st->out->error, sizeof(st->out->error), "signalfd: %s",
	    strerror(errno));
	return -1;
}

static int
run_all(const struct gx_run *run, struct gx_outcome *out)
{
	struct run_state st = { .run = run, .out = out, .sfd = -1,
		.pipe = { -1, -1 }, .sentinel_fd = -1, .sentinel_pid = -1,
		.nsr = { .init = -1, .alive_w = -1, .report_r = -1 } };
	int rc;

	memset(out, 0, sizeof(*out));
	clock_gettime(CLOCK_REALTIME, &out->start);
	clock_gettime(CLOCK_MONOTONIC, &st.mono0);
	family_init(&st.fam, -1);
	if (open_signalfd(&st) < 0) {
		refuse(&st);
		return -1;
	}
	if (notify_init(&st.ns, run, out) < 0) {
		snprintf(out->error, sizeof(out->error), "seccomp_notify_alloc "
		    "failed");
		close_fd(&st.sfd);
		refuse(&st);
		return -1;
	}
	prof_mark("supervise-init");
	rc = start(&st);
	prof_mark("start (fork to exec)");
	if (rc < 0) {
		ns_end(&st.nsr);
		close_fd(&st.sfd);
		notify_free(&st.ns);
		if (rc == -1)
			refuse(&st);
		return -1;
	}

	/*
	 * If guardexec dies from here on, the namespace init dies with it
	 * (PR_SET_PDEATHSIG) and the kernel ends the whole family; without
	 * namespaces, the sentinel does what it can.  A cgroup of our own
	 * (not a systemd scope, which systemd removes) needs the sentinel
	 * either way: only it can remove the cgroup once guardexec is gone.
	 */
	if (!out->namespaces || (run->cgroup != NULL && run->cgroup->active &&
	    !run->cgroup->scope))
		st.sentinel_fd = sentinel_start(st.fam.child, run->cgroup,
		    &st.sentinel_pid);
	if (st.sentinel_fd >= 0)
		family_exclude(&st.fam, st.sentinel_pid);
	prof_mark("sentinel");
	relay_init(&st.relay, run->pol, 1, 2);
	current = &st;
	st.buf = xmalloc(RELAY_BUF);
	if (run->pol->limits.timeout > 0)
		st.deadline = sys_now_ms() + run->pol->limits.timeout * 1e3;
	loop(&st);
	prof_mark("command (exec to exit, relay)");
	free(st.buf);
	close_fd(&st.sfd);
	notify_free(&st.ns);
	relay_finish(&st.relay);
	end_family(&st);
	prof_mark("end family");
	current = NULL;
	conclude(&st);
	return st.failed ? -1 : 0;
}

int
supervise_run(const struct gx_run *run, struct gx_outcome *out)
{
	int rc;

	run_over = false;
	rc = run_all(run, out);
	run_over = true;
	return rc;
}

void
supervise_abort(struct gx_outcome *out, const char *why)
{
	struct run_state *st = current;

	current = NULL;
	if (st != NULL) {
		st->failed = true;
		family_signal(&st->fam, SIGKILL);
		end_family(st);
		conclude(st);
	} else if (!run_over) {
		/* The command was not started: a refusal. */
		if (out->start.tv_sec == 0)
			clock_gettime(CLOCK_REALTIME, &out->start);
		clock_gettime(CLOCK_REALTIME, &out->end);
		out->status = GX_STATUS_REFUSED;
	}
	out->exit_code = GX_EXIT_FAILURE;
	strlcpy(out->error, why, sizeof(out->error));
}
