/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the requests the VNC port's file server parses
 * (remote/vnc/vnc_http_request.c): the plain-GET check that routes a
 * connection, the request line and the URL path. Besides memory errors it
 * checks that an accepted path can only name a file under the served
 * directory: absolute, no ".", ".." or hidden parts, no backslash or NUL.
 *
 * And the Host and Origin checks (remote/vnc/vnc_http_origin.c): a
 * known status, a reason exactly when refused and printable for the log,
 * a request let through only with a Host of this server (or none), and
 * normal forms that do not change when normalised again.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "remote/vnc/vnc_http_origin.h"
#include "remote/vnc/vnc_http_request.h"

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

static bool printable(const char *s) {
	for (; *s; s++) {
		if ((unsigned char)*s < 0x20 || (unsigned char)*s > 0x7e) {
			return false;
		}
	}
	return true;
}

static bool is_known_host(const char *host, const char *const *hosts, size_t n) {
	for (size_t i = 0; i < n; i++) {
		if (strcmp(host, hosts[i]) == 0) {
			return true;
		}
	}
	return false;
}

static bool is_local_address(const char *host, void *data) {
	check(printable(host), "a printable host is looked up");
	return strcmp(host, "[2001:db8::7]") == 0;
}

static void check_site(const char *request) {
	static const char *const hosts[] = { "localhost", "127.0.0.1", "[::1]", "myhost" };
	static const char *const origins[] = { "https://app.example:443" };
	for (int mode = 0; mode < 4; mode++) {
		struct vnc_http_site site = {
			.tls = mode & 1,
			.upgrade = mode & 2,
			.hosts = hosts,
			.n_hosts = 4,
			.origins = origins,
			.n_origins = 1,
			.is_local_address = is_local_address,
		};
		char why[384] = "";
		int status = vnc_http_check(request, &site, why, sizeof(why));
		check(status == 0 || status == 400 || status == 403 || status == 421, "check status");
		check((status == 0) == (why[0] == '\0'), "a reason exactly when refused");
		check(printable(why), "the reason is printable");
		const char *value;
		size_t len;
		struct vnc_http_authority host;
		if (status == 0 && vnc_http_header(request, "Host", &value, &len) == 1) {
			check(vnc_http_parse_authority(value, len, &host) &&
				(is_known_host(host.host, hosts, 4) ||
				strcmp(host.host, "[2001:db8::7]") == 0), "served only this server's names");
		}
		if (status == 0 && site.upgrade &&
				vnc_http_header(request, "Origin", &value, &len) == 1) {
			check(len != 4 || memcmp(value, "null", 4) != 0, "a null origin refused");
		}
	}
}

static void check_normal_forms(const char *text) {
	char host[VNC_HTTP_HOST_MAX], again[VNC_HTTP_HOST_MAX];
	if (vnc_http_normalise_host(text, host)) {
		check(printable(host) && strlen(host) < sizeof(host), "host printable");
		check(vnc_http_normalise_host(host, again) && strcmp(host, again) == 0,
			"a normal host is a fixed point");
		for (const char *c = host; *c; c++) {
			check(!(*c >= 'A' && *c <= 'Z'), "a normal host is lower case");
		}
	}
	char origin[VNC_HTTP_ORIGIN_MAX], origin_again[VNC_HTTP_ORIGIN_MAX];
	if (vnc_http_normalise_origin(text, origin)) {
		check(printable(origin) && (strncmp(origin, "http://", 7) == 0 ||
			strncmp(origin, "https://", 8) == 0), "origin scheme");
		check(vnc_http_normalise_origin(origin, origin_again) &&
			strcmp(origin, origin_again) == 0, "a normal origin is a fixed point");
	}
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
	check_site(request);
	if (size < VNC_HTTP_ORIGIN_MAX) {
		check_normal_forms(request);
	}
	free(request);
	return 0;
}
