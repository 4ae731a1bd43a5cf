/* SPDX-License-Identifier: ISC */
#ifndef GX_FILTER_H
#define GX_FILTER_H

#include <linux/filter.h>
#include <stdbool.h>
#include <stdint.h>

#include "log.h"

struct gx_policy;
struct seccomp_notif;

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
 *    syscalls that are not allowed.  It comes in two variants: "notify",
 *    where every syscall outside the allowlist goes to guardexec's
 *    listener (SECCOMP_RET_USER_NOTIF) so denials are counted by name,
 *    and "plain", where the kernel applies the action itself (used when
 *    no listener can be had, e.g. guardexec nested in guardexec).
 *  - in learn mode the notify variant sends everything outside the
 *    allowlist to the listener, which lets it through and records it.
 */
struct gx_filter {
	struct sock_fprog guard;
	struct sock_fprog policy;   /* plain; built only when needed */
	struct sock_fprog notify;   /* notify/learn variant; may be empty */
};

/*
 * A syscall number no architecture uses: the child calls it once after
 * loading the notify filter and blocks there until guardexec has taken
 * the listener (see supervise.c).
 */
#define GX_MARKER_SYSCALL 1023

/* Members of the group @name ("@default"); NULL when no such group. */
const char *const *filter_group(const char *name);
/* All group names, NULL-terminated. */
const char *const *filter_group_names(void);

/*
 * The first group, in the table's order, that holds @syscall; only the
 * groups named in @among (NULL-terminated, e.g. syscalls.deny as
 * written) unless @among is NULL.  A static string, or NULL.
 */
const char *filter_group_of(const char *syscall, char *const *among);
/* Syscalls refused with ENOSYS (rather than the default action). */
const char *const *filter_enosys_names(void);

/*
 * Syscall number of @name on the native architecture; a negative
 * pseudo-number other than -1 when the name exists only on other
 * architectures (libseccomp's convention); -1 when libseccomp does not
 * know the name at all (pure).
 */
int filter_resolve(const char *name);

/*
 * Build both programs for @pol.  @net_seccomp adds the socket guard.
 * Returns 0, or -1 with a message in @diag.  @f owns its memory.
 */
int filter_build(const struct gx_policy *pol, bool net_seccomp, bool learn,
    struct gx_filter *f, struct gx_diag *diag);

/*
 * Build the plain variant of the policy filter, when it is needed (no
 * listener could be had).  Returns 0, or -1 with a message in @diag.
 */
int filter_build_plain(const struct gx_policy *pol, struct gx_filter *f,
    struct gx_diag *diag);

/* Load the guard program (child side, async-signal-safe).  0 or -1. */
int filter_load_guard(const struct gx_filter *f);

/*
 * Load the notify variant with a new listener (child side).  Returns the
 * listener fd, or -1 with errno (EBUSY: a listener exists already up the
 * filter stack).
 */
int filter_load_notify(const struct gx_filter *f);

/* Load the plain variant (child side).  0 or -1 with errno. */
int filter_load_plain(const struct gx_filter *f);

/*
 * Whether the notified call @req is a set*id or setgroups call that
 * changes nothing for its thread (the ids or groups asked for are the
 * ones it has, or -1): then it is answered as the no-op it is, with
 * success and the return value in *@val, rather than refused and counted
 * (make spawns with POSIX_SPAWN_RESETIDS, issue 16).  Reads the thread's
 * /proc status (and, for setgroups, its list); the caller checks the
 * notification is still valid before answering.  Answering success
 * without running the call can only mislead the caller about itself.
 */
bool filter_noop_id_call(const struct seccomp_notif *req, int64_t *val);

/* Name of syscall @nr of the audit @arch (malloc'd) or "nr-N". */
char *filter_syscall_name(uint32_t arch, int nr);

void filter_free(struct gx_filter *f);

#endif
