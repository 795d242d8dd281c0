/* SPDX-License-Identifier: MIT */
/* Unit tests for the gateway's WebSocket frames (gateway/gateway_websocket.c). */

#include <string.h>
#include "gateway/gateway_websocket.h"
#include "tests/unit/expect.h"

static void test_accept(void) {
	char out[GATEWAY_WS_ACCEPT_SIZE];
	/* RFC 6455, 1.3's example. */
	const char *key = "dGhlIHNhbXBsZSBub25jZQ==";
	EXPECT(gateway_ws_accept(key, strlen(key), out), "the RFC's key");
	EXPECT(strcmp(out, "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=") == 0, "its answer: %s", out);
	EXPECT(!gateway_ws_accept(key, strlen(key) - 1, out), "a key of the wrong length");
	EXPECT(!gateway_ws_accept("dGhlIHNhbXBsZSBub25jZQ\r\n", 24, out), "a key with a CR");
}

static bool parse(const uint8_t *buf, size_t len, struct gateway_ws_frame *frame) {
	size_t header = gateway_ws_header_len(buf, len);
	return header > 0 && header <= len && gateway_ws_parse_header(buf, header, frame);
}

static void test_frames(void) {
	struct gateway_ws_frame f;
	/* A masked binary frame of 5 bytes, as a browser sends it. */
	uint8_t masked[] = { 0x82, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58 };
	EXPECT(gateway_ws_header_len(masked, 1) == 0, "one byte tells no length");
	EXPECT(parse(masked, sizeof(masked), &f), "a masked frame");
	EXPECT(f.fin && f.opcode == GATEWAY_WS_BINARY && f.masked && f.length == 5 &&
		f.header_len == 6, "its fields: fin %d op %u masked %d len %llu", f.fin, f.opcode,
		f.masked, (unsigned long long)f.length);
	gateway_ws_unmask(&f, masked + 6, 5, 0);
	EXPECT(memcmp(masked + 6, "Hello", 5) == 0, "the RFC's masked Hello unmasks");

	uint8_t header[GATEWAY_WS_HEADER_MAX];
	EXPECT(gateway_ws_write_header(GATEWAY_WS_BINARY, 12, header) == 2 &&
		header[0] == 0x82 && header[1] == 12, "a short server frame");
	EXPECT(gateway_ws_write_header(GATEWAY_WS_BINARY, 300, header) == 4 &&
		header[1] == 126 && header[2] == 1 && header[3] == 44, "a 16-bit length");
	EXPECT(gateway_ws_write_header(GATEWAY_WS_BINARY, 70000, header) == 10 &&
		header[1] == 127, "a 64-bit length");
	EXPECT(parse(header, 10, &f) && f.length == 70000 && !f.masked, "it parses back");
	const uint8_t mask[4] = { 1, 2, 3, 4 };
	size_t n = gateway_ws_write_masked_header(GATEWAY_WS_BINARY, 300, mask, header);
	EXPECT(n == 8 && parse(header, n, &f) && f.masked && f.length == 300 &&
		memcmp(f.mask, mask, 4) == 0, "a masked header parses back");

	uint8_t reserved[] = { 0xc2, 0x00 };
	EXPECT(!parse(reserved, sizeof(reserved), &f), "a reserved bit");
	uint8_t unknown[] = { 0x83, 0x00 };
	EXPECT(!parse(unknown, sizeof(unknown), &f), "an unknown opcode");
	uint8_t long_ping[] = { 0x89, 126, 0x00, 0x80 };
	EXPECT(!parse(long_ping, sizeof(long_ping), &f), "a control frame over 125 bytes");
	uint8_t split_close[] = { 0x08, 0x00 };
	EXPECT(!parse(split_close, sizeof(split_close), &f), "a fragmented control frame");
	uint8_t padded[] = { 0x82, 126, 0x00, 0x05 };
	EXPECT(!parse(padded, sizeof(padded), &f), "a length that is not minimal");
	uint8_t huge[] = { 0x82, 127, 0x80, 0, 0, 0, 0, 0, 0, 0 };
	EXPECT(!parse(huge, sizeof(huge), &f), "a length with the top bit");
}

int main(void) {
	test_accept();
	test_frames();
	return failures != 0;
}
