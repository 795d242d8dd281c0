/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <string.h>
#include "remote/x224.h"

/* TPKT (4) + the Connection Request's fixed part (LI, code, DST-REF, SRC-REF, class: 7). */
#define TPKT_HEADER 4
#define X224_CR_FIXED 7
#define X224_CR_CODE 0xe0
#define X224_CC_CODE 0xd0
#define RDP_NEG_REQ 0x01
#define RDP_NEG_RSP 0x02
#define RDP_NEG_LENGTH 8

static const char token_prefix[] = "Cookie: msts=";
static const char cookie_prefix[] = "Cookie: mstshash=";

size_t x224_tpkt_length(const uint8_t *header, size_t len) {
	if (len < TPKT_HEADER || header[0] != 3 || header[1] != 0) {
		return 0;
	}
	size_t length = (size_t)header[2] << 8 | header[3];
	if (length < TPKT_HEADER + X224_CR_FIXED || length > X224_REQUEST_MAX) {
		return 0;
	}
	return length;
}

static bool fail(char *error, size_t error_size, const char *why) {
	snprintf(error, error_size, "%s", why);
	return false;
}

static bool starts_with(const uint8_t *p, size_t len, const char *prefix) {
	size_t n = strlen(prefix);
	return len >= n && memcmp(p, prefix, n) == 0;
}

/* The offset of CRLF in p[0..len), or len when there is none. */
static size_t find_crlf(const uint8_t *p, size_t len) {
	for (size_t i = 0; i + 1 < len; i++) {
		if (p[i] == '\r' && p[i + 1] == '\n') {
			return i;
		}
	}
	return len;
}

bool x224_parse_request(const uint8_t *data, size_t len, struct x224_request *request,
		char *error, size_t error_size) {
	memset(request, 0, sizeof(*request));
	size_t length = x224_tpkt_length(data, len);
	if (length == 0 || length != len) {
		return fail(error, error_size, "not a TPKT of the length it says");
	}
	request->length = length;
	const uint8_t *p = data + TPKT_HEADER;
	size_t left = len - TPKT_HEADER;
	/* The length indicator counts what follows it in the TPDU. */
	if (p[0] != left - 1) {
		return fail(error, error_size, "an X.224 length indicator that does not match");
	}
	if ((p[1] & 0xf0) != X224_CR_CODE) {
		return fail(error, error_size, "not an X.224 Connection Request");
	}
	p += X224_CR_FIXED;
	left -= X224_CR_FIXED;
	if (starts_with(p, left, token_prefix) || starts_with(p, left, cookie_prefix)) {
		size_t end = find_crlf(p, left);
		if (end == left) {
			return fail(error, error_size, "a cookie line without CRLF");
		}
		if (memchr(p, '\0', end)) {
			return fail(error, error_size, "a cookie line with a NUL");
		}
		if (starts_with(p, left, cookie_prefix)) {
			request->has_cookie = true;
		} else {
			size_t n = end - strlen(token_prefix);
			if (n == 0 || n > X224_TOKEN_MAX) {
				return fail(error, error_size, "a routing token of a bad length");
			}
			memcpy(request->token, p + strlen(token_prefix), n);
			request->token[n] = '\0';
			request->has_token = true;
		}
		p += end + 2;
		left -= end + 2;
	}
	if (left == 0) {
		return true;
	}
	if (left != RDP_NEG_LENGTH || p[0] != RDP_NEG_REQ ||
			(p[2] | (p[3] << 8)) != RDP_NEG_LENGTH) {
		return fail(error, error_size, "bytes after the cookie that are no RDP_NEG_REQ");
	}
	request->has_negotiation = true;
	request->requested_protocols = (uint32_t)p[4] | (uint32_t)p[5] << 8 |
		(uint32_t)p[6] << 16 | (uint32_t)p[7] << 24;
	return true;
}

size_t x224_write_confirm(uint8_t *out, uint8_t flags, uint32_t protocol) {
	const uint8_t confirm[X224_CONFIRM_LEN] = {
		3, 0, 0, X224_CONFIRM_LEN,                       /* TPKT */
		X224_CONFIRM_LEN - TPKT_HEADER - 1, X224_CC_CODE, /* LI, CC */
		0, 0, 0, 0, 0,                                    /* DST-REF, SRC-REF, class 0 */
		RDP_NEG_RSP, flags, RDP_NEG_LENGTH, 0,
		(uint8_t)protocol, (uint8_t)(protocol >> 8), (uint8_t)(protocol >> 16),
		(uint8_t)(protocol >> 24),
	};
	memcpy(out, confirm, sizeof(confirm));
	return sizeof(confirm);
}
