/* SPDX-License-Identifier: ISC */
#include "config.h"

#include <errno.h>
#include <sched.h>
#include <linux/seccomp.h>
#include <seccomp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "filter.h"
#include "policy.h"
#include "log.h"
#include "util.h"

/*
 * The syscall groups.  One table: guardexec.cfg(5) lists the same
 * members, and tests/unit/check_filter.c checks that every member
 * resolves.  Names unknown to this architecture are skipped when the
 * filter is built.
 */
static const char *const grp_default[] = {
	"execve", "brk", "mmap", "munmap", "mprotect", "mremap", "madvise",
	"msync", "mincore", "arch_prctl", "set_tid_address",
	"set_robust_list", "get_robust_list", "rseq", "prlimit64",
	"getrlimit", "getrandom", "read", "readv", "pread64", "write",
	"writev", "pwrite64", "open", "openat", "close", "fstat",
	"newfstatat", "stat", "lstat", "statx", "statfs", "fstatfs",
	"access", "faccessat", "faccessat2", "lseek", "ioctl", "fcntl",
	"dup", "dup2", "dup3", "pipe", "pipe2", "getcwd", "chdir", "fchdir",
	"readlink", "readlinkat", "getdents", "getdents64", "uname",
	"getpid", "getppid", "gettid", "getuid", "geteuid", "getgid",
	"getegid", "getgroups", "getresuid", "getresgid", "getpgrp",
	"getpgid", "getsid", "rt_sigaction", "rt_sigprocmask",
	"rt_sigreturn", "sigaltstack", "futex", "exit", "exit_group",
	"sched_yield", "sched_getaffinity", "clock_gettime", "clock_getres",
	"gettimeofday", "time", "nanosleep", "clock_nanosleep", "sysinfo",
	"umask", "poll", "ppoll", "select", "pselect6", "restart_syscall",
	"getxattr", "lgetxattr", "fgetxattr", "fadvise64",
	"membarrier", "getcpu", NULL
};
static const char *const grp_file_read[] = {
	"open", "openat", "openat2", "read", "readv", "pread64", "preadv",
	"preadv2", "close", "stat", "lstat", "fstat", "newfstatat",
	"statx", "statfs", "fstatfs", "access", "faccessat", "faccessat2",
	"getdents", "getdents64", "readlink", "readlinkat", "lseek",
	"getxattr", "lgetxattr", "fgetxattr", "listxattr", "llistxattr",
	"flistxattr", "chdir", "fchdir", "getcwd", "fadvise64",
	"readahead", "name_to_handle_at", "inotify_init", "inotify_init1",
	"inotify_add_watch", "inotify_rm_watch", NULL
};
static const char *const grp_file_write[] = {
	"write", "writev", "pwrite64", "pwritev", "pwritev2", "creat",
	"mkdir", "mkdirat", "rmdir", "unlink", "unlinkat", "rename",
	"renameat", "renameat2", "link", "linkat", "symlink", "symlinkat",
	"chmod", "fchmod", "fchmodat", "chown", "fchown", "lchown",
	"fchownat", "truncate", "ftruncate", "fallocate", "utime", "utimes",
	"utimensat", "futimesat", "setxattr", "lsetxattr", "fsetxattr",
	"removexattr", "lremovexattr", "fremovexattr", "fsync",
	"fdatasync", "sync", "syncfs", "sync_file_range",
	"copy_file_range", "sendfile", "splice", "tee", "mknod", "mknodat",
	"flock", NULL
};
static const char *const grp_process[] = {
	"clone", "clone3", "fork", "vfork", "execve", "execveat", "wait4",
	"waitid", "exit", "exit_group", "kill", "tkill", "tgkill", "setpgid",
	"setsid", "prctl", "getpriority", "setpriority", "sched_setaffinity",
	"sched_getparam", "sched_getscheduler", "sched_get_priority_max",
	"sched_get_priority_min", "sched_rr_get_interval", "pidfd_open",
	"pidfd_send_signal", "getrusage", "times", "set_tid_address",
	"capget", NULL
};
static const char *const grp_signal[] = {
	"rt_sigaction", "rt_sigprocmask", "rt_sigreturn", "rt_sigsuspend",
	"rt_sigpending", "rt_sigtimedwait", "rt_sigqueueinfo",
	"rt_tgsigqueueinfo", "sigaltstack", "kill", "tkill", "tgkill",
	"signalfd", "signalfd4", "pause", "alarm", "setitimer", "getitimer",
	NULL
};
static const char *const grp_network[] = {
	"socket", "socketpair", "connect", "accept", "accept4", "bind",
	"listen", "sendto", "recvfrom", "sendmsg", "recvmsg", "sendmmsg",
	"recvmmsg", "shutdown", "getsockname", "getpeername", "setsockopt",
	"getsockopt", NULL
};
static const char *const grp_ipc[] = {
	"pipe", "pipe2", "shmget", "shmat", "shmdt", "shmctl", "semget",
	"semop", "semtimedop", "semctl", "msgget", "msgsnd", "msgrcv",
	"msgctl", "mq_open", "mq_unlink", "mq_timedsend", "mq_timedreceive",
	"mq_notify", "mq_getsetattr", "eventfd", "eventfd2", "memfd_create",
	"epoll_create", "epoll_create1", "epoll_ctl", "epoll_wait",
	"epoll_pwait", "epoll_pwait2", NULL
};
static const char *const grp_time[] = {
	"clock_gettime", "clock_getres", "gettimeofday", "time",
	"nanosleep", "clock_nanosleep", "timer_create", "timer_settime",
	"timer_gettime", "timer_getoverrun", "timer_delete",
	"timerfd_create", "timerfd_settime", "timerfd_gettime", "alarm",
	"setitimer", "getitimer", "times", NULL
};
static const char *const grp_privileged[] = {
	"setuid", "setgid", "setreuid", "setregid", "setresuid",
	"setresgid", "setgroups", "setfsuid", "setfsgid", "capset",
	"chroot", "settimeofday", "clock_settime", "clock_adjtime",
	"adjtimex", "sethostname", "setdomainname", "reboot", "swapon",
	"swapoff", "acct", "iopl", "ioperm", "quotactl", "vhangup",
	"kexec_load", "kexec_file_load", "unshare", "setns", "bpf",
	"userfaultfd", "personality", "syslog", "lookup_dcookie", NULL
};
static const char *const grp_debug[] = {
	"ptrace", "process_vm_readv", "process_vm_writev", "perf_event_open",
	"kcmp", "pidfd_getfd", NULL
};
static const char *const grp_module[] = {
	"init_module", "finit_module", "delete_module", NULL
};
static const char *const grp_mount[] = {
	"mount", "umount2", "pivot_root", "move_mount", "open_tree",
	"fsopen", "fsconfig", "fsmount", "fspick", "mount_setattr", NULL
};
static const char *const grp_keyring[] = {
	"add_key", "request_key", "keyctl", NULL
};
static const char *const grp_io_uring[] = {
	"io_uring_setup", "io_uring_enter", "io_uring_register", NULL
};

