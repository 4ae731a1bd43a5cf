/* SPDX-License-Identifier: ISC */
#include "config.h"

#include <getopt.h>
#include <string.h>

#include "cli.h"

const char cli_usage[] =
    "usage: guardexec -p POLICY [OPTIONS] [--] COMMAND [ARG...]\n"
    "       guardexec -p POLICY --check [[--] COMMAND [ARG...]]\n"
    "       guardexec --trust FILE\n"
    "       guardexec --help | --version\n"
    "\n"
    "  -p, --policy FILE   the policy: a path, a directory (its .guardexec/"
    "agent.cfg)\n"
    "                      or an installed policy's NAME (required)\n"
    "  -l, --log FILE      local audit log; overrides audit.log\n"
    "  -r, --result FILE   also write this run's audit record to FILE\n"
    "  -C, --cwd DIR       run the command in DIR\n"
    "  -q, --quiet         no advisory warnings on stderr\n"
    "      --check         validate and print the effective policy; "
    "run nothing\n"
    "      --learn OUT     run allowing every syscall, write a policy "
    "to OUT\n"
    "      --trust FILE    show FILE (and what changed since it was last "
    "trusted),\n"
    "                      then trust its exact bytes; run nothing\n"
    "      --init [DIR]    write a commented starter DIR/.guardexec/"
    "agent.cfg\n"
    "  -h, --help          this text\n"
    "  -V, --version       the version\n"
    "\n"
    "Exit status: the command's own; 128+N if killed by signal N; 124 "
    "timeout;\n125 guardexec failed (nothing run); 126 not executable; "
    "127 not found.\n";

enum { OPT_CHECK = 256, OPT_LEARN, OPT_INIT, OPT_TRUST };

int
cli_parse(int argc, char **argv, struct gx_opts *o, struct gx_diag *diag)
{
	static const struct option longopts[] = {
		{ "policy", required_argument, NULL, 'p' },
		{ "log", required_argument, NULL, 'l' },
		{ "result", required_argument, NULL, 'r' },
		{ "cwd", required_argument, NULL, 'C' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "check", no_argument, NULL, OPT_CHECK },
		{ "learn", required_argument, NULL, OPT_LEARN },
		{ "init", no_argument, NULL, OPT_INIT },
		{ "trust", required_argument, NULL, OPT_TRUST },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(o, 0, sizeof(*o));
	optind = 0;     /* GNU: start afresh (cli_parse may be called again) */
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:p:l:r:C:qhV", longopts,
	    NULL)) != -1) {
		switch (c) {
		case 'p': o->policy = optarg; break;
		case 'l': o->log = optarg; break;
		case 'r': o->result = optarg; break;
		case 'C': o->cwd = optarg; break;
		case 'q': o->quiet = true; break;
		case 'h': o->help = true; break;
		case 'V': o->version = true; break;
		case OPT_CHECK: o->check = true; break;
		case OPT_LEARN: o->learn = optarg; break;
		case OPT_INIT: o->init = true; break;
		case OPT_TRUST: o->trust = optarg; break;
		case ':':
			diag_add(diag, "option %s needs an argument",
			    argv[optind - 1]);
			return -1;
		default:
			/* A long option (or one given a value it takes not). */
			if (strncmp(argv[optind - 1], "--", 2) == 0)
				diag_add(diag, "unknown or malformed option %s",
				    argv[optind - 1]);
			else
				diag_add(diag, "unknown option -%c", optopt);
			return -1;
		}
	}
	if (o->help || o->version)
		return 0;
	if (o->init) {
		if (argc - optind > 1) {
			diag_add(diag, "--init takes at most one directory");
			return -1;
		}
		o->init_dir = optind < argc ? argv[optind] : NULL;
		return 0;
	}
	if (o->trust != NULL) {
		if (optind < argc || o->check || o->learn != NULL ||
		    o->policy != NULL) {
			diag_add(diag, "--trust FILE takes no -p, --check, "
			    "--learn or command");
			return -1;
		}
		if (o->trust[0] == '\0') {
			diag_add(diag, "--trust: empty path");
			return -1;
		}
		return 0;
	}
	if (optind < argc)
		o->argv = argv + optind;
	if (o->policy == NULL) {
		diag_add(diag, "no policy: use -p POLICY (see --help)");
		return -1;
	}
	if (o->policy[0] == '\0') {
		diag_add(diag, "-p: empty policy path");
		return -1;
	}
	if (o->check && o->learn != NULL) {
		diag_add(diag, "--check and --learn cannot be used together");
		return -1;
	}
	if (!o->check && o->argv == NULL) {
		diag_add(diag, "no command given (see --help)");
		return -1;
	}
	return 0;
}
