/* SPDX-License-Identifier: ISC */
/*
 * guardexec-audit report: HTML output helpers and the page's style.
 * Every string that comes from the log goes through put_esc(), which
 * escapes the HTML metacharacters and shows control and invisible
 * formatting characters as \uXXXX, so an argument cannot add markup or
 * disguise itself.
 */
#include "config.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "report_int.h"

#define CMD_BYTES 4096  /* the command text kept from argv */

/* One code point of UTF-8 at @s: its length, or 0 when invalid. */
static size_t
utf8_decode(const unsigned char *s, uint32_t *cp)
{
	size_t len, i;

	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		len = 2;
		*cp = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		len = 3;
		*cp = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		len = 4;
		*cp = s[0] & 0x07;
	} else {
		return 0;
	}
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		*cp = (*cp << 6) | (s[i] & 0x3f);
	}
	if ((len == 3 && *cp < 0x800) || (len == 4 && *cp < 0x10000) ||
	    (*cp >= 0xd800 && *cp <= 0xdfff) || *cp > 0x10ffff)
		return 0;
	return len;
}

/*
 * Characters that would be invisible or would move text around: C0 and
 * C1 controls, zero-width characters, line and paragraph separators,
 * the bidirectional overrides and isolates ("Trojan Source",
 * CVE-2021-42574), the byte order mark.
 */
static bool
hidden_char(uint32_t cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || cp == 0xad ||
	    (cp >= 0x200b && cp <= 0x200f) ||
	    (cp >= 0x2028 && cp <= 0x202e) ||
	    (cp >= 0x2060 && cp <= 0x206f) || cp == 0xfeff ||
	    (cp >= 0xfff9 && cp <= 0xfffb);
}

/*
 * Writes @s escaped for HTML text and attribute values: & < > " ' as
 * entities, hidden characters as \uXXXX, bytes that are not UTF-8 as
 * '?'.  At most @max characters; returns true when @s was cut short.
 */
bool
put_esc(FILE *out, const char *s, size_t max)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t shown = 0;

	while (*p != '\0') {
		uint32_t cp;
		size_t len;

		if (shown++ == max)
			return true;
		switch (*p) {
		case '&': fputs("&amp;", out); p++; continue;
		case '<': fputs("&lt;", out); p++; continue;
		case '>': fputs("&gt;", out); p++; continue;
		case '"': fputs("&quot;", out); p++; continue;
		case '\'': fputs("&#39;", out); p++; continue;
		default: break;
		}
		len = utf8_decode(p, &cp);
		if (len == 0) {
			fputc('?', out);
			p++;
		} else if (hidden_char(cp)) {
			fprintf(out, "\\u%04X", (unsigned)cp);
			p += len;
		} else {
			fwrite(p, 1, len, out);
			p += len;
		}
	}
	return false;
}

/* put_esc() with "..." appended when cut. */
void
put_short(FILE *out, const char *s, size_t max)
{
	if (put_esc(out, s, max))
		fputs("&hellip;", out);
}

/* @v with thousands separators: 12,345. */
void
put_num(FILE *out, unsigned long v)
{
	char digits[24];
	size_t n = (size_t)snprintf(digits, sizeof(digits), "%lu", v);

	for (size_t i = 0; i < n; i++) {
		if (i > 0 && (n - i) % 3 == 0)
			fputs(",", out);
		fputc(digits[i], out);
	}
}

/* A record's "start" as "2026-11-29 09:10:11". */
void
put_when(FILE *out, const char *start)
{
	char when[20];

	strlcpy(when, start, sizeof(when));
	if (strlen(when) == 19)
		when[10] = ' ';
	put_esc(out, when, sizeof(when));
}

/*
 * A policy by its "path\nsha256" key: the path, then the hash (its first
 * 12 digits unless @full_hash, the whole one in the tooltip).
 */
