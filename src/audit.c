/* SPDX-License-Identifier: ISC */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <sha2.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <syslog.h>
#include <unistd.h>

#include "audit.h"
#include "env.h"
#include "policy.h"
#include "outcome.h"
#include "util.h"

#define HASH_KEY ",\"hash\":\""

static char *head_path(const char *log_path);
/* ',"hash":"' + 64 hex + '"}' */
#define HASH_TAIL_LEN (sizeof(HASH_KEY) - 1 + 64 + 2)

static json_t *
xjson(json_t *j)
{
	if (j == NULL)
		die("out of memory (json)");
	return j;
}

static void
set(json_t *obj, const char *key, json_t *val)
{
	if (json_object_set_new(obj, key, xjson(val)) < 0)
		die("out of memory (json)");
}

/* A JSON string of @s; invalid UTF-8 bytes become U+FFFD. */
static json_t *
str_lossy(const char *s, bool *lossy)
{
	size_t n = strlen(s), o = 0;
	char *buf;
	json_t *j;

	if (lossy)
		*lossy = false;
	if (utf8_valid(s, n))
		return xjson(json_stringn(s, n));
	if (lossy)
		*lossy = true;
	buf = xmalloc(n * 3 + 1);
	for (size_t i = 0; i < n; ) {
		unsigned char c = (unsigned char)s[i];
		size_t len = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 :
		    (c & 0xf0) == 0xe0 ? 3 : (c & 0xf8) == 0xf0 ? 4 : 0;

		if (len > 0 && i + len <= n && utf8_valid(s + i, len)) {
			memcpy(buf + o, s + i, len);
			o += len;
			i += len;
		} else {
			memcpy(buf + o, "\xef\xbf\xbd", 3);
			o += 3;
			i++;
		}
	}
	j = xjson(json_stringn(buf, o));
	free(buf);
	return j;
}

static json_t *
str_or_null(const char *s)
{
	return s ? str_lossy(s, NULL) : json_null();
}

static json_t *
hex_of(const char *s)
{
	size_t n = strlen(s);
	char *h = xmalloc(2 * n + 1);
	json_t *j;

	hex_encode((const unsigned char *)s, n, h);
	j = xjson(json_string(h));
	free(h);
	return j;
}

static json_t *
strv_json(char *const *v)
{
	json_t *a = xjson(json_array());

	for (size_t i = 0; v != NULL && v[i] != NULL; i++)
		json_array_append_new(a, str_lossy(v[i], NULL));
	return a;
}

static double
tv_ms(const struct timeval *tv)
{
	return (double)tv->tv_sec * 1e3 + (double)tv->tv_usec / 1e3;
}

