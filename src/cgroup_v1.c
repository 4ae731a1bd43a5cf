/* SPDX-License-Identifier: ISC */
/*
 * cgroup v1 (hybrid hosts): a cgroup of the run's own in the pids and
 * the memory hierarchy, under guardexec's, as root.
 */
#include "config.h"

#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgfs.h"
#include "cgroup_v1.h"
#include "policy.h"
#include "util.h"

static const char *const v1_names[GX_CG_N] = { "pids", "memory" };

int
cgroup_v1_prepare(const struct gx_policy *pol, struct gx_cgroup *cg)
{
	char *name = cgfs_unique_name();
	bool want[GX_CG_N] = { pol->limits.processes.set,
		pol->limits.memory.set };
	size_t off = 0;

	off += (size_t)snprintf(cg->desc, sizeof(cg->desc), "v1:");
	for (int c = 0; c < GX_CG_N; c++) {
		char *mnt, *path, *parent, val[32], pbuf[4096];

		if (!want[c])
			continue;
		mnt = cgfs_mount_of(v1_names[c]);
		path = cgfs_own_path(v1_names[c]);
		if (mnt == NULL || path == NULL) {
			free(mnt);
			free(path);
			goto fail;
		}
		parent = path_resolve(mnt, path[0] == '/' ? path + 1 : path);
		cg->dir[c] = path_resolve(parent, name);
		free(mnt);
		free(path);
		free(parent);
		if (mkdir(cg->dir[c], 0755) < 0) {
			free(cg->dir[c]);
			cg->dir[c] = NULL;
			goto fail;
		}
		if (c == GX_CG_PIDS) {
			snprintf(val, sizeof(val), "%llu",
			    (unsigned long long)pol->limits.processes.value);
			if (cgfs_write_str(cg->dir[c], "pids.max", val) < 0)
				goto fail;
			cg->pids = true;
			cg->pids_max = pol->limits.processes.value;
		} else {
			snprintf(val, sizeof(val), "%llu",
			    (unsigned long long)pol->limits.memory.value);
			if (cgfs_write_str(cg->dir[c], "memory.limit_in_bytes",
			    val) < 0)
				goto fail;
			/* No escape into swap either, where accounted. */
			(void)cgfs_write_str(cg->dir[c],
			    "memory.memsw.limit_in_bytes", val);
			cg->memory = true;
		}
		cg->procs_fd[c] = open(cgfs_join(pbuf, sizeof(pbuf),
		    cg->dir[c], "cgroup.procs"), O_WRONLY | O_CLOEXEC);
		if (cg->procs_fd[c] < 0)
			goto fail;
		if (off < sizeof(cg->desc))
			off += (size_t)snprintf(cg->desc + off,
			    sizeof(cg->desc) - off, "%s%s", off > 3 ? "," : "",
			    cg->dir[c]);
	}
	free(name);
	cg->version = 1;
	return 0;
fail:
	free(name);
	for (int c = 0; c < GX_CG_N; c++) {
		if (cg->procs_fd[c] >= 0)
			close(cg->procs_fd[c]);
		cg->procs_fd[c] = -1;
		if (cg->dir[c] != NULL)
			rmdir(cg->dir[c]);
		free(cg->dir[c]);
		cg->dir[c] = NULL;
	}
	cg->pids = cg->memory = false;
	return -1;
}
