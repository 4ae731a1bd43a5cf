/* SPDX-License-Identifier: ISC */
#ifndef GX_PROCFS_H
#define GX_PROCFS_H

#include <stddef.h>
#include <sys/types.h>

/*
 * Small /proc files read and parsed with plain system calls: no stdio,
 * no malloc, no locale.  Async-signal-safe (all but procfs_count_tasks),
 * so the sentinel (sentinel.c) and the namespace init may call them after
 * fork, and the family walk (family.c) shares the same parser.
 */

/* The fields of /proc/PID/stat that guardexec reads. */
struct gx_proc_stat {
	char state;                 /* R, S, D, Z (zombie), T... */
	pid_t ppid;
	pid_t pgrp;
	pid_t session;
};

/*
 * Parse a decimal pid at @s (up to a non-digit, at most 9 digits); 0
 * when there is none.  *@end (unless NULL) points past the digits.
 */
pid_t procfs_parse_pid(const char *s, const char **end);

/*
 * Read the file at @path with one read() of at most @size - 1 bytes and
 * NUL-terminate it in @buf.  Returns the length read (> 0), or -1: it
 * could not be opened or read (errno), or it was empty.
 */
ssize_t procfs_read(const char *path, char *buf, size_t size);

/*
 * The state, parent, process group and session of @pid from
 * /proc/PID/stat, parsed after the last ')' (the command name before it
 * may itself hold ')' and spaces).  A zombie is reported like any other
 * (state 'Z').  Returns 0, or -1 when @pid is gone or the line is not
 * understood.
 */
int procfs_stat(pid_t pid, struct gx_proc_stat *ps);

/*
 * The tasks (threads included) whose /proc entry belongs to @uid: what
 * RLIMIT_NPROC already counts for that user, so that without a cgroup or
 * a user namespace limits.processes can be set relative to it.  NOT
 * async-signal-safe (opendir, snprintf): guardexec's side only.
 */
unsigned long procfs_count_tasks(uid_t uid);

#endif
