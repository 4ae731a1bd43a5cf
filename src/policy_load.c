/* SPDX-License-Identifier: ISC */
/*
 * The policy file and its guards: open once, fstat that fd, refuse what
 * is not a regular file, too large, writable by others when root, or
 * uses @include; read the bytes once, hash them, and parse the same
 * bytes (policy_parse.c).
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <sha2.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "policy.h"
#include "util.h"

/* Largest policy file read (a policy is configuration, not data). */
#define POLICY_MAX_BYTES (1024 * 1024)

/*
 * libconfig 1.5 silently wraps an integer literal of 2^31 or more that
 * has no L suffix ("max_bytes = 4294967296;" would read as 0: no cap).
 * Find such literals in the text (outside strings and comments) before
 * parsing.  Returns the line of the first, or 0.
 */
static int
find_wrapping_int(const char *buf, size_t len)
{
	int line = 1;

	for (size_t i = 0; i < len; i++) {
		char c = buf[i];

		if (c == '\n') {
			line++;
		} else if (c == '"') {
			for (i++; i < len && buf[i] != '"'; i++) {
				if (buf[i] == '\\')
					i++;
				else if (buf[i] == '\n')
					line++;
			}
		} else if (c == '#' || (c == '/' && i + 1 < len &&
		    buf[i + 1] == '/')) {
			while (i + 1 < len && buf[i + 1] != '\n')
				i++;
		} else if (c == '/' && i + 1 < len && buf[i + 1] == '*') {
			for (i += 2; i + 1 < len && !(buf[i] == '*' &&
			    buf[i + 1] == '/'); i++)
				if (buf[i] == '\n')
					line++;
			i++;
		} else if (isdigit((unsigned char)c) && (i == 0 ||
		    !(isalnum((unsigned char)buf[i - 1]) || buf[i - 1] == '_' ||
		    buf[i - 1] == '.'))) {
			unsigned long long v = 0;
			bool big = false, hex = false;
			size_t j = i;

			if (c == '0' && j + 1 < len && (buf[j + 1] == 'x' ||
			    buf[j + 1] == 'X')) {
				hex = true;
				j += 2;
			}
			for (; j < len && (hex ? isxdigit((unsigned char)buf[j]) :
			    isdigit((unsigned char)buf[j])); j++) {
				int d = isdigit((unsigned char)buf[j]) ?
				    buf[j] - '0' : (tolower(buf[j]) - 'a' + 10);

				v = v * (hex ? 16 : 10) + (unsigned long long)d;
				if (v > (hex ? 0xffffffffULL : 2147483647ULL))
					big = true;
				if (v > (1ULL << 60))
					v = 1ULL << 60;
			}
			if (j < len && (buf[j] == '.' || buf[j] == 'e' ||
			    buf[j] == 'E'))
				big = false;    /* a float */
			if (j < len && buf[j] == 'L')
				big = false;
			if (big)
				return line;
			i = j - 1;
		}
	}
	return 0;
}

/* libconfig 1.5 cannot turn @include off; a policy is one file. */
static const char *
find_include(const char *buf, size_t len, int *line)
{
	int ln = 1;

	for (size_t i = 0; i < len; i++) {
		size_t j = i;

		while (j < len && (buf[j] == ' ' || buf[j] == '\t'))
			j++;
		if (len - j >= 8 && memcmp(buf + j, "@include", 8) == 0) {
			*line = ln;
			return buf + j;
		}
		while (i < len && buf[i] != '\n')
			i++;
		ln++;
	}
	return NULL;
}

int
policy_load(const char *path, bool privileged, struct gx_policy *pol,
    struct gx_diag *diag)
{
	unsigned char digest[SHA256_DIGEST_LENGTH];
	char hex[65], cwd[4096], *abs, *dir;
	struct stat st;
	SHA2_CTX ctx;
	ssize_t n;
	size_t len = 0;
	int fd, line, rc;
	char *buf;
	FILE *f;

	memset(pol, 0, sizeof(*pol));
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		diag_add(diag, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		diag_add(diag, "%s: not a regular file", path);
		close(fd);
		return -1;
	}
	/*
	 * Run by root, a policy that others can edit would let them choose
	 * what root runs (doas parseconfig()).
	 */
	if (privileged && ((st.st_mode & S_IWOTH) ||
	    ((st.st_mode & S_IWGRP) && st.st_gid != 0))) {
		diag_add(diag, "%s: refusing a policy writable by group or "
		    "others while running as root (chmod go-w)", path);
		close(fd);
		return -1;
	}
	if (st.st_size > POLICY_MAX_BYTES) {
		diag_add(diag, "%s: larger than 1M; not a policy", path);
		close(fd);
		return -1;
	}
	buf = xmalloc((size_t)st.st_size + 1);
	while (len <= (size_t)st.st_size &&
	    (n = read(fd, buf + len, (size_t)st.st_size + 1 - len)) > 0)
		len += (size_t)n;
	close(fd);
	if (len > (size_t)st.st_size) {
		diag_add(diag, "%s: changed while being read", path);
		free(buf);
		return -1;
	}
	if (find_include(buf, len, &line) != NULL) {
		diag_add(diag, "%s:%d: @include: not supported (a policy is one "
		    "file, so that its sha256 covers all of it)", path, line);
		free(buf);
		return -1;
	}
	if ((line = find_wrapping_int(buf, len)) != 0) {
		diag_add(diag, "%s:%d: an integer of 2^31 or more needs an L "
		    "suffix (or write a size as a string like \"4G\")", path,
		    line);
		free(buf);
		return -1;
	}
	SHA256Init(&ctx);
	SHA256Update(&ctx, (const uint8_t *)buf, len);
	SHA256Final(digest, &ctx);
	hex_encode(digest, sizeof(digest), hex);

	if (path[0] != '/' && getcwd(cwd, sizeof(cwd)) == NULL) {
		diag_add(diag, "getcwd: %s", strerror(errno));
		free(buf);
		return -1;
	}
	abs = path_resolve(path[0] == '/' ? NULL : cwd, path);
	dir = path_dirname(abs);
	/* The bytes parsed are the bytes hashed: no second open. */
	buf[len] = '\n';
	f = fmemopen(buf, len + 1, "r");
	if (f == NULL)
		die("fmemopen: out of memory");
	rc = policy_load_stream(f, path, dir, hex, pol, diag);
	fclose(f);
	free(dir);
	if (rc == 0) {
		pol->path = abs;
		pol->text = buf;        /* --learn keeps the comments */
		pol->text_len = len;
	} else {
		free(abs);
		free(buf);
	}
	return rc;
}

void
policy_free(struct gx_policy *pol)
{
	free(pol->path);
	free(pol->dir);
	free(pol->name);
	free(pol->user);
	strv_free(pol->env_allow);
	strv_free(pol->env_set);
	strv_free(pol->sys_allow);
	strv_free(pol->sys_allow_src);
	strv_free(pol->sys_deny);
	strv_free(pol->fs_read);
	strv_free(pol->fs_write);
	for (size_t i = 0; i < pol->n_advisory; i++)
		advisory_rule_free(&pol->advisory[i]);
	free(pol->advisory);
	free(pol->audit_log);
	free(pol->audit_facility_name);
	free(pol->text);
	memset(pol, 0, sizeof(*pol));
}
