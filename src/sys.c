/* SPDX-License-Identifier: ISC */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "sys.h"
#include "util.h"

#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif

/* The fallback's bound: the soft fd limit, at most 65536. */
static int
fd_bound(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0 || rl.rlim_cur > 65536)
		return 65536;
	return (int)rl.rlim_cur;
}

void
sys_close_from(int lowfd)
{
	if (syscall(SYS_close_range, (unsigned)lowfd, ~0U, 0U) == 0)
		return;
	for (int fd = lowfd, max = fd_bound(); fd < max; fd++)
		(void)close(fd);
}

int
sys_cloexec_from(int lowfd)
{
	if (syscall(SYS_close_range, (unsigned)lowfd, ~0U,
	    CLOSE_RANGE_CLOEXEC) == 0)
		return 0;
	for (int fd = lowfd, max = fd_bound(); fd < max; fd++)
		(void)fcntl(fd, F_SETFD, FD_CLOEXEC);
	return 0;
}

double
sys_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

int
sys_ensure_stdio(void)
{
	for (int fd = 0; fd < 3; fd++) {
		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		if (open("/dev/null", O_RDWR) != fd)
			return -1;
	}
	return 0;
}

/* 0 when @p is an executable regular file, else -errno. */
static int
executable(const char *p)
{
	struct stat st;

	if (stat(p, &st) < 0)
		return -errno;
	if (S_ISDIR(st.st_mode))
		return -EACCES;
	if (access(p, X_OK) < 0)
		return -errno;
	return 0;
}

int
sys_lookup_command(const char *cmd, const char *path, const char *cwd,
    char **out)
{
	bool denied = false;
	const char *p, *end;
	int rc;

	*out = NULL;
	if (cmd[0] == '\0')
		return -ENOENT;
	if (strchr(cmd, '/') != NULL) {
		char *abs = path_resolve(cwd, cmd);

		rc = executable(abs);
		if (rc == 0 || rc == -EACCES || rc == -EPERM) {
			*out = abs;
			return rc == 0 ? 0 : -EACCES;
		}
		free(abs);
		return -ENOENT;
	}
	for (p = path; ; p = end + 1) {
		char *dir, *cand, *abs;

		end = strchrnul(p, ':');
		dir = xmalloc((size_t)(end - p) + 1);
		memcpy(dir, p, (size_t)(end - p));
		dir[end - p] = '\0';
		cand = xasprintf("%s/%s", dir[0] ? dir : ".", cmd);
		abs = path_resolve(cwd, cand);
		free(cand);
		free(dir);
		rc = executable(abs);
		if (rc == 0) {
			*out = abs;
			return 0;
		}
		if (rc == -EACCES || rc == -EPERM) {
			if (!denied)
				*out = xstrdup(abs);
			denied = true;
		}
		free(abs);
		if (*end == '\0')
			break;
	}
	if (denied)
		return -EACCES;
	return -ENOENT;
}

void
sys_wipe_environ(char **env)
{
	for (size_t i = 0; env != NULL && env[i] != NULL; i++)
		explicit_bzero(env[i], strlen(env[i]));
}

char *
sys_default_log(void)
{
	const char *state = getenv("XDG_STATE_HOME");
	const char *home = getenv("HOME");

	if (geteuid() == 0)
		return xstrdup("/var/log/guardexec/audit.log");
	if (state != NULL && state[0] == '/')
		return xasprintf("%s/guardexec/audit.log", state);
	if (home != NULL && home[0] == '/')
		return xasprintf("%s/.local/state/guardexec/audit.log", home);
	return NULL;
}

#ifndef SYSCONFDIR
#define SYSCONFDIR "/etc"
#endif

char *
sys_find_policy(const char *arg)
{
	struct stat st;
	char *p;

	if (stat(arg, &st) == 0) {
		if (S_ISDIR(st.st_mode))
			return xasprintf("%s/.guardexec/agent.cfg", arg);
		return xstrdup(arg);
	}
	if (strchr(arg, '/') != NULL)
		return xstrdup(arg);
	p = xasprintf("%s/guardexec/%s", SYSCONFDIR, arg);
	if (stat(p, &st) == 0)
		return p;
	free(p);
	p = xasprintf("%s/guardexec/%s.cfg", SYSCONFDIR, arg);
	if (stat(p, &st) == 0)
		return p;
	free(p);
	return xstrdup(arg);
}

