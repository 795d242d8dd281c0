/* SPDX-License-Identifier: MIT */
/*
 * Unit tests for the X.224 Connection Request parser
 * (remote/x224.c): what xfreerdp sends on a first connection
 * (a cookie) and on a redirected one (a routing token), with and without
 * RDP_NEG_REQ, and what must be refused.
 */

#include <stdio.h>
#include <string.h>
#include "remote/x224.h"
#include "expect.h"

/* Builds a Connection Request: line (may be NULL) and an RDP_NEG_REQ of protocols (or none). */
static size_t build(uint8_t *out, const char *line, bool neg, uint32_t protocols) {
	size_t n = 11;
	if (line) {
		memcpy(out + n, line, strlen(line));
		n += strlen(line);
	}
	if (neg) {
		uint8_t req[8] = { 1, 0, 8, 0, (uint8_t)protocols, (uint8_t)(protocols >> 8),
			(uint8_t)(protocols >> 16), (uint8_t)(protocols >> 24) };
		memcpy(out + n, req, 8);
		n += 8;
	}
	uint8_t head[11] = { 3, 0, (uint8_t)(n >> 8), (uint8_t)n, (uint8_t)(n - 5), 0xe0,
		0, 0, 0, 0, 0 };
	memcpy(out, head, sizeof(head));
	return n;
}

static void good(void) {
	uint8_t buf[X224_REQUEST_MAX];
	struct x224_request r;
	char error[128] = "";
	size_t n = build(buf, "Cookie: msts=0123abcd\r\n", true, 0xb);
	EXPECT(x224_tpkt_length(buf, 4) == n, "length %zu", x224_tpkt_length(buf, 4));
	EXPECT(x224_parse_request(buf, n, &r, error, sizeof(error)), "%s", error);
	EXPECT(r.has_token && strcmp(r.token, "0123abcd") == 0, "token %s", r.token);
	EXPECT(!r.has_cookie && r.has_negotiation && r.requested_protocols == 0xb,
		"protocols %x", r.requested_protocols);

	n = build(buf, "Cookie: mstshash=alice\r\n", true, 3);
	EXPECT(x224_parse_request(buf, n, &r, error, sizeof(error)), "%s", error);
	EXPECT(r.has_cookie && !r.has_token && r.requested_protocols == 3, "cookie");

	n = build(buf, NULL, false, 0);
	EXPECT(x224_parse_request(buf, n, &r, error, sizeof(error)), "%s", error);
	EXPECT(!r.has_cookie && !r.has_token && !r.has_negotiation, "bare");

	n = build(buf, "Cookie: msts=tok\r\n", false, 0);
	EXPECT(x224_parse_request(buf, n, &r, error, sizeof(error)) && r.has_token &&
		!r.has_negotiation, "token only: %s", error);
}

static void bad(void) {
	uint8_t buf[X224_REQUEST_MAX + 64];
	struct x224_request r;
	char error[128];
	size_t n = build(buf, "Cookie: msts=abc", true, 1);   /* no CRLF */
	EXPECT(!x224_parse_request(buf, n, &r, error, sizeof(error)), "no CRLF");
	n = build(buf, "Cookie: msts=\r\n", true, 1);        /* empty token */
	EXPECT(!x224_parse_request(buf, n, &r, error, sizeof(error)), "empty token");
	n = build(buf, NULL, true, 1);
	buf[11 + 2] = 9; /* RDP_NEG_REQ of a wrong length */
	EXPECT(!x224_parse_request(buf, n, &r, error, sizeof(error)), "neg length");
	n = build(buf, "Cookie: msts=abc\r\n", true, 1);
	EXPECT(!x224_parse_request(buf, n - 1, &r, error, sizeof(error)), "short");
	buf[5] = 0xd0; /* a Confirm, not a Request */
	EXPECT(!x224_parse_request(buf, n, &r, error, sizeof(error)), "code");
	n = build(buf, "Cookie: msts=abc\r\n", true, 1);
	buf[4]++; /* LI */
	EXPECT(!x224_parse_request(buf, n, &r, error, sizeof(error)), "LI");
	char line[X224_TOKEN_MAX + 32];
	snprintf(line, sizeof(line), "Cookie: msts=%0*d\r\n", X224_TOKEN_MAX + 1, 0);
	n = build(buf, line, true, 1);
	EXPECT(!x224_parse_request(buf, n, &r, error, sizeof(error)), "long token");
	uint8_t header[4] = { 3, 0, 0x10, 0x00 }; /* 4096 > X224_REQUEST_MAX */
	EXPECT(x224_tpkt_length(header, 4) == 0, "too long");
	uint8_t tiny[4] = { 3, 0, 0, 5 };
	EXPECT(x224_tpkt_length(tiny, 4) == 0, "too short");
	uint8_t tls[4] = { 0x16, 3, 1, 0 };
	EXPECT(x224_tpkt_length(tls, 4) == 0, "TLS is no TPKT");
}

static void confirm(void) {
	uint8_t out[X224_CONFIRM_LEN];
	size_t n = x224_write_confirm(out, 0x03, X224_PROTOCOL_SSL);
	const uint8_t want[X224_CONFIRM_LEN] = { 3, 0, 0, 19, 14, 0xd0, 0, 0, 0, 0, 0,
		2, 3, 8, 0, 1, 0, 0, 0 };
	EXPECT(n == sizeof(want) && memcmp(out, want, n) == 0, "confirm bytes");
}

int main(void) {
	good();
	bad();
	confirm();
	return failures != 0;
}
