/* SPDX-License-Identifier: ISC */
/*
 * guardexec: run a command under a declarative policy and leave an audit
 * record.  main() is thin: parse the arguments, load the policy, decide
 * (environment, path, isolation, filter), run, record, exit.
 * See ARCHITECTURE.md for the path of one run.
 */
#include "config.h"

#include <errno.h>
#include <paths.h>
#include <stdarg.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <syslog.h>
#include <unistd.h>

#include "audit.h"
#include "cgroup.h"
#include "cli.h"
#include "env.h"
#include "filter.h"
#include "log.h"
#include "policy.h"
#include "prof.h"
#include "ns.h"
#include "sandbox.h"
#include "supervise.h"
#include "sys.h"
#include "trust.h"
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
	char *store;                /* the caller's trust store, or NULL */
	const char *trusted;        /* "owner", "hash", or NULL: untrusted */
	char **notices;             /* our own warnings, for the record */
	char proc_by[160];          /* how limits.processes is enforced */
	uint64_t processes_policy;  /* limits.processes as written */
	const char *mem_by;         /* how limits.memory is enforced */
};

/*
 * One of guardexec's own warnings about this run: it goes into the
 * record's "notices" and, unless -q, to stderr.  Hard errors do not come
 * here: they always reach stderr.
 */
static void __attribute__((format(printf, 2, 3)))
notice(struct state *st, const char *fmt, ...)
{
	va_list ap;
	char *m;

	va_start(ap, fmt);
	if (vasprintf(&m, fmt, ap) < 0)
		die("out of memory");
	va_end(ap);
	st->notices = strv_append(st->notices, m);
	if (!st->opts.quiet)
		warnx_gx("%s", m);
	free(m);
}

/*
 * Can syslog(3) take a record?  glibc's syslog() sends to _PATH_LOG and
 * reports nothing, so try to connect there the way it does.
 */
static bool
syslog_reachable(void)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	static const int types[] = { SOCK_DGRAM, SOCK_STREAM };

	strlcpy(sa.sun_path, _PATH_LOG, sizeof(sa.sun_path));
	for (size_t i = 0; i < 2; i++) {
		int fd = socket(AF_UNIX, types[i] | SOCK_CLOEXEC, 0);
		int rc;

		if (fd < 0)
			continue;
		rc = connect(fd, (struct sockaddr *)&sa, sizeof(sa));
		close(fd);
		if (rc == 0)
			return true;
	}
	return false;
}

/* Under on_log_failure = "warn", with no local log: does anything take
 * the record?  Say so when nothing does. */
static void
warn_unrecorded(struct state *st)
{
	bool sys = !st->have_policy || st->pol.audit_syslog;

	if (!sys || !syslog_reachable())
		notice(st, "warning: nothing records this run: the local audit "
		    "log is unusable and syslog %s", sys ? "cannot be reached "
		    "(" _PATH_LOG ")" : "is off (audit.syslog = false)");
}

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
		.limits_processes = st->proc_by[0] ? st->proc_by : NULL,
		.limits_memory = st->mem_by,
		.policy_writable = st->policy_writable,
		.policy_trusted = st->trusted,
		.notices = st->notices,
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
			if ((st->have_policy && !st->pol.audit_syslog) ||
			    !syslog_reachable())
				warnx_gx("warning: nothing recorded this run: "
				    "the local audit log failed and syslog %s",
				    st->have_policy && !st->pol.audit_syslog ?
				    "is off" : "cannot be reached");
		}
	}
	if (line == NULL)
		line = audit_format(rec, GX_ZERO_HASH);
	/* The syslog copy carries the hash too, to anchor the chain. */
	json_object_set_new(rec, "hash", json_stringn(audit_line_hash(line,
	    strlen(line)), 64));
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
 * Open @path for writing from its start, never through a symlink (a
 * command that may write its directory could plant one pointing at
 * ~/.bashrc) and never into anything but a regular file: O_NOFOLLOW,
 * O_NONBLOCK so a planted FIFO cannot hang us, fstat before truncating.
 * Returns the fd, or -1 with a message in @d.
 */
