/* SPDX-License-Identifier: ISC */
/*
 * The run's own cgroup (see cgroup.h): which kind (cgroup_v2.c, else
 * cgroup_v1.c), joining it, killing what it holds, the limits it saw
 * hit, and its removal.  The cgroupfs helpers are cgfs.c's.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cgfs.h"
#include "cgroup.h"
#include "cgroup_v1.h"
#include "cgroup_v2.h"
#include "log.h"
#include "policy.h"
#include "util.h"

int
cgroup_prepare(const struct gx_policy *pol, struct gx_cgroup *cg)
{
	char v2why[sizeof(cg->why) + 64];
	const char *rt = getenv("XDG_RUNTIME_DIR");
	char rtbuf[64];

	memset(cg, 0, sizeof(*cg));
	cg->dir_fd = -1;
	for (int c = 0; c < GX_CG_N; c++)
		cg->procs_fd[c] = -1;
	if (!pol->limits.processes.set && !pol->limits.memory.set) {
		strlcpy(cg->why, "no processes or memory limit", sizeof(cg->why));
		return 0;
	}
	if (rt == NULL || rt[0] != '/') {
		snprintf(rtbuf, sizeof(rtbuf), "/run/user/%u",
		    (unsigned)getuid());
		rt = rtbuf;
	}
	if (cgroup_v2_prepare(pol, cg, rt) == 0) {
		cg->active = true;
		return 0;
	}
	strlcpy(v2why, cg->why, sizeof(v2why));
	/* cgroup v1 (hybrid hosts): writable by root only. */
	if (geteuid() == 0 && cgroup_v1_prepare(pol, cg) == 0) {
		cg->active = true;
		return 0;
	}
	if (geteuid() == 0)
		strlcat(v2why, "; no writable cgroup v1 pids/memory hierarchy",
		    sizeof(v2why));
	strlcat(v2why, ": rlimits only", sizeof(v2why));
	strlcpy(cg->why, v2why, sizeof(cg->why));
	return 0;
}

static int
move_pid(const struct gx_cgroup *cg, pid_t pid)
{
	char buf[24];
	int n = 0;

	/* The pid in decimal, without stdio (async-signal-safe). */
	do {
		buf[sizeof(buf) - 1 - (size_t)n++] = (char)('0' + pid % 10);
		pid /= 10;
	} while (pid > 0);
	for (int c = 0; c < GX_CG_N; c++)
		if (cg->procs_fd[c] >= 0 && write(cg->procs_fd[c],
		    buf + sizeof(buf) - (size_t)n, (size_t)n) != n)
			return -1;
	return 0;
}

int
cgroup_join(const struct gx_cgroup *cg)
{
	return move_pid(cg, getpid());
}

int
cgroup_adopt_init(const struct gx_cgroup *cg, pid_t pid)
{
	char val[32];

	if (!cg->active || cg->version != 1)
		return -1;
	if (cg->pids) {
		snprintf(val, sizeof(val), "%llu", cg->pids_max + 1);
		if (cgfs_write_str(cg->dir[GX_CG_PIDS], "pids.max", val) < 0)
			return -1;
	}
	if (move_pid(cg, pid) == 0)
		return 0;
	/* Not in (or not in all): undo, and the command joins itself. */
	cgroup_adopt_undo(cg);
	return -1;
}

void
cgroup_adopt_undo(const struct gx_cgroup *cg)
{
	char val[32];

	if (!cg->pids || cg->version != 1)
		return;
	snprintf(val, sizeof(val), "%llu", cg->pids_max);
	(void)cgfs_write_str(cg->dir[GX_CG_PIDS], "pids.max", val);
}

/*
 * "@dir/@file" into @buf without stdio or allocation (the sentinel uses
 * it after fork).  -1 when it does not fit.
 */
static int
join_safe(char *buf, size_t n, const char *dir, const char *file)
{
	size_t a = strlen(dir), b = strlen(file);

	if (a + 1 + b + 1 > n)
		return -1;
	memcpy(buf, dir, a);
	buf[a] = '/';
	memcpy(buf + a + 1, file, b + 1);
	return 0;
}

/*
 * Kill what @dir's cgroup.procs lists; returns how many were listed.
 * Async-signal-safe: open/read/kill, digits parsed by hand.
 */
