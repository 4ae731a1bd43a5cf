/* SPDX-License-Identifier: ISC */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "log.h"

/* Who speaks in messages, and die()'s exit status (log_set_program). */
static const char *prog_name = "guardexec";
static int fail_status = GX_EXIT_FAILURE;
static void (*die_hook)(const char *msg);

void
log_set_program(const char *name, int status)
{
	prog_name = name;
	fail_status = status;
}

/*
 * "PROG: @msg\n" on stderr, never blocking for long: a command can stop
 * the terminal guardexec writes to (tcflow(TCOOFF)), and a message after
 * the run must not hang guardexec there.  A file description of our own
 * (reopened through /proc, so the caller's flags stay as they are) is
 * non-blocking; the line is dropped after about a second without room.
 */
static void
put_line(const char *msg)
{
	char line[2300];
	int n = snprintf(line, sizeof(line), "%s: %s\n", prog_name, msg);
	size_t len = n < 0 ? 0 : (size_t)n >= sizeof(line) ?
	    sizeof(line) - 1 : (size_t)n;
	struct stat st;
	size_t off = 0;
	int fd = -1;

	fflush(stderr);
	/* A regular file never blocks, and a reopen would write at 0. */
	if (fstat(2, &st) == 0 && (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)))
		fd = open("/proc/self/fd/2", O_WRONLY | O_NONBLOCK | O_NOCTTY |
		    O_CLOEXEC);
	if (fd < 0) {
		(void)fwrite(line, 1, len, stderr);
		fflush(stderr);
		return;
	}
	for (int waits = 0; off < len && waits < 10; ) {
		ssize_t w = write(fd, line + off, len - off);
		struct pollfd p = { fd, POLLOUT, 0 };

		if (w > 0) {
			off += (size_t)w;
		} else if (w < 0 && errno != EAGAIN && errno != EINTR) {
			break;
		} else {
			(void)poll(&p, 1, 100);
			waits++;
		}
	}
	close(fd);
}

static void vmsg(char *buf, size_t size, const char *fmt, va_list ap,
    int errsv) __attribute__((format(printf, 3, 0)));

/* Format into @buf (with ": strerror" when @errsv) and print it. */
static void
vmsg(char *buf, size_t size, const char *fmt, va_list ap, int errsv)
{
	int n;

	n = vsnprintf(buf, size, fmt, ap);
	if (n < 0)
		buf[0] = '\0';
	if (errsv) {
		size_t len = strlen(buf);

		snprintf(buf + len, size - len, ": %s", strerror(errsv));
	}
	put_line(buf);
}

void
log_set_die_hook(void (*fn)(const char *msg))
{
	die_hook = fn;
}

/* The hook runs once: a die() inside it just exits. */
static void __attribute__((noreturn))
die_exit(const char *msg)
{
	void (*fn)(const char *) = die_hook;

	die_hook = NULL;
	if (fn != NULL)
		fn(msg);
	exit(fail_status);
}

void
die(const char *fmt, ...)
{
	char buf[2048];
	va_list ap;

	va_start(ap, fmt);
	vmsg(buf, sizeof(buf), fmt, ap, 0);
	va_end(ap);
	die_exit(buf);
}

void
die_errno(const char *fmt, ...)
{
	int errsv = errno;
	char buf[2048];
	va_list ap;

	va_start(ap, fmt);
	vmsg(buf, sizeof(buf), fmt, ap, errsv);
	va_end(ap);
	die_exit(buf);
}

void
warnx_gx(const char *fmt, ...)
{
	char buf[2048];
	va_list ap;

	va_start(ap, fmt);
	vmsg(buf, sizeof(buf), fmt, ap, 0);
	va_end(ap);
}

void *
xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (p == NULL)
		die("out of memory");
	return p;
}

void *
xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (p == NULL)
		die("out of memory");
	return p;
}

void *
xreallocarray(void *p, size_t nmemb, size_t size)
{
	void *q = reallocarray(p, nmemb ? nmemb : 1, size ? size : 1);

	if (q == NULL)
		die("out of memory");
	return q;
}

char *
xstrdup(const char *s)
{
	char *p = strdup(s);

	if (p == NULL)
		die("out of memory");
	return p;
}

char *
xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		die("out of memory");
	return s;
}

void
diag_add(struct gx_diag *d, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		die("out of memory");
	va_end(ap);
	d->msgs = xreallocarray(d->msgs, d->n + 1, sizeof(*d->msgs));
	d->msgs[d->n++] = s;
}

void
diag_print(const struct gx_diag *d)
{
	for (size_t i = 0; i < d->n; i++)
		fprintf(stderr, "guardexec: %s\n", d->msgs[i]);
	fflush(stderr);
}

void
diag_free(struct gx_diag *d)
{
	for (size_t i = 0; i < d->n; i++)
		free(d->msgs[i]);
	free(d->msgs);
	d->msgs = NULL;
	d->n = 0;
}
