/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the requests the VNC port's file server parses
 * (capture/vnc/vnc_http_request.c): the plain-GET check that routes a
 * connection, the request line and the URL path. Besides memory errors it
 * checks that an accepted path can only name a file under the served
 * directory: absolute, no ".", ".." or hidden parts, no backslash or NUL.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "capture/vnc/vnc_http_request.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok, const char *what) {
	if (!ok) {
		fprintf(stderr, "fuzz-vnc-http: invariant broken: %s\n", what);
		abort();
	}
}

static void check_path(const char *path, size_t size) {
	size_t len = strlen(path);
	check(len > 0 && len < size, "path length");
	check(path[0] == '/', "path is absolute");
	check(strstr(path, "//") == NULL, "no empty parts");
	check(strstr(path, "/.") == NULL, "no dot parts");
	check(strchr(path, '\\') == NULL, "no backslash");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
	/* The server reads at most this much and NUL-terminates it. */
	if (size > 8192) {
		return 0;
	}
	char *request = malloc(size + 1);
	if (!request) {
		return 0;
	}
	memcpy(request, data, size);
	request[size] = '\0';

	bool plain = vnc_http_is_plain_get(request, size);
	check(!plain || strncmp(request, "GET ", 4) == 0 || strncmp(request, "HEAD ", 5) == 0,
		"a plain request starts with GET or HEAD");

	bool head;
	char path[VNC_HTTP_PATH_MAX];
	int status = vnc_http_parse_request(request, &head, path);
	check(status == 0 || status == 400 || status == 404 || status == 405, "status");
	if (status == 0) {
		check_path(path, sizeof(path));
		check(head == (strncmp(request, "HEAD ", 5) == 0), "method");
	}

	/* The whole input as a URL, into a small buffer too. */
	char out[64];
	if (vnc_http_clean_path(request, size, out, sizeof(out))) {
		check_path(out, sizeof(out));
		/* Nothing left to decode: cleaning again changes nothing. */
		if (!strpbrk(out, "%?#")) {
			char again[64];
			check(vnc_http_clean_path(out, strlen(out), again, sizeof(again)) &&
				strcmp(out, again) == 0, "clean path is a fixed point");
		}
	}
	free(request);
	return 0;
}
