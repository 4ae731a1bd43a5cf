/* SPDX-License-Identifier: ISC */
/*
 * netlisten tcp|udp PORTFILE SECONDS: a loopback peer for the network
 * tests.  Binds 127.0.0.1 on an ephemeral port and writes the port
 * number to PORTFILE (atomically: a temporary file renamed into place,
 * so a reader never sees half a number).  For tcp it accepts
 * connections and prints "accepted" for each; for udp it receives
 * datagrams and prints "received N" (N bytes) for each.  It exits 0
 * after SECONDS, or at SIGTERM/SIGINT; 2 on a usage or setup error.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common.h"

static int
write_portfile(const char *path, unsigned port)
{
	char tmp[4096], text[16];
	int fd, len;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp%ld", path, (long)getpid()) >=
	    (int)sizeof(tmp))
		return errno = ENAMETOOLONG, -1;
	len = snprintf(text, sizeof(text), "%u\n", port);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	if (write(fd, text, (size_t)len) != len) {
		close(fd);
		unlink(tmp);
		return -1;
	}
	if (close(fd) < 0 || rename(tmp, path) < 0) {
		unlink(tmp);
		return -1;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	socklen_t salen = sizeof(sa);
	double deadline;
	long seconds;
	int udp, sock;

	if (argc != 4 || (strcmp(argv[1], "tcp") != 0 &&
	    strcmp(argv[1], "udp") != 0)) {
		fprintf(stderr, "usage: netlisten tcp|udp PORTFILE SECONDS\n");
		return 2;
	}
	udp = argv[1][0] == 'u';
	seconds = helper_parse_num("netlisten", argv[3], "SECONDS",
	    INT32_MAX / 1000);
	helper_catch_stop();

	sock = socket(AF_INET, (udp ? SOCK_DGRAM : SOCK_STREAM) | SOCK_CLOEXEC,
	    0);
	if (sock < 0) {
		fprintf(stderr, "netlisten: socket: %s\n", strerror(errno));
		return 2;
	}
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	sa.sin_port = 0;
	if (bind(sock, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    (!udp && listen(sock, 16) < 0) ||
	    getsockname(sock, (struct sockaddr *)&sa, &salen) < 0) {
		fprintf(stderr, "netlisten: bind/listen: %s\n", strerror(errno));
		return 2;
	}
	if (write_portfile(argv[2], ntohs(sa.sin_port)) < 0) {
		fprintf(stderr, "netlisten: %s: %s\n", argv[2], strerror(errno));
		return 2;
	}

	deadline = helper_now() + (double)seconds;
	for (;;) {
		char buf[2048];
		ssize_t n;
		int r, c;

		r = helper_wait_readable(sock, deadline);
		if (r == 0)
			break;
		if (r < 0) {
			fprintf(stderr, "netlisten: poll: %s\n", strerror(errno));
			return 2;
		}
		if (udp) {
			n = recv(sock, buf, sizeof(buf), MSG_DONTWAIT);
			if (n < 0)
				continue;
			printf("received %zd\n", n);
		} else {
			c = accept4(sock, NULL, NULL, SOCK_CLOEXEC);
			if (c < 0)
				continue;
			close(c);
			printf("accepted\n");
		}
		fflush(stdout);
	}
	close(sock);
	return 0;
}