void
put_policy_key(FILE *out, const char *key, bool full_hash)
{
	const char *nl = strchr(key, '\n'), *sha = nl ? nl + 1 : "";
	char *path = xstrdup(key);

	path[nl ? (size_t)(nl - key) : strlen(key)] = '\0';
	if (path[0] == '\0')
		fputs("<i class=\"muted\">(no policy)</i>", out);
	else
		put_short(out, path, 80);
	if (sha[0] != '\0') {
		fputs(" <code class=\"sha\" title=\"sha256 ", out);
		put_esc(out, sha, 64);
		fputs("\">", out);
		put_short(out, sha, full_hash ? 64 : 12);
		fputs("</code>", out);
	}
	free(path);
}

/* A duration in words, to the minute: "3 d 4 h", "2 h 5 min", "12 s". */
void
put_span(FILE *out, int64_t s)
{
	if (s >= 86400)
		fprintf(out, "%lld d %lld h", (long long)(s / 86400),
		    (long long)(s % 86400 / 3600));
	else if (s >= 3600)
		fprintf(out, "%lld h %lld min", (long long)(s / 3600),
		    (long long)(s % 3600 / 60));
	else if (s >= 60)
		fprintf(out, "%lld min", (long long)(s / 60));
	else
		fprintf(out, "%lld s", (long long)s);
}

struct buf {
	char *p;
	size_t len, max;
	bool cut;
};

static void
buf_put(struct buf *b, char c)
{
	if (b->len < b->max)
		b->p[b->len++] = c;
	else
		b->cut = true;
}

static bool
shell_safe(const char *s)
{
	if (*s == '\0')
		return false;
	for (; *s != '\0'; s++)
		if (strchr("abcdefghijklmnopqrstuvwxyz"
		    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@%+=:,./-_",
		    *s) == NULL)
			return false;
	return true;
}

/*
 * The arguments joined with spaces, quoted the way a shell needs them
 * ('...'), cut to CMD_BYTES at a character boundary.  Malloc'd; *@cut
 * tells whether it was cut.
 */
char *
report_command_text(json_t *rec, bool *cut)
{
	struct buf b = { xmalloc(CMD_BYTES + 1), 0, CMD_BYTES, false };
	json_t *a;
	size_t i;

	json_array_foreach(json_object_get(rec, "argv"), i, a) {
		const char *s = json_string_value(a);
		bool quote;

		if (s == NULL)
			continue;
		quote = !shell_safe(s);
		if (i > 0)
			buf_put(&b, ' ');
		if (quote)
			buf_put(&b, '\'');
		for (; *s != '\0'; s++) {
			if (*s == '\'') {
				buf_put(&b, '\'');
				buf_put(&b, '\\');
				buf_put(&b, '\'');
			}
			buf_put(&b, *s);
		}
		if (quote)
			buf_put(&b, '\'');
	}
	if (b.cut) {
		/* Do not end in the middle of a UTF-8 sequence. */
		while (b.len > 0 && ((unsigned char)b.p[b.len - 1] & 0xc0) ==
		    0x80)
			b.len--;
		if (b.len > 0 && (unsigned char)b.p[b.len - 1] >= 0xc0)
			b.len--;
	}
	b.p[b.len] = '\0';
	*cut = b.cut;
	return b.p;
}

