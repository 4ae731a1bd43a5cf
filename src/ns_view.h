/* SPDX-License-Identifier: ISC */
#ifndef GX_NS_VIEW_H
#define GX_NS_VIEW_H

#include <stdbool.h>
#include <stddef.h>

#include "ns.h"

/*
 * The command's mount view, for ns.c: an op list decided in guardexec
 * before the clone (ns_view_plan: may allocate), applied in order by the
 * namespace's init (ns_view_apply: no malloc, no stdio, like the rest of
 * the init).  bubblewrap's SETUP_* op list is the model.
 */

/* The init's setup steps (ns_step_name() names them). */
enum ns_step {
	NS_STEP_SYNC = 1,
	NS_STEP_PRIVATE,
	NS_STEP_PROC,
	NS_STEP_CLONE_TREE,
	NS_STEP_NEWROOT,
	NS_STEP_PIVOT,
	NS_STEP_MOUNTPOINT,
	NS_STEP_MOVE,
	NS_STEP_ATTR,
	NS_STEP_DEV,
	NS_STEP_TMP,
	NS_STEP_LANDLOCK,
	NS_STEP_KERNEL_RO,
	NS_STEP_FORK,
};

enum ns_op_kind { NS_OP_RO, NS_OP_RW };

struct ns_op {
	enum ns_op_kind kind;
	const char *path;           /* host path = view path */
	int fd;                     /* the clone, in the init */
};

struct ns_view {
	struct ns_op *ops;
	size_t n;
	bool view;                  /* a new root (filesystem group) */
	bool proc;                  /* /proc in the view */
	bool tmp_private;
	bool tty;                   /* /dev/tty (stdin inherited) */
	bool hide_run;              /* an empty /run over the listed tree's */
	const char *cwd;
};

/*
 * Decide the view of @spec (its policy's filesystem group, or the
 * host's tree) into @v.  Paths point into @spec's policy; @v->ops is
 * malloc'd (ns_view_free).  Dies on OOM only.
 */
void ns_view_plan(const struct gx_ns_spec *spec, struct ns_view *v);

/* Free what ns_view_plan() allocated. */
void ns_view_free(struct ns_view *v);

/*
 * In the init, in its new mount namespace: make mounts private, mount a
 * /proc of the new PID namespace, build the view @v (a new root holding
 * the listed paths, or the host's tree nosuid/nodev), the minimal /dev,
 * /tmp and /run as decided, and make the kernel's uid-checked files
 * read-only.  Adds Landlock rules for the new mounts to
 * @spec->landlock_fd.  On a failure, @spec->fail(arg, NS_STEP_*) and
 * _exit(125): never returns then.  No malloc, no stdio.
 */
void ns_view_apply(const struct gx_ns_spec *spec, const struct ns_view *v);

#endif
