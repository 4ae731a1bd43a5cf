/* SPDX-License-Identifier: ISC */
/*
 * filter.c: the syscall groups resolve (natively and on aarch64), and the
 * programs filter_build() makes do what the policy says once loaded (in
 * a grandchild, so that Check's own process stays unfiltered).
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <linux/audit.h>
#include <seccomp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "filter.h"
#include "filter_spec.h"
#include "log.h"
#include "policy.h"
#include "util.h"
#include "runner.h"

Suite *filter_suite(void);

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

/*
 * Group members a libseccomp older than the kernel may not know (they
 * came with Linux 5.6 to 5.12; libseccomp 2.5.4 knows them all).  Names
 * listed here may fail to resolve natively; the test prints which do.
 */
static const char *const native_may_miss[] = {
	"openat2", "pidfd_getfd", "faccessat2", "epoll_pwait2",
	"mount_setattr", NULL
};

/* The same for the ENOSYS list (newer still; 2.5.4 lacks mseal). */
static const char *const enosys_may_miss[] = {
	"mseal", "map_shadow_stack", "cachestat", "fchmodat2", "futex_waitv",
	"set_mempolicy_home_node", "epoll_pwait2", "close_range", "openat2",
	"faccessat2", "clone3", "rseq", NULL
};

/*
 * Group members that do not exist on aarch64 (the legacy x86_64 calls
 * that the generic syscall table replaced by the *at() and 2/4 forms).
 */
static const char *const aarch64_missing[] = {
	"access", "alarm", "arch_prctl", "chmod", "chown", "creat", "dup2",
	"epoll_create", "epoll_wait", "eventfd", "fork", "futimesat",
	"getdents", "getpgrp", "inotify_init", "ioperm", "iopl", "lchown",
	"link", "lstat", "mkdir", "mknod", "open", "pause", "pipe", "poll",
	"readlink", "rename", "rmdir", "select", "signalfd", "stat",
	"symlink", "time", "unlink", "utime", "utimes", "vfork", NULL
};

static bool
in_list(const char *const *v, const char *s)
{
	return strv_contains((char *const *)v, s);
}

static bool
in_some_group(const char *name)
{
	for (const char *const *g = filter_group_names(); *g != NULL; g++)
		if (in_list(filter_group(*g), name))
			return true;
	return false;
}

/* ---- the groups ----------------------------------------------------------- */

START_TEST(test_group_names)
{
	const char *const *g = filter_group_names();
	size_t n = 0;

	ck_assert_ptr_nonnull(g);
	for (; g[n] != NULL; n++) {
		const char *const *m = filter_group(g[n]);

		ck_assert_msg(g[n][0] == '@', "%s", g[n]);
		ck_assert_msg(m != NULL && m[0] != NULL, "%s is empty", g[n]);
		for (size_t k = 0; k < n; k++)
			ck_assert_str_ne(g[k], g[n]);
	}
	ck_assert_uint_eq(n, 14);
	ck_assert_ptr_null(filter_group("@bogus"));
	ck_assert_ptr_null(filter_group("default"));
	ck_assert_ptr_null(filter_group("@"));
	ck_assert_ptr_null(filter_group(""));
	ck_assert_ptr_nonnull(filter_group("@io-uring"));
}
END_TEST

/* One group per loop index. */
START_TEST(test_group_resolves_native)
{
	const char *group = filter_group_names()[_i];
	const char *const *m = filter_group(group);

	for (size_t i = 0; m[i] != NULL; i++) {
		int nr = filter_resolve(m[i]);

		for (size_t k = 0; k < i; k++)
			ck_assert_msg(strcmp(m[k], m[i]) != 0, "%s: %s twice",
			    group, m[i]);
		if (nr >= 0)
			continue;
		ck_assert_msg(in_list(native_may_miss, m[i]), "%s: %s does not "
		    "resolve natively", group, m[i]);
		printf("# %s: %s unknown to this libseccomp (allowed)\n", group,
		    m[i]);
	}
}
END_TEST

START_TEST(test_group_resolves_aarch64)
{
	const char *group = filter_group_names()[_i];
	const char *const *m = filter_group(group);

	for (size_t i = 0; m[i] != NULL; i++) {
		int nr = seccomp_syscall_resolve_name_arch(SCMP_ARCH_AARCH64,
		    m[i]);

		if (in_list(aarch64_missing, m[i]))
			ck_assert_msg(nr < 0, "%s: %s exists on aarch64 after all",
			    group, m[i]);
		else
			ck_assert_msg(nr >= 0, "%s: %s does not exist on aarch64 "
			    "(%d)", group, m[i], nr);
	}
}
END_TEST

