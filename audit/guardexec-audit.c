/* SPDX-License-Identifier: ISC */
/*
 * guardexec-audit: the reviewer's tool for guardexec's audit log.  It
 * checks lines with the same code that writes them (src/chain.c), and
 * links only src/libgxaudit.a: none of the supervisor, no libseccomp.
 * Exit status: 0 ok, 1 chain broken, 2 usage or I/O error (even on
 * running out of memory: see log_set_program).
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "common.h"
#include "crosscheck.h"
#include "log.h"
#include "report.h"

int
main(int argc, char **argv)
{
	log_set_program("guardexec-audit", 2);
	if (argc < 2) {
		fputs(audit_usage, stderr);
		return 2;
	}
	if (strcmp(argv[1], "--help") == 0) {
		fputs(audit_usage, stdout);
		return 0;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("guardexec-audit %s\n", PACKAGE_VERSION);
		return 0;
	}
	if (strcmp(argv[1], "verify") == 0)
		return verify_main(argc - 1, argv + 1);
	if (strcmp(argv[1], "show") == 0)
		return show_main(argc - 1, argv + 1);
	if (strcmp(argv[1], "summary") == 0)
		return summary_main(argc - 1, argv + 1);
	if (strcmp(argv[1], "report") == 0)
		return report_main(argc - 2, argv + 2);
	if (strcmp(argv[1], "crosscheck") == 0)
		return crosscheck_main(argc - 2, argv + 2);
	fprintf(stderr, "guardexec-audit: unknown command \"%s\"\n%s", argv[1],
	    audit_usage);
	return 2;
}
