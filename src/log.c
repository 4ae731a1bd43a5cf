/* SPDX-License-Identifier: ISC */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "util.h"

/* Who speaks in messages, and die()'s exit status (log_set_program). */
static const char *prog_name = "guardexec";
static int fail_status = GX_EXIT_FAILURE;

void
log_set_program(const char *name, int status)
{
	prog_name = name;
	fail_status = status;
}

static void vmsg(const char *fmt, va_list ap, int errsv)
	__attribute__((format(printf, 1, 0)));

static void
vmsg(const char *fmt, va_list ap, int errsv)
{
	char buf[2048];
	int n;

	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	if (n < 0)
		buf[0] = '\0';
	if (errsv)
		fprintf(stderr, "%s: %s: %s\n", prog_name, buf,
		    strerror(errsv));
	else
		fprintf(stderr, "%s: %s\n", prog_name, buf);
	fflush(stderr);
}

void
die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(fmt, ap, 0);
	va_end(ap);
	exit(fail_status);
}

void
die_errno(const char *fmt, ...)
{
	int errsv = errno;
	va_list ap;

	va_start(ap, fmt);
	vmsg(fmt, ap, errsv);
	va_end(ap);
	exit(fail_status);
}

void
warnx_gx(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(fmt, ap, 0);
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