/* The allowlists stay honest: each name is used somewhere. */
START_TEST(test_allowlists)
{
	for (size_t i = 0; native_may_miss[i] != NULL; i++)
		ck_assert_msg(in_some_group(native_may_miss[i]), "%s",
		    native_may_miss[i]);
	for (size_t i = 0; aarch64_missing[i] != NULL; i++)
		ck_assert_msg(in_some_group(aarch64_missing[i]), "%s",
		    aarch64_missing[i]);
	for (size_t i = 0; enosys_may_miss[i] != NULL; i++)
		ck_assert_msg(in_list(filter_enosys_names(), enosys_may_miss[i]),
		    "%s", enosys_may_miss[i]);
}
END_TEST

START_TEST(test_enosys_names)
{
	const char *const *e = filter_enosys_names();

	ck_assert(in_list(e, "clone3"));
	ck_assert(in_list(e, "faccessat2"));
	/* Probes node and glibc make on every run (issue 16). */
	ck_assert(in_list(e, "pkey_alloc"));
	ck_assert(in_list(e, "set_mempolicy"));
	for (; *e != NULL; e++) {
		if (filter_resolve(*e) >= 0)
			continue;
		ck_assert_msg(in_list(enosys_may_miss, *e), "%s does not "
		    "resolve", *e);
		printf("# ENOSYS list: %s unknown to this libseccomp "
		    "(allowed, skipped by the filter)\n", *e);
	}
}
END_TEST

/* A notification of @nr(@a0, @a1, @a2) from this very thread. */
static struct seccomp_notif
id_req(int nr, uint64_t a0, uint64_t a1, uint64_t a2)
{
	struct seccomp_notif req;

	memset(&req, 0, sizeof(req));
	req.pid = (uint32_t)syscall(SYS_gettid);
	req.data.arch = AUDIT_ARCH_X86_64;
	req.data.nr = nr;
	req.data.args[0] = a0;
	req.data.args[1] = a1;
	req.data.args[2] = a2;
	return req;
}

START_TEST(test_noop_id_calls)
{
	const uint64_t keep = 0xffffffffULL;
	uint64_t uid = getuid(), gid = getgid();
	struct seccomp_notif req;
	gid_t cur[256], more[257];
	int64_t val = -1;
	int n;

	/* make's spawn: setresuid(-1, getuid(), -1), setresgid likewise. */
	req = id_req(SYS_setresuid, keep, uid, keep);
	ck_assert(filter_noop_id_call(&req, &val));
	ck_assert_int_eq(val, 0);
	req = id_req(SYS_setresgid, keep, gid, keep);
	ck_assert(filter_noop_id_call(&req, &val));
	req = id_req(SYS_setreuid, keep, keep, 0);
	ck_assert(filter_noop_id_call(&req, &val));
	req = id_req(SYS_setuid, uid, 0, 0);
	ck_assert(filter_noop_id_call(&req, &val));
	req = id_req(SYS_setfsuid, keep, 0, 0);
	ck_assert(filter_noop_id_call(&req, &val));
	ck_assert_int_eq(val, (int64_t)uid);
	/* A change is not a no-op: refused (and counted) as before. */
	req = id_req(SYS_setresuid, uid + 1, uid + 1, uid + 1);
	ck_assert(!filter_noop_id_call(&req, &val));
	req = id_req(SYS_setresuid, keep, keep, uid + 1);
	ck_assert(!filter_noop_id_call(&req, &val));
	req = id_req(SYS_setuid, uid + 1, 0, 0);
	ck_assert(!filter_noop_id_call(&req, &val));
	req = id_req(SYS_setfsgid, gid + 1, 0, 0);
	ck_assert(!filter_noop_id_call(&req, &val));
	/* setgroups: the list the thread has is a no-op, one more is not. */
	n = getgroups(256, cur);
	ck_assert_int_ge(n, 0);
	req = id_req(SYS_setgroups, (uint64_t)n, (uint64_t)(uintptr_t)cur, 0);
	ck_assert(filter_noop_id_call(&req, &val));
	memcpy(more, cur, (size_t)n * sizeof(gid_t));
	more[n] = 4242;
	req = id_req(SYS_setgroups, (uint64_t)n + 1,
	    (uint64_t)(uintptr_t)more, 0);
	ck_assert(!filter_noop_id_call(&req, &val));
	/* Other calls, other ABIs: never. */
	req = id_req(SYS_getpid, 0, 0, 0);
	ck_assert(!filter_noop_id_call(&req, &val));
	req = id_req(SYS_setresuid, keep, uid, keep);
	req.data.arch = AUDIT_ARCH_I386;
	ck_assert(!filter_noop_id_call(&req, &val));
}
END_TEST

