/* SPDX-License-Identifier: MIT */
/* Unit tests for the request parsing of the VNC port's file server. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "remote/vnc/vnc_http_request.h"
#include "expect.h"


static void test_plain_get(void) {
	static const struct {
		const char *request;
		bool plain;
	} cases[] = {
		{ "GET / HTTP/1.1\r\nHost: x\r\n\r\n", true },
		{ "GET /websockify HTTP/1.1\r\nUpgrade: websocket\r\n\r\n", false },
		{ "GET / HTTP/1.1\r\nupgrade:\tWebSocket\r\n\r\n", false },
		{ "GET / HTTP/1.1\r\nUpgrade: h2c\r\n\r\n", true },
		{ "HEAD / HTTP/1.1\r\n\r\n", true },
		{ "HEAD", false },
		{ "RFB 003.008\n", false },
		{ "GET", false },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *r = cases[i].request;
		EXPECT(vnc_http_is_plain_get(r, strlen(r)) == cases[i].plain, "%s", r);
	}
}

static void test_clean_path(void) {
	static const struct {
		const char *url;
		const char *path; /* NULL: refused */
	} cases[] = {
		{ "/vnc.html", "/vnc.html" },
		{ "//app//ui.js?x=1#y", "/app/ui.js" },
		{ "/a%20b%2Fc", "/a b/c" },
		{ "/core/%72fb.js", "/core/rfb.js" },
		{ "/../etc/passwd", NULL },
		{ "/%2e%2e/etc/passwd", NULL },
		{ "/app/.hidden", NULL },
		{ "/a%00b", NULL },
		{ "/a\\b", NULL },
		{ "/a%zz", NULL },
		{ "/a%4", NULL },
		{ "relative", NULL },
		{ "", NULL },
		{ "?/x", NULL },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char out[64];
		const char *url = cases[i].url;
		bool ok = vnc_http_clean_path(url, strlen(url), out, sizeof(out));
		if (cases[i].path) {
			EXPECT(ok && strcmp(out, cases[i].path) == 0, "%s: got %s", url,
				ok ? out : "(refused)");
		} else {
			EXPECT(!ok, "%s accepted as %s", url, out);
		}
	}
	/* A path that does not fit is refused, not cut. */
	char small[8];
	EXPECT(!vnc_http_clean_path("/1234567", 8, small, sizeof(small)), "too long");
	EXPECT(vnc_http_clean_path("/123456", 7, small, sizeof(small)), "just fits");
}

static void test_request_line(void) {
	char path[VNC_HTTP_PATH_MAX];
	bool head = true;
	EXPECT(vnc_http_parse_request("GET / HTTP/1.1\r\n\r\n", &head, path) == 0 && !head &&
		strcmp(path, "/vnc.html") == 0, "root: %s", path);
	EXPECT(vnc_http_parse_request("HEAD /app/ui.js HTTP/1.1\r\n\r\n", &head, path) == 0 &&
		head && strcmp(path, "/app/ui.js") == 0, "head: %s", path);
	EXPECT(vnc_http_parse_request("POST / HTTP/1.1\r\n\r\n", &head, path) == 405, "post");
	EXPECT(vnc_http_parse_request("GET /nospace\r\n\r\n", &head, path) == 400, "no space");
	EXPECT(vnc_http_parse_request("GET /../x HTTP/1.1\r\n\r\n", &head, path) == 404,
		"dot dot");
	/* Longer than the path buffer: refused, not overflowed. */
	char long_request[VNC_HTTP_PATH_MAX + 32];
	memset(long_request, 'a', sizeof(long_request));
	memcpy(long_request, "GET /", 5);
	strcpy(long_request + sizeof(long_request) - 11, " HTTP/1.1\n");
	EXPECT(vnc_http_parse_request(long_request, &head, path) == 404, "long path");
}

int main(void) {
	test_plain_get();
	test_clean_path();
	test_request_line();
	if (failures) {
		fprintf(stderr, "%d failure(s)\n", failures);
		return 1;
	}
	printf("all passed\n");
	return 0;
}
