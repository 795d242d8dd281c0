/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_LISTEN_PROBE_H
#define ORIEL_LISTEN_PROBE_H

/*
 * Why a listener could not start, found by trying the address again once
 * the server that wanted it failed. Pure: no wlroots.
 */

#include "compositor/options.h"

/* 0 when host:port can be bound now, else a negative errno. */
int listen_probe_tcp(const char *host, int port);
/* 0 when nothing answers at the Unix socket path, -EADDRINUSE when a server does. */
int listen_probe_unix(const char *path);
/*
 * Records the startup error (startup_error.h) for VNC listeners that did
 * not start: the first busy or foreign address, or a general sentence.
 */
void listen_probe_explain_vnc(const struct options_vnc *vnc);

#endif
