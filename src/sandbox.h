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
};

/*
 * Prepare @sb for @pol with the run's working directory @cwd.  Fails
 * closed: a filesystem group without Landlock, or command.user when not
 * root, is an error (-1, message in @diag).  Returns 0.
 */
int sandbox_prepare(const struct gx_policy *pol, const char *cwd,
    struct gx_sandbox *sb, struct gx_diag *diag);

/* Highest Landlock ABI the kernel offers, or -1 with errno. */
int sandbox_landlock_abi(void);

void sandbox_free(struct gx_sandbox *sb);

#endif
