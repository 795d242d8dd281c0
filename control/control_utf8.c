/* SPDX-License-Identifier: MIT */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "control/control_utf8.h"
#include "common/utf8.h"
#include "common/util.h"

/* As sd-bus's unichar_is_valid: no surrogates, no noncharacters. */
static bool code_point_valid(uint32_t c) {
	if (c >= 0x110000 || (c >= 0xd800 && c <= 0xdfff)) {
		return false;
	}
	if ((c >= 0xfdd0 && c <= 0xfdef) || (c & 0xfffe) == 0xfffe) {
		return false;
	}
	return true;
}

size_t control_utf8_char_len(const unsigned char *s, size_t len) {
	uint32_t c;
	if (len == 0 || s[0] == 0) {
		return 0;
	}
	size_t n = utf8_decode((const char *)s, len, &c);
	return n > 0 && code_point_valid(c) ? n : 0;
}

bool control_utf8_is_valid(const char *s) {
	const unsigned char *p = (const unsigned char *)s;
	size_t len = strlen(s);
	while (len > 0) {
		size_t n = control_utf8_char_len(p, len);
		if (n == 0) {
			return false;
		}
		p += n;
		len -= n;
	}
	return true;
}

const char *control_utf8_sanitize(const char *s, char **owned) {
	*owned = NULL;
	if (!s) {
		return "";
	}
	if (control_utf8_is_valid(s)) {
		return s;
	}
	size_t len = strlen(s);
	/* Each bad byte becomes 3 bytes at most. */
	char *out = zalloc(len * 3 + 1);
	char *o = out;
	const unsigned char *p = (const unsigned char *)s;
	while (len > 0) {
		size_t n = control_utf8_char_len(p, len);
		if (n == 0) {
			memcpy(o, "\xef\xbf\xbd", 3);
			o += 3;
			n = 1;
		} else {
			memcpy(o, p, n);
			o += n;
		}
		p += n;
		len -= n;
	}
	*o = '\0';
	*owned = out;
	return out;
}

int control_utf8_prefix(const char *s, size_t max) {
	size_t len = strnlen(s, max + 1);
	if (len <= max) {
		return (int)len;
	}
	len = max;
	/* Back off to the start of the character at the cut. */
	while (len > 0 && ((unsigned char)s[len] & 0xc0) == 0x80) {
		len--;
	}
	return (int)len;
}