static int
open_no_follow(const char *path, struct gx_diag *d, const char *what)
{
	struct stat sb;
	int fd, errsv;

	fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOCTTY |
	    O_NOFOLLOW | O_NONBLOCK, 0600);
	if (fd < 0) {
		errsv = errno;
		diag_add(d, "%s %s: %s", what, path, errsv == ELOOP ?
		    "is a symbolic link; refusing to write through it" :
		    strerror(errsv));
		return -1;
	}
	if (fstat(fd, &sb) < 0 || !S_ISREG(sb.st_mode)) {
		diag_add(d, "%s %s: not a regular file; refusing to write to it",
		    what, path);
		close(fd);
		return -1;
	}
	if (ftruncate(fd, 0) < 0 || fcntl(fd, F_SETFL, 0) < 0) {
		errsv = errno;
		diag_add(d, "%s %s: %s", what, path, strerror(errsv));
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * How limits.processes and limits.memory hold for this run, for the
 * record and guardexec.cfg(5)'s table.  Without a cgroup, RLIMIT_NPROC
 * counts every task of the user, so it is set to what the user already
 * runs plus the limit: the family gets exactly its share.  Root is
 * exempt from RLIMIT_NPROC: without a cgroup or command.user, nothing
 * holds the processes limit, and the run says so.
 */
static void
limits_mechanisms(struct state *st)
{
	struct gx_rlimit_val *p = &st->pol.limits.processes;

	if (st->pol.limits.memory.set)
		st->mem_by = st->cg.memory ? "cgroup" : "rlimit_as";
	if (!p->set)
		return;
	st->processes_policy = p->value;
	/*
	 * RLIMIT_NPROC (set whenever the command runs as a non-root user,
	 * with or without a cgroup) counts every task of that user: add
	 * what the user already runs, so the family gets its share and a
	 * user with many processes can still fork.
	 */
	if (st->sb.ns & GX_NS_USER) {
		/*
		 * In its own user namespace the kernel counts only the
		 * namespace's tasks of that uid: the family, and our init.
		 */
		if (!st->cg.pids)
			strlcpy(st->proc_by, "rlimit_nproc (user namespace)",
			    sizeof(st->proc_by));
		p->value += 1;
	} else if (geteuid() != 0 || st->sb.drop_user) {
		unsigned long n = cgroup_count_tasks(st->sb.drop_user ?
		    st->sb.uid : getuid());

		if (!st->cg.pids)
			snprintf(st->proc_by, sizeof(st->proc_by), "rlimit_nproc "
			    "(%lu tasks already running + %llu)", n,
			    (unsigned long long)p->value);
		p->value += n;
	}
	if (st->cg.pids) {
		strlcpy(st->proc_by, "cgroup", sizeof(st->proc_by));
	} else if (geteuid() == 0 && !st->sb.drop_user) {
		strlcpy(st->proc_by, "none", sizeof(st->proc_by));
		notice(st, "warning: limits.processes is not enforced: root is "
		    "exempt from RLIMIT_NPROC and there is no cgroup (%s)",
		    st->cg.why);
	}
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
	st->result_fd = open_no_follow(r, d, "--result");
	return st->result_fd < 0 ? -1 : 0;
}

static void
open_log(struct state *st, struct gx_diag *d)
{
	const char *path = st->opts.log;
	char *def = NULL, *abs = NULL, cwd[4096];

	if (path == NULL && st->have_policy)
		path = st->pol.audit_log;
	if (path == NULL) {
		path = def = sys_default_log();
		if (path == NULL) {
			diag_add(d, "no audit log: no -l, no audit.log and no "
			    "HOME for the default one");
			if (st->have_policy &&
			    st->pol.on_log_failure == GX_LOGFAIL_REFUSE) {
				report_to_syslog(d->msgs[0]);
				refuse(st, d);
			}
			notice(st, "warning: %s; the record goes to syslog only",
			    d->msgs[0]);
			diag_free(d);
			warn_unrecorded(st);
			return;
		}
	} else if (path[0] != '/' && getcwd(cwd, sizeof(cwd)) != NULL) {
		path = abs = path_resolve(cwd, path);
	}
	if (audit_log_open(&st->log, path, def != NULL, d) == 0) {
		st->have_log = true;
	} else if (!st->have_policy ||
	    st->pol.on_log_failure == GX_LOGFAIL_REFUSE) {
		/* The default log too: an unwritable HOME is no silent run. */
		report_to_syslog(d->msgs[0]);
		free(def);
		free(abs);
		refuse(st, d);
	} else {
		notice(st, "warning: %s", d->msgs[0]);
		notice(st, "warning: running without the local audit log "
		    "(on_log_failure = \"warn\")");
		report_to_syslog(d->msgs[0]);
		diag_free(d);
		audit_log_close(&st->log);
		warn_unrecorded(st);
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

/* The run's write paths, "." made the working directory, with every
 * symlink resolved (NULL-terminated, malloc'd). */
static char **
real_write_paths(const struct state *st)
{
	const struct gx_policy *pol = &st->pol;
	char **v = NULL;

	for (size_t i = 0; pol->fs_write != NULL && pol->fs_write[i]; i++) {
		const char *w = strcmp(pol->fs_write[i], ".") == 0 ? st->cwd :
		    pol->fs_write[i];

		char *r = trust_real_path(w);

		v = strv_append(v, r);
		free(r);
	}
	return v;
}

/* Can the command change its own policy for the next run? */
static bool
policy_is_writable(const struct state *st, const char *real,
    char *const *writes)
{
	const struct gx_policy *pol = &st->pol;

	if (trust_inside(real, writes) != NULL)
		return true;
	if (!pol->has_filesystem && pol->user == NULL)
		return access(real, W_OK) == 0;
	return false;
}

/*
 * Guarantee 12: a policy the command could change (inside a write path
 * of the run, or not owned by root or the caller) runs only if the
 * caller trusted its exact bytes with --trust.  The trust store itself
 * must lie outside every write path, or the command could trust a
 * policy of its own.  Sets st->trusted; -1 with a message in @d.
 */
static int
decide_trust(struct state *st, struct gx_diag *d)
{
	char **writes = real_write_paths(st), *real, *sreal, why[PATH_MAX + 64];
	const char *in, *reason = why;
	bool known = false;
	int rc = -1;

	real = trust_real_path(st->pol.path);
	st->policy_writable = policy_is_writable(st, real, writes);
	if (st->store != NULL) {
		sreal = trust_real_path(st->store);
		in = trust_inside(sreal, writes);
		free(sreal);
		if (in != NULL) {
			diag_add(d, "trust store %s lies inside filesystem.write "
			    "\"%s\" of this run, so the command could trust a "
			    "policy of its own; narrow the write list or set "
			    "GUARDEXEC_TRUST_STORE", st->store, in);
			goto out;
		}
	}
	in = trust_inside(real, writes);
	if (in != NULL)
		snprintf(why, sizeof(why), "it lies inside filesystem.write "
		    "\"%s\"", in);
	else if (!trust_foreign(real, getuid(), why, sizeof(why)))
		reason = NULL;
	if (st->store == NULL && reason != NULL) {
		diag_add(d, "%s: not trusted: the command may change it (%s), "
		    "and there is no trust store (no HOME)", real, reason);
		goto out;
	}
	/*
	 * A path once trusted by hash stays bound to its bytes: a command
	 * that rewrites its policy to one without the write path that made
	 * it need trust (or without any filesystem group) is still caught.
	 */
	rc = st->store == NULL ? 0 :
	    trust_lookup(st->store, real, st->pol.sha256, &known, d);
	if (rc == 1) {
		st->trusted = "hash";
		rc = 0;
		goto out;
	}
	if (rc == 0 && reason == NULL && !known) {
		st->trusted = "owner";
		goto out;
	}
	if (rc == 0 && reason == NULL)
		diag_add(d, "%s: changed since it was trusted; review it with: "
		    "guardexec --trust %s", real, real);
	else if (rc == 0)
		diag_add(d, "%s: %s: the command may change it (%s); review it "
		    "with: guardexec --trust %s", real, known ?
		    "changed since it was trusted" : "not trusted", reason,
		    real);
	rc = -1;
out:
	free(real);
	strv_free(writes);
	return rc;
}

/* --trust FILE: show it, what changed, and trust its bytes. */
static int
trust_file(struct state *st)
{
	struct gx_diag d = { 0 };
	struct gx_policy pol;
	char *real;

	real = realpath(st->opts.trust, NULL);
	if (real == NULL) {
		warnx_gx("--trust %s: %s", st->opts.trust, strerror(errno));
		return GX_EXIT_FAILURE;
	}
	if (policy_load(real, geteuid() == 0, &pol, &d) < 0) {
		diag_print(&d);
		diag_free(&d);
		warnx_gx("%s: not trusted (fix the errors above first)", real);
		free(real);
		return GX_EXIT_FAILURE;
	}
	if (st->store == NULL)
		diag_add(&d, "--trust: no trust store (no HOME)");
	else if (trust_add(st->store, real, pol.sha256, stdout, &d) == 0 &&
	    !st->opts.quiet)
		warnx_gx("trusted %s (sha256 %s) in %s", real, pol.sha256,
		    st->store);
	policy_free(&pol);
	free(real);
	if (d.n > 0) {
		diag_print(&d);
		diag_free(&d);
		return GX_EXIT_FAILURE;
	}
	return 0;
}

static void
print_check(struct state *st, int lookup_rc)
{
	policy_print(&st->pol, stdout, NULL);
	printf("\n# trusted: %s\n", st->trusted != NULL ? st->trusted :
	    "no (a run is refused until: guardexec --trust FILE)");
	if (st->opts.argv != NULL) {
		printf("# command: %s\n", st->opts.argv[0]);
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

/*
 * --learn OUT must not be a symlink or anything but a regular file: say
 * so before the run rather than after it.  Returns -1 with a message.
 */
static int
check_learn_out(const char *out, struct gx_diag *d)
{
	struct stat sb;

	if (lstat(out, &sb) == 0 && !S_ISREG(sb.st_mode)) {
		diag_add(d, "--learn %s: %s; refusing to write through it", out,
		    S_ISLNK(sb.st_mode) ? "is a symbolic link" :
		    "not a regular file");
		return -1;
	}
	return 0;
}

/*
 * "-p OUT works at once" (CONTRACT, --learn): when OUT is a policy the
 * command could change (inside a write path of this run, or foreign),
 * trust the bytes guardexec itself wrote -- but only if the input policy
 * is still the one that ran: a command that edited it during the run
 * must not get its edits trusted.  -1 with a message in @d.
 */
static int
trust_learned(struct state *st, const char *dst, struct gx_diag *d)
{
	char **writes, *real, now[65], why[PATH_MAX + 64];
	bool need;
	int rc = 0;

	if (st->store == NULL)
		return 0;
	writes = real_write_paths(st);
	real = trust_real_path(dst);
	need = trust_inside(real, writes) != NULL ||
	    trust_foreign(real, getuid(), why, sizeof(why));
	if (need && (trust_file_sha256(st->pol.path, now) < 0 ||
	    strcmp(now, st->pol.sha256) != 0))
		notice(st, "warning: %s changed during the run, so %s is not "
		    "trusted; review it with: guardexec --trust %s",
		    st->pol.path, real, real);
	else if (need)
		rc = trust_record(st->store, real, dst, d);
	free(real);
	strv_free(writes);
	return rc;
}

/*
 * --learn: the learned policy goes to a new file next to OUT (created
 * with O_EXCL by mkstemp, so it is ours), which then replaces OUT with
 * rename(2): OUT is never opened, so a symlink planted there is
 * replaced, never written through.  The text itself comes from
 * policy_write_learned.
 */
static void
write_learned(struct state *st, const struct gx_outcome *out)
{
	const char *dst = st->opts.learn;
	struct gx_diag d = { 0 };
	char **used = NULL, *tmp, *slash;
	int fd;

	for (size_t i = 0; i < out->n_denied; i++)
		if (filter_resolve(out->denied[i].name) >= 0)
			used = strv_append(used, out->denied[i].name);
	slash = strrchr(dst, '/');
	tmp = slash == NULL ? xasprintf(".%s.XXXXXX", dst) :
	    xasprintf("%.*s/.%s.XXXXXX", (int)(slash - dst), dst, slash + 1);
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		diag_add(&d, "--learn %s: %s", dst, strerror(errno));
	} else {
		(void)fchmod(fd, 0644);
		close(fd);
		if (check_learn_out(dst, &d) < 0 ||
		    policy_write_learned(&st->pol, used, tmp, &d) < 0)
			unlink(tmp);
		else if (rename(tmp, dst) < 0) {
			diag_add(&d, "--learn %s: %s", dst, strerror(errno));
			unlink(tmp);
		} else {
			(void)trust_learned(st, dst, &d);
		}
	}
	if (d.n > 0) {
		diag_print(&d);
		diag_free(&d);
	} else if (!st->opts.quiet) {
		warnx_gx("learned %zu syscalls; wrote %s", strv_len(used), dst);
	}
	free(tmp);
	strv_free(used);
}

/* @v bytes the way a policy writes a size: "2G", "512M", "64K", "100". */
static void
format_size(uint64_t v, char *buf, size_t len)
{
	static const char units[] = "GMK";

	for (int i = 0; i < 3; i++) {
		uint64_t u = 1ULL << (10 * (3 - i));

		if (v >= u && v % u == 0) {
			snprintf(buf, len, "%llu%c", (unsigned long long)(v / u),
			    units[i]);
			return;
		}
	}
	snprintf(buf, len, "%llu", (unsigned long long)v);
}

/*
 * Why was @dn refused?  The deny entry that did it, or the group that
 * would allow it.  The "denied: NAME" prefix stays, for grep.
 */
static void
explain_denial(struct state *st, const struct gx_denial *dn)
{
	const struct gx_policy *pol = &st->pol;
	const char *g, *let = pol->default_action == GX_ACTION_LOG ?
	    "; let through (default_action = \"log\")" : "";

	if (strv_contains(pol->sys_deny, dn->name))
		notice(st, "denied: %s (x%lu) by syscalls.deny", dn->name,
		    dn->count);
	else if ((g = filter_group_of(dn->name, pol->sys_deny)) != NULL)
		notice(st, "denied: %s (x%lu) by syscalls.deny (%s)", dn->name,
		    dn->count, g);
	else if ((g = filter_group_of(dn->name, NULL)) != NULL)
		notice(st, "denied: %s (x%lu): not in syscalls.allow (%s or "
		    "\"%s\" would allow it)%s", dn->name, dn->count, g,
		    dn->name, let);
	else
		notice(st, "denied: %s (x%lu): not in syscalls.allow (\"%s\" "
		    "would allow it)%s", dn->name, dn->count, dn->name, let);
}

/*
 * Every refusal explains itself (issue 15): the timeout, the limit that
 * ended the run, the output cap, each denied syscall.  On stderr unless
 * -q, and in the record's notices.
 */
static void
explain_outcome(struct state *st, const struct gx_outcome *o, bool learn)
{
	const struct gx_limits *l = &st->pol.limits;
	const char *hit = o->limit_hit, *end;
	char v[64];

	end = o->status == GX_STATUS_SIGNALED ? ": killed" : "";
	if (o->timed_out) {
		notice(st, "timed out after %g s (limits.timeout)", l->timeout);
	} else if (hit != NULL && strcmp(hit, "memory") == 0) {
		format_size(l->memory.value, v, sizeof(v));
		notice(st, "memory limit (%s) reached%s", v, end);
	} else if (hit != NULL && strcmp(hit, "processes") == 0) {
		notice(st, "processes limit (%llu) reached%s",
		    (unsigned long long)st->processes_policy, end);
	} else if (hit != NULL && strcmp(hit, "cpu") == 0) {
		notice(st, "cpu limit (%llu s) reached%s",
		    (unsigned long long)l->cpu.value, end);
	} else if (hit != NULL && strcmp(hit, "file_size") == 0) {
		format_size(l->file_size.value, v, sizeof(v));
		notice(st, "file_size limit (%s) reached%s", v, end);
	} else if (hit != NULL && strcmp(hit, "output") == 0) {
		if (st->pol.on_overflow == GX_OVERFLOW_KILL)
			notice(st, "output limit (%llu bytes, output.max_bytes) "
			    "reached: killed",
			    (unsigned long long)st->pol.max_bytes);
		else    /* the marker line already said so on stderr */
			st->notices = strv_append(st->notices, "output "
			    "truncated (output.max_bytes)");
	}
	for (size_t i = 0; !learn && i < o->n_denied; i++)
		explain_denial(st, &o->denied[i]);
}

/* --check: say where syscalls.allow and syscalls.deny overlap (deny
 * wins, so the allow entry does nothing for those). */
static void
check_overlap(struct state *st)
{
	char *const *allow = st->pol.sys_allow_src, *const *deny =
	    st->pol.sys_deny;

	for (size_t i = 0; allow != NULL && allow[i] != NULL; i++) {
		const char *const *am = filter_group(allow[i]);
		const char *one[2] = { allow[i], NULL };

		if (am == NULL)
			am = one;
		for (size_t j = 0; deny != NULL && deny[j] != NULL; j++) {
			const char *const *dm = filter_group(deny[j]);
			const char *both = NULL;
			size_t n = 0;

			for (size_t a = 0; am[a] != NULL; a++) {
				bool in = dm == NULL ?
				    strcmp(deny[j], am[a]) == 0 : false;

				for (size_t b = 0; dm != NULL && dm[b]; b++)
					in = in || strcmp(dm[b], am[a]) == 0;
				if (in && n++ == 0)
					both = am[a];
			}
			if (n > 0)
				notice(st, "warning: syscalls: \"%s\" in allow "
				    "and \"%s\" in deny overlap (%s%s); deny "
				    "wins", allow[i], deny[j], both,
				    n > 1 ? ", ..." : "");
		}
	}
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
	free(st->store);
	strv_free(st->notices);
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

	prof_start();
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
		/* The write list holds ".": it needs trust before it runs. */
		if (!st.opts.quiet)
			warnx_gx("review it, then trust it: guardexec --trust %s",
			    written);
		free(written);
		return 0;
	}
	{
		/* HOME is read now, before our environment is wiped. */
		char *home = sys_caller_home();

		st.store = trust_store_path(home);
		free(home);
	}
	if (st.opts.trust != NULL) {
		int rc = trust_file(&st);

		state_free(&st);
		return rc;
	}
	st.policy_path = sys_find_policy(st.opts.policy, &d);
	if (st.policy_path != NULL)
		st.opts.policy = st.policy_path;
	if (st.policy_path == NULL ||
	    policy_load(st.opts.policy, geteuid() == 0, &st.pol, &d) < 0) {
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
		if (st.opts.learn != NULL && check_learn_out(st.opts.learn,
		    &d) < 0)
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
	if (decide_trust(&st, &d) < 0) {
		if (!st.opts.check)
			refuse(&st, &d);
		for (size_t i = 0; i < d.n; i++)
			notice(&st, "warning: %s", d.msgs[i]);
		diag_free(&d);
	}
	if (st.policy_writable && st.trusted != NULL &&
	    strcmp(st.trusted, "hash") != 0 &&
	    (st.opts.check || st.pol.has_filesystem))
		notice(&st, "warning: the command can rewrite its own policy %s "
		    "for the next run", st.pol.path);
	if (st.opts.check) {
		char why[96] = "";
		unsigned nsb = ns_probe(st.pol.network == GX_NET_NONE, why,
		    sizeof(why));

		check_overlap(&st);
		if (geteuid() == 0 && st.pol.user == NULL && nsb == 0)
			notice(&st, "warning: running as root with no command.user: "
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
	prof_mark("policy");
	if (sandbox_prepare(&st.pol, st.cwd, &st.sb, &d) < 0)
		refuse(&st, &d);
	prof_mark("sandbox");
	cgroup_prepare(&st.pol, &st.cg);
	prof_mark("cgroup-prepare");
	require_isolation(&st, &d);
	if (need_mount_ns(&st) && !(st.sb.ns & GX_NS_MOUNT)) {
		diag_add(&d, GX_ROOT_FS_NEEDS_NS, st.sb.ns_why);
		refuse(&st, &d);
	}
	if (st.sb.ns == 0)
		notice(&st, "warning: no namespaces (%s): the command sees the "
		    "host's processes and filesystem, fenced only by seccomp "
		    "and Landlock", st.sb.ns_why);
	else if ((st.sb.ns_wanted & GX_NS_NET) && !(st.sb.ns & GX_NS_NET))
		notice(&st, "warning: no network namespace (%s): network = "
		    "\"none\" is enforced by the seccomp socket guard only",
		    st.sb.ns_why);
	limits_mechanisms(&st);
	if (filter_build(&st.pol, st.sb.net_seccomp, st.opts.learn != NULL,
	    &filter, &d) < 0)
		refuse(&st, &d);
	prof_mark("filter");
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
		notice(&st, "warning: some processes of the command could not be "
		    "killed");
	prof_mark("supervise-end");
	explain_outcome(&st, &out, run.learn);
	emit(&st, &out, out.error[0] ? out.error : NULL);
	prof_mark("record");
	prof_report();
	if (run.learn && out.status != GX_STATUS_REFUSED)
		write_learned(&st, &out);

	filter_free(&filter);
	state_free(&st);
	return out.exit_code;
}