static const struct {
	const char *name;
	const char *const *members;
} groups[] = {
	{ "@default", grp_default },
	{ "@file-read", grp_file_read },
	{ "@file-write", grp_file_write },
	{ "@process", grp_process },
	{ "@signal", grp_signal },
	{ "@network", grp_network },
	{ "@ipc", grp_ipc },
	{ "@time", grp_time },
	{ "@privileged", grp_privileged },
	{ "@debug", grp_debug },
	{ "@module", grp_module },
	{ "@mount", grp_mount },
	{ "@keyring", grp_keyring },
	{ "@io-uring", grp_io_uring },
};

static const char *const group_names[] = {
	"@default", "@file-read", "@file-write", "@process", "@signal",
	"@network", "@ipc", "@time", "@privileged", "@debug", "@module",
	"@mount", "@keyring", "@io-uring", NULL
};

/*
 * glibc and other runtimes try these and fall back to an older call only
 * when they fail with ENOSYS; EPERM would break ordinary programs.
 */
static const char *const enosys_names[] = {
	"clone3", "faccessat2", "fchmodat2", "statx", "openat2",
	"close_range", "rseq", "copy_file_range", "pidfd_open",
	"pidfd_send_signal", "epoll_pwait2", "futex_waitv",
	"map_shadow_stack", "mseal", "cachestat", "set_mempolicy_home_node",
	NULL
};

const char *const *
filter_group(const char *name)
{
	for (size_t i = 0; i < sizeof(groups) / sizeof(groups[0]); i++)
		if (strcmp(groups[i].name, name) == 0)
			return groups[i].members;
	return NULL;
}

const char *const *
filter_group_names(void)
{
	return group_names;
}

const char *const *
filter_enosys_names(void)
{
	return enosys_names;
}

int
filter_resolve(const char *name)
{
	int nr = seccomp_syscall_resolve_name(name);

	/* Other negative numbers: names that exist on other architectures. */
	return nr == __NR_SCMP_ERROR ? -1 : nr;
}

