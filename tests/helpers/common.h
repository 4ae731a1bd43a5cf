/* SPDX-License-Identifier: ISC */
#ifndef GX_HELPERS_COMMON_H
#define GX_HELPERS_COMMON_H

/*
 * What several test helpers share (tests/helpers/common.c, linked into
 * each that uses it, and into bench/gxbench).
 */
#include <signal.h>
#include <stdbool.h>

/* Set by SIGTERM and SIGINT once helper_catch_stop() ran. */
extern volatile sig_atomic_t helper_stop;

/* SIGTERM and SIGINT set helper_stop; no SA_RESTART, so poll() returns. */
void helper_catch_stop(void);

/* CLOCK_MONOTONIC in seconds. */
double helper_now(void);

/*
 * The decimal number @s, 0 to @max; else "@prog: bad @what "@s"" on
 * stderr and exit 2.
 */
long helper_parse_num(const char *prog, const char *s, const char *what,
    long max);

/*
 * Wait until @fd is readable: 1; 0 once helper_now() passes @deadline or
 * helper_stop is set; -1 with errno on a poll() error (EINTR retried).
 */
int helper_wait_readable(int fd, double deadline);

/*
 * PIDFILE.ns (our PID namespace: inside a run's own PID namespace our
 * pid means nothing outside it, and lib.sh's gone() looks for the
 * namespace instead), then PIDFILE with our pid.  0, or -1.
 */
int helper_write_pid(const char *pidfile);

/*
 * The main() of the helpers that try operations and say how each went
 * (try-syscall, ns-attack): for each argument OP, @attempt(OP, the
 * arguments after it, &used) returns < 0 with errno on failure, and sets
 * used to how many arguments it took.  Prints "OP: ok" or "OP: ENAME"
 * (flushed after each when @flush: a later operation may block; without,
 * a later one that kills the process loses the lines before it, as the
 * tests of try-syscall expect).  Returns 1 when one failed, else 0.
 */
int helper_ops_main(int argc, char **argv,
    long (*attempt)(const char *op, char **args, int *used), bool flush);

#endif
