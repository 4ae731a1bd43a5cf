/* SPDX-License-Identifier: ISC */
#ifndef GX_SANDBOX_H
#define GX_SANDBOX_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "log.h"

struct gx_policy;

/*
 * Isolation decided in the parent before the fork: the Landlock ruleset
 * (created and filled here; the child only restricts itself to it), the
 * network mechanism, and the user to switch to.
 */
struct gx_sandbox {
	int landlock_fd;            /* -1: no filesystem group */
	int landlock_abi;
	bool netns;                 /* network "none" by a new netns */
	bool net_seccomp;           /* network "none" by the socket filter */
	bool drop_user;
	uid_t uid;
	gid_t gid;
	gid_t *groups;
	size_t ngroups;
	char fs_desc[32];           /* "landlock-7", or "" */
	const char *net_desc;       /* "netns" | "seccomp" | NULL */
	const char *user_desc;      /* command.user or NULL */
	unsigned ns;                /* GX_NS_* the kernel allows (ns_probe) */
	unsigned ns_wanted;         /* GX_NS_* this run asks for */
	char ns_why[96];            /* why ns is 0 */
};

/*
 * Prepare @sb for @pol with the run's working directory @cwd: probe the
 * namespaces (see ns.h), decide the network mechanism.  Fails closed: a
 * filesystem group without Landlock, command.user when not root, or
 * filesystem.tmp = "private" without a mount namespace is an error (-1,
 * message in @diag).  Returns 0.
 */
int sandbox_prepare(const struct gx_policy *pol, const char *cwd,
    struct gx_sandbox *sb, struct gx_diag *diag);

/* Highest Landlock ABI the kernel offers, or -1 with errno. */
int sandbox_landlock_abi(void);

/*
 * Add a rule to the Landlock @ruleset (of ABI @abi): read (and execute)
 * below @path, or everything the ruleset handles when @write.  Used by
 * the namespace init for the view's own mounts (/proc, /dev, a private
 * /tmp), which are not the host inodes the policy's rules name.
 * Async-signal-safe.  Returns 0, or -1 with errno.
 */
int sandbox_landlock_allow(int ruleset, int abi, const char *path,
    bool write);

void sandbox_free(struct gx_sandbox *sb);

#endif