/* Compile @ctx to BPF through a memfd (libseccomp 2.5 has no _mem API). */
static int
export_prog(scmp_filter_ctx ctx, struct sock_fprog *prog)
{
	int fd, rc, errsv;
	off_t len;
	void *buf;

	fd = memfd_create("guardexec-bpf", MFD_CLOEXEC);
	if (fd < 0)
		return -errno;
	rc = seccomp_export_bpf(ctx, fd);
	if (rc < 0)
		goto out;
	len = lseek(fd, 0, SEEK_END);
	if (len <= 0 || len % sizeof(struct sock_filter) != 0 ||
	    len / sizeof(struct sock_filter) > BPF_MAXINSNS) {
		rc = -E2BIG;
		goto out;
	}
	buf = xmalloc((size_t)len);
	if (pread(fd, buf, (size_t)len, 0) != len) {
		errsv = errno;
		free(buf);
		rc = -(errsv ? errsv : EIO);
		goto out;
	}
	prog->filter = buf;
	prog->len = (unsigned short)(len / sizeof(struct sock_filter));
	rc = 0;
out:
	close(fd);
	return rc;
}

/*
 * With a syscalls group, no new namespace from inside the sandbox, and
 * each attempt counted by name: clone() and unshare() are allowed only
 * without a CLONE_NEW* flag (the rest takes the policy's action, like any
 * denied call), setns() never; clone3(), whose flags are behind a
 * pointer, fails with ENOSYS in the guard (libc falls back to clone).
 */
#define NS_FLAGS (CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWNET | \
	CLONE_NEWIPC | CLONE_NEWUTS | CLONE_NEWCGROUP)
#ifndef CLONE_NEWTIME
#define CLONE_NEWTIME 0x00000080
#endif

static int
allow_one(scmp_filter_ctx ctx, int nr)
{
	if (nr == SCMP_SYS(setns))
		return 0;
	if (nr == SCMP_SYS(clone))
		return seccomp_rule_add(ctx, SCMP_ACT_ALLOW, nr, 1,
		    SCMP_A0(SCMP_CMP_MASKED_EQ, NS_FLAGS, 0));
	if (nr == SCMP_SYS(unshare))
		return seccomp_rule_add(ctx, SCMP_ACT_ALLOW, nr, 1,
		    SCMP_A0(SCMP_CMP_MASKED_EQ, NS_FLAGS | CLONE_NEWTIME, 0));
	return seccomp_rule_add(ctx, SCMP_ACT_ALLOW, nr, 0);
}

static int
build_guard(bool net_seccomp, bool no_ns, struct sock_fprog *prog,
    struct gx_diag *diag)
{
	/*
	 * TIOCSTI, TIOCLINUX: input pushed into a terminal.  TIOCSCTTY: an
	 * inherited terminal that is no session's own would become the
	 * command's controlling terminal (guarantee 4: none).
	 */
	static const unsigned long ttyops[] = { TIOCSTI, TIOCLINUX,
		TIOCSCTTY };
	scmp_filter_ctx ctx;
	int rc, io_uring;

	ctx = seccomp_init(SCMP_ACT_ALLOW);
	if (ctx == NULL) {
		diag_add(diag, "seccomp_init failed");
		return -1;
	}
	/* Cover the other ABIs, so int 0x80 cannot reach TIOCSTI either. */
	seccomp_arch_add(ctx, SCMP_ARCH_X86);
	seccomp_arch_add(ctx, SCMP_ARCH_X32);
	rc = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_NNP, 0);
	for (size_t i = 0; rc == 0 && i < sizeof(ttyops) / sizeof(ttyops[0]);
	    i++)
		rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(ioctl),
		    1, SCMP_A1(SCMP_CMP_MASKED_EQ, 0xffffffffUL, ttyops[i]));
	if (rc == 0 && no_ns)
		rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS),
		    SCMP_SYS(clone3), 0);
	if (rc == 0 && net_seccomp) {
		rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES),
		    SCMP_SYS(socket), 1,
		    SCMP_A0(SCMP_CMP_NE, AF_UNIX));
		io_uring = seccomp_syscall_resolve_name("io_uring_setup");
		if (rc == 0 && io_uring != __NR_SCMP_ERROR)
			rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES),
			    io_uring, 0);
	}
	if (rc == 0)
		rc = export_prog(ctx, prog);
	seccomp_release(ctx);
	if (rc < 0) {
		diag_add(diag, "building the seccomp guard filter: %s",
		    strerror(-rc));
		return -1;
	}
	return 0;
}

enum variant { V_PLAIN, V_NOTIFY, V_LEARN };

static int
build_policy(const struct gx_policy *pol, enum variant v,
    struct sock_fprog *prog, struct gx_diag *diag)
{
	static const char *const none[] = { NULL };
	char *const *allow = pol->has_syscalls ? pol->sys_allow :
	    (char *const *)none;
	uint32_t def;
	scmp_filter_ctx ctx;
	int rc = 0, nr;

