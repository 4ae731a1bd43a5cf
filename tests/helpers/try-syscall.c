/* SPDX-License-Identifier: ISC */
/*
 * try-syscall NAME...: attempt each named operation, print "NAME: ok" or
 * "NAME: ERRNO", exit 0 when all succeeded, 1 when any failed.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <termios.h>
#include <unistd.h>

#include "common.h"

static long
attempt(const char *name, char **argv, int *used)
{
	*used = 0;
	if (strcmp(name, "getpid") == 0)
		return syscall(SYS_getpid);
	if (strcmp(name, "ptrace") == 0)
		return ptrace(PTRACE_TRACEME, 0, NULL, NULL);
	if (strcmp(name, "mount") == 0)
		return mount("none", "/mnt", "tmpfs", 0, NULL);
	if (strcmp(name, "unshare") == 0)
		return unshare(CLONE_NEWUSER);
	if (strcmp(name, "keyctl") == 0)
		return syscall(SYS_keyctl, 0 /* KEYCTL_GET_KEYRING_ID */, -3, 0);
	if (strcmp(name, "bpf") == 0)
		return syscall(SYS_bpf, 0, NULL, 0);
	if (strcmp(name, "clone3") == 0)
		return syscall(SYS_clone3, NULL, 0);
	if (strcmp(name, "socket-inet") == 0)
		return socket(AF_INET, SOCK_STREAM, 0);
	if (strcmp(name, "socket-unix") == 0)
		return socket(AF_UNIX, SOCK_STREAM, 0);
	if (strcmp(name, "tiocsti") == 0) {
		char c = 'x';

		return ioctl(0, TIOCSTI, &c);
	}
	if (strcmp(name, "connect-tcp") == 0 || strcmp(name, "send-udp") == 0) {
		struct sockaddr_in sa = { .sin_family = AF_INET };
		int udp = name[0] == 's', fd;

		*used = 1;
		if (argv[0] == NULL)
			return errno = EINVAL, -1;
		sa.sin_port = htons((unsigned short)atoi(argv[0]));
		sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		fd = socket(AF_INET, udp ? SOCK_DGRAM : SOCK_STREAM, 0);
		if (fd < 0)
			return -1;
		if (udp)
			return sendto(fd, "ping", 4, 0, (struct sockaddr *)&sa,
			    sizeof(sa)) == 4 ? 0 : -1;
		return connect(fd, (struct sockaddr *)&sa, sizeof(sa));
	}
	if (strcmp(name, "read-file") == 0 || strcmp(name, "write-file") == 0) {
		*used = 1;
		if (argv[0] == NULL)
			return errno = EINVAL, -1;
		return open(argv[0], name[0] == 'r' ? O_RDONLY :
		    O_WRONLY | O_CREAT | O_TRUNC, 0644);
	}
	if (strcmp(name, "kill") == 0) {
		*used = 1;
		if (argv[0] == NULL)
			return errno = EINVAL, -1;
		return kill((pid_t)atoi(argv[0]), 0);
	}
	errno = ENOSYS;
	fprintf(stderr, "try-syscall: unknown operation %s\n", name);
	exit(2);
}

int
main(int argc, char **argv)
{
	return helper_ops_main(argc, argv, attempt, false);
}
