/* SPDX-License-Identifier: ISC */
/*
 * guardexec: run a command under a declarative policy and leave an audit
 * record.  main() is thin: parse the arguments, load the policy, decide
 * (environment, path, isolation, filter), run, record, exit.
 * See ARCHITECTURE.md for the path of one run.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <syslog.h>
#include <unistd.h>

#include "audit.h"
#include "cgroup.h"
#include "cli.h"
#include "env.h"
#include "filter.h"
#include "log.h"
#include "policy.h"
#include "ns.h"
#include "sandbox.h"
#include "supervise.h"
#include "sys.h"
#include "util.h"

extern char **environ;

/* Everything one invocation decided, for the record at the end. */
struct state {
	struct gx_opts opts;
	char *policy_path;          /* -p after sys_find_policy */
	struct gx_policy pol;
	bool have_policy;
	char *cwd;
	struct gx_env env;
	bool have_env;
	char *exec_path;
	const struct gx_advisory_rule **adv;
	struct gx_sandbox sb;
	struct gx_cgroup cg;
	struct gx_log log;
	bool have_log;
	int result_fd;
	bool policy_writable;
};

static void
report_to_syslog(const char *msg)
{
	openlog("guardexec", LOG_PID | LOG_NDELAY, LOG_AUTHPRIV);
	syslog(LOG_ERR, "%s", msg);
	closelog();
}

/*
 * Build, chain and emit the record: local log, --result, syslog.
 * Returns false when the local log could not be written.
 */
static bool
emit(struct state *st, const struct gx_outcome *o, const char *error)
{
	struct gx_record_in in = {
		.argv = st->opts.argv,
		.cwd = st->cwd,
		.exec_path = st->exec_path,
		.pol = st->have_policy ? &st->pol : NULL,
		.policy_path = st->opts.policy,
		.env = st->have_env ? &st->env : NULL,
		.advisory = st->adv,
		.outcome = o,
		.error = error,
		.isolation_fs = st->sb.fs_desc[0] ? st->sb.fs_desc : NULL,
		.isolation_net = st->sb.net_desc,
		.isolation_cgroup = st->cg.active ? st->cg.desc : NULL,
		.isolation_cgroup_why = st->cg.active || !st->cg.why[0] ? NULL :
		    st->cg.why,
		.isolation_user = st->sb.user_desc,
		.isolation_ns_wanted = st->sb.ns_wanted,
		.isolation_ns_why = o != NULL && o->ns_missing[0] ?
		    o->ns_missing : st->sb.ns_why[0] ? st->sb.ns_why : NULL,
		.policy_writable = st->policy_writable,
		.learn = st->opts.learn != NULL,
	};
	struct gx_diag d = { 0 };
	char *line = NULL;
	bool ok = true;
	json_t *rec;

	rec = audit_build(&in);
	if (st->have_log) {
		bool sync = st->have_policy ? st->pol.audit_sync : true;

		if (audit_log_append(&st->log, rec, sync, &line, &d) < 0) {
			diag_print(&d);
			report_to_syslog(d.msgs[0]);
			diag_free(&d);
			ok = false;
		}
	}
	if (line == NULL)
		line = audit_format(rec, GX_ZERO_HASH);
	/* The syslog copy carries the hash too, to anchor the chain. */
	json_object_set_new(rec, "hash", json_stringn(line + strlen(line) - 67,
	    64));
	if (st->result_fd >= 0) {
		size_t len = strlen(line), off = 0;

		while (off < len) {
			ssize_t n = write(st->result_fd, line + off, len - off);

			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0) {
				warnx_gx("--result %s: %s", st->opts.result,
				    strerror(errno));
				break;
			}
			off += (size_t)n;
		}
	}
	if (!st->have_policy || st->pol.audit_syslog)
		audit_syslog(rec, st->have_policy ? st->pol.audit_facility :
		    LOG_AUTHPRIV);
	free(line);
	json_decref(rec);
	return ok;
}

/* Refuse before the run: the message, a record, exit 125. */
static void __attribute__((noreturn))
refuse(struct state *st, struct gx_diag *d)
{
	diag_print(d);
	emit(st, NULL, d->n > 0 ? d->msgs[0] : "refused");
	diag_free(d);
	exit(GX_EXIT_FAILURE);
}

