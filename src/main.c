/* SPDX-License-Identifier: ISC */
/*
 * guardexec: run a command under a declarative policy and leave an audit
 * record.  main() is thin: parse the arguments, load the policy, decide
 * (environment, path, isolation, filter), run, record, exit.
 * See ARCHITECTURE.md for the path of one run.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "audit.h"
#include "cli.h"
#include "decide.h"
#include "emit.h"
#include "explain.h"
#include "filter.h"
#include "fswatch.h"
#include "learn.h"
#include "log.h"
#include "mechanisms.h"
#include "modes.h"
#include "policy.h"
#include "prof.h"
#include "state.h"
#include "supervise.h"
#include "sys.h"
#include "trust.h"

extern char **environ;

/*
 * Once the command may run, a die() anywhere (out of memory, a failed
 * system call) kills its family and records the run before exiting.
 */
static struct gx_state *die_state;
static struct gx_outcome *die_out;

static void
die_with_record(const char *msg)
{
	supervise_abort(die_out, msg);
	emit(die_state, die_out, msg);
}

/*
 * The modes that end before a policy is loaded: a usage error, --help,
 * --version, --init, --trust.  Returns true with the exit status in *@rc
 * when one of them ran.  Reads HOME (the trust store) now, before our
 * environment is wiped.
 */
static bool
early_mode(int argc, char **argv, struct gx_state *st, int *rc)
{
	struct gx_diag d = { 0 };

	*rc = 0;
	if (cli_parse(argc, argv, &st->opts, &d) < 0) {
		diag_print(&d);
		diag_free(&d);
		/* Every line on stderr is guardexec's: no bare usage text. */
		warnx_gx("usage: guardexec -p POLICY [OPTIONS] [--] COMMAND "
		    "[ARG...] (see guardexec --help)");
		*rc = GX_EXIT_FAILURE;
		return true;
	}
	if (st->opts.help) {
		fputs(cli_usage, stdout);
		return true;
	}
	if (st->opts.version) {
		printf("guardexec %s\n", PACKAGE_VERSION);
		return true;
	}
	if (st->opts.init) {
		*rc = mode_init(st);
		return true;
	}
	{
		/* HOME is read now, before our environment is wiped. */
		char *home = sys_caller_home();

		st->store = trust_store_path(home);
		fswatch_set_home(home);
		free(home);
	}
	if (st->opts.trust != NULL) {
		*rc = mode_trust(st);
		state_free(st);
		return true;
	}
	return false;
}

/*
 * Find and load the policy, then (unless --check) open --result, check
 * --learn OUT and open the audit log.  A failure is a refusal with a
 * record where one can go (emit_refuse: exit 125).
 */
static void
load_policy(struct gx_state *st, struct gx_diag *d)
{
	st->policy_path = sys_find_policy(st->opts.policy, d);
	if (st->policy_path != NULL)
		st->opts.policy = st->policy_path;
	if (st->policy_path == NULL ||
	    policy_load(st->opts.policy, geteuid() == 0, &st->pol, d) < 0) {
		if (!st->opts.check) {
			struct gx_diag d2 = { 0 };

			/* The record of the refusal goes where it can. */
			(void)emit_open_result(st, &d2);
			if (st->opts.log != NULL && audit_log_open(&st->log,
			    st->opts.log, false, &d2) == 0)
				st->have_log = true;
			diag_free(&d2);
		}
		emit_refuse(st, d);
	}
	st->have_policy = true;
	if (!st->opts.check) {
		if (emit_open_result(st, d) < 0)
			emit_refuse(st, d);
		if (st->opts.learn != NULL && learn_check_out(st->opts.learn,
		    d) < 0)
			emit_refuse(st, d);
		emit_open_log(st, d);
	}
}