/* The starter policy: read and write lists are filled in per machine. */
static const char starter_head[] =
    "# .guardexec/agent.cfg: this repository's policy for the commands an\n"
    "# agent (or CI job, or script) runs here:\n"
    "#     guardexec -p . -- make test\n"
    "# -p with a directory finds this file; relative paths below resolve\n"
    "# against this file's directory, and \".\" in filesystem lists is the\n"
    "# run's working directory.  Workflow: run your usual commands under\n"
    "# it; where a syscall is denied (\"guardexec: denied: NAME\"), learn:\n"
    "#     guardexec -p . --learn .guardexec/learned.cfg -- make test\n"
    "# then review the difference and commit the policy.  Review changes to\n"
    "# this file like code: a command that may write \".\" can rewrite it\n"
    "# for the next run (guardexec warns and records policy_writable).\n"
    "# Reference: guardexec.cfg(5).\n"
    "version = 1;\n"
    "name = \"%s\";\n"
    "\n"
    "command: {\n"
    "  stdin = \"null\";\n"
    "};\n"
    "\n"
    "# The caller's environment (with its API keys) is dropped, but these.\n"
    "env: {\n"
    "  allow = [ \"LANG\", \"LC_*\", \"TERM\", \"TZ\" ];\n"
    "  set = { PATH = \"/usr/local/bin:/usr/bin:/bin\"; HOME = \"/tmp\"; };\n"
    "};\n"
    "\n"
    "limits: {\n"
    "  timeout = 600;          # seconds; then SIGTERM, SIGKILL after kill_grace\n"
    "  kill_grace = 2;\n"
    "  memory = \"2G\";\n"
    "  processes = 256;\n"
    "  open_files = 1024;\n"
    "  file_size = \"1G\";\n"
    "  core = 0;\n"
    "};\n"
    "\n"
    "output: {\n"
    "  max_bytes = 100000;     # stdout + stderr together\n"
    "  keep = \"head_tail\";     # errors are often at the end\n"
    "};\n"
    "\n"
    "syscalls: {\n"
    "  default_action = \"errno\";\n"
    "  allow = [ \"@default\", \"@file-read\", \"@file-write\", \"@process\",\n"
    "            \"@signal\", \"@ipc\", \"@time\", \"@network\" ];\n"
    "  deny = [ \"@debug\", \"@mount\", \"@module\", \"@keyring\", \"@privileged\",\n"
    "           \"@io-uring\" ];\n"
    "};\n"
    "\n"
    "# Landlock: nothing outside these is reachable.\n"
    "filesystem: {\n"
    "  read = [";
static const char starter_tail[] =
    "  write = [ \".\", \"/tmp\", \"/dev/null\" ];\n"
    "};\n"
    "\n"
    "network: {\n"
    "  mode = \"all\";           # \"none\" for commands that need no network\n"
    "};\n"
    "\n"
    "advisory: {\n"
    "  # Warnings only: NOT a security control, any blocklist can be bypassed.\n"
    "  warn = (\n"
    "    { match = \"rm -rf /\"; reason = \"deletes from the root directory\"; },\n"
    "    { regex = \"curl[^|]*\\\\|[[:space:]]*(ba)?sh\"; "
    "reason = \"pipes a download into a shell\"; }\n"
    "  );\n"
    "};\n";

int
sys_init_policy(const char *dir, char **written, struct gx_diag *diag)
{
	static const char *const reads[] = { "/usr", "/etc", "/lib", "/lib64",
		"/lib32", "/bin", "/sbin", "/opt", "/dev", "/proc", "/sys", "/run",
		"/var/lib", NULL };
	char *gdir, *path, *abs, *name, *base;
	struct stat st;
	FILE *f;
	int fd, n = 0;

	*written = NULL;
	abs = realpath(dir ? dir : ".", NULL);
	if (abs == NULL) {
		diag_add(diag, "--init %s: %s", dir ? dir : ".", strerror(errno));
		return -1;
	}
	gdir = xasprintf("%s/.guardexec", abs);
	path = xasprintf("%s/agent.cfg", gdir);
	base = strrchr(abs, '/');
	name = xasprintf("%s-agent", base && base[1] ? base + 1 : "repo");
	free(abs);
	if (mkdir(gdir, 0755) < 0 && errno != EEXIST) {
		diag_add(diag, "--init: %s: %s", gdir, strerror(errno));
		goto fail;
	}
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW,
	    0644);
	if (fd < 0) {
		diag_add(diag, "--init: %s: %s", path, errno == EEXIST ?
		    "exists already (not overwritten)" : strerror(errno));
		goto fail;
	}
	f = fdopen(fd, "w");
	if (f == NULL)
		die("out of memory");
	/* A name fit for a string literal: letters, digits, - _ . only. */
	for (char *c = name; *c != '\0'; c++)
		if (!(isalnum((unsigned char)*c) || *c == '-' || *c == '_' ||
		    *c == '.'))
			*c = '-';
	fprintf(f, starter_head, name);
	for (size_t i = 0; reads[i] != NULL; i++) {
		if (stat(reads[i], &st) < 0)
			continue;
		fprintf(f, "%s\"%s\"", n++ ? ", " : " ", reads[i]);
	}
	fputs(" ];\n", f);
	fputs(starter_tail, f);
	if (fclose(f) != 0) {
		diag_add(diag, "--init: %s: %s", path, strerror(errno));
		goto fail;
	}
	free(gdir);
	free(name);
	*written = path;
	return 0;
fail:
	free(gdir);
	free(path);
	free(name);
	return -1;
}
