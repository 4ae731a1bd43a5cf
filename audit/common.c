/* SPDX-License-Identifier: ISC */
#include "config.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "log.h"

const char audit_usage[] =
    "usage: guardexec-audit verify [--partial] [--strict] [--no-rotated] "
    "LOG...\n"
    "       guardexec-audit show [--json] [--since TIME] [--until TIME]\n"
    "                            [--policy NAME] [--status STATUS] "
    "[--user USER]\n"
    "                            [--command SUBSTR] [--denied] "
    "[--advisory] [LOG...]\n"
    "       guardexec-audit summary [--top N] LOG...\n"
    "       guardexec-audit report [-o FILE] [-n NAME...] LOG...\n"
    "       guardexec-audit crosscheck LOCAL... CENTRAL\n"
    "       guardexec-audit --help | --version\n";

int
audit_getopt(int argc, char **argv, const struct option *opts)
{
	opterr = 0;     /* the message is audit_bad_option's */
	return getopt_long(argc, argv, "+", opts, NULL);
}

int
audit_bad_option(char **argv)
{
	return audit_usage_error("%s: %s: unknown option or missing argument",
	    argv[0], argv[optind - 1]);
}

int
audit_usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("guardexec-audit: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fputs(audit_usage, stderr);
	return 2;
}

int
audit_parse_count(const char *opt, const char *s, size_t max, size_t *out)
{
	size_t v = 0;

	if (s[0] == '\0')
		return audit_usage_error("%s: expected a number, got \"\"", opt);
	for (const char *p = s; *p != '\0'; p++) {
		if (*p < '0' || *p > '9' || v > (max - (size_t)(*p - '0')) / 10)
			return audit_usage_error("%s: expected a number from 1 "
			    "to %zu, got \"%s\"", opt, max, s);
		v = v * 10 + (size_t)(*p - '0');
	}
	if (v == 0)
		return audit_usage_error("%s: expected a number from 1 to %zu, "
		    "got \"%s\"", opt, max, s);
	*out = v;
	return 0;
}

/* The code point of the UTF-8 sequence at @s (@len bytes), or -1. */
static long
utf8_decode(const unsigned char *s, size_t avail, size_t *len)
{
	unsigned char c = s[0];
	size_t n = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 :
	    (c & 0xf0) == 0xe0 ? 3 : (c & 0xf8) == 0xf0 ? 4 : 0;
	long cp;

	if (n == 0 || n > avail)
		return -1;
	cp = n == 1 ? c : n == 2 ? (c & 0x1f) : n == 3 ? (c & 0x0f) : (c & 0x07);
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return -1;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	/* Overlong forms, surrogates and beyond U+10FFFF are not UTF-8. */
	if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) ||
	    (n == 4 && cp < 0x10000) || cp > 0x10ffff ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return -1;
	*len = n;
	return cp;
}

/* Characters a terminal would act on or that reorder the text around. */
static bool
is_invisible(long cp)
{
	return (cp >= 0x80 && cp <= 0x9f) || cp == 0x061c || cp == 0x200e ||
	    cp == 0x200f || (cp >= 0x202a && cp <= 0x202e) ||
	    (cp >= 0x2066 && cp <= 0x2069);
}

char *
audit_printable(const char *s, size_t max, size_t *width)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s), o = 0, chars = 0, len;
	/* at most 6 output bytes ("\uXXXX") per input byte */
	char *out = xmalloc(6 * (n < max ? n : max) + 1);
	long cp;

	for (size_t i = 0; i < n && chars < max; i += len, chars++) {
		cp = utf8_decode(p + i, n - i, &len);
		if (cp < 0) {
			len = 1;
			o += (size_t)snprintf(out + o, 7, "\\x%02X", p[i]);
		} else if (cp < 0x20 || cp == 0x7f) {
			out[o++] = '?';
		} else if (is_invisible(cp)) {
			o += (size_t)snprintf(out + o, 7, "\\u%04lX", cp);
		} else {
			memcpy(out + o, p + i, len);
			o += len;
		}
	}
	out[o] = '\0';
	if (width != NULL)
		*width = chars;
	return out;
}
