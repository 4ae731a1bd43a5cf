/* SPDX-License-Identifier: ISC */
/*
 * guardexec-audit: the reviewer's tool for guardexec's audit log.  It
 * checks lines with the same code that writes them (src/audit.c).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit.h"
#include "log.h"
#include "util.h"

static const char usage[] =
    "usage: guardexec-audit verify [--partial] LOG...\n"
    "       guardexec-audit --help | --version\n";

/* Verify one or more files as one chain; 0 intact, 1 broken, 2 error. */
static int
verify(int argc, char **argv)
{
	char expect[65] = GX_ZERO_HASH, prev[65], hash[65];
	bool partial = false, first = true;
	unsigned long long records = 0;
	int i = 0;

	if (argc > 0 && strcmp(argv[0], "--partial") == 0) {
		partial = true;
		i++;
	}
	if (i >= argc) {
		fputs(usage, stderr);
		return 2;
	}
	for (; i < argc; i++) {
		FILE *f = fopen(argv[i], "re");
		char *line = NULL;
		size_t cap = 0;
		ssize_t n;
		unsigned long lineno = 0;

		if (f == NULL) {
			fprintf(stderr, "guardexec-audit: %s: %s\n", argv[i],
			    strerror(errno));
			return 2;
		}
		while ((n = getline(&line, &cap, f)) > 0) {
			const char *why = NULL;

			lineno++;
			if (line[n - 1] != '\n') {
				printf("%s:%lu: torn line (no newline at the "
				    "end)\n", argv[i], lineno);
				goto bad;
			}
			if (audit_check_line(line, (size_t)n - 1, prev, hash,
			    &why) < 0) {
				printf("%s:%lu: %s\n", argv[i], lineno, why);
				goto bad;
			}
			if (!(first && partial) && strcmp(prev, expect) != 0) {
				printf("%s:%lu: \"prev\" does not match the hash "
				    "of the line before (a line was deleted, "
				    "reordered or inserted)\n", argv[i], lineno);
				goto bad;
			}
			first = false;
			memcpy(expect, hash, sizeof(expect));
			records++;
			continue;
bad:
			free(line);
			fclose(f);
			return 1;
		}
		free(line);
		fclose(f);
	}
	printf("%llu records, chain intact\n", records);
	return 0;
}

int
main(int argc, char **argv)
{
	if (argc < 2) {
		fputs(usage, stderr);
		return 2;
	}
	if (strcmp(argv[1], "--help") == 0) {
		fputs(usage, stdout);
		return 0;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("guardexec-audit %s\n", PACKAGE_VERSION);
		return 0;
	}
	if (strcmp(argv[1], "verify") == 0)
		return verify(argc - 2, argv + 2);
	fprintf(stderr, "guardexec-audit: unknown command \"%s\"\n%s", argv[1],
	    usage);
	return 2;
}
