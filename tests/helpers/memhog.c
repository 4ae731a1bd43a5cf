/* SPDX-License-Identifier: ISC */
/*
 * memhog MB: allocate and touch MB megabytes, 1 MiB at a time.  Prints
 * how far it got; exits 0 if all was allocated, 1 on allocation failure
 * (the kernel may also kill it: OOM or cgroup limit).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int
main(int argc, char **argv)
{
	long want = argc > 1 ? atol(argv[1]) : 1024;

	for (long i = 0; i < want; i++) {
		char *p = malloc(1 << 20);

		if (p == NULL) {
			printf("allocation failed after %ld MiB\n", i);
			return 1;
		}
		memset(p, 1, 1 << 20);
	}
	printf("allocated %ld MiB\n", want);
	return 0;
}