/*
 * isolation.require: refuse when a required mechanism is not in force
 * for this run (namespaces: the kernel let us create them just now).
 */
static void
require_isolation(struct state *st, struct gx_diag *d)
{
	unsigned have = 0, missing;

	if (st->sb.netns)
		have |= GX_ISO_NETWORK;
	if (st->sb.ns & GX_NS_USER)
		have |= GX_ISO_USER;
	if (st->sb.ns & GX_NS_PID)
		have |= GX_ISO_PID;
	if (st->sb.ns & GX_NS_MOUNT)
		have |= GX_ISO_MOUNT;
	if (st->cg.active)
		have |= GX_ISO_CGROUP;
	if (st->sb.landlock_fd >= 0)
		have |= GX_ISO_LANDLOCK;
	missing = st->pol.iso_require & ~have;
	for (int b = 0; gx_iso_names[b] != NULL; b++)
		if (missing & (1u << b))
			diag_add(d, "%s: isolation.require: \"%s\" is not "
			    "available for this run", st->pol.path,
			    gx_iso_names[b]);
	if (missing)
		refuse(st, d);
}

/*
 * A root caller's command with a filesystem group and no command.user
 * is uid 0: only a mount namespace's read-only view stops it changing
 * metadata (chmod, chown, utimes, xattrs) and using device nodes, which
 * Landlock does not govern.  Without one: refuse (guarantee 11), never
 * fall back.  A non-root command keeps the Landlock fallback.
 */
static bool
need_mount_ns(const struct state *st)
{
	return geteuid() == 0 && st->pol.user == NULL &&
	    st->pol.has_filesystem;
}

/* Open --result; -1 with a message in @d on failure. */
static int
open_result(struct state *st, struct gx_diag *d)
{
	const char *r = st->opts.result;
	int fd = -1;

	if (r == NULL)
		return 0;
	/* /dev/fd/N names an open descriptor: write at its own offset. */
	if (strcmp(r, "/dev/stdout") == 0)
		fd = 1;
	else if (strcmp(r, "/dev/stderr") == 0)
		fd = 2;
	else if (strncmp(r, "/dev/fd/", 8) == 0 && r[8] >= '0' && r[8] <= '9')
		fd = atoi(r + 8);
	if (fd >= 0) {
		st->result_fd = fcntl(fd, F_DUPFD_CLOEXEC, 3);
		if (st->result_fd < 0) {
			diag_add(d, "--result %s: %s", r, strerror(errno));
			return -1;
		}
		return 0;
	}
	st->result_fd = open(st->opts.result, O_WRONLY | O_CREAT | O_TRUNC |
	    O_CLOEXEC | O_NOCTTY, 0600);
	if (st->result_fd < 0) {
		diag_add(d, "--result %s: %s", st->opts.result, strerror(errno));
		return -1;
	}
	return 0;
}

static void
open_log(struct state *st, struct gx_diag *d)
{
	const char *path = st->opts.log;
	bool explicit = true;
	char *def = NULL, *abs = NULL, cwd[4096];

	if (path == NULL && st->have_policy)
		path = st->pol.audit_log;
	if (path == NULL) {
		explicit = false;
		path = def = sys_default_log();
		if (path == NULL) {
			warnx_gx("warning: no audit log (no -l, no audit.log, "
			    "no HOME); the record goes to syslog only");
			return;
		}
	} else if (path[0] != '/' && getcwd(cwd, sizeof(cwd)) != NULL) {
		path = abs = path_resolve(cwd, path);
	}
	if (audit_log_open(&st->log, path, !explicit, d) == 0) {
		st->have_log = true;
	} else if (!st->have_policy ||
	    (explicit && st->pol.on_log_failure == GX_LOGFAIL_REFUSE)) {
		report_to_syslog(d->msgs[0]);
		free(def);
		free(abs);
		refuse(st, d);
	} else {
		diag_print(d);
		warnx_gx("warning: running without the local audit log "
		    "(on_log_failure = \"warn\")");
		report_to_syslog(d->msgs[0]);
		diag_free(d);
		audit_log_close(&st->log);
	}
	free(def);
	free(abs);
}

