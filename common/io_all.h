/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_COMMON_IO_ALL_H
#define ORIEL_COMMON_IO_ALL_H

/*
 * All of a buffer through a socket that may be non-blocking: on EAGAIN
 * (or EINTR) the caller's wait decides whether to go on, so that its
 * deadline or stop signal ends the wait. Pure.
 */

#include <stdbool.h>
#include <stddef.h>

/* Waits until fd is ready for events (POLLIN, POLLOUT); false gives up. */
typedef bool (*io_all_wait_fn)(void *data, int fd, short events);

/* Sends all len bytes (never SIGPIPE); false when the socket broke or the wait gave up. */
bool io_send_all(int fd, const void *buf, size_t len, io_all_wait_fn wait, void *data);

/* Receives exactly len bytes, no more; false at end of stream, on an error, or when the wait gave up. */
bool io_recv_all(int fd, void *buf, size_t len, io_all_wait_fn wait, void *data);

#endif
