/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_REMOTE_VNC_VNC_BROWSER_HOSTS_H
#define ORIEL_REMOTE_VNC_VNC_BROWSER_HOSTS_H

/*
 * The addresses that sent HTTP requests lately: browsers, which open
 * several connections at once and wait between them. A fixed table where
 * the oldest gives way, shared by the VNC port and the gateway. Pure.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct vnc_browser_host {
	char host[64];
	int64_t seen_ms; /* 0: a free slot */
};

/* Notes that host made a request now, in one of the n slots of hosts. */
void vnc_browser_hosts_remember(struct vnc_browser_host *hosts, size_t n, const char *host);

/* Whether host made a request in the last memory_ms milliseconds. */
bool vnc_browser_hosts_has(const struct vnc_browser_host *hosts, size_t n, const char *host,
	int64_t memory_ms);

#endif
