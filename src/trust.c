/* SPDX-License-Identifier: ISC */
/*
 * The trust store for policies the command could change (see trust.h).
 * Only main.c calls this, before the command exists.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sha2.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "trust.h"
#include "util.h"

#define TRUST_MAX_BYTES (1024 * 1024)   /* policy.c refuses larger files */
#define DIFF_PATH "/usr/bin/diff"

char *
trust_store_path(const char *home)
{
	const char *env = getenv("GUARDEXEC_TRUST_STORE");
	const char *state = getenv("XDG_STATE_HOME");

	if (env != NULL && env[0] == '/')
		return xstrdup(env);
	if (geteuid() == 0)
		return xstrdup("/var/lib/guardexec/trusted");
	if (state != NULL && state[0] == '/')
		return xasprintf("%s/guardexec/trusted", state);
	if (home != NULL && home[0] == '/')
		return xasprintf("%s/.local/state/guardexec/trusted", home);
	return NULL;
}

char *
trust_real_path(const char *path)
{
	char *r, *dir, *slash, *parent, *out;

	r = realpath(path, NULL);
	if (r != NULL)
		return r;
	/* Not there (yet): resolve the parent, keep the last component. */
	dir = path_resolve(NULL, path);
	slash = strrchr(dir, '/');
	if (slash == NULL || slash == dir) {
		return dir;
	}
	*slash = '\0';
	parent = trust_real_path(dir);
	out = xasprintf("%s/%s", strcmp(parent, "/") == 0 ? "" : parent,
	    slash + 1);
	free(parent);
	free(dir);
	return out;
}

const char *
trust_inside(const char *real, char *const *writes)
{
	for (size_t i = 0; writes != NULL && writes[i] != NULL; i++) {
		const char *w = writes[i];
		size_t n = strlen(w);

		if (strcmp(w, "/") == 0 || strcmp(real, w) == 0 ||
		    (strncmp(real, w, n) == 0 && real[n] == '/'))
			return w;
	}
	return NULL;
}

bool
trust_owner_unmapped(uid_t owner, const char *uid_map, uid_t overflow)
{
	unsigned long long in, out, count, all = 0;
	bool inside = false;
	int used;

	for (const char *l = uid_map; l != NULL && *l != '\0'; ) {
		if (sscanf(l, "%llu %llu %llu%n", &in, &out, &count,
		    &used) != 3)
			return true;
		if (owner >= in && owner - in < count)
			inside = true;
		if (in == 0 && count == 4294967295ULL)
			all = count;
		l = strchr(l + used, '\n');
		l = l != NULL ? l + 1 : NULL;
	}
	if (uid_map == NULL)
		return owner == overflow;
	return !inside || (owner == overflow && all == 0);
}

/* /proc/self/uid_map (NULL when unreadable) and the overflow uid. */
static char *
read_uid_map(uid_t *overflow)
{
	FILE *f = fopen("/proc/sys/kernel/overflowuid", "re");
	unsigned long v = 65534;
	char *map = NULL;
	size_t cap = 0;
	ssize_t n;

	if (f != NULL) {
		if (fscanf(f, "%lu", &v) != 1)
			v = 65534;
		fclose(f);
	}
	*overflow = (uid_t)v;
	f = fopen("/proc/self/uid_map", "re");
	if (f == NULL)
		return NULL;
	n = getdelim(&map, &cap, '\0', f);
	fclose(f);
	if (n <= 0) {
		free(map);
		return NULL;
	}
	return map;
}

/*
 * Trust is decided by main.c in guardexec's own process, before the
 * run's namespaces exist, so the owners seen are those of guardexec's
 * user namespace: the host's, unless guardexec itself runs in one (in
 * another guardexec's run, a container, unshare -U).  There an owner the
 * namespace does not map shows as the overflow uid: never root or the
 * caller, even for a caller whose own id is that uid.
 */
