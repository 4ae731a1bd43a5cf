/* SPDX-License-Identifier: ISC */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "auditlog.h"
#include "log.h"
#include "policy.h"
#include "sys.h"
#include "util.h"

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
