/* SPDX-License-Identifier: ISC */
#ifndef GX_UNIXGATE_H
#define GX_UNIXGATE_H

#include <stdbool.h>
#include <sys/types.h>

struct gx_run;
struct gx_outcome;
struct seccomp_notif;
struct seccomp_notif_resp;

/*
 * The AF_UNIX gate (issue 13, bullet 4).  Under network "none" the
 * network namespace is empty, but a pathname AF_UNIX socket is reached
 * through the filesystem, and a read-only mount does not stop
 * connect(2).  The notify filter (filter_build.c) sends every connect,
 * sendmsg and sendmmsg and every sendto with a destination here.
 *
 * The task's memory can change after it is read (seccomp_unotify(2)), so
 * the gate never answers CONTINUE to a call with an address: it reads
 * the address once, takes the task's socket (pidfd_getfd), resolves a
 * pathname inside the task's root (openat2 RESOLVE_IN_ROOT, O_PATH),
 * decides on that pinned inode, and makes the call itself (a pathname
 * through /proc/self/fd/N of the pinned inode), answering with its
 * result.  A socket is reachable when it lies below filesystem.write,
 * in a private /tmp, or is named by network.unix; every other pathname
 * is refused with EACCES and named in the outcome (out->unix_denied:
 * "connect PATH", once each, GX_MAX_UNIX_DENIED at most).
 */
struct gx_unixgate {
	bool active;
	const struct gx_run *run;
	char **writes;              /* real paths of filesystem.write */
	bool tmp_ok;                /* /tmp is the command's own */
};

void unixgate_init(struct gx_unixgate *g, const struct gx_run *run);

/*
 * When @req is the gate's call (not a syscall the policy refuses),
 * decide and answer it into @resp (error or val) and return true; the
 * caller sends @resp.  Else false.
 */
bool unixgate_handle(struct gx_unixgate *g, const struct seccomp_notif *req,
    struct seccomp_notif_resp *resp, int listener, struct gx_outcome *out);

/* Free the outcome's unix_denied list. */
void unixgate_outcome_free(struct gx_outcome *out);

/* The kernel has what the gate needs (pidfd_getfd, openat2). */
bool unixgate_available(void);

/* --check: how pathname AF_UNIX sockets are gated on this kernel. */
const char *unixgate_check_line(void);

void unixgate_free(struct gx_unixgate *g);

#endif