START_TEST(test_resolve)
{
	ck_assert_int_eq(filter_resolve("read"), SYS_read);
	ck_assert_int_eq(filter_resolve("exit_group"), SYS_exit_group);
	ck_assert_int_eq(filter_resolve("ptrace"), SYS_ptrace);
	ck_assert_int_eq(filter_resolve("no_such_syscall"), -1);
	ck_assert_int_eq(filter_resolve(""), -1);
	ck_assert_int_eq(filter_resolve("READ"), -1);
	ck_assert_int_eq(filter_resolve("@default"), -1);
#ifdef __x86_64__
	ck_assert_int_eq(filter_resolve("open"), SYS_open);
	/* i386-only: not a syscall here */
	ck_assert_int_lt(filter_resolve("socketcall"), 0);
#endif
}
END_TEST

/* ---- filter_build --------------------------------------------------------- */


#define HEAD "version = 1;\nname = \"t\";\n"

START_TEST(test_build_with_syscalls)
{
	struct gx_diag d = { 0 };
	struct gx_policy pol;
	struct gx_filter f;

	unit_load_policy(HEAD "syscalls: { allow = [ \"@default\", \"@process\" ]; "
	    "deny = [ \"ptrace\" ]; };", &pol);
	if (filter_build(&pol, false, false, &f, &d) != 0)
		ck_abort_msg("%s", d.msgs[0]);
	/* The plain variant is compiled only on fallback. */
	ck_assert_uint_eq(f.policy.len, 0);
	ck_assert_int_eq(filter_build_plain(&pol, &f, &d), 0);
	ck_assert_uint_gt(f.policy.len, 0);
	ck_assert_ptr_nonnull(f.policy.filter);
	ck_assert_uint_gt(f.notify.len, 0);
	ck_assert_ptr_nonnull(f.notify.filter);
	ck_assert_uint_gt(f.guard.len, 0);
	ck_assert_ptr_nonnull(f.guard.filter);
	ck_assert_uint_eq(d.n, 0);
	filter_free(&f);
	ck_assert_uint_eq(f.policy.len, 0);
	ck_assert_uint_eq(f.notify.len, 0);
	ck_assert_ptr_null(f.guard.filter);
	policy_free(&pol);
}
END_TEST

/* spec_allows: @spec has an unconditional ALLOW rule for @name. */
static bool
spec_allows(const struct gx_filter_spec *spec, const char *name)
{
	for (size_t i = 0; i < spec->n; i++)
		if (strcmp(spec->rules[i].name, name) == 0 &&
		    spec->rules[i].action == SCMP_ACT_ALLOW)
			return true;
	return false;
}

/*
 * Issue 15: with a filesystem group, an ordinary run's listener sees the
 * path syscalls that open, create, remove or change (it names the paths
 * the lists refuse and lets the call go on); lookups stay in BPF; the
 * plain variant and a policy without a filesystem group are unchanged.
 */
START_TEST(test_ordinary_watch)
{
	static const char *const watched[] = { "openat", "open", "mkdir",
		"unlinkat", "rename", "utimensat", "creat", NULL };
	static const char *const direct[] = { "newfstatat", "access",
		"execve", "read", "write", NULL };
	const char *allow = "syscalls: { allow = [ \"@default\", "
	    "\"@file-read\", \"@file-write\", \"@process\", \"write\" ]; };";
	char *with = xasprintf(HEAD "%s filesystem: { read = [ \"/usr\" ]; };",
	    allow);
	char *without = xasprintf(HEAD "%s", allow);
	struct gx_filter_spec spec;
	struct gx_diag d = { 0 };
	struct gx_policy pol;

	unit_load_policy(with, &pol);
	ck_assert_int_eq(filter_spec_policy(&pol, GX_VARIANT_NOTIFY, &spec,
	    &d), 0);
	for (size_t i = 0; watched[i] != NULL; i++)
		ck_assert_msg(!spec_allows(&spec, watched[i]), "%s", watched[i]);
	for (size_t i = 0; direct[i] != NULL; i++)
		ck_assert_msg(spec_allows(&spec, direct[i]), "%s", direct[i]);
	filter_spec_free(&spec);
	ck_assert_int_eq(filter_spec_policy(&pol, GX_VARIANT_PLAIN, &spec,
	    &d), 0);
	ck_assert(spec_allows(&spec, "openat"));
	filter_spec_free(&spec);
	policy_free(&pol);
	unit_load_policy(without, &pol);
	ck_assert_int_eq(filter_spec_policy(&pol, GX_VARIANT_NOTIFY, &spec,
	    &d), 0);
	ck_assert(spec_allows(&spec, "openat"));
	filter_spec_free(&spec);
	policy_free(&pol);
	free(with);
	free(without);
}
END_TEST

