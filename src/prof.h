/* SPDX-License-Identifier: ISC */
#ifndef GX_PROF_H
#define GX_PROF_H

/*
 * Where a run's time goes (issue 18): with GUARDEXEC_PROFILE=1 in the
 * environment, prof_mark() notes the end of each phase and prof_report()
 * prints one line per phase to stderr ("guardexec: profile: PHASE
 * MICROSECONDS"), then the total.  Never in the record.  Without the
 * variable both cost one branch.  Not async-signal-safe: parent only.
 */

/* Read GUARDEXEC_PROFILE and start the clock; call first in main(). */
void prof_start(void);

/* End the phase @name (a static string) now. */
void prof_mark(const char *name);

/* Print the phases to stderr (once; later calls print nothing). */
void prof_report(void);

#endif