json_t *
audit_build(const struct gx_record_in *in)
{
	const struct gx_outcome *o = in->outcome;
	json_t *rec = xjson(json_object()), *j, *hexes = NULL;
	unsigned char rnd[16];
	char id[33], ts[40], host[256];
	struct timespec now;
	struct passwd *pw;
	bool lossy;

	if (getrandom(rnd, sizeof(rnd), 0) != (ssize_t)sizeof(rnd))
		die_errno("getrandom");
	hex_encode(rnd, sizeof(rnd), id);
	clock_gettime(CLOCK_REALTIME, &now);

	set(rec, "v", json_integer(1));
	set(rec, "id", json_string(id));
	format_iso8601(o ? &o->start : &now, ts, sizeof(ts));
	set(rec, "start", json_string(ts));
	format_iso8601(o ? &o->end : &now, ts, sizeof(ts));
	set(rec, "end", json_string(ts));
	set(rec, "duration_ms", json_real(o ? o->duration_ms : 0.0));
	if (gethostname(host, sizeof(host)) < 0)
		strlcpy(host, "?", sizeof(host));
	host[sizeof(host) - 1] = '\0';
	set(rec, "host", str_lossy(host, NULL));
	set(rec, "uid", json_integer(getuid()));
	pw = getpwuid(getuid());
	set(rec, "user", pw ? str_lossy(pw->pw_name, NULL) : json_null());
	set(rec, "pid", json_integer(getpid()));
	set(rec, "cwd", in->cwd ? str_lossy(in->cwd, &lossy) : json_null());
	if (in->cwd && lossy)
		set(rec, "cwd_hex", hex_of(in->cwd));

	j = xjson(json_array());
	for (size_t i = 0; in->argv != NULL && in->argv[i] != NULL; i++) {
		json_array_append_new(j, str_lossy(in->argv[i], &lossy));
		if (lossy) {
			char key[24];

			if (hexes == NULL)
				hexes = xjson(json_object());
			snprintf(key, sizeof(key), "%zu", i);
			set(hexes, key, hex_of(in->argv[i]));
		}
	}
	set(rec, "argv", j);
	if (hexes != NULL)
		set(rec, "argv_hex", hexes);
	set(rec, "exec", str_or_null(in->exec_path));

	j = xjson(json_object());
	if (in->pol != NULL) {
		set(j, "name", str_lossy(in->pol->name, NULL));
		set(j, "path", str_or_null(in->pol->path));
		set(j, "sha256", json_string(in->pol->sha256));
	} else {
		set(j, "name", json_null());
		set(j, "path", str_or_null(in->policy_path));
		set(j, "sha256", json_null());
	}
	set(rec, "policy", j);
	if (in->policy_writable)
		set(rec, "policy_writable", json_true());

	j = xjson(json_object());
	set(j, "passed", strv_json(in->env ? in->env->passed : NULL));
	set(j, "dropped", strv_json(in->env ? in->env->dropped : NULL));
	set(rec, "env", j);

	j = xjson(json_array());
	for (size_t i = 0; in->advisory != NULL && in->advisory[i]; i++) {
		const struct gx_advisory_rule *r = in->advisory[i];
		json_t *a = xjson(json_object());

		set(a, "rule", str_lossy(r->match ? r->match : r->regex, NULL));
		set(a, "reason", str_lossy(r->reason, NULL));
		set(a, "enforced", json_false());
		json_array_append_new(j, a);
	}
	set(rec, "advisory", j);

	set(rec, "status", json_string(outcome_status_name(o ? o->status :
	    GX_STATUS_REFUSED)));
	set(rec, "exit_code", json_integer(o ? o->exit_code : 125));
	set(rec, "signal", o && o->signal ? json_integer(o->signal) :
	    json_null());
	set(rec, "timed_out", json_boolean(o && o->timed_out));
	set(rec, "stdout_bytes", json_integer(o ? (json_int_t)o->stdout_bytes :
	    0));
	set(rec, "stderr_bytes", json_integer(o ? (json_int_t)o->stderr_bytes :
	    0));
	set(rec, "truncated", json_boolean(o && o->truncated));

	j = xjson(json_object());
	if (in->learn) {
		set(j, "action", json_string("learn"));
	} else if (in->pol != NULL && in->pol->has_syscalls) {
		static const char *const act[] = { "errno", "kill", "log" };

		set(j, "action", json_string(act[in->pol->default_action]));
	} else {
		set(j, "action", json_null());
	}
	{
		json_t *list = xjson(json_array());

		for (size_t i = 0; o != NULL && i < o->n_denied; i++) {
			json_t *d = xjson(json_object());

			set(d, "syscall", json_string(o->denied[i].name));
			set(d, "count", json_integer((json_int_t)
			    o->denied[i].count));
			json_array_append_new(list, d);
		}
		set(j, in->learn ? "used" : "denied", list);
		if (in->learn)
			set(j, "denied", json_array());
	}
	set(j, "reporting", json_string(o != NULL && o->reporting[0] ?
	    o->reporting : "off"));
	if (o != NULL && o->denied_overflow)
		set(j, "denied_truncated", json_true());
	set(rec, "seccomp", j);

	j = xjson(json_object());
	set(j, "user_ms", json_real(o ? tv_ms(&o->ru.ru_utime) : 0.0));
	set(j, "sys_ms", json_real(o ? tv_ms(&o->ru.ru_stime) : 0.0));
	set(j, "max_rss_kb", json_integer(o ? o->ru.ru_maxrss : 0));
	set(rec, "rusage", j);
	set(rec, "limit_hit", str_or_null(o ? o->limit_hit : NULL));

	j = xjson(json_object());
	set(j, "filesystem", str_or_null(in->isolation_fs));
	set(j, "network", str_or_null(in->isolation_net));
	set(j, "cgroup", str_or_null(in->isolation_cgroup));
	set(j, "user", str_or_null(in->isolation_user));
	if (in->isolation_cgroup_why != NULL)
		set(j, "cgroup_why", str_lossy(in->isolation_cgroup_why, NULL));
	if (in->limits_processes != NULL || in->limits_memory != NULL) {
		json_t *l = xjson(json_object());

		if (in->limits_processes != NULL)
			set(l, "processes", json_string(in->limits_processes));
		if (in->limits_memory != NULL)
			set(l, "memory", json_string(in->limits_memory));
		set(j, "limits", l);
	}
	set(rec, "isolation", j);

	if (o != NULL && o->n_forwarded > 0) {
		j = xjson(json_array());
		for (size_t i = 0; i < o->n_forwarded; i++)
			json_array_append_new(j, xjson(json_string(
			    signal_name(o->forwarded[i]))));
		set(rec, "signals_received", j);
	}
	if (o != NULL && o->left_running)
		set(rec, "left_running", json_true());
	if (in->error != NULL)
		set(rec, "error", str_lossy(in->error, NULL));
	return rec;
}

