/* SPDX-License-Identifier: ISC */
/*
 * pty-run OUTFILE CMD [ARG...]: run CMD in a new session with a new
 * pseudo-terminal as its controlling terminal and its stdin, stdout and
 * stderr; copy what it prints to OUTFILE.  An argument "@PTY@" is
 * replaced by the terminal's path.  Exits with CMD's status (128+N when
 * killed by signal N).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
	char *name, buf[4096];
	int m, out, st;
	pid_t c;
	ssize_t n;

	if (argc < 3)
		return 2;
	m = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (m < 0 || grantpt(m) < 0 || unlockpt(m) < 0 ||
	    (name = ptsname(m)) == NULL)
		return 2;
	out = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out < 0)
		return 2;
	for (int i = 2; i < argc; i++)
		if (strcmp(argv[i], "@PTY@") == 0)
			argv[i] = name;
	c = fork();
	if (c < 0)
		return 2;
	if (c == 0) {
		int s;

		setsid();
		s = open(name, O_RDWR);
		if (s < 0 || ioctl(s, TIOCSCTTY, 0) < 0)
			_exit(2);
		dup2(s, 0);
		dup2(s, 1);
		dup2(s, 2);
		if (s > 2)
			close(s);
		execvp(argv[2], argv + 2);
		_exit(127);
	}
	/* EIO once the last slave fd is closed. */
	while ((n = read(m, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) < 0)
			break;
	if (waitpid(c, &st, 0) < 0)
		return 2;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}
