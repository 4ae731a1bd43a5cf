/* SPDX-License-Identifier: ISC */
#ifndef GX_REPORT_H
#define GX_REPORT_H

/* guardexec-audit report LOG... -o FILE: a self-contained HTML page. */
int report_main(int argc, char **argv);

#endif
