/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <string.h>
#include "remote/vnc/vnc_browser_hosts.h"
#include "common/util.h"

void vnc_browser_hosts_remember(struct vnc_browser_host *hosts, size_t n, const char *host) {
	struct vnc_browser_host *slot = &hosts[0];
	for (size_t i = 0; i < n; i++) {
		struct vnc_browser_host *b = &hosts[i];
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

bool vnc_browser_hosts_has(const struct vnc_browser_host *hosts, size_t n, const char *host,
		int64_t memory_ms) {
	/* A host has one slot at most: remembering it again reuses its own. */
	for (size_t i = 0; i < n; i++) {
		const struct vnc_browser_host *b = &hosts[i];
		if (b->seen_ms && strcmp(b->host, host) == 0) {
			return monotonic_ms() - b->seen_ms < memory_ms;
		}
	}
	return false;
}
