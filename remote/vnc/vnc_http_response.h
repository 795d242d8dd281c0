/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_REMOTE_VNC_VNC_HTTP_RESPONSE_H
#define ORIEL_REMOTE_VNC_VNC_HTTP_RESPONSE_H

/*
 * The answers the VNC port's file server writes, shared with the gateway's
 * (which serves the same pages). Pure: no wlroots or libvncserver.
 */

#include <stddef.h>

/* The reason phrase of a status this server answers with; "Not Found" otherwise. */
const char *vnc_http_status_reason(int status);

/* The Content-Type of a file, by its name's extension. */
const char *vnc_http_content_type(const char *path);

/*
 * The header of an answer with a body of body_len bytes, after which the
 * connection closes. Returns its length, or a negative number when it
 * does not fit in size bytes.
 */
int vnc_http_format_header(char *out, size_t size, int status, const char *reason,
	const char *type, size_t body_len);

#endif
