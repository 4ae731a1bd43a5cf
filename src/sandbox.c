/* SPDX-License-Identifier: ISC */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <linux/capability.h>
#include <linux/landlock.h>
#include <linux/magic.h>
#include <pwd.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ns.h"
#include "policy.h"
#include "sandbox.h"
#include "util.h"

/* Bookworm's headers stop at ABI 2; the kernel here offers more. */
#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#endif
#ifndef SYS_landlock_add_rule
#define SYS_landlock_add_rule 445
#endif
#ifndef LANDLOCK_CREATE_RULESET_VERSION
#define LANDLOCK_CREATE_RULESET_VERSION (1U << 0)
#endif
#define LL_REFER (1ULL << 13)
#define LL_TRUNCATE (1ULL << 14)
#define LL_IOCTL_DEV (1ULL << 15)
#define LL_SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0)
#define LL_SCOPE_SIGNAL (1ULL << 1)

/* The ruleset attribute as of ABI 6 (the size tells the kernel which). */
struct ll_ruleset_attr {
	uint64_t handled_access_fs;
	uint64_t handled_access_net;
	uint64_t scoped;
};

struct ll_path_beneath {
	uint64_t allowed_access;
	int32_t parent_fd;
} __attribute__((packed));

#define LL_READ (LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_READ_FILE | \
	LANDLOCK_ACCESS_FS_READ_DIR)
#define LL_FILE_RIGHTS (LANDLOCK_ACCESS_FS_EXECUTE | \
	LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_READ_FILE | \
	LL_TRUNCATE | LL_IOCTL_DEV)

int
sandbox_landlock_abi(void)
{
	return (int)syscall(SYS_landlock_create_ruleset, NULL, 0,
	    LANDLOCK_CREATE_RULESET_VERSION);
}

static uint64_t
handled_fs(int abi)
{
	uint64_t all = (1ULL << 13) - 1;   /* ABI 1: bits 0 to 12 */

	if (abi >= 2)
		all |= LL_REFER;
	if (abi >= 3)
		all |= LL_TRUNCATE;
	if (abi >= 5)
		all |= LL_IOCTL_DEV;
	return all;
}

/*
 * Whether @fd (opened from the rule's path) is inside one process's
 * /proc/PID directory.  Such a rule is opened here, in guardexec, so
 * "/proc/self" (or "/proc/thread-self", "/dev/fd", "/proc/1234") would
 * grant guardexec's own /proc/PID, not the command's, whose pid is not
 * known yet and whose children have others (issue 16).  Refused.
 */
static bool
in_proc_pid_dir(int fd, char *where, size_t len)
{
	char link[64];
	struct statfs sfs;
	ssize_t n;
	size_t i;

	if (fstatfs(fd, &sfs) < 0 || sfs.f_type != PROC_SUPER_MAGIC)
		return false;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, where, len - 1);
	if (n < 0)
		return false;
	where[n] = '\0';
	/* The proc mount's own root is "/proc" here; "/proc/<digits>..." */
	if (strncmp(where, "/proc/", 6) != 0)
		return false;
	for (i = 6; where[i] >= '0' && where[i] <= '9'; i++)
		;
	return i > 6 && (where[i] == '\0' || where[i] == '/');
}

static int
add_path(int ruleset, const char *path, uint64_t access, uint64_t handled,
    struct gx_diag *diag)
{
	struct ll_path_beneath pb;
	struct stat st;
	char where[PATH_MAX];
	int fd, errsv;

