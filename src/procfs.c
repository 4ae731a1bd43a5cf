/* SPDX-License-Identifier: ISC */
/*
 * /proc readers for code that runs after fork (see procfs.h): only
 * open, read and close, and numbers parsed by hand.  The task count at
 * the end is the exception: guardexec's side only.
 */
#include "config.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "procfs.h"

pid_t
procfs_parse_pid(const char *s, const char **end)
{
	long v = 0;

	while (*s >= '0' && *s <= '9' && v < 100000000)
		v = v * 10 + (*s++ - '0');
	if (end != NULL)
		*end = s;
	return (pid_t)v;
}

ssize_t
procfs_read(const char *path, char *buf, size_t size)
{
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return n;
}

/* "/proc/@pid/stat" into @buf (at least 32 bytes), by hand. */
static void
stat_path(char *buf, pid_t pid)
{
	char digits[16];
	int n = 0;

	do {
		digits[n++] = (char)('0' + pid % 10);
		pid /= 10;
	} while (pid > 0 && n < (int)sizeof(digits));
	memcpy(buf, "/proc/", 6);
	for (int i = 0; i < n; i++)
		buf[6 + i] = digits[n - 1 - i];
	memcpy(buf + 6 + n, "/stat", 6);
}

/* The next space-separated field at *@p: skip the spaces before it. */
static const char *
next_field(const char *p)
{
	while (*p == ' ')
		p++;
	return p;
}

/* A pid field at @p: its value in *@out, the rest in the return. */
static const char *
pid_field(const char *p, pid_t *out)
{
	p = next_field(p);
	if (*p < '0' || *p > '9')
		return NULL;
	*out = procfs_parse_pid(p, &p);
	return p;
}

int
procfs_stat(pid_t pid, struct gx_proc_stat *ps)
{
	char path[32], buf[512];
	const char *p = NULL;
	ssize_t n;

	stat_path(path, pid);
	n = procfs_read(path, buf, sizeof(buf));
	if (n < 0)
		return -1;
	/* After the last ')': state, ppid, pgrp, session. */
	for (ssize_t i = n - 1; i >= 0 && p == NULL; i--)
		if (buf[i] == ')')
			p = buf + i + 1;
	if (p == NULL)
		return -1;
	p = next_field(p);
	if (*p == '\0' || *p == ' ')
		return -1;
	ps->state = *p++;
	if ((p = pid_field(p, &ps->ppid)) == NULL ||
	    (p = pid_field(p, &ps->pgrp)) == NULL ||
	    (p = pid_field(p, &ps->session)) == NULL)
		return -1;
	return 0;
}

/* Not async-signal-safe (opendir, snprintf): guardexec's side only. */
unsigned long
procfs_count_tasks(uid_t uid)
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
		if (procfs_read(path, buf, sizeof(buf)) < 0 ||
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
