/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_BACKEND_PROBE_H
#define ORIEL_BACKEND_PROBE_H

/*
 * Whether a backend or renderer can start, asked before wlroots tries:
 * wlroots 0.15 aborts on a nested display it cannot reach and waits 10 s
 * for a seat when there is no DRM device. No wlroots calls.
 */

#include <stdbool.h>
#include <stddef.h>

/* A Wayland compositor answers at $WAYLAND_DISPLAY (or WAYLAND_SOCKET is set). */
bool backend_probe_wayland(void);
/* An X server answers at $DISPLAY (local socket or TCP). */
bool backend_probe_x11(void);
/* /dev/dri/card* exists. */
bool backend_probe_kms(void);
/* Some /dev/dri node a GPU renderer could open exists. */
bool backend_probe_gpu(void);

#endif
