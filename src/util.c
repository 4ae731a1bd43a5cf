/* SPDX-License-Identifier: ISC */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "log.h"
#include "util.h"

size_t
strv_len(char *const *v)
{
	size_t n = 0;

	while (v != NULL && v[n] != NULL)
		n++;
	return n;
}

void
strv_free(char **v)
{
	for (size_t i = 0; v != NULL && v[i] != NULL; i++)
		free(v[i]);
	free(v);
}

char **
strv_append(char **v, const char *s)
{
	size_t n = strv_len(v);

	v = xreallocarray(v, n + 2, sizeof(*v));
	v[n] = xstrdup(s);
	v[n + 1] = NULL;
	return v;
}

bool
strv_contains(char *const *v, const char *s)
{
	for (size_t i = 0; v != NULL && v[i] != NULL; i++)
		if (strcmp(v[i], s) == 0)
			return true;
	return false;
}

bool
name_pattern_match(const char *pattern, const char *name)
{
	size_t n = strlen(pattern);

	if (n > 0 && pattern[n - 1] == '*')
		return strncmp(pattern, name, n - 1) == 0;
	return strcmp(pattern, name) == 0;
}

char *
path_resolve(const char *base, const char *path)
{
	char *joined, *out, *save = NULL, *tok;
	size_t len = 0;

	if (path[0] == '/' || base == NULL)
		joined = xstrdup(path);
	else
		joined = xasprintf("%s/%s", base, path);
	out = xmalloc(strlen(joined) + 2);
	out[0] = '\0';
	for (tok = strtok_r(joined, "/", &save); tok != NULL;
	    tok = strtok_r(NULL, "/", &save)) {
		if (strcmp(tok, ".") == 0)
			continue;
		if (strcmp(tok, "..") == 0) {
			char *slash = strrchr(out, '/');

			if (slash != NULL) {
				*slash = '\0';
				len = (size_t)(slash - out);
			}
			continue;
		}
		out[len++] = '/';
		strcpy(out + len, tok);
		len += strlen(tok);
	}
	if (len == 0)
		strcpy(out, "/");
	free(joined);
	return out;
}

char *
path_dirname(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (slash == NULL)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	char *r = xmalloc((size_t)(slash - path) + 1);

	memcpy(r, path, (size_t)(slash - path));
	r[slash - path] = '\0';
	return r;
}

void
hex_encode(const unsigned char *in, size_t n, char *out)
{
	static const char digits[] = "0123456789abcdef";

	for (size_t i = 0; i < n; i++) {
		out[2 * i] = digits[in[i] >> 4];
		out[2 * i + 1] = digits[in[i] & 0xf];
	}
	out[2 * n] = '\0';
}

void
format_iso8601(const struct timespec *ts, char *out, size_t outsz)
{
	struct tm tm;
	char buf[32];

	gmtime_r(&ts->tv_sec, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(out, outsz, "%s.%06ldZ", buf, ts->tv_nsec / 1000);
}

double
timespec_diff_ms(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) * 1e3 +
	    (double)(b->tv_nsec - a->tv_nsec) / 1e6;
}

bool
utf8_valid(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;

	while (i < n) {
		unsigned char c = p[i];
		size_t len;
		uint32_t cp, min;

		if (c < 0x80) {
			i++;
			continue;
		} else if ((c & 0xe0) == 0xc0) {
			len = 2; cp = c & 0x1f; min = 0x80;
		} else if ((c & 0xf0) == 0xe0) {
			len = 3; cp = c & 0x0f; min = 0x800;
		} else if ((c & 0xf8) == 0xf0) {
			len = 4; cp = c & 0x07; min = 0x10000;
		} else {
			return false;
		}
		if (i + len > n)
			return false;
		for (size_t k = 1; k < len; k++) {
			if ((p[i + k] & 0xc0) != 0x80)
				return false;
			cp = (cp << 6) | (p[i + k] & 0x3f);
		}
		if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
			return false;
		i += len;
	}
	return true;
}

int
signal_from_name(const char *s)
{
	char *end;
	long v;

	if (s[0] >= '0' && s[0] <= '9') {
		v = strtol(s, &end, 10);
		return (*end == '\0' && v > 0 && v < NSIG) ? (int)v : -1;
	}
	if (strncasecmp(s, "SIG", 3) == 0)
		s += 3;
	for (int i = 1; i < NSIG; i++) {
		const char *abbrev = sigabbrev_np(i);

		if (abbrev != NULL && strcasecmp(abbrev, s) == 0)
			return i;
	}
	return -1;
}

/* The names sigabbrev_np() knows, with their prefix (no static buffer). */
#define SIG_ENTRY(s) [s] = #s
static const char *const signal_names[] = {
	SIG_ENTRY(SIGHUP), SIG_ENTRY(SIGINT), SIG_ENTRY(SIGQUIT),
	SIG_ENTRY(SIGILL), SIG_ENTRY(SIGTRAP), SIG_ENTRY(SIGABRT),
	SIG_ENTRY(SIGBUS), SIG_ENTRY(SIGFPE), SIG_ENTRY(SIGKILL),
	SIG_ENTRY(SIGUSR1), SIG_ENTRY(SIGSEGV), SIG_ENTRY(SIGUSR2),
	SIG_ENTRY(SIGPIPE), SIG_ENTRY(SIGALRM), SIG_ENTRY(SIGTERM),
	SIG_ENTRY(SIGSTKFLT), SIG_ENTRY(SIGCHLD), SIG_ENTRY(SIGCONT),
	SIG_ENTRY(SIGSTOP), SIG_ENTRY(SIGTSTP), SIG_ENTRY(SIGTTIN),
	SIG_ENTRY(SIGTTOU), SIG_ENTRY(SIGURG), SIG_ENTRY(SIGXCPU),
	SIG_ENTRY(SIGXFSZ), SIG_ENTRY(SIGVTALRM), SIG_ENTRY(SIGPROF),
	SIG_ENTRY(SIGWINCH), SIG_ENTRY(SIGPOLL), SIG_ENTRY(SIGPWR),
	SIG_ENTRY(SIGSYS),
};

const char *
signal_name(int sig)
{
	if (sig <= 0 || (size_t)sig >= sizeof(signal_names) /
	    sizeof(signal_names[0]) || signal_names[sig] == NULL)
		return "SIG?";
	return signal_names[sig];
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void
strv_sort(char **v)
{
	if (v != NULL)
		qsort(v, strv_len(v), sizeof(*v), cmp_str);
}

int
errno_from_name(const char *s)
{
	for (int e = 1; e < 4096; e++) {
		const char *name = strerrorname_np(e);

		if (name != NULL && strcmp(name, s) == 0)
			return e;
	}
	return -1;
}

const char *
errno_name(int e)
{
	return strerrorname_np(e);
}
