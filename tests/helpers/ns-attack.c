/* SPDX-License-Identifier: ISC */
/*
 * ns-attack OP [ARG]...: what a hostile command tries against the world
 * guardexec builds for it.  Prints "OP: ok" or "OP: ERRNO" per
 * operation; exits 0 when all succeeded, 1 otherwise.
 *
 *   read PATH            open and read one byte
 *   open-tty PATH        open a terminal read-write (no read)
 *   mknod-chr PATH       mknod a char device (1,11: /dev/kmsg), open it O_RDWR
 *   mknod-blk PATH       mknod a block device (7,0: loop0), open it O_RDWR
 *   chmod PATH | chown PATH | setxattr PATH | utimes PATH
 *   stop PID             SIGSTOP (then SIGCONT at once) to PID
 *   ptrace PID           PTRACE_ATTACH (then detach)
 *   clone-newuser        clone(CLONE_NEWUSER)
 *   unshare-newns        unshare(CLONE_NEWNS)
 *   tiocsctty            ioctl(0, TIOCSCTTY, 1)
 *   connect-unix PATH    connect to a pathname AF_UNIX socket
 *   connect-abstract NAME
 *   socketpair           an AF_UNIX socketpair passes a byte
 *   serve-unix PATH | serve-abstract NAME
 *                        (not an attack) listen, print "accepted" per
 *                        connection, until killed
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/time.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "common.h"

static socklen_t
addr(struct sockaddr_un *sa, const char *name, int abstract)
{
	size_t n = strlen(name);

	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	if (n + 2 > sizeof(sa->sun_path))
		n = sizeof(sa->sun_path) - 2;
	memcpy(sa->sun_path + (abstract ? 1 : 0), name, n);
	return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n +
	    1);
}

static void __attribute__((noreturn))
serve(const char *name, int abstract)
{
	struct sockaddr_un sa;
	socklen_t len = addr(&sa, name, abstract);
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);

	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, len) < 0 ||
	    listen(fd, 16) < 0) {
		perror("ns-attack: serve");
		exit(2);
	}
	if (!abstract)
		chmod(name, 0777);
	printf("listening\n");
	fflush(stdout);
	for (;;) {
		int c = accept(fd, NULL, NULL);

		if (c >= 0) {
			printf("accepted\n");
			fflush(stdout);
			close(c);
		}
	}
}

static long
mknod_open(const char *path, mode_t type, dev_t dev)
{
	int fd;

	if (mknod(path, type | 0666, dev) < 0)
		return -1;
	fd = open(path, O_RDWR | O_NONBLOCK);
	unlink(path);
	return fd;
}

static long
attempt(const char *op, char **argv, int *used)
{
	const char *a = argv[0];

	*used = 0;
	if (strcmp(op, "clone-newuser") == 0) {
		long pid = syscall(SYS_clone, CLONE_NEWUSER | SIGCHLD, NULL,
		    NULL, NULL, NULL);

		if (pid == 0)
			_exit(0);
		if (pid > 0)
			waitpid((pid_t)pid, NULL, 0);
		return pid < 0 ? -1 : 0;
	}
	if (strcmp(op, "unshare-newns") == 0)
		return unshare(CLONE_NEWNS);
	if (strcmp(op, "tiocsctty") == 0)
		return ioctl(0, TIOCSCTTY, 1);
	if (strcmp(op, "socketpair") == 0) {
		int sv[2];
		char c = 0;

		if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0 ||
		    write(sv[0], "x", 1) != 1 || read(sv[1], &c, 1) != 1)
			return -1;
		return c == 'x' ? 0 : (errno = EIO, -1);
	}
	*used = 1;
	if (a == NULL) {
		errno = EINVAL;
		return -1;
	}
	if (strcmp(op, "read") == 0) {
		char c;
		int fd = open(a, O_RDONLY);

		if (fd < 0 || read(fd, &c, 1) < 0)
			return -1;
		return 0;
	}
	if (strcmp(op, "open-tty") == 0)
		return open(a, O_RDWR | O_NOCTTY | O_NONBLOCK);
	if (strcmp(op, "mknod-chr") == 0)
		return mknod_open(a, S_IFCHR, makedev(1, 11));
	if (strcmp(op, "mknod-blk") == 0)
		return mknod_open(a, S_IFBLK, makedev(7, 0));
	if (strcmp(op, "chmod") == 0)
		return chmod(a, 04777);
	if (strcmp(op, "chown") == 0)
		return chown(a, 65534, 65534);
	if (strcmp(op, "setxattr") == 0)
		return setxattr(a, "user.guardexec", "x", 1, 0);
	if (strcmp(op, "utimes") == 0)
		return utimes(a, NULL);
	if (strcmp(op, "stop") == 0) {
		pid_t pid = (pid_t)atoi(a);

		if (pid <= 0)
			return errno = ESRCH, -1;
		if (kill(pid, SIGSTOP) < 0)
			return -1;
		kill(pid, SIGCONT);
		return 0;
	}
	if (strcmp(op, "ptrace") == 0) {
		pid_t pid = (pid_t)atoi(a);

		if (pid <= 0)
			return errno = ESRCH, -1;
		if (ptrace(PTRACE_ATTACH, pid, NULL, NULL) < 0)
			return -1;
		waitpid(pid, NULL, __WALL);
		ptrace(PTRACE_DETACH, pid, NULL, NULL);
		return 0;
	}
	if (strcmp(op, "connect-unix") == 0 ||
	    strcmp(op, "connect-abstract") == 0) {
		struct sockaddr_un sa;
		socklen_t len = addr(&sa, a, op[8] == 'a');
		int fd = socket(AF_UNIX, SOCK_STREAM, 0);

		if (fd < 0)
			return -1;
		return connect(fd, (struct sockaddr *)&sa, len);
	}
	if (strcmp(op, "serve-unix") == 0)
		serve(a, 0);
	if (strcmp(op, "serve-abstract") == 0)
		serve(a, 1);
	fprintf(stderr, "ns-attack: unknown operation %s\n", op);
	exit(2);
}

int
main(int argc, char **argv)
{
	return helper_ops_main(argc, argv, attempt, true);
}