START_TEST(test_build_every_group)
{
	struct gx_diag d = { 0 };
	struct gx_policy pol;
	struct gx_filter f;
	static const char *const actions[] = { "errno", "kill", "log" };
	char *text;

	/* every group at once, with each default action */
	for (size_t a = 0; a < 3; a++) {
		text = xasprintf(HEAD "syscalls: { default_action = \"%s\"; "
		    "allow = [ \"@default\", \"@file-read\", \"@file-write\", "
		    "\"@process\", \"@signal\", \"@network\", \"@ipc\", "
		    "\"@time\", \"@privileged\", \"@debug\", \"@module\", "
		    "\"@mount\", \"@keyring\", \"@io-uring\" ]; };",
		    actions[a]);
		unit_load_policy(text, &pol);
		if (filter_build(&pol, true, false, &f, &d) != 0 ||
		    filter_build_plain(&pol, &f, &d) != 0)
			ck_abort_msg("%s: %s", actions[a], d.msgs[0]);
		ck_assert_uint_gt(f.policy.len, 0);
		ck_assert_uint_gt(f.notify.len, 0);
		filter_free(&f);
		policy_free(&pol);
		free(text);
	}
}
END_TEST

START_TEST(test_build_without_syscalls)
{
	struct gx_diag d = { 0 };
	struct gx_policy pol;
	struct gx_filter f, fnet;

	unit_load_policy(HEAD, &pol);
	if (filter_build(&pol, false, false, &f, &d) != 0)
		ck_abort_msg("%s", d.msgs[0]);
	ck_assert_uint_eq(f.policy.len, 0);
	ck_assert_ptr_null(f.policy.filter);
	ck_assert_uint_eq(f.notify.len, 0);
	ck_assert_uint_gt(f.guard.len, 0);
	/* the socket guard makes the guard longer */
	if (filter_build(&pol, true, false, &fnet, &d) != 0)
		ck_abort_msg("%s", d.msgs[0]);
	ck_assert_uint_eq(fnet.policy.len, 0);
	ck_assert_uint_eq(fnet.notify.len, 0);
	ck_assert_uint_gt(fnet.guard.len, f.guard.len);
	filter_free(&f);
	filter_free(&fnet);
	policy_free(&pol);
}
END_TEST

/* --learn: only the notify variant, with or without a syscalls group. */
START_TEST(test_build_learn)
{
	static const char *const texts[] = {
		HEAD,
		HEAD "syscalls: { allow = [ \"@default\" ]; };",
	};
	struct gx_diag d = { 0 };
	struct gx_policy pol;
	struct gx_filter f;

	for (size_t i = 0; i < 2; i++) {
		unit_load_policy(texts[i], &pol);
		if (filter_build(&pol, false, true, &f, &d) != 0)
			ck_abort_msg("%s", d.msgs[0]);
		ck_assert_uint_gt(f.guard.len, 0);
		ck_assert_uint_eq(f.policy.len, 0);
		ck_assert_uint_gt(f.notify.len, 0);
		filter_free(&f);
		policy_free(&pol);
	}
}
END_TEST

START_TEST(test_syscall_name)
{
	char *n;

	n = filter_syscall_name(seccomp_arch_native(), SYS_read);
	ck_assert_str_eq(n, "read");
	free(n);
	n = filter_syscall_name(seccomp_arch_native(), 4000);
	ck_assert_str_eq(n, "nr-4000");
	free(n);
	n = filter_syscall_name(SCMP_ARCH_AARCH64, 63);        /* read */
	ck_assert_str_eq(n, "read");
	free(n);
}
END_TEST

/* ---- the programs, loaded --------------------------------------------------- */

/*
 * Run @probe in a grandchild after loading @text's filters; returns its
 * wait status.  No core file from SIGSYS.
 */
static int
run_filtered(const char *text, bool net_seccomp, int (*probe)(void))
{
	static const struct rlimit nocore = { 0, 0 };
	struct gx_diag d = { 0 };
	struct gx_policy pol;
	struct gx_filter f;
	int status;
	pid_t pid;

	unit_load_policy(text, &pol);
	if (filter_build(&pol, net_seccomp, false, &f, &d) != 0 ||
	    filter_build_plain(&pol, &f, &d) != 0)
		ck_abort_msg("%s", d.msgs[0]);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		setrlimit(RLIMIT_CORE, &nocore);
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
			_exit(90);
		if (filter_load_guard(&f) < 0)
			_exit(91);
		if (filter_load_plain(&f) < 0)
			_exit(92);
		_exit(probe());
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	filter_free(&f);
	policy_free(&pol);
	return status;
}

