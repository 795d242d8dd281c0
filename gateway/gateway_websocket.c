/* SPDX-License-Identifier: MIT */
#include <string.h>
#include <gnutls/crypto.h>
#include <gnutls/gnutls.h>
#include "gateway/gateway_websocket.h"

/* RFC 6455, 1.3. */
#define WS_GUID "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
/* A key is the base64 of 16 bytes: 24 characters. */
#define WS_KEY_LEN 24

static void base64(const uint8_t *in, size_t len, char *out) {
	static const char alphabet[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t o = 0;
	for (size_t i = 0; i < len; i += 3) {
		uint32_t v = (uint32_t)in[i] << 16;
		if (i + 1 < len) {
			v |= (uint32_t)in[i + 1] << 8;
		}
		if (i + 2 < len) {
			v |= in[i + 2];
		}
		out[o++] = alphabet[(v >> 18) & 63];
		out[o++] = alphabet[(v >> 12) & 63];
		out[o++] = i + 1 < len ? alphabet[(v >> 6) & 63] : '=';
		out[o++] = i + 2 < len ? alphabet[v & 63] : '=';
	}
	out[o] = '\0';
}

bool gateway_ws_accept(const char *key, size_t key_len, char out[GATEWAY_WS_ACCEPT_SIZE]) {
	if (key_len != WS_KEY_LEN) {
		return false;
	}
	for (size_t i = 0; i < key_len; i++) {
		char c = key[i];
		bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
			(c >= '0' && c <= '9') || c == '+' || c == '/' || c == '=';
		if (!ok) {
			return false;
		}
	}
	char joined[WS_KEY_LEN + sizeof(WS_GUID)];
	memcpy(joined, key, key_len);
	memcpy(joined + key_len, WS_GUID, sizeof(WS_GUID) - 1);
	uint8_t digest[20];
	if (gnutls_hash_fast(GNUTLS_DIG_SHA1, joined, key_len + sizeof(WS_GUID) - 1,
			digest) < 0) {
		return false;
	}
	base64(digest, sizeof(digest), out);
	return true;
}

size_t gateway_ws_header_len(const uint8_t *buf, size_t len) {
	if (len < 2) {
		return 0;
	}
	size_t n = 2;
	uint8_t short_len = buf[1] & 0x7f;
	if (short_len == 126) {
		n += 2;
	} else if (short_len == 127) {
		n += 8;
	}
	if (buf[1] & 0x80) {
		n += 4;
	}
	return n;
}

bool gateway_ws_parse_header(const uint8_t *buf, size_t len, struct gateway_ws_frame *frame) {
	if (len < 2 || len != gateway_ws_header_len(buf, len)) {
		return false;
	}
	memset(frame, 0, sizeof(*frame));
	frame->fin = (buf[0] & 0x80) != 0;
	frame->opcode = buf[0] & 0x0f;
	frame->masked = (buf[1] & 0x80) != 0;
	frame->header_len = len;
	if (buf[0] & 0x70) {
		return false; /* no extension was agreed on */
	}
	switch (frame->opcode) {
	case GATEWAY_WS_CONTINUATION:
	case GATEWAY_WS_TEXT:
	case GATEWAY_WS_BINARY:
	case GATEWAY_WS_CLOSE:
	case GATEWAY_WS_PING:
	case GATEWAY_WS_PONG:
		break;
	default:
		return false;
	}
	uint8_t short_len = buf[1] & 0x7f;
	size_t at = 2;
	if (short_len == 126) {
		frame->length = (uint64_t)buf[2] << 8 | buf[3];
		at = 4;
		if (frame->length < 126) {
			return false;
		}
	} else if (short_len == 127) {
		for (int i = 0; i < 8; i++) {
			frame->length = frame->length << 8 | buf[2 + i];
		}
		at = 10;
		if (frame->length <= 0xffff || frame->length >> 63) {
			return false;
		}
	} else {
		frame->length = short_len;
	}
	if (frame->masked) {
		memcpy(frame->mask, buf + at, 4);
	}
	if (frame->opcode >= GATEWAY_WS_CLOSE && (!frame->fin || frame->length > 125)) {
		return false;
	}
	return true;
}

void gateway_ws_unmask(const struct gateway_ws_frame *frame, uint8_t *buf, size_t len,
		uint64_t offset) {
	if (!frame->masked) {
		return;
	}
	for (size_t i = 0; i < len; i++) {
		buf[i] ^= frame->mask[(offset + i) & 3];
	}
}

static size_t write_header(uint8_t opcode, uint64_t length, bool masked,
		uint8_t out[GATEWAY_WS_HEADER_MAX]) {
	size_t n = 0;
	uint8_t mask_bit = masked ? 0x80 : 0;
	out[n++] = (uint8_t)(0x80 | (opcode & 0x0f));
	if (length < 126) {
		out[n++] = (uint8_t)(mask_bit | length);
	} else if (length <= 0xffff) {
		out[n++] = (uint8_t)(mask_bit | 126);
		out[n++] = (uint8_t)(length >> 8);
		out[n++] = (uint8_t)length;
	} else {
		out[n++] = (uint8_t)(mask_bit | 127);
		for (int i = 7; i >= 0; i--) {
			out[n++] = (uint8_t)(length >> (8 * i));
		}
	}
	return n;
}

size_t gateway_ws_write_header(uint8_t opcode, uint64_t length,
		uint8_t out[GATEWAY_WS_HEADER_MAX]) {
	return write_header(opcode, length, false, out);
}

size_t gateway_ws_write_masked_header(uint8_t opcode, uint64_t length, const uint8_t mask[4],
		uint8_t out[GATEWAY_WS_HEADER_MAX]) {
	size_t n = write_header(opcode, length, true, out);
	memcpy(out + n, mask, 4);
	return n + 4;
}
