/* SPDX-License-Identifier: ISC */
/*
 * forkbomb MAX: a bounded fork bomb.  Every process keeps forking until
 * a fork fails or MAX forks were attempted in all (a shared counter in
 * an anonymous shared mapping), then sleeps 60 s and exits, so even a
 * failing limit cannot take the machine down.  The first process prints
 * "forks: N ok, M failed (ERRNO)" after 1 s and exits 0 if any fork
 * failed, 1 if none did.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

struct shared {
	int attempts, ok, failed, err;
};

int
main(int argc, char **argv)
{
	int max = argc > 1 ? atoi(argv[1]) : 200;
	pid_t top = getpid();
	struct shared *s = mmap(NULL, sizeof(*s), PROT_READ | PROT_WRITE,
	    MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (s == MAP_FAILED)
		return 2;
	memset(s, 0, sizeof(*s));
	for (;;) {
		pid_t p;

		if (__atomic_fetch_add(&s->attempts, 1, __ATOMIC_SEQ_CST) >= max)
			break;
		p = fork();
		if (p < 0) {
			__atomic_fetch_add(&s->failed, 1, __ATOMIC_SEQ_CST);
			s->err = errno;
			break;
		}
		if (p > 0)
			__atomic_fetch_add(&s->ok, 1, __ATOMIC_SEQ_CST);
	}
	if (getpid() != top) {
		sleep(60);
		_exit(0);
	}
	sleep(1);
	printf("forks: %d ok, %d failed (%s)\n", s->ok, s->failed,
	    s->failed ? strerrorname_np(s->err) : "none");
	fflush(stdout);
	return s->failed ? 0 : 1;
}