	switch (pol->default_action) {
	case GX_ACTION_KILL: def = SCMP_ACT_KILL_PROCESS; break;
	case GX_ACTION_LOG: def = SCMP_ACT_LOG; break;
	case GX_ACTION_ERRNO: /* FALLTHROUGH */
	default: def = SCMP_ACT_ERRNO((uint32_t)pol->sys_errno); break;
	}
	if (v != V_PLAIN)
		def = SCMP_ACT_NOTIFY;
	ctx = seccomp_init(def);
	if (ctx == NULL) {
		diag_add(diag, "seccomp_init failed");
		return -1;
	}
	/*
	 * Only the native ABI is in the filter; every other one (i386 through
	 * int 0x80, x32 with __X32_SYSCALL_BIT) hits the bad-arch action.
	 */
	rc = seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH,
	    SCMP_ACT_KILL_PROCESS);
	if (rc == 0)
		rc = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_NNP, 0);
	if (rc == 0)
		rc = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_OPTIMIZE, 2);
	for (size_t i = 0; rc == 0 && allow[i] != NULL; i++) {
		nr = seccomp_syscall_resolve_name(allow[i]);
		if (nr == __NR_SCMP_ERROR)
			continue;
		rc = allow_one(ctx, nr);
	}
	/* A process must always be able to end. */
	if (rc == 0 && !strv_contains(allow, "exit"))
		rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(exit), 0);
	if (rc == 0 && !strv_contains(allow, "exit_group"))
		rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(exit_group),
		    0);
	for (size_t i = 0; rc == 0 && v != V_LEARN &&
	    pol->default_action != GX_ACTION_LOG &&
	    enosys_names[i] != NULL; i++) {
		if (strv_contains(allow, enosys_names[i]) ||
		    strv_contains(pol->sys_deny, enosys_names[i]))
			continue;
		nr = seccomp_syscall_resolve_name(enosys_names[i]);
		if (nr == __NR_SCMP_ERROR || nr < 0)
			continue;
		rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), nr, 0);
	}
	/*
	 * Learning keeps the policy's deny list: what it names stays refused
	 * (and unlearned), so the learned policy behaves as the learning run.
	 */
	for (size_t i = 0; rc == 0 && v == V_LEARN && pol->sys_deny != NULL &&
	    pol->sys_deny[i] != NULL; i++) {
		const char *const *m = filter_group(pol->sys_deny[i]);
		const char *one[2] = { pol->sys_deny[i], NULL };

		for (m = m ? m : one; rc == 0 && *m != NULL; m++) {
			nr = seccomp_syscall_resolve_name(*m);
			if (nr == __NR_SCMP_ERROR || nr < 0 ||
			    strcmp(*m, "exit") == 0 || strcmp(*m, "exit_group") == 0)
				continue;
			rc = seccomp_rule_add(ctx,
			    SCMP_ACT_ERRNO((uint32_t)pol->sys_errno), nr, 0);
		}
	}
	if (rc == 0)
		rc = export_prog(ctx, prog);
	seccomp_release(ctx);
	if (rc < 0) {
		diag_add(diag, "building the seccomp filter: %s", strerror(-rc));
		return -1;
	}
	return 0;
}

int
filter_build(const struct gx_policy *pol, bool net_seccomp, bool learn,
    struct gx_filter *f, struct gx_diag *diag)
{
	memset(f, 0, sizeof(*f));
	if (build_guard(net_seccomp, pol->has_syscalls, &f->guard, diag) < 0)
		return -1;
	if (learn) {
		if (build_policy(pol, V_LEARN, &f->notify, diag) < 0)
			goto fail;
		return 0;
	}
	if (!pol->has_syscalls)
		return 0;
	/* The plain variant is compiled only if the listener fails. */
	if (build_policy(pol, V_NOTIFY, &f->notify, diag) < 0)
		goto fail;
	return 0;
fail:
	filter_free(f);
	return -1;
}

int
filter_build_plain(const struct gx_policy *pol, struct gx_filter *f,
    struct gx_diag *diag)
{
	if (!pol->has_syscalls || f->policy.len > 0)
		return 0;
	return build_policy(pol, V_PLAIN, &f->policy, diag);
}

int
filter_load_guard(const struct gx_filter *f)
{
	if (f->guard.len > 0 && syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
	    0, &f->guard) < 0)
		return -1;
	return 0;
}

int
filter_load_notify(const struct gx_filter *f)
{
	return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
	    SECCOMP_FILTER_FLAG_NEW_LISTENER, &f->notify);
}

int
filter_load_plain(const struct gx_filter *f)
{
	if (f->policy.len > 0 && syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
	    0, &f->policy) < 0)
		return -1;
	return 0;
}

char *
filter_syscall_name(uint32_t arch, int nr)
{
	char *name = seccomp_syscall_resolve_num_arch(arch, nr);

	if (name == NULL)
		name = xasprintf("nr-%d", nr);
	return name;
}

void
filter_free(struct gx_filter *f)
{
	free(f->guard.filter);
	free(f->policy.filter);
	free(f->notify.filter);
	memset(f, 0, sizeof(*f));
}
