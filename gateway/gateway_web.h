/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_GATEWAY_GATEWAY_WEB_H
#define ORIEL_GATEWAY_GATEWAY_WEB_H

/*
 * Browsers on the gateway's VNC port, as on a session's: a TLS hello
 * first means https. A page (noVNC, read into memory before the worker
 * enters its sandbox) is answered and the connection closed; a WebSocket
 * upgrade from the gateway's own page (wss) logs in with VeNCrypt's
 * Plain sub-type inside it, through the broker as every login, and then
 * the socket, the TLS state and the WebSocket go to the user's session
 * (remote/handover.h, HANDOVER_WEBSOCKET). Host and Origin are checked
 * as a session checks them (remote/vnc/vnc_http_origin.h).
 */

#include <stdbool.h>
#include <stddef.h>

struct gateway_config;
struct gateway_guest;
struct gateway_web;

/*
 * Reads config->web_dir (a directory that is missing only leaves the
 * pages out) and the names the gateway is reached by. Runs before the
 * sandbox. NULL, with a sentence in error.
 */
struct gateway_web *gateway_web_create(const struct gateway_config *config, char *error,
	size_t error_size);
void gateway_web_destroy(struct gateway_web *web);

/*
 * The guest's first bytes, on its own thread: a TLS hello or an HTTP
 * request is a browser's, which this serves to its end (the guest is
 * done then: true). False for a VNC viewer, which sends nothing first.
 */
bool gateway_web_takes(struct gateway_web *web, struct gateway_guest *guest);

/*
 * How many guests host may have logging in, given the configured
 * per_address: more for an address that asked for a page lately, since a
 * browser opens several connections at once. Takes the web's own lock
 * only, so the front may call it under its lock.
 */
int gateway_web_pending_per_address(struct gateway_web *web, const char *host,
	int per_address);

/* gateway_web_files.c: the pages, in memory. */
struct gateway_web_files;
struct gateway_web_files *gateway_web_files_load(const char *dir, char *error,
	size_t error_size);
void gateway_web_files_destroy(struct gateway_web_files *files);
/* The file at path ("/app/ui.js"), or NULL. */
const char *gateway_web_files_find(const struct gateway_web_files *files, const char *path,
	size_t *len);

#endif
