/* SPDX-License-Identifier: ISC */
/*
 * cgroup v2: a delegated subtree of the run's own, from a systemd scope
 * (scope.c) or, without systemd, guardexec's own cgroup when it is alone
 * there; guardexec moves into a "supervisor" leaf (the
 * no-internal-processes rule), the command gets a leaf with the limits.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgfs.h"
#include "cgroup_v2.h"
#include "policy.h"
#include "scope.h"
#include "util.h"

/* Write the limits of @pol into the v2 cgroup @dir; -1 with errno. */
static int
set_limits_v2(const struct gx_policy *pol, struct gx_cgroup *cg,
    const char *dir)
{
	char val[32];

	if (pol->limits.processes.set) {
		snprintf(val, sizeof(val), "%llu",
		    (unsigned long long)pol->limits.processes.value);
		if (cgfs_write_str(dir, "pids.max", val) < 0)
			return -1;
		cg->pids = true;
	}
	if (pol->limits.memory.set) {
		snprintf(val, sizeof(val), "%llu",
		    (unsigned long long)pol->limits.memory.value);
		if (cgfs_write_str(dir, "memory.max", val) < 0)
			return -1;
		/* Memory means memory: no escape into swap. */
		(void)cgfs_write_str(dir, "memory.swap.max", "0");
		cg->memory = true;
	}
	return 0;
}

