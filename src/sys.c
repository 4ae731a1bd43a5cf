/* SPDX-License-Identifier: ISC */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "log.h"
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
