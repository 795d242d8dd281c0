/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_XWM_X_DISPLAY_BORROW_H
#define ORIEL_XWM_X_DISPLAY_BORROW_H

/*
 * wlroots 0.15 takes a display among :0-:32 when it makes its Xwayland
 * server, and gives up when all 33 are held. Any user can hold them by
 * binding their abstract sockets (@/tmp/.X11-unix/XN), which no private
 * /tmp covers. oriel holds wlroots' display only until it gives the
 * server its own (hand_over_display in xwayland.c), and reaches wlroots'
 * sockets through their own addresses, never by name. So while borrowing
 * is on (this thread only), a bind of an abstract X name that another
 * process holds binds an unnamed socket instead (the kernel's autobind),
 * and wlroots goes on with that number.
 */

#include <stdbool.h>

void x_display_borrow(bool on);

#endif
