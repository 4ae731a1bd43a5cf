/* SPDX-License-Identifier: ISC */
#ifndef GX_CROSSCHECK_H
#define GX_CROSSCHECK_H

/*
 * guardexec-audit crosscheck LOCAL... CENTRAL: compares the records of
 * the local log (one or more files, oldest first) with the copies a
 * syslog collector stored (CENTRAL, one record per line as sent, an
 * optional "@cee:" cookie allowed), by record id.  Reports on stdout
 * each record missing from either side and each copy that differs; a
 * copy marked "syslog_truncated" must agree on its hash and on every
 * field it kept.  Only CENTRAL records of the hosts found in LOCAL are
 * considered.  @argv holds the arguments after "crosscheck".  Returns
 * 0 when both sides agree, 1 when they do not, 2 on a usage or read
 * error (a "guardexec-audit: " message on stderr).  Dies on OOM.
 */
int crosscheck_main(int argc, char **argv);

#endif
