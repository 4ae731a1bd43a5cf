/* SPDX-License-Identifier: ISC */
/*
 * The local audit log: open before the run, append under flock() after
 * it, and the head anchor "<log>.head" that pins the log's last line.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "auditlog.h"
#include "chain.h"
#include "util.h"

#define LOG_OPEN_FLAGS (O_RDWR | O_APPEND | O_CREAT | O_NOFOLLOW | \
	O_CLOEXEC | O_NOCTTY)

static int
mkdir_for(const char *path, bool parents)
{
	char *dir = path_dirname(path), *parent;
	struct stat st;
	int rc = 0;

	if (stat(dir, &st) == 0) {
		free(dir);
		return 0;
	}
	parent = path_dirname(dir);
	if (stat(parent, &st) < 0) {
		if (parents && strcmp(parent, dir) != 0)
			rc = mkdir_for(dir, true);
		else
			rc = -1;
	}
	if (rc == 0 && mkdir(dir, 0700) < 0 && errno != EEXIST)
		rc = -1;
	free(parent);
	free(dir);
	return rc;
}

/* "<log>.head", malloc'd, or NULL with errno ENOMEM. */
static char *
head_path(const char *log_path)
{
	size_t n = strlen(log_path);
	char *p = malloc(n + sizeof(".head"));

	if (p != NULL) {
		memcpy(p, log_path, n);
		memcpy(p + n, ".head", sizeof(".head"));
	}
	return p;
}

/* Refuse what cannot take a record: not a regular file, a full disk. */
static int
check_usable(struct gx_log *log, struct gx_diag *diag)
{
	struct statvfs vfs;
	struct stat st;

	if (fstat(log->fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		diag_add(diag, "audit log %s: not a regular file", log->path);
		errno = EINVAL;
		return -1;
	}
	/* Root may use the reserved blocks; others may not. */
	if (fstatvfs(log->fd, &vfs) == 0 &&
	    (geteuid() == 0 ? vfs.f_bfree : vfs.f_bavail) == 0) {
		diag_add(diag, "audit log %s: no space left on the filesystem",
		    log->path);
		errno = ENOSPC;
		return -1;
	}
	return 0;
}

int
audit_log_open(struct gx_log *log, const char *path, bool mkdir_parents,
    struct gx_diag *diag)
{
	char *hp;
	int errsv;

	log->fd = -1;
	log->head_fd = -1;
	log->path = xstrdup(path);
	if (mkdir_for(path, mkdir_parents) < 0) {
		errsv = errno;
		diag_add(diag, "audit log %s: creating its directory: %s", path,
		    strerror(errsv));
		errno = errsv;
		return -1;
	}
	log->fd = open(path, LOG_OPEN_FLAGS, 0600);
	if (log->fd < 0) {
		errsv = errno;
		diag_add(diag, "audit log %s: %s", path, errsv == ELOOP ?
		    "is a symbolic link (refused)" : strerror(errsv));
		errno = errsv;
		return -1;
	}
	if (check_usable(log, diag) < 0) {
		errsv = errno;
		close(log->fd);
		log->fd = -1;
		errno = errsv;
		return -1;
	}
	hp = head_path(path);
	if (hp != NULL)
		log->head_fd = open(hp, O_WRONLY | O_CREAT | O_NOFOLLOW |
		    O_CLOEXEC | O_NOCTTY, 0600);
	free(hp);
	return 0;
}

/* The previous hash from the file's last line; 1 if the tail is torn. */
static int
tail_hash(int fd, off_t size, char *prev)
{
	char tail[GX_HASH_TAIL_LEN + 1];

	strlcpy(prev, GX_ZERO_HASH, 65);
	if (size == 0)
		return 0;
	if (size < (off_t)sizeof(tail) ||
	    pread(fd, tail, sizeof(tail), size - (off_t)sizeof(tail)) !=
	    (ssize_t)sizeof(tail))
		return 1;
	if (tail[sizeof(tail) - 1] != '\n' ||
	    !audit_ends_in_hash(tail, GX_HASH_TAIL_LEN, prev)) {
		strlcpy(prev, GX_ZERO_HASH, 65);
		return 1;
	}
	return 0;
}

/*
 * An empty log right after rotation continues the chain of its rotated
 * predecessor "<log>.1" (logrotate's numbered naming), so that
 * "guardexec-audit verify log" checks across the rotation.
 * Returns 1 when a predecessor's last hash was used, 0 when there is no
 * predecessor, and -1 when it exists but its tail is not a record.
 */
static int
predecessor_hash(const char *path, char *prev)
{
	char *old = xasprintf("%s.1", path);
	struct stat st;
	int fd, rc = 0;

	fd = open(old, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY);
	free(old);
	if (fd < 0)
		return 0;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0)
		rc = tail_hash(fd, st.st_size, prev) == 0 ? 1 : -1;
	close(fd);
	return rc;
}

int
audit_head_read(const char *log_path, char *hash)
{
	char *p = head_path(log_path), buf[66];
	int fd, errsv;
	ssize_t n;

	if (p == NULL)
		return -1;
	fd = open(p, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY);
	errsv = errno;
	free(p);
	if (fd < 0) {
		errno = errsv;
		return -1;
	}
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n == 0) {
		errno = ENODATA;        /* created, never written */
		return -1;
	}
	if (n < 64 || !audit_is_hex64(buf)) {
		errno = EINVAL;
		return -1;
	}
	memcpy(hash, buf, 64);
	hash[64] = '\0';
	return 0;
}