bool
trust_foreign(const char *real, uid_t caller, char *why, size_t len)
{
	char *p = xstrdup(real), *slash, *map;
	struct stat st;
	bool file = true;
	uid_t overflow;

	map = read_uid_map(&overflow);

	/* The file, then each directory up to "/": a path is only as safe
	 * as every directory on it (rename/replace needs only those). */
	for (;;) {
		if (stat(p[0] ? p : "/", &st) < 0) {
			snprintf(why, len, "%s: %s", p[0] ? p : "/",
			    strerror(errno));
			break;
		}
		if (trust_owner_unmapped(st.st_uid, map, overflow)) {
			snprintf(why, len, "%s %s is owned by a user this user "
			    "namespace does not map (shown as uid %lu), so who "
			    "may change it is unknown", file ? "the file" :
			    "its directory", p[0] ? p : "/",
			    (unsigned long)st.st_uid);
			break;
		}
		if (st.st_uid != 0 && st.st_uid != caller) {
			snprintf(why, len, "%s %s is owned by uid %lu, not by "
			    "root or you", file ? "the file" : "its directory",
			    p[0] ? p : "/", (unsigned long)st.st_uid);
			break;
		}
		if (file && (st.st_mode & S_IWOTH)) {
			snprintf(why, len, "it is writable by others");
			break;
		}
		if (p[0] == '\0' || (slash = strrchr(p, '/')) == NULL) {
			free(map);
			free(p);
			return false;
		}
		*slash = '\0';
		file = false;
	}
	free(map);
	free(p);
	return true;
}

/* The whole of @path (at most TRUST_MAX_BYTES), never through a
 * symlink at the last component when @nofollow; NULL with errno. */
static char *
read_all(const char *path, bool nofollow, size_t *len)
{
	int fd, errsv;
	char *buf;
	ssize_t n;
	size_t got = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY |
	    (nofollow ? O_NOFOLLOW : 0));
	if (fd < 0)
		return NULL;
	buf = xmalloc(TRUST_MAX_BYTES + 1);
	while (got <= TRUST_MAX_BYTES &&
	    (n = read(fd, buf + got, TRUST_MAX_BYTES + 1 - got)) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			errsv = errno;
			close(fd);
			free(buf);
			errno = errsv;
			return NULL;
		}
		got += (size_t)n;
	}
	close(fd);
	if (got > TRUST_MAX_BYTES) {
		free(buf);
		errno = EFBIG;
		return NULL;
	}
	buf[got] = '\0';
	*len = got;
	return buf;
}

/*
 * Scan the store for @real: 1 when the pair (@real, @sha256) is there;
 * in *@last (malloc'd, may be NULL) the hash most recently trusted for
 * @real.  0 when the store does not exist.  -1 with errno.
 */
static int
scan(const char *store, const char *real, const char *sha256, char **last)
{
	size_t len, rl = strlen(real);
	char *buf, *line, *nl;
	int found = 0;

	*last = NULL;
	buf = read_all(store, true, &len);
	if (buf == NULL)
		return errno == ENOENT ? 0 : -1;
	for (line = buf; line < buf + len; line = nl + 1) {
		nl = memchr(line, '\n', (size_t)(buf + len - line));
		if (nl == NULL)
			nl = buf + len;    /* an unterminated last line */
		if (nl - line != 65 + (ptrdiff_t)rl || line[64] != ' ' ||
		    memcmp(line + 65, real, rl) != 0)
			continue;
		free(*last);
		*last = xmalloc(65);
		memcpy(*last, line, 64);
		(*last)[64] = '\0';
		if (sha256 != NULL && memcmp(line, sha256, 64) == 0)
			found = 1;
	}
	free(buf);
	return found;
}

int
trust_lookup(const char *store, const char *real, const char *sha256,
    bool *known, struct gx_diag *diag)
{
	char *last;
	int rc;

	*known = false;
	rc = scan(store, real, sha256, &last);
	if (rc < 0) {
		diag_add(diag, "trust store %s: %s", store, strerror(errno));
		return -1;
	}
	*known = last != NULL;
	free(last);
	return rc;
}

