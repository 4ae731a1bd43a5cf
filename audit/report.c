/* SPDX-License-Identifier: ISC */
/* guardexec-audit report: placeholder, being written. */
#include "config.h"

#include "report.h"

int
report_main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return 2;
}