/*
 * Rewrite the head anchor (under the log's lock).  Best effort: always
 * the same 65 bytes at offset 0, so no truncation is needed.
 */
static void
head_write(const struct gx_log *log, const char *line, size_t len)
{
	char buf[65];

	if (log->head_fd < 0)
		return;
	memcpy(buf, audit_line_hash(line, len), 64);
	buf[64] = '\n';
	(void)!pwrite(log->head_fd, buf, sizeof(buf), 0);
}

/*
 * Lock the file now at the log's path: the log may have been rotated or
 * deleted while the command ran, and then the record goes to the file
 * now at the path (created afresh, chained onto <log>.1 after a
 * rotation), not into the old inode.  Fills @st with the locked file's.
 */
static int
lock_current(struct gx_log *log, struct stat *st, struct gx_diag *diag)
{
	int errsv;

	for (int tries = 0; ; tries++) {
		struct stat now_st;

		if (flock(log->fd, LOCK_EX) < 0 || fstat(log->fd, st) < 0) {
			errsv = errno;
			diag_add(diag, "audit log %s: %s", log->path,
			    strerror(errsv));
			errno = errsv;
			return -1;
		}
		if (tries == 3 || (st->st_nlink > 0 &&
		    lstat(log->path, &now_st) == 0 &&
		    now_st.st_dev == st->st_dev && now_st.st_ino == st->st_ino))
			return 0;       /* locked, and the file at the path */
		close(log->fd);         /* drops the lock */
		log->fd = open(log->path, LOG_OPEN_FLAGS, 0600);
		if (log->fd < 0) {
			errsv = errno;
			diag_add(diag, "audit log %s: reopening after it was "
			    "moved: %s", log->path, errsv == ELOOP ?
			    "now a symbolic link (refused)" : strerror(errsv));
			errno = errsv;
			return -1;
		}
	}
}

/* The previous hash for the next record; true when the tail is torn. */
static bool
chain_point(const struct gx_log *log, const struct stat *st, json_t *rec,
    char *prev)
{
	const char *why = NULL;
	bool torn = tail_hash(log->fd, st->st_size, prev) == 1;

	if (torn) {
		why = "the previous last line was torn or not a record";
	} else if (st->st_size == 0 && predecessor_hash(log->path, prev) < 0) {
		strlcpy(prev, GX_ZERO_HASH, 65);
		why = "the rotated log's last line was torn or not a record";
	}
	/* A torn or foreign last line: say so, start a new segment. */
	if (why != NULL && json_object_set_new(rec, "chain_restart",
	    json_string(why)) < 0)
		die("out of memory (json)");
	return torn;
}

/* write() all of @buf; 0, or an errno (ENOSPC for a zero write). */
static int
write_all(int fd, const char *buf, size_t len, size_t *off)
{
	ssize_t n;

	while (*off < len) {
		n = write(fd, buf + *off, len - *off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? errno : ENOSPC;
		*off += (size_t)n;
	}
	return 0;
}

int
audit_log_append(struct gx_log *log, json_t *rec, bool sync,
    char **line_out, struct gx_diag *diag)
{
	char prev[65], *line, *towrite;
	size_t len, off = 0;
	struct stat st;
	int errsv;
	bool torn;
	char last;

	*line_out = NULL;
	if (lock_current(log, &st, diag) < 0)
		return -1;
	torn = chain_point(log, &st, rec, prev);
	line = audit_format(rec, prev);
	len = strlen(line);
	towrite = line;
	/* Finish a torn line first, so the new record stands on its own. */
	if (torn && st.st_size > 0 && pread(log->fd, &last, 1,
	    st.st_size - 1) == 1 && last != '\n') {
		towrite = xasprintf("\n%s", line);
		len++;
	}
	errsv = write_all(log->fd, towrite, len, &off);
	if (errsv == 0 && sync && fdatasync(log->fd) < 0)
		errsv = errno;
	if (errsv != 0 && off > 0 && off < len) {
		/* Cut back a partial record: no torn line is left behind. */
		(void)!ftruncate(log->fd, st.st_size);
	}
	if (errsv == 0 || off == len)
		head_write(log, line, strlen(line));
	flock(log->fd, LOCK_UN);
	if (towrite != line)
		free(towrite);
	if (errsv != 0) {
		diag_add(diag, "audit log %s: writing the record: %s", log->path,
		    strerror(errsv));
		free(line);
		errno = errsv;
		return -1;
	}
	*line_out = line;
	return 0;
}

char *
audit_log_default_path(void)
{
	const char *state = getenv("XDG_STATE_HOME");
	const char *home = getenv("HOME");

	if (geteuid() == 0)
		return xstrdup("/var/log/guardexec/audit.log");
	if (state != NULL && state[0] == '/')
		return xasprintf("%s/guardexec/audit.log", state);
	if (home != NULL && home[0] == '/')
		return xasprintf("%s/.local/state/guardexec/audit.log", home);
	return NULL;
}

void
audit_log_close(struct gx_log *log)
{
	if (log->head_fd >= 0)
		close(log->head_fd);
	log->head_fd = -1;
	if (log->fd >= 0)
		close(log->fd);
	free(log->path);
	log->fd = -1;
	log->path = NULL;
}
