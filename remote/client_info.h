/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_REMOTE_CLIENT_INFO_H
#define ORIEL_REMOTE_CLIENT_INFO_H

/* A remote-desktop server's connected client, as the control API lists it. */

#include <stdbool.h>
#include <stdint.h>

struct remote_client_info {
	uint64_t id; /* never reused within a server */
	char peer[128]; /* numeric address, "unix" for a Unix socket */
	bool view_only;
};

#endif
