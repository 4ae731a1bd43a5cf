/* SPDX-License-Identifier: ISC */
/*
 * zombie-leader PIDFILE [write]: fork a process that leaves the
 * command's process group (setpgid), starts a thread, then ends its
 * main thread with SYS_exit.  /proc then shows the leader as a zombie
 * while the thread runs on.  The thread waits forever or, with "write",
 * writes to stdout forever.  The original process writes the leader's
 * pid to PIDFILE and exits 0.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static int writing;

static void *
thread_main(void *arg)
{
	static const char line[] = "still here, the leader is a zombie\n";

	(void)arg;
	for (;;) {
		if (!writing)
			pause();
		else if (write(1, line, sizeof(line) - 1) < 0)
			usleep(1000);
	}
	return NULL;
}

/* PIDFILE.ns: our PID namespace, before PIDFILE (see lib.sh gone()). */
static void
write_ns(const char *pidfile)
{
	char path[4096], link[64];
	ssize_t n = readlink("/proc/self/ns/pid", link, sizeof(link) - 1);
	FILE *f;

	if (n <= 0)
		return;
	link[n] = '\0';
	snprintf(path, sizeof(path), "%s.ns", pidfile);
	f = fopen(path, "w");
	if (f != NULL) {
		fprintf(f, "%s\n", link);
		fclose(f);
	}
}

int
main(int argc, char **argv)
{
	int p[2];
	pid_t c;
	char ok;

	if (argc < 2 || pipe(p) < 0)
		return 2;
	writing = argc > 2 && strcmp(argv[2], "write") == 0;
	c = fork();
	if (c < 0)
		return 2;
	if (c == 0) {
		pthread_t t;
		FILE *f;

		setpgid(0, 0);
		write_ns(argv[1]);
		f = fopen(argv[1], "w");
		if (f == NULL)
			_exit(2);
		fprintf(f, "%d\n", (int)getpid());
		fclose(f);
		if (pthread_create(&t, NULL, thread_main, NULL) != 0)
			_exit(2);
		if (write(p[1], "y", 1) < 0)
			_exit(2);
		/* The main thread only: the process lives on in the thread. */
		syscall(SYS_exit, 0);
	}
	close(p[1]);
	if (read(p[0], &ok, 1) != 1)
		return 2;
	return 0;
}
