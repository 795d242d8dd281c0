/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_COMMON_LINK_BACKLOG_H
#define ORIEL_COMMON_LINK_BACKLOG_H

/*
 * Whether a socket's way to its peer keeps up, as the kernel sees it:
 * what waits to be sent, and how much longer round trips take than the
 * fastest lately (a queue somewhere on the path). Bytes already on their
 * way do not count: a link far away has many, and keeps up. Pure.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct link_backlog {
	size_t waiting;    /* bytes not yet sent (TCP), or not yet read by the peer */
	uint32_t delay_us; /* TCP: smoothed round trip minus the lowest lately; else 0 */
};

/* Adds what socket fd has waiting, and keeps the larger delay; false: fd says nothing. */
bool link_backlog_add(int fd, struct link_backlog *backlog);

#endif
