/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "remote/vnc/vnc_private.h"
#include "common/util.h"

/* How long an address counts as a browser after its last HTTP request. */
#define MEMORY_MS 60000


void vnc_browsers_remember(struct vnc_server *vnc, const char *host) {
	struct vnc_browser_host *slot = &vnc->browsers[0];
	for (size_t i = 0; i < ARRAY_LEN(vnc->browsers); i++) {
		struct vnc_browser_host *b = &vnc->browsers[i];
		if (strcmp(b->host, host) == 0) {
			slot = b;
			break;
		}
		if (b->seen_ms < slot->seen_ms) {
			slot = b; /* the oldest gives way */
		}
	}
	snprintf(slot->host, sizeof(slot->host), "%s", host);
	slot->seen_ms = monotonic_ms();
}

bool vnc_browsers_has(struct vnc_server *vnc, const char *host) {
	for (size_t i = 0; i < ARRAY_LEN(vnc->browsers); i++) {
		const struct vnc_browser_host *b = &vnc->browsers[i];
		if (b->seen_ms && strcmp(b->host, host) == 0) {
			return monotonic_ms() - b->seen_ms < MEMORY_MS;
		}
	}
	return false;
}
