/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_REMOTE_VNC_VNC_HTTP_REQUEST_H
#define ORIEL_REMOTE_VNC_VNC_HTTP_REQUEST_H

/*
 * Parsing of the HTTP requests the VNC port answers (noVNC's files). Pure:
 * no wlroots or libvncserver, so unit tests and the fuzzer link it.
 */

#include <stdbool.h>
#include <stddef.h>

#define VNC_HTTP_PATH_MAX 1024

/* GET or HEAD request headers that are not a WebSocket upgrade; data NUL-terminated. */
bool vnc_http_is_plain_get(const char *data, size_t len);

/*
 * Decodes and checks the URL path: no NUL, backslash, ".", ".." or hidden
 * parts; repeated slashes folded, query and fragment dropped. False when
 * the path is refused or does not fit in size bytes.
 */
bool vnc_http_clean_path(const char *url, size_t len, char *out, size_t size);

/*
 * The request line of a NUL-terminated request: fills *head (HEAD, else
 * GET) and path (VNC_HTTP_PATH_MAX bytes; "/" becomes "/vnc.html").
 * Returns 0, or the HTTP status to answer: 405 for another method, 400
 * for a malformed line, 404 for a refused path.
 */
int vnc_http_parse_request(const char *request, bool *head, char path[VNC_HTTP_PATH_MAX]);

#endif
