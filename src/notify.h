/* SPDX-License-Identifier: ISC */
#ifndef GX_NOTIFY_H
#define GX_NOTIFY_H

#include <stdbool.h>
#include <sys/types.h>

#include "fswatch.h"

struct gx_run;
struct gx_outcome;
struct child_err;
struct seccomp_notif;
struct seccomp_notif_resp;

/*
 * The seccomp user-notification side of a run: taking the child's
 * listener during the startup handshake, then answering each denied
 * (or, with --learn, each used) syscall and counting it by name into
 * the outcome.  Parent side only.
 */
struct gx_notify {
	int fd;                     /* the listener, or -1 */
	struct seccomp_notif *req;
	struct seccomp_notif_resp *resp;
	const struct gx_run *run;
	pid_t child;                /* ours: the command, or the namespace init */
	pid_t cmd;                  /* the command (its thread group), or 0 */
	bool in_ns;                 /* child is a namespace init (set before) */
	bool exec_done;             /* past the marker syscall */
	struct gx_outcome *out;     /* denials are counted here */
	struct gx_fswatch fs;       /* paths against the filesystem lists */
};

/*
 * Prepare @ns for @run (sets out->reporting to "notify" or "off", and
 * out->fs_reporting: how filesystem denials are seen, see fswatch.h).
 * Returns 0, or -1 when the notification buffers cannot be allocated.
 */
int notify_init(struct gx_notify *ns, const struct gx_run *run,
    struct gx_outcome *out);

/*
 * Between fork and the command's exec of child @child: follow the
 * child's status messages on @stp, take the seccomp listener when it
 * announces one, answer the marker.  Returns 0 once execve happened,
 * -1 when the child reported a failure (in @ce), -2 when no listener
 * could be taken (the child is gone; start again with the plain filter).
 */
int notify_bootstrap(struct gx_notify *ns, pid_t child, int stp,
    struct child_err *ce);

/* Answer one pending notification on ns->fd. */
void notify_handle(struct gx_notify *ns);

/* Close the listener (the family is gone, or it hung up). */
void notify_close(struct gx_notify *ns);

/* notify_close() and free the buffers. */
void notify_free(struct gx_notify *ns);

#endif