const char report_css[] =
":root{--bg:#f3f4f7;--card:#fff;--fg:#1c2330;--muted:#5d6878;"
"--line:#e2e5ea;--soft:#f6f7f9;--warnbg:#fff6dc;--warnfg:#6a4d00;"
"--o0:#3e9a6a;--o1:#e2a12f;--o2:#8d5fc8;--o3:#d9453f;--o4:#8b95a5;"
"--deny:#c9463d;--bar:#4a78c2}\n"
"@media (prefers-color-scheme:dark){:root{--bg:#121519;--card:#1b1f26;"
"--fg:#e3e6eb;--muted:#98a2b1;--line:#2d333c;--soft:#222731;"
"--warnbg:#3a2f12;--warnfg:#f3d98c}}\n"
"*{box-sizing:border-box}\n"
"body{margin:0;background:var(--bg);color:var(--fg);"
"font:14px/1.45 system-ui,-apple-system,\"Segoe UI\",Roboto,"
"\"Liberation Sans\",\"DejaVu Sans\",sans-serif}\n"
".wrap{max-width:1200px;margin:0 auto;padding:24px 24px 8px}\n"
"h1{font-size:22px;margin:0 0 2px;letter-spacing:-.01em}\n"
"h2{font-size:16px;margin:0}\n"
"h3{font-size:13px;margin:14px 0 6px;color:var(--muted)}\n"
".sub{color:var(--muted);margin:2px 0 12px;font-size:13px}\n"
".muted{color:var(--muted)}\n"
".meta{color:var(--muted);font-size:13px}\n"
".meta code{color:var(--fg)}\n"
".tiles{display:grid;grid-template-columns:repeat(6,1fr);gap:12px;"
"margin:16px 0 12px}\n"
".tile{background:var(--card);border:1px solid var(--line);"
"border-radius:10px;padding:10px 14px}\n"
".tile b{display:block;font-size:26px;font-weight:650;"
"font-variant-numeric:tabular-nums;line-height:1.2}\n"
".tile span{color:var(--muted);font-size:12px}\n"
".tile small{display:block;color:var(--muted);font-size:11.5px}\n"
".tile.hot b{color:var(--o3)}\n"
".tile.warm b{color:#b7791f}\n"
"section{background:var(--card);border:1px solid var(--line);"
"border-radius:10px;padding:16px 20px;margin:0 0 16px}\n"
".two{display:grid;grid-template-columns:1fr 1fr;gap:16px;"
"align-items:start}\n"
"header{margin-bottom:18px}\n"
"table{border-collapse:collapse;width:100%}\n"
"th,td{text-align:left;padding:5px 8px;border-bottom:1px solid "
"var(--line);vertical-align:top}\n"
"th{font-size:11.5px;color:var(--muted);font-weight:600;"
"text-transform:uppercase;letter-spacing:.03em;white-space:nowrap}\n"
"tr:last-child td{border-bottom:0}\n"
"tbody tr:nth-child(even){background:var(--soft)}\n"
".n{text-align:right;font-variant-numeric:tabular-nums;"
"white-space:nowrap}\n"
".nw{white-space:nowrap}\n"
"code,.mono{font-family:ui-monospace,\"DejaVu Sans Mono\","
"\"Liberation Mono\",Menlo,monospace;font-size:12.5px}\n"
".cmd{word-break:break-all}\n"
".zero{color:var(--line)}\n"
".bar{display:inline-flex;width:100%;min-width:120px;height:10px;"
"border-radius:3px;overflow:hidden;background:var(--soft);"
"vertical-align:middle}\n"
".bar span{height:100%}\n"
".bigbar{height:14px;border-radius:4px}\n"
".legend{display:flex;flex-wrap:wrap;gap:6px 16px;font-size:12.5px;"
"margin:0 0 8px}\n"
".legend span{white-space:nowrap}\n"
".sw{display:inline-block;width:10px;height:10px;border-radius:2px;"
"margin-right:5px;vertical-align:-1px}\n"
".b0,.o0{background:var(--o0);fill:var(--o0)}\n"
".b1,.o1{background:var(--o1);fill:var(--o1)}\n"
".b2,.o2{background:var(--o2);fill:var(--o2)}\n"
".b3,.o3{background:var(--o3);fill:var(--o3)}\n"
".b4,.o4{background:var(--o4);fill:var(--o4)}\n"
".bb{background:var(--bar)}\n"
".badge{display:inline-block;padding:0 7px;border-radius:9px;"
"font-size:12px;color:#fff;white-space:nowrap}\n"
".tag{display:inline-block;margin:2px 4px 0 0;padding:0 6px;"
"border-radius:4px;font-size:11.5px;background:var(--soft);"
"border:1px solid var(--line);color:var(--muted)}\n"
".tag.adv{border-color:#e9c46a;color:var(--warnfg);"
"background:var(--warnbg)}\n"
".deny{color:var(--deny)}\n"
".warn{background:var(--warnbg);color:var(--warnfg);border:1px solid "
"#ecd27e;border-radius:8px;padding:8px 12px;margin:8px 0 12px}\n"
".empty{color:var(--muted);font-style:italic;margin:4px 0}\n"
"svg{display:block;width:100%;height:auto}\n"
"svg text{fill:var(--muted);font-size:11px;"
"font-family:system-ui,\"Liberation Sans\",\"DejaVu Sans\",sans-serif}\n"
"svg text.lbl{fill:var(--fg);font-family:ui-monospace,"
"\"DejaVu Sans Mono\",\"Liberation Mono\",monospace;font-size:12px}\n"
"svg text.cnt{fill:var(--fg);font-size:12px}\n"
"svg .grid{stroke:var(--line);stroke-width:1}\n"
"svg .axis{stroke:var(--muted);stroke-width:1}\n"
"svg .hb{fill:var(--deny)}\n"
"svg .muted{fill:var(--muted)}\n"
"footer{color:var(--muted);font-size:12px;padding:0 24px 24px;"
"max-width:1200px;margin:0 auto}\n"
"@media (max-width:900px){.tiles{grid-template-columns:repeat(3,1fr)}"
".two{grid-template-columns:1fr}}\n"
"@media print{body{background:#fff}section,.tile{break-inside:avoid}}\n"
"#runs,#per-user,#policy-changes,#chain-status,#outcomes-by-policy"
"{overflow-x:auto}\n"
"#run-table th{cursor:pointer}\n"
"#run-table td{white-space:nowrap}\n"
"#run-table td:last-child{white-space:normal;min-width:320px}\n"
"#run-table th[aria-sort=ascending]::after{content:\" \\25B2\"}\n"
"#run-table th[aria-sort=descending]::after{content:\" \\25BC\"}\n"
".filter input{font:inherit;padding:3px 6px}\n"
".sha{color:var(--muted)}\n"
".chain{font-weight:600}\n"
".chain.intact{color:var(--o0)}\n"
".chain.broken{color:var(--o3)}\n"
".chain.chained{color:var(--o1)}\n"
"tr.changed td:first-child{border-left:3px solid var(--o1)}\n";

