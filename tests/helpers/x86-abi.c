/* SPDX-License-Identifier: ISC */
/*
 * x86-abi int80|x32: make getpid through another ABI (i386 int 0x80, or
 * the x32 bit) and print the result.  Under guardexec's syscall filter
 * the process must be killed (SIGSYS) before it prints "reached".
 */
#include <stdio.h>
#include <string.h>

int
main(int argc, char **argv)
{
	long ret = -1;

	if (argc < 2)
		return 2;
#if defined(__x86_64__)
	if (strcmp(argv[1], "int80") == 0) {
		/* i386 getpid is 20. */
		__asm__ volatile ("int $0x80" : "=a"(ret) : "0"(20L) : "memory");
	} else if (strcmp(argv[1], "x32") == 0) {
		/* x32 getpid: 39 | __X32_SYSCALL_BIT. */
		__asm__ volatile ("syscall" : "=a"(ret) : "0"(0x40000000L | 39L)
		    : "rcx", "r11", "memory");
	} else {
		return 2;
	}
	printf("reached: %ld\n", ret);
	return 0;
#else
	(void)ret;
	printf("unsupported architecture\n");
	return 77;
#endif
}
