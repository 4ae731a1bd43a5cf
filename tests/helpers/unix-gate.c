/* SPDX-License-Identifier: ISC */
/*
 * unix-gate OP PATH...: pathname AF_UNIX sockets, as a command under
 * network "none" uses them (issue 13, bullet 4).  Prints "OP: ok" or
 * "OP: ERRNO" per operation; exits 0 when all succeeded, 1 otherwise.
 *
 *   connect-stream PATH  connect a SOCK_STREAM socket to PATH
 *   connect-dgram PATH   connect a SOCK_DGRAM socket to PATH
 *   sendto-dgram PATH    sendto(PATH) one byte from an unbound socket
 *   sendmsg-dgram PATH   sendmsg() one byte with msg_name PATH
 *   sendto-hi PATH       sendto(PATH) with the address at 0x200000000
 *                        (a pointer whose low 32 bits are 0)
 *   connect-long         connect with a 128-byte AF_UNIX address, no nul
 *                        (longer than sockaddr_un: EINVAL)
 *   uring-setup          io_uring_setup(2) (its connect would pass by
 *                        seccomp)
 *   self-stream PATH     bind+listen at PATH, connect to it, pass a byte
 *   self-dgram PATH      bind a datagram socket at PATH, sendto it, read
 *   socketpair           an AF_UNIX socketpair passes a byte
 *   serve-stream PATH | serve-dgram PATH
 *                        (not an attack) bind PATH (mode 0777), print
 *                        "listening", then "accepted"/"received" per
 *                        connection/datagram, until killed
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

#include "common.h"

static socklen_t
addr(struct sockaddr_un *sa, const char *name)
{
	size_t n = strlen(name);

	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	if (n + 1 > sizeof(sa->sun_path))
		n = sizeof(sa->sun_path) - 1;
	memcpy(sa->sun_path, name, n);
	return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n + 1);
}

static void __attribute__((noreturn))
serve(const char *path, int type)
{
	struct sockaddr_un sa;
	socklen_t len = addr(&sa, path);
	int fd = socket(AF_UNIX, type, 0);

	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, len) < 0 ||
	    (type == SOCK_STREAM && listen(fd, 16) < 0)) {
		perror("unix-gate: serve");
		exit(2);
	}
	chmod(path, 0777);
	printf("listening\n");
	fflush(stdout);
	for (;;) {
		char c;

		if (type == SOCK_DGRAM) {
			if (recv(fd, &c, 1, 0) >= 0)
				printf("received\n");
		} else {
			int a = accept(fd, NULL, NULL);

			if (a >= 0) {
				printf("accepted\n");
				close(a);
			}
		}
		fflush(stdout);
	}
}

static long
self_stream(const char *path)
{
	struct sockaddr_un sa;
	socklen_t len = addr(&sa, path);
	int l = socket(AF_UNIX, SOCK_STREAM, 0), c, a;
	char ch = 0;

	unlink(path);
	if (l < 0 || bind(l, (struct sockaddr *)&sa, len) < 0 ||
	    listen(l, 1) < 0)
		return -1;
	c = socket(AF_UNIX, SOCK_STREAM, 0);
	if (c < 0 || connect(c, (struct sockaddr *)&sa, len) < 0)
		return -1;
	a = accept(l, NULL, NULL);
	if (a < 0 || write(c, "x", 1) != 1 || read(a, &ch, 1) != 1)
		return -1;
	unlink(path);
	return ch == 'x' ? 0 : (errno = EIO, -1);
}

static long
self_dgram(const char *path)
{
	struct sockaddr_un sa;
	socklen_t len = addr(&sa, path);
	int r = socket(AF_UNIX, SOCK_DGRAM, 0);
	int s = socket(AF_UNIX, SOCK_DGRAM, 0);
	char ch = 0;

	unlink(path);
	if (r < 0 || s < 0 || bind(r, (struct sockaddr *)&sa, len) < 0)
		return -1;
	if (sendto(s, "x", 1, 0, (struct sockaddr *)&sa, len) != 1 ||
	    recv(r, &ch, 1, 0) != 1)
		return -1;
	unlink(path);
	return ch == 'x' ? 0 : (errno = EIO, -1);
}

static long
to_path(const char *op, const char *path)
{
	struct sockaddr_un sa;
	socklen_t len = addr(&sa, path);
	int type = strstr(op, "dgram") != NULL ? SOCK_DGRAM : SOCK_STREAM;
	int fd = socket(AF_UNIX, type, 0);

	if (fd < 0)
		return -1;
	if (strncmp(op, "connect-", 8) == 0)
		return connect(fd, (struct sockaddr *)&sa, len);
	if (strcmp(op, "sendto-dgram") == 0)
		return sendto(fd, "x", 1, 0, (struct sockaddr *)&sa, len) < 0 ?
		    -1 : 0;
	{
		struct iovec iov = { .iov_base = "x", .iov_len = 1 };
		struct msghdr m = { .msg_name = &sa, .msg_namelen = len,
			.msg_iov = &iov, .msg_iovlen = 1 };

		return sendmsg(fd, &m, 0) < 0 ? -1 : 0;
	}
}

static long
sendto_hi(const char *path)
{
	struct sockaddr_un sa;
	socklen_t len = addr(&sa, path);
	void *at = (void *)(uintptr_t)0x200000000ULL;
	void *m = mmap(at, 4096, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	int fd = socket(AF_UNIX, SOCK_DGRAM, 0);

	if (m != at || fd < 0)
		return errno = ENOMEM, -1;
	memcpy(m, &sa, len);
	return sendto(fd, "x", 1, 0, m, len) < 0 ? -1 : 0;
}

static long
attempt(const char *op, char **argv, int *used)
{
	const char *a = argv[0];

	*used = 0;
	if (strcmp(op, "socketpair") == 0) {
		int sv[2];
		char c = 0;

		if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0 ||
		    write(sv[0], "x", 1) != 1 || read(sv[1], &c, 1) != 1)
			return -1;
		return c == 'x' ? 0 : (errno = EIO, -1);
	}
	if (strcmp(op, "connect-long") == 0) {
		struct sockaddr_storage ss;
		int fd = socket(AF_UNIX, SOCK_STREAM, 0);

		memset(&ss, 'A', sizeof(ss));
		ss.ss_family = AF_UNIX;
		((char *)&ss)[2] = '/';
		return connect(fd, (struct sockaddr *)&ss, sizeof(ss));
	}
	if (strcmp(op, "uring-setup") == 0) {
		char params[120] = { 0 };       /* struct io_uring_params */
		long fd = syscall(__NR_io_uring_setup, 1, params);

		if (fd < 0)
			return -1;
		close((int)fd);
		return 0;
	}
	*used = 1;
	if (a == NULL)
		return errno = EINVAL, -1;
	if (strcmp(op, "connect-stream") == 0 ||
	    strcmp(op, "connect-dgram") == 0 ||
	    strcmp(op, "sendto-dgram") == 0 ||
	    strcmp(op, "sendmsg-dgram") == 0)
		return to_path(op, a);
	if (strcmp(op, "sendto-hi") == 0)
		return sendto_hi(a);
	if (strcmp(op, "self-stream") == 0)
		return self_stream(a);
	if (strcmp(op, "self-dgram") == 0)
		return self_dgram(a);
	if (strcmp(op, "serve-stream") == 0)
		serve(a, SOCK_STREAM);
	if (strcmp(op, "serve-dgram") == 0)
		serve(a, SOCK_DGRAM);
	fprintf(stderr, "unix-gate: unknown operation %s\n", op);
	exit(2);
}

int
main(int argc, char **argv)
{
	return helper_ops_main(argc, argv, attempt, true);
}