void
put_legend(FILE *out, const unsigned long *oc)
{
	fputs("<div class=\"legend\">", out);
	for (int i = 0; i < OC_N; i++) {
		fprintf(out, "<span><i class=\"sw b%d\"></i>%s", i,
		    report_oc_label[i]);
		if (oc != NULL) {
			fputs(" <b>", out);
			put_num(out, oc[i]);
			fputs("</b>", out);
		}
		fputs("</span>", out);
	}
	fputs("</div>\n", out);
}

/* A stacked bar of @oc as a share of @total (HTML, for tables). */
void
put_stack(FILE *out, const unsigned long *oc, unsigned long total,
    const char *extra_class)
{
	fprintf(out, "<span class=\"bar%s%s\">", extra_class ? " " : "",
	    extra_class ? extra_class : "");
	for (int i = 0; i < OC_N && total > 0; i++)
		if (oc[i] > 0)
			fprintf(out, "<span class=\"b%d\" style=\"width:"
			    "%.2f%%\" title=\"%s: %lu\"></span>", i,
			    100.0 * (double)oc[i] / (double)total,
			    report_oc_label[i], oc[i]);
	fputs("</span>", out);
}

/* A one-color bar of @n out of @max. */
void
put_meter(FILE *out, unsigned long n, unsigned long max)
{
	fprintf(out, "<span class=\"bar\"><span class=\"bb\" style=\"width:"
	    "%.2f%%\"></span></span>", max ? 100.0 * (double)n /
	    (double)max : 0.0);
}

void
put_tile(FILE *out, const char *label, unsigned long v, const char *note,
    const char *cls)
{
	fprintf(out, "<div class=\"tile%s%s\"><span>%s</span><b>",
	    v > 0 && cls ? " " : "", v > 0 && cls ? cls : "", label);
	put_num(out, v);
	fprintf(out, "</b><small>%s</small></div>\n", note);
}
