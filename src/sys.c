/* SPDX-License-Identifier: ISC */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "auditlog.h"
#include "log.h"
#include "policy.h"
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
	return audit_log_default_path();
}

#ifndef SYSCONFDIR
#define SYSCONFDIR "/etc"
#endif

/* @dir is a directory the real uid owns and may enter. */
static bool
own_dir(const char *dir)
{
	struct stat st;

	return dir != NULL && dir[0] == '/' && stat(dir, &st) == 0 &&
	    S_ISDIR(st.st_mode) && st.st_uid == getuid() &&
	    access(dir, X_OK) == 0;
}

char *
sys_caller_home(void)
{
	const char *home = getenv("HOME");
	struct passwd *pw;

	/*
	 * Only a home the caller owns and may enter: after su or setpriv
	 * without a fresh environment $HOME still names the previous
	 * user's, whose trust store this caller can neither read nor own
	 * (and in a user namespace an unmapped owner shows as the overflow
	 * uid, which may be the caller's: hence the access check too).
	 * Neither: no home, and so no trust store.
	 */
	if (own_dir(home))
		return xstrdup(home);
	pw = getpwuid(getuid());
	if (pw != NULL && own_dir(pw->pw_dir))
		return xstrdup(pw->pw_dir);
	if (pw != NULL && pw->pw_dir != NULL && pw->pw_dir[0] == '/' &&
	    access(pw->pw_dir, F_OK) < 0 && errno == ENOENT)
		return xstrdup(pw->pw_dir);   /* nothing there: no store yet */
	return NULL;
}

bool
sys_policy_is_name(const char *arg)
{
	if (arg[0] == '\0')
		return false;
	for (const char *c = arg; *c != '\0'; c++)
		if (!(isalnum((unsigned char)*c) || *c == '-' || *c == '_'))
			return false;
	return true;
}

char *
sys_find_policy(const char *arg, struct gx_diag *diag)
{
	const char *xdg = getenv("XDG_CONFIG_HOME");
	char *cand[2] = { NULL, NULL }, *home, *found = NULL;
	struct stat st;

	if (!sys_policy_is_name(arg)) {
		/* A path; a directory is a repository's own policy. */
		if (stat(arg, &st) == 0 && S_ISDIR(st.st_mode))
			return xasprintf("%s/.guardexec/agent.cfg", arg);
		return xstrdup(arg);
	}
	/*
	 * A NAME is an installed policy only, never a file in the working
	 * directory: a command that may write there must not be able to
	 * shadow the policy the caller named (CONTRACT, guarantee 12).
	 */
	cand[0] = xasprintf("%s/guardexec/%s.cfg", SYSCONFDIR, arg);
	home = sys_caller_home();
	if (xdg != NULL && xdg[0] == '/')
		cand[1] = xasprintf("%s/guardexec/%s.cfg", xdg, arg);
	else if (home != NULL)
		cand[1] = xasprintf("%s/.config/guardexec/%s.cfg", home, arg);
	free(home);
	for (int i = 0; i < 2 && found == NULL; i++)
		if (cand[i] != NULL && stat(cand[i], &st) == 0)
			found = xstrdup(cand[i]);
	if (found == NULL)
		diag_add(diag, "-p %s: no installed policy named \"%s\" (looked "
		    "in %s%s%s); for a file in this directory say -p ./%s",
		    arg, arg, cand[0], cand[1] ? " and " : "",
		    cand[1] ? cand[1] : "", arg);
	free(cand[0]);
	free(cand[1]);
	return found;
}

int
sys_init_policy(const char *dir, char **written, struct gx_diag *diag)
{
	static const char *const reads[] = { "/usr", "/etc", "/lib", "/lib64",
		"/lib32", "/bin", "/sbin", "/opt", "/dev", "/proc", "/sys", "/run",
		"/var/lib", NULL };
	char *gdir, *path, *abs, *name, *base;
	char **found = NULL;
	struct stat st;
	FILE *f;
	int fd;

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
	for (size_t i = 0; reads[i] != NULL; i++)
		if (stat(reads[i], &st) == 0)
			found = strv_append(found, reads[i]);
	policy_print_template(f, name, found);
	strv_free(found);
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
