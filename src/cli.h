/* SPDX-License-Identifier: ISC */
#ifndef GX_CLI_H
#define GX_CLI_H

#include <stdbool.h>

#include "log.h"

/* The parsed command line (see guardexec(1)). */
struct gx_opts {
	const char *policy;     /* -p */
	const char *log;        /* -l */
	const char *result;     /* -r */
	const char *cwd;        /* -C */
	const char *learn;      /* --learn OUT */
	const char *trust;      /* --trust FILE */
	bool quiet;             /* -q */
	bool check;             /* --check */
	bool init;              /* --init [DIR] */
	const char *init_dir;   /* DIR, or NULL for the current directory */
	bool help;
	bool version;
	char **argv;            /* the command, NULL-terminated, or NULL */
};

/*
 * Parse @argv into @o.  No side effects (no printing, no exit).  Option
 * parsing stops at "--" or the first non-option, so the command's own
 * options are never taken.  Returns 0, or -1 with a message in @diag.
 * Pointers in @o point into @argv.
 */
int cli_parse(int argc, char **argv, struct gx_opts *o, struct gx_diag *diag);

/* The usage text for --help. */
extern const char cli_usage[];

#endif
