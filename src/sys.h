/* SPDX-License-Identifier: ISC */
#ifndef GX_SYS_H
#define GX_SYS_H

#include <stdbool.h>

#include "log.h"

/* The pidfd calls, for C libraries that predate them (numbers of x86_64). */
#ifndef SYS_pidfd_send_signal
#define SYS_pidfd_send_signal 424
#endif
#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_pidfd_getfd
#define SYS_pidfd_getfd 438
#endif

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
 * The caller's home directory: $HOME when it is a directory the real
 * uid owns, else the passwd entry of the real uid.  Read it before the environment is wiped.
 * Returns a malloc'd path or NULL.
 */
char *sys_caller_home(void);

/* Whether -p @arg is a NAME: only letters, digits, '-' and '_'. */
bool sys_policy_is_name(const char *arg);

/*
 * Where -p ARG points.  A NAME (see sys_policy_is_name) is an installed
 * policy only: SYSCONFDIR/guardexec/NAME.cfg, then
 * $XDG_CONFIG_HOME/guardexec/NAME.cfg (or ~/.config/...), never the
 * working directory.  Anything else is a path: ARG/.guardexec/agent.cfg
 * when ARG is a directory, else ARG itself.  Returns a malloc'd path, or
 * NULL for a NAME found nowhere, with a message in @diag saying where it
 * looked.
 */
char *sys_find_policy(const char *arg, struct gx_diag *diag);

/*
 * --init: write a commented starter policy to DIR/.guardexec/agent.cfg
 * (DIR NULL: the current directory), never over an existing file.
 * Returns 0 with the path written in *@written (malloc'd), or -1 with a
 * message in @diag.
 */
int sys_init_policy(const char *dir, char **written, struct gx_diag *diag);

#endif
