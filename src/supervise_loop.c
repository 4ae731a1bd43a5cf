/* SPDX-License-Identifier: ISC */
/*
 * The supervisor's poll loop (bubblewrap's monitor_child is the model)
 * and its handlers: the signalfd (relay, reap), the seccomp listener
 * (notify.c), the output pipes (relay.c, non-blocking writes), the
 * namespace init's report; the timeout and the kill grace as deadlines;
 * after the family's death, a bounded drain of the pipes.
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "policy.h"
#include "supervise_int.h"
#include "sys.h"

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
		sv_close_fd(&st->pipe[s]);
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
void
sv_loop(struct run_state *st)
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
			sv_close_fd(&st->pipe[0]);
			sv_close_fd(&st->pipe[1]);
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
