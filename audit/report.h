/* SPDX-License-Identifier: ISC */
#ifndef GX_REPORT_H
#define GX_REPORT_H

/*
 * guardexec-audit report [-o FILE] LOG...: reads the records of the LOG
 * files (in order; lines that are not records are counted and skipped)
 * and writes one static, self-contained HTML page about them to FILE,
 * or to standard output without -o or with "-o -".  @argv holds the
 * arguments after "report" (@argc of them); it is not modified.
 * Returns the exit status: 0 on success, 2 on a usage error or when a
 * LOG cannot be read or the page cannot be written (a message starting
 * "guardexec-audit: " goes to stderr).  Dies (exit 125) on OOM.
 */
int report_main(int argc, char **argv);

#endif
