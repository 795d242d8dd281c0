/* SPDX-License-Identifier: MIT */
#include "common/utf8.h"

size_t utf8_decode(const char *str, size_t len, uint32_t *code_point) {
	const unsigned char *s = (const unsigned char *)str;
	if (len == 0) {
		return 0;
	}
	if (s[0] < 0x80) {
		*code_point = s[0];
		return 1;
	}
	size_t n;
	uint32_t c, min;
	if ((s[0] & 0xe0) == 0xc0) {
		n = 2, c = s[0] & 0x1f, min = 0x80;
	} else if ((s[0] & 0xf0) == 0xe0) {
		n = 3, c = s[0] & 0x0f, min = 0x800;
	} else if ((s[0] & 0xf8) == 0xf0) {
		n = 4, c = s[0] & 0x07, min = 0x10000;
	} else {
		return 0;
	}
	if (len < n) {
		return 0;
	}
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80) {
			return 0;
		}
		c = (c << 6) | (s[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff)) {
		return 0;
	}
	*code_point = c;
	return n;
}
