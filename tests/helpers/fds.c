/* SPDX-License-Identifier: ISC */
/*
 * fds: report what the process inherited, one fact per line:
 *   fds: 0 1 2            the open descriptors
 *   ctty: none|yes        whether /dev/tty opens
 *   nnp: 1                PR_GET_NO_NEW_PRIVS
 *   parent_environ: ...   denied (errno) or the bytes readable
 *   parent_environ_secret: yes|no   whether GX_SECRET_MARKER shows
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

int
main(void)
{
	char path[64], buf[65536];
	struct dirent *de;
	DIR *d = opendir("/proc/self/fd");
	ssize_t n, total = 0;
	int fd, self;

	if (d == NULL)
		return 2;
	self = dirfd(d);
	printf("fds:");
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.' || atoi(de->d_name) == self)
			continue;
		printf(" %s", de->d_name);
	}
	printf("\n");
	closedir(d);
	fd = open("/dev/tty", O_RDWR);
	printf("ctty: %s\n", fd >= 0 ? "yes" : "none");
	printf("nnp: %d\n", prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0));
	snprintf(path, sizeof(path), "/proc/%d/environ", (int)getppid());
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		printf("parent_environ: denied (%s)\n", strerrorname_np(errno));
		printf("parent_environ_secret: no\n");
		return 0;
	}
	while ((n = read(fd, buf + total, sizeof(buf) - 1 - (size_t)total)) > 0)
		total += n;
	if (n < 0)
		printf("parent_environ: denied (%s)\n", strerrorname_np(errno));
	else
		printf("parent_environ: %zd bytes\n", total);
	buf[total < 0 ? 0 : total] = '\0';
	printf("parent_environ_secret: %s\n",
	    memmem(buf, (size_t)(total < 0 ? 0 : total), "GX_SECRET_MARKER",
	    16) ? "yes" : "no");
	return 0;
}
