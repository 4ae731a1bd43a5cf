/* SPDX-License-Identifier: ISC */
/*
 * The supervised run: start the command (supervise_start.c, child.c),
 * take its seccomp listener (notify.c), then one poll loop
 * (supervise_loop.c; bubblewrap's monitor_child is the model) over the
 * signalfd, the listener and the output pipes (relay.c), with the
 * timeout and the kill grace as its deadlines; at the end nothing the
 * command started may remain (family.c).  This file is the driver over
 * one struct run_state (supervise_int.h), the end of the run and the
 * abort path.
 *
 * guardexec is single-threaded.  Keep it so: the child side between
 * fork() and execve() (child.c) calls only async-signal-safe functions.
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cgroup.h"
#include "family.h"
#include "log.h"
#include "notify.h"
#include "ns.h"
#include "policy.h"
#include "prof.h"
#include "relay.h"
#include "sentinel.h"
#include "supervise.h"
#include "supervise_int.h"
#include "sys.h"
#include "util.h"

static const int relayed_signals[] = { SIGINT, SIGTERM, SIGHUP };

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

void
sv_close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

void
sv_stamp_end(struct run_state *st)
{
	struct timespec mono1;

	clock_gettime(CLOCK_REALTIME, &st->out->end);
	clock_gettime(CLOCK_MONOTONIC, &mono1);
	st->out->duration_ms = timespec_diff_ms(&st->mono0, &mono1);
	st->out->ru = st->fam.ru;
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

	sv_stamp_end(st);
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
		sv_close_fd(&st.sfd);
		refuse(&st);
		return -1;
	}
	prof_mark("supervise-init");
	rc = sv_start(&st);
	prof_mark("start (fork to exec)");
	if (rc < 0) {
		ns_end(&st.nsr);
		sv_close_fd(&st.sfd);
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
	sv_loop(&st);
	prof_mark("command (exec to exit, relay)");
	free(st.buf);
	sv_close_fd(&st.sfd);
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