/* The command's leaf @base/@cmd with the limits and its fds. */
static int
make_leaf(const struct gx_policy *pol, struct gx_cgroup *cg,
    const char *base, const char *cmd)
{
	char pbuf[4096];

	cg->dir[0] = path_resolve(base, cmd);
	if (mkdir(cg->dir[0], 0755) < 0) {
		snprintf(cg->why, sizeof(cg->why), "mkdir %s: %s", cg->dir[0],
		    strerror(errno));
		free(cg->dir[0]);
		cg->dir[0] = NULL;
		return -1;
	}
	if (set_limits_v2(pol, cg, cg->dir[0]) < 0) {
		snprintf(cg->why, sizeof(cg->why), "setting limits in %s: %s",
		    cg->dir[0], strerror(errno));
		return -1;
	}
	cg->procs_fd[0] = open(cgfs_join(pbuf, sizeof(pbuf), cg->dir[0],
	    "cgroup.procs"), O_WRONLY | O_CLOEXEC);
	cg->dir_fd = open(cg->dir[0], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (cg->procs_fd[0] < 0 || cg->dir_fd < 0) {
		snprintf(cg->why, sizeof(cg->why), "opening %s: %s", cg->dir[0],
		    strerror(errno));
		return -1;
	}
	cg->version = 2;
	snprintf(cg->desc, sizeof(cg->desc), "v2:%s", cg->dir[0]);
	return 0;
}

static const char *
controllers(const struct gx_policy *pol, bool enable)
{
	if (!pol->limits.memory.set)
		return enable ? "+pids" : "-pids";
	if (!pol->limits.processes.set)
		return enable ? "+memory" : "-memory";
	return enable ? "+pids +memory" : "-pids -memory";
}

/*
 * In @base, a cgroup whose subtree is ours (a delegated systemd scope,
 * or a cgroup that holds only guardexec): move guardexec into the leaf
 * @sup, enable the controllers for @base's children (allowed now that
 * @base holds no process: the no-internal-processes rule, as nsjail's
 * moveSelfIntoChildCgroup does), and make the command's leaf @cmd.
 * @base == NULL-@sup: the root cgroup, exempt from the rule.
 */
static int
delegated_setup(const struct gx_policy *pol, struct gx_cgroup *cg,
    const char *base, const char *sup, const char *cmd)
{
	const char *ctl = controllers(pol, true);
	char pid[24];

	if (sup != NULL) {
		cg->sup_dir = path_resolve(base, sup);
		if (mkdir(cg->sup_dir, 0755) < 0 && errno != EEXIST) {
			snprintf(cg->why, sizeof(cg->why), "mkdir %s: %s",
			    cg->sup_dir, strerror(errno));
			free(cg->sup_dir);
			cg->sup_dir = NULL;
			goto fail;
		}
		if (cgfs_write_str(cg->sup_dir, "cgroup.procs",
		    cgfs_pid_str(pid, sizeof(pid))) < 0) {
			snprintf(cg->why, sizeof(cg->why), "moving guardexec "
			    "into %s: %s", cg->sup_dir, strerror(errno));
			goto fail;
		}
	}
	cg->base_dir = xstrdup(base);
	if (cgfs_write_str(base, "cgroup.subtree_control", ctl) < 0) {
		snprintf(cg->why, sizeof(cg->why), "enabling %s in %s: %s",
		    ctl, base, strerror(errno));
		goto fail;
	}
	cg->undo_ctl = controllers(pol, false);
	if (make_leaf(pol, cg, base, cmd) < 0)
		goto fail;
	return 0;
fail:
	cgroup_destroy(cg);
	return -1;
}

/* True when @dir's cgroup.procs lists no process but guardexec. */
static bool
holds_only_us(const char *dir)
{
	char pbuf[4096], buf[256], pid[24];

	if (cgfs_read_small(cgfs_join(pbuf, sizeof(pbuf), dir,
	    "cgroup.procs"), buf, sizeof(buf)) < 0)
		return false;
	buf[strcspn(buf, "\n")] = '\0';
	return strcmp(buf, cgfs_pid_str(pid, sizeof(pid))) == 0;
}

int
cgroup_v2_prepare(const struct gx_policy *pol, struct gx_cgroup *cg,
    const char *runtime_dir)
{
	char *mnt = cgfs_mount_of(NULL), *path = cgfs_own_path(NULL);
	char *parent, *name;
	char ctl[512], pbuf[4096], unit[96], swhy[160] = "";
	int rc = -1;

	if (mnt == NULL || path == NULL) {
		snprintf(cg->why, sizeof(cg->why), "no cgroup v2 hierarchy");
		free(mnt);
		free(path);
		return -1;
	}
	parent = path_resolve(mnt, path[0] == '/' ? path + 1 : path);
	if (cgfs_read_small(cgfs_join(pbuf, sizeof(pbuf), parent,
	    "cgroup.controllers"), ctl, sizeof(ctl)) < 0 ||
	    (pol->limits.processes.set && !cgfs_has_word(ctl, "pids")) ||
	    (pol->limits.memory.set && !cgfs_has_word(ctl, "memory"))) {
		snprintf(cg->why, sizeof(cg->why), "cgroup v2 has no pids/memory "
		    "controller for %s", path);
		goto out;
	}
	name = cgfs_unique_name();
	/* Under systemd, ask it for a delegated scope (a user's too). */
	if (scope_systemd_running()) {
		snprintf(unit, sizeof(unit), "%s.scope", name);
		if (scope_start(unit, geteuid() != 0, runtime_dir, swhy,
		    sizeof(swhy)) == 0) {
			free(path);
			free(parent);
			path = cgfs_own_path(NULL);
			parent = path ? path_resolve(mnt, path[0] == '/' ?
			    path + 1 : path) : NULL;
			if (parent != NULL && strstr(parent, unit) != NULL)
				rc = delegated_setup(pol, cg, parent,
				    "supervisor", "command");
			else
				snprintf(cg->why, sizeof(cg->why), "systemd "
				    "started %s but guardexec is not in it",
				    unit);
			cg->scope = rc == 0;
			free(name);
			goto out;
		}
	}
	/*
	 * Without systemd: the root cgroup may hold processes and have
	 * children; any other cgroup only if guardexec is alone in it.
	 */
	if (strcmp(path, "/") == 0 || holds_only_us(parent)) {
		char *sup = xasprintf("%s-supervisor", name);

		cg->undo_move = strcmp(path, "/") != 0;
		rc = delegated_setup(pol, cg, parent, cg->undo_move ? sup :
		    NULL, name);
		free(sup);
	} else {
		snprintf(cg->why, sizeof(cg->why), "%s%scgroup v2: %s holds "
		    "other processes (no-internal-processes rule)", swhy,
		    swhy[0] ? "; " : "", path);
	}
	free(name);
out:
	free(mnt);
	free(path);
	free(parent);
	return rc;
}
