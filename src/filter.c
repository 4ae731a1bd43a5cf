/* SPDX-License-Identifier: ISC */
#include "config.h"

#include <errno.h>
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
