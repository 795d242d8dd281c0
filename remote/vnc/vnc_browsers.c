/* SPDX-License-Identifier: MIT */
#include "remote/vnc/vnc_private.h"
#include "common/util.h"

/* How long an address counts as a browser after its last HTTP request. */
#define MEMORY_MS 60000

void vnc_browsers_remember(struct vnc_server *vnc, const char *host) {
	vnc_browser_hosts_remember(vnc->browsers, ARRAY_LEN(vnc->browsers), host);
}

bool vnc_browsers_has(struct vnc_server *vnc, const char *host) {
	return vnc_browser_hosts_has(vnc->browsers, ARRAY_LEN(vnc->browsers), host, MEMORY_MS);
}
