/* SPDX-License-Identifier: ISC */
#ifndef GX_CHAIN_H
#define GX_CHAIN_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/*
 * The hash chain of the audit log, in one place: the writer (auditlog.c,
 * through audit_format) and every reader (guardexec-audit, the tests,
 * the fuzzers) use these functions.
 * "hash" is the last key of a line: the lowercase hex sha256 of the
 * line's bytes before ',"hash":"'; "prev" is the previous line's hash,
 * or 64 zeros for the first line of a chain.
 */

#define GX_ZERO_HASH \
	"0000000000000000000000000000000000000000000000000000000000000000"

/* ',"hash":"' + 64 hex + '"}': how every line guardexec writes ends. */
#define GX_HASH_TAIL_LEN (sizeof(",\"hash\":\"") - 1 + 64 + 2)

/*
 * The line for @rec chained to @prev (64 hex chars): one line, ending in
 * "\n", "hash" last.  Adds "prev" to @rec (and drops a "hash" key).
 * Returns a malloc'd string; dies on OOM only.
 */
char *audit_format(json_t *rec, const char *prev);

/*
 * Where the 64 hex characters of the hash stand in a line audit_format
 * wrote (@len bytes, with or without its final newline).  The caller
 * has checked the line's shape (audit_check_line or ends_in_hash);
 * @len must be at least GX_HASH_TAIL_LEN.  Returns a pointer into @line.
 */
const char *audit_line_hash(const char *line, size_t len);

/*
 * Whether the @len bytes at @s end in ',"hash":"<64 hex>"}'; copies the
 * hash to @hash (65 bytes, NUL-terminated) when so.
 */
bool audit_ends_in_hash(const char *s, size_t len, char *hash);

/* Whether @s starts with 64 lowercase hex digits. */
bool audit_is_hex64(const char *s);

/*
 * Check one line (without its newline) on its own: parses as a JSON
 * object, "hash" last and equal to the sha256 of the bytes before it.
 * On success fills @prev and @hash (65 bytes each) and returns 0; on
 * failure returns -1 with a reason in @why (static string).
 */
int audit_check_line(const char *line, size_t len, char *prev, char *hash,
    const char **why);

/*
 * The same check without parsing the JSON: the line's shape ("{" ...
 * ',"prev":"<64 hex>","hash":"<64 hex>"}', the way audit_format writes
 * it) and the hash over its bytes.  Any edit of a line guardexec wrote
 * still fails (the hash); what it cannot see is a line forged with a
 * recomputed hash that is not JSON, which audit_check_line rejects.
 */
int audit_check_line_fast(const char *line, size_t len, char *prev,
    char *hash, const char **why);

#endif
