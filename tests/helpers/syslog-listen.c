/* SPDX-License-Identifier: ISC */
/*
 * syslog-listen SOCKETPATH OUTFILE COUNT SECONDS: a stand-in syslog
 * daemon.  Binds an AF_UNIX datagram socket at SOCKETPATH (refusing if
 * anything exists there: it never unlinks what it did not create),
 * prints "ready", then appends every datagram as one line to OUTFILE
 * until COUNT arrived, SECONDS passed, or SIGTERM/SIGINT came.  Then it
 * unlinks its socket.  Exit 0 when COUNT datagrams arrived, 1 when
 * fewer, 2 on a usage or setup error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "common.h"

/* Append one datagram as one line: trailing NULs/newlines cut, inner
 * newlines and NULs turned into spaces. */
static int
append_line(int fd, char *buf, size_t n)
{
	size_t off = 0;

	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\0'))
		n--;
	for (size_t i = 0; i < n; i++)
		if (buf[i] == '\n' || buf[i] == '\0')
			buf[i] = ' ';
	buf[n++] = '\n';
	while (off < n) {
		ssize_t w = write(fd, buf + off, n - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		off += (size_t)w;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct stat st;
	static char buf[65536 + 1];
	long count, seconds, got = 0;
	double deadline;
	int sock, out;

	if (argc != 5) {
		fprintf(stderr, "usage: syslog-listen SOCKETPATH OUTFILE COUNT "
		    "SECONDS\n");
		return 2;
	}
	count = helper_parse_num("syslog-listen", argv[3], "COUNT", INT32_MAX);
	seconds = helper_parse_num("syslog-listen", argv[4], "SECONDS",
	    INT32_MAX);
	if (strlen(argv[1]) >= sizeof(sa.sun_path)) {
		fprintf(stderr, "syslog-listen: %s: path too long\n", argv[1]);
		return 2;
	}
	if (lstat(argv[1], &st) == 0) {
		fprintf(stderr, "syslog-listen: %s exists; refusing to replace "
		    "it\n", argv[1]);
		return 2;
	}
	strcpy(sa.sun_path, argv[1]);

	helper_catch_stop();

	out = open(argv[2], O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (out < 0) {
		fprintf(stderr, "syslog-listen: %s: %s\n", argv[2],
		    strerror(errno));
		return 2;
	}
	sock = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (sock < 0) {
		fprintf(stderr, "syslog-listen: socket: %s\n", strerror(errno));
		return 2;
	}
	/* bind() fails with EADDRINUSE if something appeared meanwhile. */
	if (bind(sock, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		fprintf(stderr, "syslog-listen: bind %s: %s\n", argv[1],
		    strerror(errno));
		return 2;
	}
	/* Anyone may log, as with a real /dev/log. */
	chmod(argv[1], 0666);
	printf("ready\n");
	fflush(stdout);

	deadline = helper_now() + (double)seconds;
	while (got < count) {
		ssize_t n;
		int r;

		r = helper_wait_readable(sock, deadline);
		if (r == 0)
			break;
		if (r < 0) {
			fprintf(stderr, "syslog-listen: poll: %s\n",
			    strerror(errno));
			break;
		}
		n = recv(sock, buf, sizeof(buf) - 1, MSG_DONTWAIT);
		if (n < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			fprintf(stderr, "syslog-listen: recv: %s\n",
			    strerror(errno));
			break;
		}
		if (append_line(out, buf, (size_t)n) < 0) {
			fprintf(stderr, "syslog-listen: writing %s: %s\n",
			    argv[2], strerror(errno));
			break;
		}
		got++;
	}
	close(sock);
	close(out);
	unlink(argv[1]);
	return got >= count ? 0 : 1;
}