static void
resolve_cwd(struct state *st, struct gx_diag *d)
{
	char *c;

	if (st->opts.cwd != NULL) {
		c = realpath(st->opts.cwd, NULL);
		if (c == NULL) {
			diag_add(d, "-C %s: %s", st->opts.cwd, strerror(errno));
			refuse(st, d);
		}
		st->cwd = c;
	} else {
		c = getcwd(NULL, 0);
		if (c == NULL) {
			diag_add(d, "getcwd: %s", strerror(errno));
			refuse(st, d);
		}
		st->cwd = c;
	}
}

/* Can the command change its own policy for the next run? */
static bool
policy_is_writable(const struct state *st)
{
	const struct gx_policy *pol = &st->pol;

	for (size_t i = 0; pol->fs_write != NULL && pol->fs_write[i]; i++) {
		const char *w = strcmp(pol->fs_write[i], ".") == 0 ? st->cwd :
		    pol->fs_write[i];
		size_t n = strlen(w);

		if (strcmp(w, "/") == 0 || (strncmp(pol->path, w, n) == 0 &&
		    pol->path[n] == '/'))
			return true;
	}
	if (!pol->has_filesystem && pol->user == NULL)
		return access(pol->path, W_OK) == 0;
	return false;
}

static void
print_check(struct state *st, int lookup_rc)
{
	policy_print(&st->pol, stdout, NULL);
	if (st->opts.argv != NULL) {
		printf("\n# command: %s\n", st->opts.argv[0]);
		if (lookup_rc == 0)
			printf("# resolved: %s\n", st->exec_path);
		else if (lookup_rc == -EACCES)
			printf("# resolved: %s (not executable)\n",
			    st->exec_path);
		else
			printf("# resolved: not found on PATH=%s\n",
			    env_get(st->env.envp, "PATH") ?: GX_DEFAULT_PATH);
		printf("# env passed:");
		for (size_t i = 0; st->env.passed[i] != NULL; i++)
			printf(" %s", st->env.passed[i]);
		printf("\n# env dropped:");
		for (size_t i = 0; st->env.dropped[i] != NULL; i++)
			printf(" %s", st->env.dropped[i]);
		printf("\n");
		for (size_t i = 0; st->adv[i] != NULL; i++)
			printf("# advisory (not enforced): %s: %s\n",
			    st->adv[i]->match ? st->adv[i]->match :
			    st->adv[i]->regex, st->adv[i]->reason);
	}
	if (fflush(stdout) != 0)
		die_errno("writing to stdout");
}

/* --learn: the input policy with what the run used added. */
static void
write_learned(struct state *st, const struct gx_outcome *out)
{
	struct gx_diag d = { 0 };
	char **used = NULL;

	for (size_t i = 0; i < out->n_denied; i++)
		if (filter_resolve(out->denied[i].name) >= 0)
			used = strv_append(used, out->denied[i].name);
	if (policy_write_learned(&st->pol, used, st->opts.learn, &d) < 0) {
		diag_print(&d);
		diag_free(&d);
	} else if (!st->opts.quiet) {
		warnx_gx("learned %zu syscalls; wrote %s", strv_len(used),
		    st->opts.learn);
	}
	strv_free(used);
}

/*
 * Once the command may run, a die() anywhere (out of memory, a failed
 * system call) kills its family and records the run before exiting.
 */
static struct state *die_state;
static struct gx_outcome *die_out;

static void
die_with_record(const char *msg)
{
	supervise_abort(die_out, msg);
	emit(die_state, die_out, msg);
}

static void
state_free(struct state *st)
{
	free(st->policy_path);
	cgroup_destroy(&st->cg);
	sandbox_free(&st->sb);
	audit_log_close(&st->log);
	free(st->adv);
	free(st->exec_path);
	free(st->cwd);
	if (st->have_env)
		env_free(&st->env);
	if (st->have_policy)
		policy_free(&st->pol);
	if (st->result_fd >= 0)
		close(st->result_fd);
}

