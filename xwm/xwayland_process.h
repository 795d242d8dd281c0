/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_XWM_XWAYLAND_PROCESS_H
#define ORIEL_XWM_XWAYLAND_PROCESS_H

#include <stdbool.h>
#include <sys/types.h>

/* pid of the Xwayland serving display_name (":N"), or 0 if none runs. */
pid_t xwayland_process_find(const char *display_name);

#endif