static void
sha256_hex(const char *buf, size_t n, char *out)
{
	unsigned char d[SHA256_DIGEST_LENGTH];
	SHA2_CTX ctx;

	SHA256Init(&ctx);
	SHA256Update(&ctx, (const uint8_t *)buf, n);
	SHA256Final(d, &ctx);
	hex_encode(d, sizeof(d), out);
}

char *
audit_format(json_t *rec, const char *prev)
{
	char hash[65], *text, *line;
	size_t n;

	json_object_del(rec, "hash");
	set(rec, "prev", json_string(prev));
	text = json_dumps(rec, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
	if (text == NULL)
		die("out of memory (json)");
	n = strlen(text);
	/* text ends in '}': the hash covers everything before it. */
	sha256_hex(text, n - 1, hash);
	line = xasprintf("%.*s" HASH_KEY "%s\"}\n", (int)(n - 1), text, hash);
	free(text);
	return line;
}

static bool
is_hex64(const char *s)
{
	for (int i = 0; i < 64; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return true;
}

/*
 * Whether the @len bytes at @s end in ',"hash":"<64 hex>"}', the tail
 * audit_format writes; copies the hash to @hash (65 bytes) when so.
 */
static bool
ends_in_hash(const char *s, size_t len, char *hash)
{
	const char *t;

	if (len < HASH_TAIL_LEN)
		return false;
	t = s + len - HASH_TAIL_LEN;
	if (memcmp(t, HASH_KEY, sizeof(HASH_KEY) - 1) != 0 ||
	    !is_hex64(t + sizeof(HASH_KEY) - 1) ||
	    memcmp(s + len - 2, "\"}", 2) != 0)
		return false;
	memcpy(hash, t + sizeof(HASH_KEY) - 1, 64);
	hash[64] = '\0';
	return true;
}

/* Whether @hash is the sha256 of the line's bytes before its hash key. */
static bool
hash_matches(const char *line, size_t len, const char *hash)
{
	char want[65];

	sha256_hex(line, len - HASH_TAIL_LEN, want);
	return strcmp(want, hash) == 0;
}

int
audit_check_line(const char *line, size_t len, char *prev, char *hash,
    const char **why)
{
	json_error_t jerr;
	json_t *obj, *p;
	const char *key;

	if (len < HASH_TAIL_LEN + 2 || line[0] != '{' ||
	    !ends_in_hash(line, len, hash)) {
		*why = "does not end in a \"hash\" key";
		return -1;
	}
	obj = json_loadb(line, len, JSON_REJECT_DUPLICATES, &jerr);
	if (obj == NULL || !json_is_object(obj)) {
		json_decref(obj);
		*why = "not a JSON object";
		return -1;
	}
	/* "hash" must be the last key: nothing may hide after it. */
	key = NULL;
	for (void *it = json_object_iter(obj); it != NULL;
	    it = json_object_iter_next(obj, it))
		key = json_object_iter_key(it);
	p = json_object_get(obj, "prev");
	if (key == NULL || strcmp(key, "hash") != 0 || !json_is_string(p) ||
	    strlen(json_string_value(p)) != 64 ||
	    !is_hex64(json_string_value(p))) {
		json_decref(obj);
		*why = "\"hash\" is not the last key or \"prev\" is missing";
		return -1;
	}
	strlcpy(prev, json_string_value(p), 65);
	json_decref(obj);
	if (!hash_matches(line, len, hash)) {
		*why = "hash does not match the line's bytes";
		return -1;
	}
	return 0;
}

#define PREV_KEY ",\"prev\":\""

int
audit_check_line_fast(const char *line, size_t len, char *prev, char *hash,
    const char **why)
{
	/* ',"prev":"' + 64 hex + '"' then the hash tail */
	const size_t prev_len = sizeof(PREV_KEY) - 1 + 64 + 1;
	const char *p;

	if (len < HASH_TAIL_LEN + prev_len + 2 || line[0] != '{' ||
	    !ends_in_hash(line, len, hash)) {
		*why = "does not end in a \"hash\" key";
		return -1;
	}
	p = line + len - HASH_TAIL_LEN - prev_len;
	if (memcmp(p, PREV_KEY, sizeof(PREV_KEY) - 1) != 0 ||
	    !is_hex64(p + sizeof(PREV_KEY) - 1) || p[prev_len - 1] != '"') {
		*why = "\"prev\" does not stand right before \"hash\"";
		return -1;
	}
	if (!hash_matches(line, len, hash)) {
		*why = "hash does not match the line's bytes";
		return -1;
	}
	memcpy(prev, p + sizeof(PREV_KEY) - 1, 64);
	prev[64] = '\0';
	return 0;
}

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

int
audit_log_open(struct gx_log *log, const char *path, bool mkdir_parents,
    struct gx_diag *diag)
{
	struct statvfs vfs;
	struct stat st;
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
	log->fd = open(path, O_RDWR | O_APPEND | O_CREAT | O_NOFOLLOW |
	    O_CLOEXEC | O_NOCTTY, 0600);
	if (log->fd < 0) {
		errsv = errno;
		diag_add(diag, "audit log %s: %s", path, errsv == ELOOP ?
		    "is a symbolic link (refused)" : strerror(errsv));
		errno = errsv;
		return -1;
	}
	if (fstat(log->fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		diag_add(diag, "audit log %s: not a regular file", path);
		close(log->fd);
		log->fd = -1;
		errno = EINVAL;
		return -1;
	}
	/* Root may use the reserved blocks; others may not. */
	if (fstatvfs(log->fd, &vfs) == 0 &&
	    (geteuid() == 0 ? vfs.f_bfree : vfs.f_bavail) == 0) {
		diag_add(diag, "audit log %s: no space left on the filesystem",
		    path);
		close(log->fd);
		log->fd = -1;
		errno = ENOSPC;
		return -1;
	}
	{
		char *hp = head_path(path);

		log->head_fd = open(hp, O_WRONLY | O_CREAT | O_NOFOLLOW |
		    O_CLOEXEC | O_NOCTTY, 0600);
		free(hp);
	}
	return 0;
}

/* The previous hash from the file's last line; 1 if the tail is torn. */
static int
tail_hash(int fd, off_t size, char *prev)
{
	char tail[HASH_TAIL_LEN + 1];

	strlcpy(prev, GX_ZERO_HASH, 65);
	if (size == 0)
		return 0;
	if (size < (off_t)sizeof(tail) ||
	    pread(fd, tail, sizeof(tail), size - (off_t)sizeof(tail)) !=
	    (ssize_t)sizeof(tail))
		return 1;
	if (tail[sizeof(tail) - 1] != '\n' ||
	    !ends_in_hash(tail, HASH_TAIL_LEN, prev)) {
		strlcpy(prev, GX_ZERO_HASH, 65);
		return 1;
	}
	return 0;
}

/*
 * An empty log right after rotation continues the chain of its rotated
 * predecessor "<log>.1" (logrotate's numbered naming), so that
 * "guardexec-audit verify log.1 log" checks across the rotation.
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

static char *
head_path(const char *log_path)
{
	return xasprintf("%s.head", log_path);
}

int
audit_head_read(const char *log_path, char *hash)
{
	char *p = head_path(log_path), buf[66];
	int fd, errsv;
	ssize_t n;

	fd = open(p, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY);
	errsv = errno;
	free(p);
	if (fd < 0) {
		errno = errsv;
		return -1;
	}
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n < 64 || !is_hex64(buf)) {
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
	memcpy(buf, line + len - 67, 64);
	buf[64] = '\n';
	(void)!pwrite(log->head_fd, buf, sizeof(buf), 0);
}

int
audit_log_append(struct gx_log *log, json_t *rec, bool sync,
    char **line_out, struct gx_diag *diag)
{
	char prev[65], *line, *towrite;
	size_t len, off = 0;
	struct stat st;
	int errsv = 0;
	bool torn;
	ssize_t n;
	char last;

	*line_out = NULL;
	/*
	 * The log may have been rotated or deleted while the command ran:
	 * then the record goes to the file now at the path (created afresh,
	 * chained onto <log>.1 after a rotation), not into the old inode.
	 */
	for (int tries = 0; ; tries++) {
		struct stat now_st;

		if (flock(log->fd, LOCK_EX) < 0 || fstat(log->fd, &st) < 0) {
			errsv = errno;
			diag_add(diag, "audit log %s: %s", log->path,
			    strerror(errsv));
			errno = errsv;
			return -1;
		}
		if (tries == 3 || (st.st_nlink > 0 &&
		    lstat(log->path, &now_st) == 0 &&
		    now_st.st_dev == st.st_dev && now_st.st_ino == st.st_ino))
			break;  /* locked, and the file at the path */
		close(log->fd);         /* drops the lock */
		log->fd = open(log->path, O_RDWR | O_APPEND | O_CREAT |
		    O_NOFOLLOW | O_CLOEXEC | O_NOCTTY, 0600);
		if (log->fd < 0) {
			errsv = errno;
			diag_add(diag, "audit log %s: reopening after it was "
			    "moved: %s", log->path, errsv == ELOOP ?
			    "now a symbolic link (refused)" : strerror(errsv));
			errno = errsv;
			return -1;
		}
	}
	torn = tail_hash(log->fd, st.st_size, prev) == 1;
	if (torn) {
		/* A torn or foreign last line: say so, start a new segment. */
		set(rec, "chain_restart", json_string("the previous last line "
		    "was torn or not a record"));
	} else if (st.st_size == 0 && predecessor_hash(log->path, prev) < 0) {
		strlcpy(prev, GX_ZERO_HASH, sizeof(prev));
		set(rec, "chain_restart", json_string("the rotated log's last "
		    "line was torn or not a record"));
	}
	line = audit_format(rec, prev);
	len = strlen(line);
	towrite = line;
	/* Finish a torn line first, so the new record stands on its own. */
	if (torn && st.st_size > 0 && pread(log->fd, &last, 1,
	    st.st_size - 1) == 1 && last != '\n') {
		towrite = xasprintf("\n%s", line);
		len++;
	}
	while (off < len) {
		n = write(log->fd, towrite + off, len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			errsv = n < 0 ? errno : ENOSPC;
			break;
		}
		off += (size_t)n;
	}
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

static void
cut_strings(json_t *arr, size_t keep, size_t maxlen)
{
	size_t n = json_array_size(arr);

	for (size_t i = 0; i < n && i < keep; i++) {
		json_t *s = json_array_get(arr, i);

		if (json_is_string(s) && json_string_length(s) > maxlen) {
			const char *v = json_string_value(s);
			size_t l = maxlen;
			char *t;

			/* Cut before a UTF-8 continuation byte, not inside. */
			while (l > 0 && ((unsigned char)v[l] & 0xc0) == 0x80)
				l--;
			t = xasprintf("%.*s...", (int)l, v);
			json_array_set_new(arr, i, str_lossy(t, NULL));
			free(t);
		}
	}
	if (n > keep) {
		while (json_array_size(arr) > keep)
			json_array_remove(arr, keep);
		json_array_append_new(arr, xjson(json_sprintf("...(%zu more)",
		    n - keep)));
	}
}

char *
audit_compact(json_t *rec, size_t max)
{
	static const struct { size_t args, len, names; } steps[] = {
		{ 64, 512, 64 }, { 16, 128, 16 }, { 8, 64, 4 }, { 4, 32, 0 },
	};
	json_t *c = json_deep_copy(rec);
	char *text;

	for (size_t i = 0; ; i++) {
		text = json_dumps(c, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
		if (text == NULL)
			die("out of memory (json)");
		if (strlen(text) <= max || i == sizeof(steps) / sizeof(steps[0]))
			break;
		free(text);
		json_object_del(c, "argv_hex");
		json_object_del(c, "cwd_hex");
		cut_strings(json_object_get(c, "argv"), steps[i].args,
		    steps[i].len);
		cut_strings(json_object_get(json_object_get(c, "env"),
		    "passed"), steps[i].names, 64);
		cut_strings(json_object_get(json_object_get(c, "env"),
		    "dropped"), steps[i].names, 64);
		cut_strings(json_object_get(c, "advisory"), 4, 64);
		set(c, "compacted", json_true());
	}
	if (strlen(text) > max) {
		/* Still too long (a huge cwd or error): keep the essentials. */
		json_t *m = xjson(json_object());
		static const char *const keep[] = { "v", "id", "start", "uid",
			"pid", "status", "exit_code", "hash", NULL };

		free(text);
		for (size_t i = 0; keep[i] != NULL; i++) {
			json_t *v = json_object_get(rec, keep[i]);

			if (v != NULL)
				json_object_set(m, keep[i], v);
		}
		set(m, "compacted", json_true());
		text = json_dumps(m, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
		json_decref(m);
		if (text == NULL)
			die("out of memory (json)");
	}
	json_decref(c);
	return text;
}

void
audit_syslog(json_t *rec, int facility)
{
	const char *status = json_string_value(json_object_get(rec, "status"));
	bool notice;
	char *text;

	notice = json_array_size(json_object_get(rec, "advisory")) > 0 ||
	    json_array_size(json_object_get(json_object_get(rec, "seccomp"),
	    "denied")) > 0 || (status != NULL && strcmp(status, "exited") != 0);
	text = audit_compact(rec, 4096 - 8);
	openlog("guardexec", LOG_PID | LOG_NDELAY, facility);
	syslog(notice ? LOG_NOTICE : LOG_INFO, "@cee: %s", text);
	closelog();
	free(text);
}
