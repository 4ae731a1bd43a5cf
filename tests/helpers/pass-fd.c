/* SPDX-License-Identifier: ISC */
/*
 * pass-fd send SOCKET PIDFILE: write our pid, hand our stdout to the
 * process listening on SOCKET (SCM_RIGHTS), then wait forever ignoring
 * SIGTERM: a command giving its output pipe to a process outside its
 * family.
 * pass-fd listen SOCKET PIDFILE: write our pid, take one fd on SOCKET,
 * then write a byte to it every 50 ms, forever.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

static int
write_pid(const char *path)
{
	FILE *f = fopen(path, "w");

	if (f == NULL)
		return -1;
	fprintf(f, "%d\n", (int)getpid());
	return fclose(f);
}

static int
send_fd(int s, int fd)
{
	char c = 'f', cbuf[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { &c, 1 };
	struct msghdr m = { 0 };
	struct cmsghdr *cm;

	memset(cbuf, 0, sizeof(cbuf));
	m.msg_iov = &iov;
	m.msg_iovlen = 1;
	m.msg_control = cbuf;
	m.msg_controllen = sizeof(cbuf);
	cm = CMSG_FIRSTHDR(&m);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &fd, sizeof(int));
	return sendmsg(s, &m, 0) == 1 ? 0 : -1;
}

static int
recv_fd(int s)
{
	char c, cbuf[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { &c, 1 };
	struct msghdr m = { 0 };
	struct cmsghdr *cm;
	int fd = -1;

	m.msg_iov = &iov;
	m.msg_iovlen = 1;
	m.msg_control = cbuf;
	m.msg_controllen = sizeof(cbuf);
	if (recvmsg(s, &m, 0) != 1)
		return -1;
	cm = CMSG_FIRSTHDR(&m);
	if (cm == NULL || cm->cmsg_type != SCM_RIGHTS)
		return -1;
	memcpy(&fd, CMSG_DATA(cm), sizeof(int));
	return fd;
}

int
main(int argc, char **argv)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int s, c, fd;

	if (argc != 4 || strlen(argv[2]) >= sizeof(a.sun_path))
		return 2;
	strcpy(a.sun_path, argv[2]);
	s = socket(AF_UNIX, SOCK_STREAM, 0);
	if (s < 0 || write_pid(argv[3]) < 0)
		return 2;
	if (strcmp(argv[1], "send") == 0) {
		signal(SIGTERM, SIG_IGN);
		if (connect(s, (struct sockaddr *)&a, sizeof(a)) < 0 ||
		    send_fd(s, 1) < 0)
			return 2;
		for (;;)
			pause();
	}
	signal(SIGPIPE, SIG_IGN);
	unlink(a.sun_path);
	if (bind(s, (struct sockaddr *)&a, sizeof(a)) < 0 || listen(s, 1) < 0)
		return 2;
	c = accept(s, NULL, NULL);
	if (c < 0 || (fd = recv_fd(c)) < 0)
		return 2;
	for (;;) {
		(void)!write(fd, "x", 1);
		usleep(50000);
	}
}
