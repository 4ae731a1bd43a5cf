/* SPDX-License-Identifier: ISC */
#ifndef GX_SUPERVISE_H
#define GX_SUPERVISE_H

#include <stdbool.h>
#include <sys/types.h>

#include "outcome.h"

struct gx_policy;
struct gx_filter;
struct gx_cgroup;

/* Everything the child needs, decided before the fork. */
/*
 * The refusal when namespaces are refused and the run is a root
 * caller's with a filesystem group and no command.user: Landlock alone
 * does not govern mknod, chmod, chown, utimes or xattrs (guarantee 11).
 * %s: why the kernel refused.
 */
#define GX_ROOT_FS_NEEDS_NS "filesystem: a root caller's filesystem " \
	"group needs a mount namespace (the kernel refused it: %s) or " \
	"command.user"

struct gx_run {
	const struct gx_policy *pol;
	char *const *argv;          /* as given; argv[0] is passed on */
	const char *exec_path;      /* resolved path for execve */
	char *const *envp;
	const char *cwd;            /* absolute working directory */
	struct gx_filter *filter;   /* the plain variant is added on fallback */
	int landlock_fd;            /* ruleset to restrict to, or -1 */
	int landlock_abi;
	bool use_ns;                /* own user/pid/mount/ipc namespaces */
	bool ns_required;           /* refuse, never fall back, if refused */
	bool in_ns;                 /* (set by supervise) they applied */
	const struct gx_cgroup *cgroup;  /* the run's cgroup, or NULL */
	bool netns;                 /* a new network namespace */
	bool use_rlimit_as;         /* limits.memory as RLIMIT_AS */
	bool learn;                 /* --learn: allow and record everything */
	bool drop_user;             /* switch to uid/gid/groups */
	uid_t uid;
	gid_t gid;
	gid_t *groups;
	size_t ngroups;
};

/*
 * Make the calling process ready to supervise: child subreaper, not
 * dumpable, SIGPIPE ignored, the relayed signals blocked for signalfd.
 * Call once, before supervise_run().  Returns 0 or -1 with errno.
 */
int supervise_init(void);

/*
 * Run the command and supervise it until it and everything it started
 * is gone (see guardexec(1)).  Relays output to fds 1 and 2 under the
 * policy's cap, enforces the timeout and relays signals.  Always fills
 * @out; returns 0, or -1 when the command could not be started (then
 * out->status is GX_STATUS_EXEC_FAILED or GX_STATUS_REFUSED).
 *
 * WARNING: guardexec is single-threaded, and must stay so: the child
 * between fork() and execve() relies on it (malloc-free, but the
 * libc state it inherits is consistent only without other threads).
 */
int supervise_run(const struct gx_run *run, struct gx_outcome *out);

/*
 * A fatal error (die()) while supervise_run() may have a command
 * running: kill its whole family, then fill @out as far as known (the
 * command's status when it was started, else "refused"), with exit
 * code 125 and @why as its error, ready to be recorded.  Call from the
 * die hook only.
 */
void supervise_abort(struct gx_outcome *out, const char *why);

#endif