/* The command was not found (127) or not executable (126): its record. */
static int
not_found(struct gx_state *st, int lookup_rc)
{
	struct gx_outcome o = { 0 };

	o.status = GX_STATUS_EXEC_FAILED;
	o.exit_code = lookup_rc == -EACCES ? GX_EXIT_NOEXEC :
	    GX_EXIT_NOTFOUND;
	clock_gettime(CLOCK_REALTIME, &o.start);
	o.end = o.start;
	snprintf(o.error, sizeof(o.error), "%s: %s", st->opts.argv[0],
	    lookup_rc == -EACCES ? "permission denied" :
	    "command not found");
	warnx_gx("%s", o.error);
	emit(st, &o, o.error);
	state_free(st);
	return o.exit_code;
}

/*
 * Act: compile the filter, wipe our environment, supervise the command,
 * explain and record how it ended, write --learn's policy.  Returns the
 * exit status.
 */
static int
run_command(struct gx_state *st, struct gx_diag *d)
{
	struct gx_filter filter = { 0 };
	struct gx_outcome out;
	struct gx_run run;

	if (filter_build(&st->pol, st->sb.net_seccomp, st->opts.learn != NULL,
	    &filter, d) < 0)
		emit_refuse(st, d);
	prof_mark("filter");
	for (size_t i = 0; !st->opts.quiet && st->adv[i] != NULL; i++)
		warnx_gx("advisory (not enforced): %s: %s",
		    st->adv[i]->match ? st->adv[i]->match : st->adv[i]->regex,
		    st->adv[i]->reason);

	/* From here on our own environment holds nothing worth reading. */
	sys_wipe_environ(environ);
	if (supervise_init() < 0) {
		diag_add(d, "preparing to supervise: %s", strerror(errno));
		emit_refuse(st, d);
	}
	run = (struct gx_run){
		.pol = &st->pol,
		.argv = st->opts.argv,
		.exec_path = st->exec_path,
		.envp = st->env.envp,
		.cwd = st->cwd,
		.filter = &filter,
		.landlock_fd = st->sb.landlock_fd,
		.landlock_abi = st->sb.landlock_abi,
		.use_ns = st->sb.ns != 0,
		.ns_required = mechanisms_need_mount_ns(st),
		.netns = st->sb.netns,
		.learn = st->opts.learn != NULL,
		.cgroup = &st->cg,
		.use_rlimit_as = st->pol.limits.memory.set && !st->cg.memory,
		.drop_user = st->sb.drop_user,
		.uid = st->sb.uid,
		.gid = st->sb.gid,
		.groups = st->sb.groups,
		.ngroups = st->sb.ngroups,
	};
	memset(&out, 0, sizeof(out));
	die_state = st;
	die_out = &out;
	log_set_die_hook(die_with_record);
	if (supervise_run(&run, &out) < 0) {
		if (out.status == GX_STATUS_REFUSED)
			warnx_gx("setting up the command: %s", out.error);
		else
			warnx_gx("%s", out.error);
	}
	if (out.left_running)
		notice(st, "warning: some processes of the command could not "
		    "be killed");
	prof_mark("supervise-end");
	explain_outcome(st, &out, run.learn);
	emit(st, &out, out.error[0] ? out.error : NULL);
	prof_mark("record");
	prof_report();
	if (run.learn && out.status != GX_STATUS_REFUSED)
		learn_write(st, &out);
	fswatch_outcome_free(&out);

	filter_free(&filter);
	state_free(st);
	return out.exit_code;
}

/*
 * The order of one run (ARCHITECTURE.md): parse, load the policy, decide
 * (working directory, environment, command, trust), --check stops here;
 * prepare the mechanisms, run, record, exit with the command's status.
 */
int
main(int argc, char **argv)
{
	struct gx_state st;
	struct gx_diag d = { 0 };
	int lookup_rc, rc;

	prof_start();
	if (sys_ensure_stdio() < 0)
		return GX_EXIT_FAILURE;
	state_init(&st);
	if (early_mode(argc, argv, &st, &rc))
		return rc;
	load_policy(&st, &d);
	lookup_rc = decide_run(&st, &d);
	if (st.opts.check) {
		mode_check(&st, lookup_rc);
		state_free(&st);
		return 0;
	}
	if (lookup_rc < 0)
		return not_found(&st, lookup_rc);
	mechanisms_decide(&st, &d);
	return run_command(&st, &d);
}
