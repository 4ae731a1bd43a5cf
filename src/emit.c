/* SPDX-License-Identifier: ISC */
/*
 * Where the record goes: --result and the local audit log, opened before
 * the run; the record built, chained and written to them and to syslog;
 * a refusal that leaves a record.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <paths.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <syslog.h>
#include <unistd.h>

#include "audit.h"
#include "emit.h"
#include "sys.h"
#include "util.h"

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
warn_unrecorded(struct gx_state *st)
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
bool
emit(struct gx_state *st, const struct gx_outcome *o, const char *error)
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
void __attribute__((noreturn))
emit_refuse(struct gx_state *st, struct gx_diag *d)
{
	diag_print(d);
	emit(st, NULL, d->n > 0 ? d->msgs[0] : "refused");
	diag_free(d);
	exit(GX_EXIT_FAILURE);
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

/* Open --result; -1 with a message in @d on failure. */
int
emit_open_result(struct gx_state *st, struct gx_diag *d)
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

void
emit_open_log(struct gx_state *st, struct gx_diag *d)
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
				emit_refuse(st, d);
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
		emit_refuse(st, d);
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
