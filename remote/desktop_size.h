/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_REMOTE_DESKTOP_SIZE_H
#define ORIEL_REMOTE_DESKTOP_SIZE_H

#include <stdbool.h>

/* The largest side a remote client may give the output (VNC, RDP). */
#define REMOTE_DESKTOP_MAX_SIZE 8192

/* Whether a remote client may ask for this output size. */
bool remote_desktop_size_allowed(int width, int height);

#endif
