/* SPDX-License-Identifier: ISC */
#ifndef GX_SYS_H
#define GX_SYS_H

#include <stdbool.h>

#include "log.h"

/* OS helpers with side effects (minijail's util/system split). */

/*
 * Close every fd from @lowfd up (close_range(2), else a loop up to the
 * RLIMIT_NOFILE soft limit).  Async-signal-safe: the child uses it.
 */
void sys_close_from(int lowfd);
/* Mark every fd from @lowfd up close-on-exec, the same way.  0 or -1. */
int sys_cloexec_from(int lowfd);

/* CLOCK_MONOTONIC in milliseconds. */
double sys_now_ms(void);

/* Open /dev/null on any of fds 0, 1, 2 that is closed.  -1 on failure. */
int sys_ensure_stdio(void);

/*
 * Find @cmd the way execvp(3) would, on @path (a PATH value; relative
 * entries and commands with a slash resolve against @cwd).  Returns 0
 * with a malloc'd absolute path in *@out, or -ENOENT (not found) or
 * -EACCES (found, but nothing executable).
 */
int sys_lookup_command(const char *cmd, const char *path, const char *cwd,
    char **out);

/*
 * Overwrite the strings of the process's own environment in place, so
 * that /proc/<pid>/environ shows nothing of the caller's secrets.
 */
void sys_wipe_environ(char **env);

/*
 * The default audit log when neither -l nor audit.log names one:
 * /var/log/guardexec/audit.log for root, else
 * $XDG_STATE_HOME/guardexec/audit.log (or ~/.local/state/...).
 * Returns a malloc'd path or NULL (no home).
 */
char *sys_default_log(void);

/*
 * Where -p ARG points: ARG itself when it names a file; ARG/.guardexec/
 * agent.cfg when ARG is a directory (a repository's own policy); and
 * for a bare name with no '/' that is not a file here,
 * SYSCONFDIR/guardexec/NAME, then NAME.cfg (the shipped policies, so
 * "-p agent" works).  Returns a malloc'd path (ARG itself when nothing
 * else fits, so the error names what the user gave).
 */
char *sys_find_policy(const char *arg);

/*
 * --init: write a commented starter policy to DIR/.guardexec/agent.cfg
 * (DIR NULL: the current directory), never over an existing file.
 * Returns 0 with the path written in *@written (malloc'd), or -1 with a
 * message in @diag.
 */
int sys_init_policy(const char *dir, char **written, struct gx_diag *diag);

#endif
