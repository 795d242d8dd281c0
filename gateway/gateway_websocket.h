/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_GATEWAY_GATEWAY_WEBSOCKET_H
#define ORIEL_GATEWAY_GATEWAY_WEBSOCKET_H

/*
 * The server's side of WebSocket (RFC 6455) as far as a login needs it:
 * the upgrade's answer, and binary frames. Pure: no I/O, so unit tests
 * and the fuzzer link it directly.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The biggest frame header: 2 bytes, an 8-byte length and a 4-byte mask. */
#define GATEWAY_WS_HEADER_MAX 14
/* Sec-WebSocket-Accept: base64 of a SHA-1, and its NUL. */
#define GATEWAY_WS_ACCEPT_SIZE 29

enum gateway_ws_opcode {
	GATEWAY_WS_CONTINUATION = 0x0,
	GATEWAY_WS_TEXT = 0x1,
	GATEWAY_WS_BINARY = 0x2,
	GATEWAY_WS_CLOSE = 0x8,
	GATEWAY_WS_PING = 0x9,
	GATEWAY_WS_PONG = 0xa,
};

struct gateway_ws_frame {
	bool fin;
	uint8_t opcode;   /* enum gateway_ws_opcode */
	bool masked;
	uint8_t mask[4];
	uint64_t length;  /* of the payload */
	size_t header_len;
};

/* The Sec-WebSocket-Accept value for a request's Sec-WebSocket-Key. */
bool gateway_ws_accept(const char *key, size_t key_len, char out[GATEWAY_WS_ACCEPT_SIZE]);

/*
 * How many header bytes a frame that starts with buf's first 2 bytes
 * has (len >= 2); 0 when len < 2.
 */
size_t gateway_ws_header_len(const uint8_t *buf, size_t len);

/*
 * Parses a frame header of len bytes (gateway_ws_header_len's): false
 * for reserved bits, an unknown opcode, a control frame that is long or
 * fragmented, or a length that is not minimal.
 */
bool gateway_ws_parse_header(const uint8_t *buf, size_t len, struct gateway_ws_frame *frame);

/* Unmasks (or masks) len payload bytes that start at offset of the payload. */
void gateway_ws_unmask(const struct gateway_ws_frame *frame, uint8_t *buf, size_t len,
	uint64_t offset);

/*
 * Writes the header of a final, unmasked frame of opcode with length
 * payload bytes (what a server sends) into out; its size.
 */
size_t gateway_ws_write_header(uint8_t opcode, uint64_t length,
	uint8_t out[GATEWAY_WS_HEADER_MAX]);
/* The same for a masked one (what a client sends), with mask. */
size_t gateway_ws_write_masked_header(uint8_t opcode, uint64_t length, const uint8_t mask[4],
	uint8_t out[GATEWAY_WS_HEADER_MAX]);

#endif