/* mkdir -p @dir (mode 0700 for what it creates). */
static int
make_dirs(const char *dir)
{
	char *p = xstrdup(dir);
	int rc = 0;

	for (char *s = p + 1; ; s++) {
		if (*s != '/' && *s != '\0')
			continue;
		char c = *s;

		*s = '\0';
		if (mkdir(p, 0700) < 0 && errno != EEXIST) {
			rc = -1;
			break;
		}
		*s = c;
		if (c == '\0')
			break;
	}
	free(p);
	return rc;
}

/* Write all of @buf to @fd; -1 with errno. */
static int
write_all(int fd, const char *buf, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/*
 * diff -u OLD - with @bytes on diff's stdin, on @out's descriptor.  No
 * shell: posix_spawn of DIFF_PATH with an argv.  0, or -1 (no diff).
 */
static int
show_diff(const char *old, const char *label, const char *bytes, size_t len,
    FILE *out)
{
	char *const argv[] = { "diff", "-u", "--label", "trusted",
		"--label", (char *)label, (char *)old, "-", NULL };
	posix_spawn_file_actions_t fa;
	int pfd[2], status;
	pid_t pid;

	if (access(DIFF_PATH, X_OK) < 0 || pipe2(pfd, O_CLOEXEC) < 0)
		return -1;
	fflush(out);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, pfd[0], 0);
	posix_spawn_file_actions_adddup2(&fa, fileno(out), 1);
	if (posix_spawn(&pid, DIFF_PATH, &fa, NULL, argv,
	    (char *[]){ "LC_ALL=C", NULL }) != 0) {
		posix_spawn_file_actions_destroy(&fa);
		close(pfd[0]);
		close(pfd[1]);
		return -1;
	}
	posix_spawn_file_actions_destroy(&fa);
	close(pfd[0]);
	(void)write_all(pfd[1], bytes, len);
	close(pfd[1]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return 0;
}

/*
 * Record (@real, @hex) in @store, and the bytes in @copies/@hex.  One
 * line, one write, O_APPEND: concurrent writers never mix.  Writes
 * through no symlink.  0, or -1 with a message in @diag.
 */
static int
store_pair(const char *store, const char *copies, const char *real,
    const char *hex, const char *bytes, size_t len, struct gx_diag *diag)
{
	char *copy, *line;
	int fd, rc = -1;

	if (make_dirs(copies) < 0) {
		diag_add(diag, "trust store %s: %s", copies, strerror(errno));
		return -1;
	}
	/* The trusted bytes, by hash: written once, never through a link. */
	copy = xasprintf("%s/%s", copies, hex);
	fd = open(copy, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
	    0600);
	if (fd >= 0) {
		int wrc = write_all(fd, bytes, len);

		if (close(fd) < 0 || wrc < 0) {
			diag_add(diag, "trust store %s: %s", copy,
			    strerror(errno));
			unlink(copy);
			free(copy);
			return -1;
		}
	} else if (errno != EEXIST) {
		diag_add(diag, "trust store %s: %s", copy, strerror(errno));
		free(copy);
		return -1;
	}
	free(copy);
	fd = open(store, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW |
	    O_CLOEXEC | O_NOCTTY, 0600);
	if (fd < 0) {
		diag_add(diag, "trust store %s: %s", store, errno == ELOOP ?
		    "is a symbolic link; refusing to write through it" :
		    strerror(errno));
		return -1;
	}
	line = xasprintf("%s %s\n", hex, real);
	if ((write_all(fd, line, strlen(line)) < 0 || fsync(fd) < 0) +
	    (close(fd) < 0) != 0)
		diag_add(diag, "trust store %s: %s", store, strerror(errno));
	else
		rc = 0;
	free(line);
	return rc;
}

int
trust_add(const char *store, const char *real, const char *sha256,
    FILE *out, struct gx_diag *diag)
{
	unsigned char digest[SHA256_DIGEST_LENGTH];
	char hex[65], *bytes, *dir, *copies, *last = NULL;
	SHA2_CTX ctx;
	size_t len;
	int rc = -1;

	if (strchr(real, '\n') != NULL) {
		diag_add(diag, "--trust: a path with a newline cannot be "
		    "trusted");
		return -1;
	}
	bytes = read_all(real, false, &len);
	if (bytes == NULL) {
		diag_add(diag, "--trust %s: %s", real, strerror(errno));
		return -1;
	}
	SHA256Init(&ctx);
	SHA256Update(&ctx, (const uint8_t *)bytes, len);
	SHA256Final(digest, &ctx);
	hex_encode(digest, sizeof(digest), hex);
	if (strcmp(hex, sha256) != 0) {
		diag_add(diag, "--trust %s: changed while being read; run "
		    "--trust again", real);
		goto out;
	}
	dir = xstrdup(store);
	*strrchr(dir, '/') = '\0';
	copies = xasprintf("%s/trusted.d", dir[0] ? dir : "");
	if (scan(store, real, NULL, &last) < 0) {
		diag_add(diag, "trust store %s: %s", store, strerror(errno));
		goto out_dir;
	}

	fprintf(out, "# policy %s\n# sha256 %s\n", real, hex);
	fwrite(bytes, 1, len, out);
	if (len > 0 && bytes[len - 1] != '\n')
		fputc('\n', out);
	if (last != NULL && strcmp(last, hex) == 0) {
		fprintf(out, "# unchanged since it was last trusted\n");
	} else if (last != NULL) {
		char *old = xasprintf("%s/%s", copies, last);

		fprintf(out, "# changes since it was last trusted (sha256 "
		    "%s):\n", last);
		if (access(old, R_OK) < 0 ||
		    show_diff(old, real, bytes, len, out) < 0)
			fprintf(out, "# (no diff: %s or %s is missing)\n", old,
			    DIFF_PATH);
		free(old);
	} else {
		fprintf(out, "# not trusted before\n");
	}
	if (fflush(out) != 0) {
		diag_add(diag, "writing to stdout: %s", strerror(errno));
		goto out_dir;
	}

	rc = store_pair(store, copies, real, hex, bytes, len, diag);
out_dir:
	free(copies);
	free(dir);
out:
	free(last);
	free(bytes);
	return rc;
}

/* The hex sha256 of @path's bytes into @hex (65 bytes); -1 with errno. */
int
trust_file_sha256(const char *path, char *hex)
{
	unsigned char digest[SHA256_DIGEST_LENGTH];
	SHA2_CTX ctx;
	size_t len;
	char *bytes = read_all(path, true, &len);

	if (bytes == NULL)
		return -1;
	SHA256Init(&ctx);
	SHA256Update(&ctx, (const uint8_t *)bytes, len);
	SHA256Final(digest, &ctx);
	hex_encode(digest, sizeof(digest), hex);
	free(bytes);
	return 0;
}

int
trust_record(const char *store, const char *real, const char *path,
    struct gx_diag *diag)
{
	char hex[65], *bytes, *dir, *copies;
	SHA2_CTX ctx;
	unsigned char digest[SHA256_DIGEST_LENGTH];
	size_t len;
	int rc;

	if (strchr(real, '\n') != NULL) {
		diag_add(diag, "%s: a path with a newline cannot be trusted",
		    real);
		return -1;
	}
	bytes = read_all(path, true, &len);
	if (bytes == NULL) {
		diag_add(diag, "%s: %s", path, strerror(errno));
		return -1;
	}
	SHA256Init(&ctx);
	SHA256Update(&ctx, (const uint8_t *)bytes, len);
	SHA256Final(digest, &ctx);
	hex_encode(digest, sizeof(digest), hex);
	dir = xstrdup(store);
	*strrchr(dir, '/') = '\0';
	copies = xasprintf("%s/trusted.d", dir);
	rc = store_pair(store, copies, real, hex, bytes, len, diag);
	free(copies);
	free(dir);
	free(bytes);
	return rc;
}
