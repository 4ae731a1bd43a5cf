/* SPDX-License-Identifier: ISC */
#ifndef GX_FILTER_H
#define GX_FILTER_H

#include <linux/filter.h>
#include <stdbool.h>

#include "log.h"

struct gx_policy;

/*
 * Seccomp filters.  Built (compiled to classic BPF) in the parent by
 * filter_build(); the child only calls filter_load(), one system call per
 * program, as the very last step before execve.
 *
 * Two programs are built:
 *  - the guard (always): ioctl TIOCSTI and TIOCLINUX are refused with
 *    EPERM on every ABI; with network "none" and no network namespace,
 *    socket() for any family but AF_UNIX and io_uring_setup are refused;
 *  - the policy filter (only with a syscalls group): default deny, other
 *    ABIs (i386, x32) kill the process, ENOSYS for the fallback-probed
 *    syscalls that are not allowed.
 */
struct gx_filter {
	struct sock_fprog guard;
	struct sock_fprog policy;   /* .len == 0: no policy filter */
};

/* Members of the group @name ("@default"); NULL when no such group. */
const char *const *filter_group(const char *name);
/* All group names, NULL-terminated. */
const char *const *filter_group_names(void);
/* Syscalls refused with ENOSYS (rather than the default action). */
const char *const *filter_enosys_names(void);

/*
 * Syscall number of @name on the native architecture, or -1 when
 * libseccomp does not know the name (pure).
 */
int filter_resolve(const char *name);

/*
 * Build both programs for @pol.  @net_seccomp adds the socket guard.
 * Returns 0, or -1 with a message in @diag.  @f owns its memory.
 */
int filter_build(const struct gx_policy *pol, bool net_seccomp,
    struct gx_filter *f, struct gx_diag *diag);

/*
 * Load the programs (child side, async-signal-safe).  Requires
 * no_new_privs.  Returns 0 or -1 with errno.
 */
int filter_load(const struct gx_filter *f);

void filter_free(struct gx_filter *f);

#endif
