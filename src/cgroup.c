/* SPDX-License-Identifier: ISC */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cgroup.h"
#include "scope.h"
#include "log.h"
#include "policy.h"
#include "util.h"

static const char *const v1_names[GX_CG_N] = { "pids", "memory" };

/* "@dir/@file" in @buf. */
static const char *
join(char *buf, size_t n, const char *dir, const char *file)
{
	snprintf(buf, n, "%s/%s", dir, file);
	return buf;
}

/* Read a small file into @buf (NUL-terminated); -1 on failure. */
static int
read_small(const char *path, char *buf, size_t size)
{
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return 0;
}

static int
write_str(const char *dir, const char *file, const char *val)
{
	char *p = xasprintf("%s/%s", dir, file);
	int fd = open(p, O_WRONLY | O_CLOEXEC), rc = -1, errsv;
	size_t len = strlen(val);

	free(p);
	if (fd < 0)
		return -1;
	if (write(fd, val, len) == (ssize_t)len)
		rc = 0;
	errsv = errno;
	close(fd);
	errno = errsv;
	return rc;
}

/*
 * The first non-NULL answer of @match over the lines of the /proc file
 * @path (one reader for /proc/self/mountinfo and /proc/self/cgroup).
 */
static char *
proc_find(const char *path, char *(*match)(char *line, const char *arg),
    const char *arg)
{
	char *line = NULL, *found = NULL;
	size_t cap = 0;
	FILE *f = fopen(path, "re");

	if (f == NULL)
		return NULL;
	while (found == NULL && getline(&line, &cap, f) > 0) {
		line[strcspn(line, "\n")] = '\0';
		found = match(line, arg);
	}
	free(line);
	fclose(f);
	return found;
}

/* True when the comma-separated @list holds @word (modifies @list). */
static bool
list_has(char *list, const char *word)
{
	char *save = NULL;

	for (char *o = strtok_r(list, ",", &save); o != NULL;
	    o = strtok_r(NULL, ",", &save))
		if (strcmp(o, word) == 0)
			return true;
	return false;
}

/* A mountinfo line: its mount point if it is @controller's hierarchy. */
static char *
match_mount(char *line, const char *controller)
{
	char mnt[4096], fstype[64], opts[1024];
	char *sep = strstr(line, " - ");

	if (sep == NULL || sscanf(line, "%*s %*s %*s %*s %4095s", mnt) != 1 ||
	    sscanf(sep + 3, "%63s %*s %1023s", fstype, opts) != 2)
		return NULL;
	if (controller == NULL && strcmp(fstype, "cgroup2") == 0)
		return xstrdup(mnt);
	if (controller != NULL && strcmp(fstype, "cgroup") == 0 &&
	    list_has(opts, controller))
		return xstrdup(mnt);
	return NULL;
}

/* A /proc/self/cgroup line "ID:CONTROLLERS:PATH": PATH if it matches. */
static char *
match_cgroup(char *line, const char *controller)
{
	char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;

	if (c2 == NULL)
		return NULL;
	/* Split the line: "ID", "CONTROLLERS", "PATH". */
	*c1 = '\0';
	*c2 = '\0';
	if (controller == NULL)
		return strcmp(line, "0") == 0 && c1[1] == '\0' ?
		    xstrdup(c2 + 1) : NULL;
	return list_has(c1 + 1, controller) ? xstrdup(c2 + 1) : NULL;
}

/*
 * Mount point of the v1 hierarchy with @controller, or of cgroup2 when
 * @controller is NULL.
 */
static char *
mount_of(const char *controller)
{
	return proc_find("/proc/self/mountinfo", match_mount, controller);
}

/* Our path in the hierarchy with @controller ("" for v2's "0::"). */
static char *
own_path(const char *controller)
{
	return proc_find("/proc/self/cgroup", match_cgroup, controller);
}

static char *
unique_name(void)
{
	unsigned char r[4];
	char hex[9];

	if (getrandom(r, sizeof(r), 0) != (ssize_t)sizeof(r))
		memset(r, 0, sizeof(r));
	hex_encode(r, sizeof(r), hex);
	return xasprintf("guardexec-%d-%s", (int)getpid(), hex);
}

static bool
has_word(const char *list, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = list; (p = strstr(p, word)) != NULL; p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\n' ||
		    p[n] == '\0'))
			return true;
	return false;
}

/* The pid of the calling process in decimal. */
static const char *
pid_str(char *buf, size_t n)
{
	snprintf(buf, n, "%d", (int)getpid());
	return buf;
}

