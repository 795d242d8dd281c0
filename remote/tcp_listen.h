/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_REMOTE_TCP_LISTEN_H
#define ORIEL_REMOTE_TCP_LISTEN_H

/*
 * Listening sockets for a remote-desktop server's "[ADDR:]PORT" (the
 * address defaults to 127.0.0.1; IPv6 as [ADDR]:PORT): one per address
 * the name resolves to, non-blocking and close-on-exec, IPv6 ones
 * v6-only. Pure: no wlroots.
 */

#include <stddef.h>

/*
 * Puts up to max listening fds in fds and returns how many. 0 when none
 * could be made; error then says why (a bind that failed while others
 * worked is said there too).
 */
int remote_listen_tcp(const char *spec, int *fds, int max, char *error, size_t error_size);

#endif
