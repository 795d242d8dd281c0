/* SPDX-License-Identifier: MIT */
#include <string.h>
#include <strings.h>
#include "remote/vnc/vnc_http_request.h"

/* HEAD is answered like GET, without the body (RFC 9110, 9.3.2). */
bool vnc_http_is_plain_get(const char *data, size_t len) {
	bool get = len >= 4 && memcmp(data, "GET ", 4) == 0;
	bool head = len >= 5 && memcmp(data, "HEAD ", 5) == 0;
	if (!get && !head) {
		return false;
	}
	for (const char *line = data; line && *line; ) {
		if (strncasecmp(line, "upgrade:", 8) == 0) {
			const char *v = line + 8;
			while (*v == ' ' || *v == '\t') {
				v++;
			}
			if (strncasecmp(v, "websocket", 9) == 0) {
				return false;
			}
		}
		line = strchr(line, '\n');
		if (line) {
			line++;
		}
	}
	return true;
}

static int hex_value(char c) {
	if (c >= '0' && c <= '9') {
		return c - '0';
	}
	if (c >= 'a' && c <= 'f') {
		return c - 'a' + 10;
	}
	if (c >= 'A' && c <= 'F') {
		return c - 'A' + 10;
	}
	return -1;
}

bool vnc_http_clean_path(const char *url, size_t len, char *out, size_t size) {
	size_t o = 0;
	for (size_t i = 0; i < len; i++) {
		char c = url[i];
		if (c == '?' || c == '#') {
			break;
		}
		if (c == '%') {
			int hi = i + 2 < len ? hex_value(url[i + 1]) : -1;
			int lo = i + 2 < len ? hex_value(url[i + 2]) : -1;
			if (hi < 0 || lo < 0) {
				return false;
			}
			c = (char)(hi * 16 + lo);
			i += 2;
		}
		if (c == '\0' || c == '\\' || o + 1 >= size) {
			return false;
		}
		if (c == '.' && o > 0 && out[o - 1] == '/') {
			return false; /* ".", "..", dotfiles */
		}
		if (c == '/' && o > 0 && out[o - 1] == '/') {
			continue;
		}
		out[o++] = c;
	}
	out[o] = '\0';
	return o > 0 && out[0] == '/';
}

int vnc_http_parse_request(const char *request, bool *head, char path[VNC_HTTP_PATH_MAX]) {
	*head = strncmp(request, "HEAD ", 5) == 0;
	if (!*head && strncmp(request, "GET ", 4) != 0) {
		return 405;
	}
	const char *url = request + (*head ? 5 : 4);
	const char *end = strchr(url, ' ');
	if (!end) {
		return 400;
	}
	if (!vnc_http_clean_path(url, (size_t)(end - url), path, VNC_HTTP_PATH_MAX)) {
		return 404;
	}
	if (strcmp(path, "/") == 0) {
		strcpy(path, "/vnc.html");
	}
	return 0;
}
