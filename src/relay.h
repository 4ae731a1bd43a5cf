/* SPDX-License-Identifier: ISC */
#ifndef GX_RELAY_H
#define GX_RELAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct gx_policy;

/*
 * The output relay: the command's stdout and stderr passed on to ours
 * under output.max_bytes (head, or head_tail with a ring of the last
 * bytes), the truncation markers, and non-blocking sinks so that a slow
 * or stopped reader never blocks the supervisor's loop.
 */

/*
 * How long a destination may take nothing before its pending output is
 * dropped once the command's family is gone (or at the very end).
 */
#define GX_RELAY_STUCK_MS 5000

/* One destination (our fd 1 or 2). */
struct gx_sink {
	int fd;                     /* where the bytes go */
	bool own_fd;                /* fd was opened by us (non-blocking reopen) */
	bool sock;                  /* a socket: send(MSG_DONTWAIT) */
	bool restore;               /* O_NONBLOCK set on the shared fd: undo */
	int restore_fl;             /* its original flags */
	double stuck_since;         /* ms (monotonic) it last refused bytes, or 0 */
	uint64_t dropped;           /* bytes given up on (a stuck reader) */
	bool dead;                  /* EPIPE or another error: discard */
	char *pend;                 /* queued bytes not yet written */
	size_t pend_len, pend_off, pend_cap;
	bool last_nl;               /* last byte written was '\n' (or none yet) */
	bool any;                   /* anything written at all */
};

struct gx_relay {
	const struct gx_policy *pol;
	struct gx_sink sink[2];     /* stdout, stderr */
	uint64_t total;             /* bytes of both streams */
	uint64_t head;              /* bytes passed live before the cap */
	/* head_tail: a ring of the last (max - head) bytes, tagged. */
	char *ring;
	unsigned char *tag;
	uint64_t ring_cap, ring_len, ring_pos;
	bool truncated;             /* more than max_bytes arrived */
	bool marker_done;
	bool overflow_kill;         /* on_overflow = "kill" fired */
};

/*
 * Set up @r to write to @out_fd and @err_fd under @pol's output limits
 * (@pol must outlive @r).  A pipe is reopened non-blocking through
 * /proc/self/fd (a separate open file description).  Dies on OOM.
 */
void relay_init(struct gx_relay *r, const struct gx_policy *pol, int out_fd,
    int err_fd);

/*
 * Account and pass on @n bytes the command wrote to @stream (0 stdout,
 * 1 stderr): written at once where possible, queued otherwise.
 */
void relay_data(struct gx_relay *r, int stream, const char *buf, size_t n);

/* True while @stream's sink has queued bytes (poll its fd for POLLOUT). */
bool relay_busy(const struct gx_relay *r, int stream);

/*
 * True when a sink has taken nothing for GX_RELAY_STUCK_MS while bytes
 * are pending (its reader stopped, or was stopped).
 */
bool relay_stuck(const struct gx_relay *r);

/* Drop what is pending on busy sinks and write nothing more to them. */
void relay_abandon(struct gx_relay *r);

/* Write what the sinks can take now, without blocking. */
void relay_flush(struct gx_relay *r);

/*
 * End of run: the omitted-bytes marker and the tail (head_tail), then
 * write out what is queued (waiting, but at most GX_RELAY_STUCK_MS
 * without progress per sink), close what relay_init opened, restore
 * flags it changed and free @r's memory.
 */
void relay_finish(struct gx_relay *r);

#endif
