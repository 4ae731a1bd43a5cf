/* SPDX-License-Identifier: ISC */
/*
 * Which mechanisms hold this run: isolation.require against what the
 * kernel granted, how limits.processes and limits.memory are enforced
 * (the record's isolation.limits), when a root caller needs a mount
 * namespace.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "emit.h"
#include "mechanisms.h"
#include "prof.h"
#include "ns.h"
#include "procfs.h"
#include "supervise.h"
#include "util.h"

/*
 * isolation.require: refuse when a required mechanism is not in force
 * for this run (namespaces: the kernel let us create them just now).
 */
static void
require_isolation(struct gx_state *st, struct gx_diag *d)
{
	unsigned have = 0, missing;

	if (st->sb.netns)
		have |= GX_ISO_NETWORK;
	if (st->sb.ns & GX_NS_USER)
		have |= GX_ISO_USER;
	if (st->sb.ns & GX_NS_PID)
		have |= GX_ISO_PID;
	if (st->sb.ns & GX_NS_MOUNT)
		have |= GX_ISO_MOUNT;
	if (st->cg.active)
		have |= GX_ISO_CGROUP;
	if (st->sb.landlock_fd >= 0)
		have |= GX_ISO_LANDLOCK;
	missing = st->pol.iso_require & ~have;
	for (int b = 0; gx_iso_names[b] != NULL; b++)
		if (missing & (1u << b))
			diag_add(d, "%s: isolation.require: \"%s\" is not "
			    "available for this run", st->pol.path,
			    gx_iso_names[b]);
	if (missing)
		emit_refuse(st, d);
}

/*
 * How limits.processes and limits.memory hold for this run, for the
 * record and guardexec.cfg(5)'s table.  Without a cgroup, RLIMIT_NPROC
 * counts every task of the user, so it is set to what the user already
 * runs plus the limit: the family gets exactly its share.  Root is
 * exempt from RLIMIT_NPROC: without a cgroup or command.user, nothing
 * holds the processes limit, and the run says so.
 */
static void
limits_mechanisms(struct gx_state *st)
{
	struct gx_rlimit_val *p = &st->pol.limits.processes;

	if (st->pol.limits.memory.set)
		st->mem_by = st->cg.memory ? "cgroup" : "rlimit_as";
	if (!p->set)
		return;
	st->processes_policy = p->value;
	/*
	 * RLIMIT_NPROC (set whenever the command runs as a non-root user,
	 * with or without a cgroup) counts every task of that user: add
	 * what the user already runs, so the family gets its share and a
	 * user with many processes can still fork.
	 */
	if (st->sb.ns & GX_NS_USER) {
		/*
		 * In its own user namespace the kernel counts only the
		 * namespace's tasks of that uid: the family, and our init.
		 */
		if (!st->cg.pids)
			strlcpy(st->proc_by, "rlimit_nproc (user namespace)",
			    sizeof(st->proc_by));
		p->value += 1;
	} else if (geteuid() != 0 || st->sb.drop_user) {
		unsigned long n = procfs_count_tasks(st->sb.drop_user ?
		    st->sb.uid : getuid());

		if (!st->cg.pids)
			snprintf(st->proc_by, sizeof(st->proc_by), "rlimit_nproc "
			    "(%lu tasks already running + %llu)", n,
			    (unsigned long long)p->value);
		p->value += n;
	}
	if (st->cg.pids) {
		strlcpy(st->proc_by, "cgroup", sizeof(st->proc_by));
	} else if (geteuid() == 0 && !st->sb.drop_user) {
		strlcpy(st->proc_by, "none", sizeof(st->proc_by));
		notice(st, "warning: limits.processes is not enforced: root is "
		    "exempt from RLIMIT_NPROC and there is no cgroup (%s)",
		    st->cg.why);
	}
}

/*
 * A root caller's command with a filesystem group and no command.user
 * is uid 0: only a mount namespace's read-only view stops it changing
 * metadata (chmod, chown, utimes, xattrs) and using device nodes, which
 * Landlock does not govern.  Without one: refuse (guarantee 11), never
 * fall back.  A non-root command keeps the Landlock fallback.
 */
bool
mechanisms_need_mount_ns(const struct gx_state *st)
{
	return geteuid() == 0 && st->pol.user == NULL &&
	    st->pol.has_filesystem;
}

/*
 * The mechanisms of this run, decided before it starts (see mechanisms.h).
 */
void
mechanisms_decide(struct gx_state *st, struct gx_diag *d)
{
	prof_mark("policy");
	if (sandbox_prepare(&st->pol, st->cwd, &st->sb, d) < 0)
		emit_refuse(st, d);
	prof_mark("sandbox");
	cgroup_prepare(&st->pol, &st->cg);
	prof_mark("cgroup-prepare");
	require_isolation(st, d);
	if (mechanisms_need_mount_ns(st) && !(st->sb.ns & GX_NS_MOUNT)) {
		diag_add(d, GX_ROOT_FS_NEEDS_NS, st->sb.ns_why);
		emit_refuse(st, d);
	}
	if (st->sb.ns == 0)
		notice(st, "warning: no namespaces (%s): the command sees the "
		    "host's processes and filesystem, fenced only by seccomp "
		    "and Landlock", st->sb.ns_why);
	else if ((st->sb.ns_wanted & GX_NS_NET) && !(st->sb.ns & GX_NS_NET))
		notice(st, "warning: no network namespace (%s): network = "
		    "\"none\" is enforced by the seccomp socket guard only",
		    st->sb.ns_why);
	limits_mechanisms(st);
}
