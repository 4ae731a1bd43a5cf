/* SPDX-License-Identifier: ISC */
#ifndef GX_CGROUP_V1_H
#define GX_CGROUP_V1_H

#include "cgroup.h"

/*
 * For cgroup_prepare(): a cgroup per wanted controller (pids, memory)
 * under guardexec's in the v1 hierarchies, with the limits of @pol and
 * its cgroup.procs open for the child.  0 with @cg filled (version 1),
 * or -1 with nothing left behind.
 */
int cgroup_v1_prepare(const struct gx_policy *pol, struct gx_cgroup *cg);

#endif
