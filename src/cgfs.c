/* SPDX-License-Identifier: ISC */
/*
 * The cgroup filesystem, for cgroup.c and its v1 and v2 setups: paths,
 * small reads and writes, where a hierarchy is mounted and where
 * guardexec stands in it (/proc/self/mountinfo, /proc/self/cgroup).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "cgfs.h"
#include "util.h"

/* "@dir/@file" in @buf. */
const char *
cgfs_join(char *buf, size_t n, const char *dir, const char *file)
{
	snprintf(buf, n, "%s/%s", dir, file);
	return buf;
}

/* Read a small file into @buf (NUL-terminated); -1 on failure. */
int
cgfs_read_small(const char *path, char *buf, size_t size)
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

int
cgfs_write_str(const char *dir, const char *file, const char *val)
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
char *
cgfs_mount_of(const char *controller)
{
	return proc_find("/proc/self/mountinfo", match_mount, controller);
}

/* Our path in the hierarchy with @controller ("" for v2's "0::"). */
char *
cgfs_own_path(const char *controller)
{
	return proc_find("/proc/self/cgroup", match_cgroup, controller);
}

char *
cgfs_unique_name(void)
{
	unsigned char r[4];
	char hex[9];

	if (getrandom(r, sizeof(r), 0) != (ssize_t)sizeof(r))
		memset(r, 0, sizeof(r));
	hex_encode(r, sizeof(r), hex);
	return xasprintf("guardexec-%d-%s", (int)getpid(), hex);
}

bool
cgfs_has_word(const char *list, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = list; (p = strstr(p, word)) != NULL; p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\n' ||
		    p[n] == '\0'))
			return true;
	return false;
}

/* The pid of the calling process in decimal. */
const char *
cgfs_pid_str(char *buf, size_t n)
{
	snprintf(buf, n, "%d", (int)getpid());
	return buf;
}
