/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include "remote/vnc/vnc_http_response.h"
#include "common/util.h"

const char *vnc_http_status_reason(int status) {
	switch (status) {
	case 200:
		return "OK";
	case 400:
		return "Bad Request";
	case 403:
		return "Forbidden";
	case 405:
		return "Method Not Allowed";
	case 421:
		return "Misdirected Request";
	default:
		return "Not Found";
	}
}

const char *vnc_http_content_type(const char *path) {
	static const struct { const char *ext, *type; } types[] = {
		{ ".html", "text/html; charset=utf-8" },
		{ ".js", "text/javascript; charset=utf-8" },
		{ ".css", "text/css; charset=utf-8" },
		{ ".json", "application/json" },
		{ ".svg", "image/svg+xml" },
		{ ".png", "image/png" },
		{ ".ico", "image/x-icon" },
		{ ".woff", "font/woff" },
		{ ".woff2", "font/woff2" },
		{ ".ttf", "font/ttf" },
		{ ".oga", "audio/ogg" },
		{ ".mp3", "audio/mpeg" },
		{ ".txt", "text/plain; charset=utf-8" },
	};
	const char *dot = strrchr(path, '.');
	for (size_t i = 0; dot && i < ARRAY_LEN(types); i++) {
		if (strcasecmp(dot, types[i].ext) == 0) {
			return types[i].type;
		}
	}
	return "application/octet-stream";
}

int vnc_http_format_header(char *out, size_t size, int status, const char *reason,
		const char *type, size_t body_len) {
	int n = snprintf(out, size,
		"HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n"
		"Cache-Control: no-cache\r\nX-Content-Type-Options: nosniff\r\n"
		"Connection: close\r\n\r\n", status, reason, type, body_len);
	return n < 0 || (size_t)n >= size ? -1 : n;
}