/* 0, or the number of the first check that failed. */
static int
probe_errno(void)
{
	unsigned char c = 'x';

	errno = 0;
	if (syscall(SYS_getppid) != -1 || errno != EACCES)
		return 1;               /* denied: the policy's errno */
	if (syscall(SYS_getpid) != getpid())
		return 2;               /* allowed */
	errno = 0;
	if (syscall(SYS_ptrace, 0, 0, 0, 0) != -1 || errno != EACCES)
		return 3;               /* not allowed: default action */
#ifdef SYS_clone3
	errno = 0;
	if (syscall(SYS_clone3, NULL, 0) != -1 || errno != ENOSYS)
		return 4;               /* fallback-probed: ENOSYS */
#endif
	errno = 0;
	if (ioctl(-1, TIOCSTI, &c) != -1 || errno != EPERM)
		return 5;               /* the guard, before EBADF */
	return 0;
}

START_TEST(test_loaded_errno)
{
	int st = run_filtered(HEAD "syscalls: { errno = \"EACCES\"; "
	    "allow = [ \"@default\" ]; deny = [ \"getppid\" ]; };", false,
	    probe_errno);

	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "status 0x%x", st);
}
END_TEST

static int
probe_kill(void)
{
	syscall(SYS_getppid);
	return 0;
}

START_TEST(test_loaded_kill)
{
	int st = run_filtered(HEAD "syscalls: { default_action = \"kill\"; "
	    "allow = [ \"read\" ]; };", false, probe_kill);

	ck_assert_msg(WIFSIGNALED(st) && WTERMSIG(st) == SIGSYS, "status 0x%x",
	    st);
}
END_TEST

static int
probe_log(void)
{
	return syscall(SYS_getppid) > 0 ? 0 : 1;
}

START_TEST(test_loaded_log)
{
	int st = run_filtered(HEAD "syscalls: { default_action = \"log\"; "
	    "allow = [ \"read\" ]; };", false, probe_log);

	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "status 0x%x", st);
}
END_TEST

static int
probe_guard(void)
{
	unsigned char c = 'x';
	int fd;

	errno = 0;
	if (ioctl(-1, TIOCSTI, &c) != -1 || errno != EPERM)
		return 1;
	errno = 0;
	if (socket(AF_INET, SOCK_STREAM, 0) != -1 || errno != EACCES)
		return 2;
	errno = 0;
	if (socket(AF_INET6, SOCK_DGRAM, 0) != -1 || errno != EACCES)
		return 3;
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (fd < 0)
		return 4;
	close(fd);
	/* everything else is allowed: there is no syscalls group */
	if (syscall(SYS_getppid) <= 0)
		return 5;
	return 0;
}

START_TEST(test_loaded_guard)
{
	int st = run_filtered(HEAD, true, probe_guard);

	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "status 0x%x", st);
}
END_TEST

Suite *
filter_suite(void)
{
	Suite *s = suite_create("filter");
	int ngroups = 0;
	TCase *tc;

	while (filter_group_names()[ngroups] != NULL)
		ngroups++;

	tc = tcase_create("groups");
	tcase_set_timeout(tc, 20);
	tcase_add_test(tc, test_group_names);
	tcase_add_loop_test(tc, test_group_resolves_native, 0, ngroups);
	tcase_add_loop_test(tc, test_group_resolves_aarch64, 0, ngroups);
	tcase_add_test(tc, test_allowlists);
	tcase_add_test(tc, test_enosys_names);
	tcase_add_test(tc, test_resolve);
	tcase_add_test(tc, test_noop_id_calls);
	suite_add_tcase(s, tc);

	tc = tcase_create("build");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_build_with_syscalls);
	tcase_add_test(tc, test_build_every_group);
	tcase_add_test(tc, test_build_without_syscalls);
	tcase_add_test(tc, test_build_learn);
	tcase_add_test(tc, test_syscall_name);
	suite_add_tcase(s, tc);

	tc = tcase_create("loaded");
	tcase_set_timeout(tc, 20);
	tcase_add_test(tc, test_loaded_errno);
	tcase_add_test(tc, test_loaded_kill);
	tcase_add_test(tc, test_ordinary_watch);
	tcase_add_test(tc, test_loaded_log);
	tcase_add_test(tc, test_loaded_guard);
	suite_add_tcase(s, tc);
	return s;
}

UNIT_MAIN(filter_suite)