	fd = open(path, O_PATH | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0) {
		errsv = errno;
		diag_add(diag, "filesystem: %s: %s", path, strerror(errsv));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (in_proc_pid_dir(fd, where, sizeof(where))) {
		diag_add(diag, "filesystem: %s: a process's own /proc directory "
		    "(opened here it is guardexec's %s, not the command's): "
		    "list \"/proc\" instead, where each process reads its own "
		    "/proc/self", path, where);
		close(fd);
		return -1;
	}
	pb.allowed_access = access & handled;
	if (!S_ISDIR(st.st_mode))
		pb.allowed_access &= LL_FILE_RIGHTS;
	pb.parent_fd = fd;
	if (syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH,
	    &pb, 0) < 0) {
		errsv = errno;
		diag_add(diag, "filesystem: landlock_add_rule %s: %s", path,
		    strerror(errsv));
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

int
sandbox_landlock_allow(int ruleset, int abi, const char *path, bool write)
{
	uint64_t handled = handled_fs(abi);
	struct ll_path_beneath pb;
	struct stat st;
	int fd, rc, errsv;

	fd = open(path, O_PATH | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0) {
		errsv = errno;
		close(fd);
		errno = errsv;
		return -1;
	}
	pb.allowed_access = (write ? handled : LL_READ | LL_IOCTL_DEV) &
	    handled;
	if (!S_ISDIR(st.st_mode))
		pb.allowed_access &= LL_FILE_RIGHTS;
	pb.parent_fd = fd;
	rc = (int)syscall(SYS_landlock_add_rule, ruleset,
	    LANDLOCK_RULE_PATH_BENEATH, &pb, 0);
	errsv = errno;
	close(fd);
	errno = errsv;
	return rc < 0 ? -1 : 0;
}

static int
landlock_prepare(const struct gx_policy *pol, const char *cwd,
    struct gx_sandbox *sb, struct gx_diag *diag)
{
	struct ll_ruleset_attr attr = { 0 };
	size_t attr_size;
	uint64_t handled, rd;
	int abi, fd;

	abi = sandbox_landlock_abi();
	if (abi < 0) {
		diag_add(diag, "the policy has a filesystem group, but Landlock "
		    "is not available (%s%s); refusing to run without it",
		    strerror(errno), errno == EOPNOTSUPP ? ": enable it with "
		    "lsm=landlock on the kernel command line" : "");
		return -1;
	}
	handled = handled_fs(abi);
	attr.handled_access_fs = handled;
	attr_size = sizeof(uint64_t);
	if (abi >= 6) {
		/* Neither signal nor talk to processes outside the sandbox. */
		attr.scoped = LL_SCOPE_ABSTRACT_UNIX_SOCKET | LL_SCOPE_SIGNAL;
		attr_size = sizeof(attr);
	}
	fd = (int)syscall(SYS_landlock_create_ruleset, &attr, attr_size, 0);
	if (fd < 0) {
		diag_add(diag, "landlock_create_ruleset: %s", strerror(errno));
		return -1;
	}
	/* Directories get these; files keep only the file rights. */
	rd = LL_READ | LL_IOCTL_DEV;
	/* "." is the run's working directory in both lists. */
	for (size_t i = 0; pol->fs_read != NULL && pol->fs_read[i]; i++) {
		const char *p = strcmp(pol->fs_read[i], ".") == 0 ? cwd :
		    pol->fs_read[i];

		if (add_path(fd, p, rd, handled, diag) < 0)
			goto fail;
	}
	for (size_t i = 0; pol->fs_write != NULL && pol->fs_write[i]; i++) {
		const char *p = strcmp(pol->fs_write[i], ".") == 0 ? cwd :
		    pol->fs_write[i];

		if (add_path(fd, p, handled, handled, diag) < 0)
			goto fail;
	}
	sb->landlock_fd = fd;
	sb->landlock_abi = abi;
	snprintf(sb->fs_desc, sizeof(sb->fs_desc), "landlock-%d", abi);
	return 0;
fail:
	close(fd);
	return -1;
}

static int
user_prepare(const struct gx_policy *pol, struct gx_sandbox *sb,
    struct gx_diag *diag)
{
	struct passwd *pw;
	int n = 64;

	if (geteuid() != 0) {
		diag_add(diag, "command.user = \"%s\" needs guardexec to run as "
		    "root (it is uid %d)", pol->user, (int)geteuid());
		return -1;
	}
	pw = getpwnam(pol->user);
	if (pw == NULL) {
		diag_add(diag, "command.user: no such user \"%s\"", pol->user);
		return -1;
	}
	sb->groups = xcalloc((size_t)n, sizeof(gid_t));
	if (getgrouplist(pw->pw_name, pw->pw_gid, sb->groups, &n) < 0) {
		sb->groups = xreallocarray(sb->groups, (size_t)n, sizeof(gid_t));
		if (getgrouplist(pw->pw_name, pw->pw_gid, sb->groups, &n) < 0) {
			diag_add(diag, "command.user: getgrouplist failed");
			return -1;
		}
	}
	sb->ngroups = (size_t)n;
	sb->uid = pw->pw_uid;
	sb->gid = pw->pw_gid;
	sb->drop_user = true;
	sb->user_desc = pol->user;
	return 0;
}

/* Whether we hold CAP_SYS_ADMIN (root in a container often does not). */
static bool
have_sys_admin(void)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];

	if (syscall(SYS_capget, &h, d) < 0)
		return false;
	return (d[CAP_SYS_ADMIN / 32].effective >> (CAP_SYS_ADMIN % 32)) & 1;
}

int
sandbox_prepare(const struct gx_policy *pol, const char *cwd,
    struct gx_sandbox *sb, struct gx_diag *diag)
{
	memset(sb, 0, sizeof(*sb));
	sb->landlock_fd = -1;
	if (pol->user != NULL && user_prepare(pol, sb, diag) < 0)
		return -1;
	if (pol->has_filesystem && landlock_prepare(pol, cwd, sb, diag) < 0)
		return -1;
	sb->ns_wanted = GX_NS_USER | GX_NS_PID | GX_NS_MOUNT | GX_NS_IPC |
	    (pol->network == GX_NET_NONE ? GX_NS_NET : 0);
	sb->ns = ns_probe(pol->network == GX_NET_NONE, sb->ns_why,
	    sizeof(sb->ns_why));
	if (sb->ns == 0 && pol->fs_tmp == GX_TMP_PRIVATE) {
		diag_add(diag, "filesystem.tmp = \"private\" needs a mount "
		    "namespace, and the kernel refused one (%s)", sb->ns_why);
		return -1;
	}
	if (pol->network == GX_NET_NONE) {
		/*
		 * A network namespace: our own (in the user namespace), or
		 * with CAP_SYS_ADMIN unshared in the child; without either,
		 * the seccomp socket guard refuses every family but AF_UNIX.
		 */
		if ((sb->ns & GX_NS_NET) || (sb->ns == 0 &&
		    have_sys_admin())) {
			sb->netns = true;
			sb->net_desc = "netns";
		} else {
			sb->net_seccomp = true;
			sb->net_desc = "seccomp";
		}
	}
	return 0;
}

void
sandbox_free(struct gx_sandbox *sb)
{
	if (sb->landlock_fd >= 0)
		close(sb->landlock_fd);
	free(sb->groups);
	memset(sb, 0, sizeof(*sb));
	sb->landlock_fd = -1;
}