/* Write the limits of @pol into the v2 cgroup @dir; -1 with errno. */
static int
set_limits_v2(const struct gx_policy *pol, struct gx_cgroup *cg,
    const char *dir)
{
	char val[32];

	if (pol->limits.processes.set) {
		snprintf(val, sizeof(val), "%llu",
		    (unsigned long long)pol->limits.processes.value);
		if (write_str(dir, "pids.max", val) < 0)
			return -1;
		cg->pids = true;
	}
	if (pol->limits.memory.set) {
		snprintf(val, sizeof(val), "%llu",
		    (unsigned long long)pol->limits.memory.value);
		if (write_str(dir, "memory.max", val) < 0)
			return -1;
		/* Memory means memory: no escape into swap. */
		(void)write_str(dir, "memory.swap.max", "0");
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
	cg->procs_fd[0] = open(join(pbuf, sizeof(pbuf), cg->dir[0],
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
		if (write_str(cg->sup_dir, "cgroup.procs",
		    pid_str(pid, sizeof(pid))) < 0) {
			snprintf(cg->why, sizeof(cg->why), "moving guardexec "
			    "into %s: %s", cg->sup_dir, strerror(errno));
			goto fail;
		}
	}
	cg->base_dir = xstrdup(base);
	if (write_str(base, "cgroup.subtree_control", ctl) < 0) {
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

	if (read_small(join(pbuf, sizeof(pbuf), dir, "cgroup.procs"), buf,
	    sizeof(buf)) < 0)
		return false;
	buf[strcspn(buf, "\n")] = '\0';
	return strcmp(buf, pid_str(pid, sizeof(pid))) == 0;
}

static int
prepare_v2(const struct gx_policy *pol, struct gx_cgroup *cg,
    const char *runtime_dir)
{
	char *mnt = mount_of(NULL), *path = own_path(NULL), *parent, *name;
	char ctl[512], pbuf[4096], unit[96], swhy[160] = "";
	int rc = -1;

	if (mnt == NULL || path == NULL) {
		snprintf(cg->why, sizeof(cg->why), "no cgroup v2 hierarchy");
		free(mnt);
		free(path);
		return -1;
	}
	parent = path_resolve(mnt, path[0] == '/' ? path + 1 : path);
	if (read_small(join(pbuf, sizeof(pbuf), parent, "cgroup.controllers"),
	    ctl, sizeof(ctl)) < 0 ||
	    (pol->limits.processes.set && !has_word(ctl, "pids")) ||
	    (pol->limits.memory.set && !has_word(ctl, "memory"))) {
		snprintf(cg->why, sizeof(cg->why), "cgroup v2 has no pids/memory "
		    "controller for %s", path);
		goto out;
	}
	name = unique_name();
	/* Under systemd, ask it for a delegated scope (a user's too). */
	if (scope_systemd_running()) {
		snprintf(unit, sizeof(unit), "%s.scope", name);
		if (scope_start(unit, geteuid() != 0, runtime_dir, swhy,
		    sizeof(swhy)) == 0) {
			free(path);
			free(parent);
			path = own_path(NULL);
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

static int
prepare_v1(const struct gx_policy *pol, struct gx_cgroup *cg)
{
	char *name = unique_name();
	bool want[GX_CG_N] = { pol->limits.processes.set,
		pol->limits.memory.set };
	size_t off = 0;

	off += (size_t)snprintf(cg->desc, sizeof(cg->desc), "v1:");
	for (int c = 0; c < GX_CG_N; c++) {
		char *mnt, *path, *parent, val[32], pbuf[4096];

		if (!want[c])
			continue;
		mnt = mount_of(v1_names[c]);
		path = own_path(v1_names[c]);
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
			if (write_str(cg->dir[c], "pids.max", val) < 0)
				goto fail;
			cg->pids = true;
		} else {
			snprintf(val, sizeof(val), "%llu",
			    (unsigned long long)pol->limits.memory.value);
			if (write_str(cg->dir[c], "memory.limit_in_bytes", val) < 0)
				goto fail;
			/* No escape into swap either, where accounted. */
			(void)write_str(cg->dir[c], "memory.memsw.limit_in_bytes",
			    val);
			cg->memory = true;
		}
		cg->procs_fd[c] = open(join(pbuf, sizeof(pbuf), cg->dir[c], "cgroup.procs"),
		    O_WRONLY | O_CLOEXEC);
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
	if (prepare_v2(pol, cg, rt) == 0) {
		cg->active = true;
		return 0;
	}
	strlcpy(v2why, cg->why, sizeof(v2why));
	/* cgroup v1 (hybrid hosts): writable by root only. */
	if (geteuid() == 0 && prepare_v1(pol, cg) == 0) {
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

int
cgroup_join(const struct gx_cgroup *cg)
{
	char buf[24];
	int n = 0;
	pid_t pid = getpid();

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

	if (read_small(p, buf, sizeof(buf)) == 0 &&
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
			(void)write_str(cg->base_dir, "cgroup.subtree_control",
			    cg->undo_ctl);
		if (write_str(cg->base_dir, "cgroup.procs",
		    pid_str(pid, sizeof(pid))) == 0)
			rmdir(cg->sup_dir);
	}
	free(cg->base_dir);
	free(cg->sup_dir);
	cg->base_dir = cg->sup_dir = NULL;
	cg->active = false;
}

unsigned long
cgroup_count_tasks(uid_t uid)
{
	unsigned long n = 0;
	struct dirent *de;
	DIR *d = opendir("/proc");

	if (d == NULL)
		return 0;
	while ((de = readdir(d)) != NULL) {
		char path[300], buf[1024], *p;
		struct stat st;
		int field;

		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s", de->d_name);
		if (stat(path, &st) < 0 || st.st_uid != uid)
			continue;
		strlcat(path, "/stat", sizeof(path));
		if (read_small(path, buf, sizeof(buf)) < 0 ||
		    (p = strrchr(buf, ')')) == NULL)
			continue;
		/* num_threads is field 20; field 3 follows the ')'. */
		for (field = 2; field < 20 && p != NULL; field++)
			p = strchr(p + 1, ' ');
		n += p != NULL ? strtoul(p + 1, NULL, 10) : 1;
	}
	closedir(d);
	return n;
}