int
main(int argc, char **argv)
{
	struct state st = { .result_fd = -1 };
	struct gx_diag d = { 0 };
	struct gx_filter filter = { 0 };
	struct gx_outcome out;
	struct gx_run run;
	int lookup_rc;

	if (sys_ensure_stdio() < 0)
		return GX_EXIT_FAILURE;
	st.sb.landlock_fd = -1;
	st.log.fd = -1;
	st.log.head_fd = -1;
	for (int c = 0; c < GX_CG_N; c++)
		st.cg.procs_fd[c] = -1;
	if (cli_parse(argc, argv, &st.opts, &d) < 0) {
		diag_print(&d);
		diag_free(&d);
		/* Every line on stderr is guardexec's: no bare usage text. */
		warnx_gx("usage: guardexec -p POLICY [OPTIONS] [--] COMMAND "
		    "[ARG...] (see guardexec --help)");
		return GX_EXIT_FAILURE;
	}
	if (st.opts.help) {
		fputs(cli_usage, stdout);
		return 0;
	}
	if (st.opts.version) {
		printf("guardexec %s\n", PACKAGE_VERSION);
		return 0;
	}
	if (st.opts.init) {
		char *written;

		if (sys_init_policy(st.opts.init_dir, &written, &d) < 0) {
			diag_print(&d);
			diag_free(&d);
			return GX_EXIT_FAILURE;
		}
		printf("guardexec: wrote %s\n", written);
		free(written);
		return 0;
	}
	st.opts.policy = st.policy_path = sys_find_policy(st.opts.policy);
	if (policy_load(st.opts.policy, geteuid() == 0, &st.pol, &d) < 0) {
		if (!st.opts.check) {
			struct gx_diag d2 = { 0 };

			/* The record of the refusal goes where it can. */
			(void)open_result(&st, &d2);
			if (st.opts.log != NULL &&
			    audit_log_open(&st.log, st.opts.log, false, &d2) == 0)
				st.have_log = true;
			diag_free(&d2);
		}
		refuse(&st, &d);
	}
	st.have_policy = true;
	if (!st.opts.check) {
		if (open_result(&st, &d) < 0)
			refuse(&st, &d);
		open_log(&st, &d);
	}
	resolve_cwd(&st, &d);
	env_build(&st.pol, environ, &st.env);
	st.have_env = true;
	if (st.opts.argv != NULL) {
		lookup_rc = sys_lookup_command(st.opts.argv[0],
		    env_get(st.env.envp, "PATH") ?: GX_DEFAULT_PATH, st.cwd,
		    &st.exec_path);
		st.adv = advisory_match(&st.pol, st.opts.argv);
	} else {
		lookup_rc = 0;
		st.adv = advisory_match(&st.pol, (char *[]){ NULL });
	}
	st.policy_writable = policy_is_writable(&st);
	if (st.policy_writable && (st.opts.check || st.pol.has_filesystem))
		warnx_gx("warning: the command can rewrite its own policy %s "
		    "for the next run", st.pol.path);
	if (st.opts.check) {
		char why[96] = "";
		unsigned nsb = ns_probe(st.pol.network == GX_NET_NONE, why,
		    sizeof(why));

		if (geteuid() == 0 && st.pol.user == NULL && nsb == 0)
			warnx_gx("warning: running as root with no command.user: "
			    "root inside the sandbox is still root");
		print_check(&st, lookup_rc);
		if (nsb != 0) {
			printf("# namespaces:");
			for (int b = 0; gx_ns_names[b] != NULL; b++)
				if (nsb & (1u << b))
					printf(" %s", gx_ns_names[b]);
			printf("\n");
			if (st.pol.network == GX_NET_NONE &&
			    !(nsb & GX_NS_NET))
				printf("# namespaces: missing (the kernel refused "
				    "them: %s): net\n", why);
			/*
			 * The map is 0->0: no capability, but the files of
			 * root are still its own, and uid checks pass.
			 */
			if (geteuid() == 0 && st.pol.user == NULL)
				printf("# user: uid 0 of its own user namespace, "
				    "mapped to host uid 0, with no capabilities: "
				    "it still owns root's files, and only "
				    "read-only mounts stop its writes (the "
				    "view's; /proc/sys and /sys always)%s\n",
				    st.pol.has_filesystem ? "" : "; with no "
				    "filesystem group it can write every file "
				    "root can");
		} else {
			printf("# namespaces: missing (the kernel refused them: "
			    "%s): user pid mount ipc%s\n", why,
			    st.pol.network == GX_NET_NONE ? " net" : "");
			if (need_mount_ns(&st))
				printf("# run: refused: " GX_ROOT_FS_NEEDS_NS
				    "\n", why);
		}
		state_free(&st);
		return 0;
	}

	if (lookup_rc < 0) {
		struct gx_outcome o = { 0 };

		o.status = GX_STATUS_EXEC_FAILED;
		o.exit_code = lookup_rc == -EACCES ? GX_EXIT_NOEXEC :
		    GX_EXIT_NOTFOUND;
		clock_gettime(CLOCK_REALTIME, &o.start);
		o.end = o.start;
		snprintf(o.error, sizeof(o.error), "%s: %s", st.opts.argv[0],
		    lookup_rc == -EACCES ? "permission denied" :
		    "command not found");
		warnx_gx("%s", o.error);
		emit(&st, &o, o.error);
		state_free(&st);
		return o.exit_code;
	}
	if (sandbox_prepare(&st.pol, st.cwd, &st.sb, &d) < 0)
		refuse(&st, &d);
	cgroup_prepare(&st.pol, &st.cg);
	require_isolation(&st, &d);
	if (need_mount_ns(&st) && !(st.sb.ns & GX_NS_MOUNT)) {
		diag_add(&d, GX_ROOT_FS_NEEDS_NS, st.sb.ns_why);
		refuse(&st, &d);
	}
	if (st.sb.ns == 0 && !st.opts.quiet)
		warnx_gx("warning: no namespaces (%s): the command sees the "
		    "host's processes and filesystem, fenced only by seccomp "
		    "and Landlock", st.sb.ns_why);
	else if (st.sb.ns != 0 && (st.sb.ns_wanted & GX_NS_NET) &&
	    !(st.sb.ns & GX_NS_NET) && !st.opts.quiet)
		warnx_gx("warning: no network namespace (%s): network = "
		    "\"none\" is enforced by the seccomp socket guard only",
		    st.sb.ns_why);
	if (filter_build(&st.pol, st.sb.net_seccomp, st.opts.learn != NULL,
	    &filter, &d) < 0)
		refuse(&st, &d);
	for (size_t i = 0; !st.opts.quiet && st.adv[i] != NULL; i++)
		warnx_gx("advisory (not enforced): %s: %s",
		    st.adv[i]->match ? st.adv[i]->match : st.adv[i]->regex,
		    st.adv[i]->reason);

	/* From here on our own environment holds nothing worth reading. */
	sys_wipe_environ(environ);
	if (supervise_init() < 0) {
		diag_add(&d, "preparing to supervise: %s", strerror(errno));
		refuse(&st, &d);
	}
	run = (struct gx_run){
		.pol = &st.pol,
		.argv = st.opts.argv,
		.exec_path = st.exec_path,
		.envp = st.env.envp,
		.cwd = st.cwd,
		.filter = &filter,
		.landlock_fd = st.sb.landlock_fd,
		.landlock_abi = st.sb.landlock_abi,
		.use_ns = st.sb.ns != 0,
		.ns_required = need_mount_ns(&st),
		.netns = st.sb.netns,
		.learn = st.opts.learn != NULL,
		.cgroup = &st.cg,
		.use_rlimit_as = st.pol.limits.memory.set && !st.cg.memory,
		.drop_user = st.sb.drop_user,
		.uid = st.sb.uid,
		.gid = st.sb.gid,
		.groups = st.sb.groups,
		.ngroups = st.sb.ngroups,
	};
	memset(&out, 0, sizeof(out));
	die_state = &st;
	die_out = &out;
	log_set_die_hook(die_with_record);
	if (supervise_run(&run, &out) < 0) {
		if (out.status == GX_STATUS_REFUSED)
			warnx_gx("setting up the command: %s", out.error);
		else
			warnx_gx("%s", out.error);
	}
	if (out.left_running)
		warnx_gx("warning: some processes of the command could not be "
		    "killed");
	for (size_t i = 0; !st.opts.quiet && !run.learn && i < out.n_denied; i++)
		warnx_gx("denied: %s (x%lu)", out.denied[i].name,
		    out.denied[i].count);
	emit(&st, &out, out.error[0] ? out.error : NULL);
	if (run.learn && out.status != GX_STATUS_REFUSED)
		write_learned(&st, &out);

	filter_free(&filter);
	state_free(&st);
	return out.exit_code;
}
