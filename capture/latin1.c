/* SPDX-License-Identifier: MIT */
#include <stdint.h>
#include "capture/latin1.h"
#include "common/utf8.h"

size_t latin1_to_utf8(const char *in, size_t len, char *out) {
	size_t o = 0;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)in[i];
		if (c == 0) {
			break;
		}
		if (c < 0x80) {
			out[o++] = (char)c;
		} else {
			out[o++] = (char)(0xc0 | (c >> 6));
			out[o++] = (char)(0x80 | (c & 0x3f));
		}
	}
	out[o] = '\0';
	return o;
}

size_t latin1_from_utf8(const char *in, size_t len, char *out) {
	size_t o = 0;
	for (size_t i = 0; i < len; ) {
		uint32_t cp;
		size_t n = utf8_decode(in + i, len - i, &cp);
		if (n == 0) {
			cp = '?', n = 1; /* malformed: one '?' per byte */
		}
		out[o++] = cp < 0x100 ? (char)cp : '?';
		i += n;
	}
	return o;
}
