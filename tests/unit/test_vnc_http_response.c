/* SPDX-License-Identifier: MIT */
/* Unit tests for the answers of the VNC port's (and the gateway's) file server. */

#include <stdio.h>
#include <string.h>
#include "remote/vnc/vnc_http_response.h"
#include "expect.h"

static void test_status_reason(void) {
	EXPECT(strcmp(vnc_http_status_reason(200), "OK") == 0, "200");
	EXPECT(strcmp(vnc_http_status_reason(400), "Bad Request") == 0, "400");
	EXPECT(strcmp(vnc_http_status_reason(403), "Forbidden") == 0, "403");
	EXPECT(strcmp(vnc_http_status_reason(404), "Not Found") == 0, "404");
	EXPECT(strcmp(vnc_http_status_reason(405), "Method Not Allowed") == 0, "405");
	EXPECT(strcmp(vnc_http_status_reason(421), "Misdirected Request") == 0, "421");
}

static void test_content_type(void) {
	static const struct {
		const char *path, *type;
	} cases[] = {
		{ "/vnc.html", "text/html; charset=utf-8" },
		{ "/app/ui.JS", "text/javascript; charset=utf-8" },
		{ "/app/images/icons/novnc.svg", "image/svg+xml" },
		{ "/app/sounds/bell.oga", "audio/ogg" },
		{ "/a.woff2", "font/woff2" },
		{ "/README", "application/octet-stream" },
		{ "/archive.tar.gz", "application/octet-stream" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *got = vnc_http_content_type(cases[i].path);
		EXPECT(strcmp(got, cases[i].type) == 0, "%s: %s", cases[i].path, got);
	}
}

static void test_header(void) {
	static const char want[] = "HTTP/1.1 200 OK\r\nContent-Type: text/html; "
		"charset=utf-8\r\nContent-Length: 1234\r\nCache-Control: no-cache\r\n"
		"X-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n";
	char out[512];
	int n = vnc_http_format_header(out, sizeof(out), 200, "OK",
		"text/html; charset=utf-8", 1234);
	EXPECT(n == (int)strlen(want) && strcmp(out, want) == 0, "%d: %s", n, out);
	/* Too small a buffer: refused, not a length past its end. */
	EXPECT(vnc_http_format_header(out, 40, 200, "OK", "text/plain", 0) < 0, "40 bytes");
	EXPECT(vnc_http_format_header(out, strlen(want), 200, "OK",
		"text/html; charset=utf-8", 1234) < 0, "no room for the NUL");
}

int main(void) {
	test_status_reason();
	test_content_type();
	test_header();
	return expect_report();
}
