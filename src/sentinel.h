/* SPDX-License-Identifier: ISC */
#ifndef GX_SENTINEL_H
#define GX_SENTINEL_H

#include <sys/types.h>

struct gx_cgroup;

/*
 * The sentinel: a small process forked once the command runs, waiting
 * on a pipe only guardexec writes.  If guardexec dies (SIGKILL, OOM...)
 * the pipe reaches EOF and the sentinel kills every process of the
 * command's session @sid and of the run's cgroup @cg (NULL: none), then
 * removes the cgroup.  Returns the pipe's write end (the pid in
 * *@pid_out), or -1 with errno when it could not be started.
 */
int sentinel_start(pid_t sid, const struct gx_cgroup *cg, pid_t *pid_out);

/*
 * A normal end: tell the sentinel to leave without acting, wait for it
 * (unless @pid is -1: already reaped), close @fd.
 */
void sentinel_dismiss(int fd, pid_t pid);

#endif
