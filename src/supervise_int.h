/* SPDX-License-Identifier: ISC */
#ifndef GX_SUPERVISE_INT_H
#define GX_SUPERVISE_INT_H

/*
 * Inside supervise only: the run state that supervise.c (the driver, the
 * end of the run, the abort path), supervise_start.c (starting the
 * command) and supervise_loop.c (the poll loop and its handlers) share.
 * No other module includes this header; supervise.h is the API.
 */

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "family.h"
#include "notify.h"
#include "ns.h"
#include "outcome.h"
#include "relay.h"
#include "supervise.h"

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

/* Close *@fd if open, and set it to -1. */
void sv_close_fd(int *fd);

/* The end time, the duration and the family's rusage into st->out. */
void sv_stamp_end(struct run_state *st);

/*
 * supervise_start.c: start the command.  Returns 0 once it runs, -1
 * when it could not be started for want of a pipe, a fork or a filter
 * (out->error says why), -2 when the child failed before execve (the
 * outcome is filled).
 */
int sv_start(struct run_state *st);

/*
 * supervise_loop.c: the loop, until the family is dead and both pipes
 * are closed (or a poll failure: st->failed, the family SIGKILLed).
 */
void sv_loop(struct run_state *st);

#endif
