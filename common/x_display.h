/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_COMMON_X_DISPLAY_H
#define ORIEL_COMMON_X_DISPLAY_H

/*
 * An X display number that oriel takes itself, as an X server does: the
 * lock file /tmp/.XN-lock with our pid, the abstract socket
 * @/tmp/.X11-unix/XN and the socket file /tmp/.X11-unix/XN, both
 * listening. wlroots 0.15 looks for a display among :0-:32 only, which a
 * host of many sessions outgrows; with this, oriel can start from any
 * number (--x-display).
 */

#include <stdbool.h>

#define X_DISPLAY_MAX 59535 /* its TCP port, 6000 + N, must exist */

struct x_display {
	int number;  /* -1: none */
	int fds[2];  /* listening: the abstract socket, then the socket file */
};

/*
 * Takes the first free display from first on, trying every number up to
 * X_DISPLAY_MAX. A number whose lock is held (x_display_lock.h), whose
 * stale lock is another user's to remove, or whose sockets another
 * process has bound is passed over. On failure returns false
 * with a reason in why (for the log) and leaves display at -1.
 */
bool x_display_open(struct x_display *display, int first, char *why, int why_size);
/* Closes the sockets and removes the files of a display still held. */
void x_display_close(struct x_display *display);
/* Removes the lock and socket files of display number n (not its sockets). */
void x_display_unlink(int n);

#endif