static int
kill_listed(const char *dir)
{
	char path[4096], buf[4096];
	long pid = 0;
	bool in_num = false;
	int n = 0, fd;
	ssize_t got;

	if (join_safe(path, sizeof(path), dir, "cgroup.procs") < 0)
		return 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	while ((got = read(fd, buf, sizeof(buf))) > 0) {
		for (ssize_t i = 0; i < got; i++) {
			if (buf[i] >= '0' && buf[i] <= '9') {
				pid = pid * 10 + (buf[i] - '0');
				in_num = true;
				continue;
			}
			if (in_num && pid > 0) {
				kill((pid_t)pid, SIGKILL);
				n++;
			}
			pid = 0;
			in_num = false;
		}
	}
	if (in_num && pid > 0) {
		kill((pid_t)pid, SIGKILL);
		n++;
	}
	close(fd);
	return n;
}

void
cgroup_kill_all(const struct gx_cgroup *cg)
{
	char path[4096];
	int fd;

	if (!cg->active)
		return;
	if (cg->version == 2 && join_safe(path, sizeof(path), cg->dir[0],
	    "cgroup.kill") == 0 && (fd = open(path, O_WRONLY | O_CLOEXEC)) >= 0) {
		(void)!write(fd, "1", 1);
		close(fd);
	}
	for (int round = 0; round < 2000; round++) {
		struct timespec ms = { 0, 1000000 };
		int n = 0;

		for (int c = 0; c < GX_CG_N; c++)
			if (cg->dir[c] != NULL)
				n += kill_listed(cg->dir[c]);
		if (n == 0)
			return;
		nanosleep(&ms, NULL);
	}
}

/* The number after @key in a "key value" file, or 0. */
static unsigned long long
event_count(const char *dir, const char *file, const char *key)
{
	char *p = xasprintf("%s/%s", dir, file), buf[1024], *at;
	unsigned long long v = 0;

	if (cgfs_read_small(p, buf, sizeof(buf)) == 0 &&
	    (at = strstr(buf, key)) != NULL)
		v = strtoull(at + strlen(key), NULL, 10);
	free(p);
	return v;
}

size_t
cgroup_limits_hit(const struct gx_cgroup *cg, const char *hit[2])
{
	const char *mem_dir = cg->version == 2 ? cg->dir[0] :
	    cg->dir[GX_CG_MEMORY];
	const char *pids_dir = cg->version == 2 ? cg->dir[0] :
	    cg->dir[GX_CG_PIDS];
	size_t n = 0;

	if (!cg->active)
		return 0;
	if (cg->memory && event_count(mem_dir, cg->version == 2 ?
	    "memory.events" : "memory.oom_control", "oom_kill ") > 0)
		hit[n++] = "memory";
	if (cg->pids && event_count(pids_dir, "pids.events", "max ") > 0)
		hit[n++] = "processes";
	return n;
}

const char *
cgroup_limit_hit(const struct gx_cgroup *cg)
{
	const char *hit[2];

	return cgroup_limits_hit(cg, hit) > 0 ? hit[0] : NULL;
}

void
cgroup_destroy(struct gx_cgroup *cg)
{
	char pid[24];

	if (cg->dir_fd >= 0)
		close(cg->dir_fd);
	cg->dir_fd = -1;
	for (int c = 0; c < GX_CG_N; c++) {
		if (cg->procs_fd[c] >= 0)
			close(cg->procs_fd[c]);
		/*
		 * The last tasks may still be leaving (a killed PID
		 * namespace empties asynchronously): EBUSY for a while.
		 */
		for (int i = 0; cg->dir[c] != NULL && i < 200 &&
		    rmdir(cg->dir[c]) < 0 && errno == EBUSY; i++)
			usleep(5000);
		free(cg->dir[c]);
		cg->dir[c] = NULL;
		cg->procs_fd[c] = -1;
	}
	/*
	 * A cgroup we moved ourselves out of (no systemd): give it back its
	 * shape.  A systemd scope is removed by systemd once we have exited.
	 */
	if (cg->undo_move && cg->base_dir != NULL && cg->sup_dir != NULL) {
		if (cg->undo_ctl != NULL)
			(void)cgfs_write_str(cg->base_dir,
			    "cgroup.subtree_control", cg->undo_ctl);
		if (cgfs_write_str(cg->base_dir, "cgroup.procs",
		    cgfs_pid_str(pid, sizeof(pid))) == 0)
			rmdir(cg->sup_dir);
	}
	free(cg->base_dir);
	free(cg->sup_dir);
	cg->base_dir = cg->sup_dir = NULL;
	cg->active = false;
}

