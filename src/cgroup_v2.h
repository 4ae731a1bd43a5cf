/* SPDX-License-Identifier: ISC */
#ifndef GX_CGROUP_V2_H
#define GX_CGROUP_V2_H

#include "cgroup.h"

/*
 * For cgroup_prepare(): the run's cgroup v2.  Under systemd, a
 * transient scope with Delegate=yes (scope.c; @runtime_dir is the
 * user's for a user manager), guardexec in its leaf "supervisor", the
 * command in "command"; without systemd, the same inside guardexec's
 * own cgroup when guardexec is alone in it (or it is the root cgroup).
 * 0 with @cg filled (version 2), or -1 with @cg->why set and nothing
 * left behind.
 */
int cgroup_v2_prepare(const struct gx_policy *pol, struct gx_cgroup *cg,
    const char *runtime_dir);

#endif
