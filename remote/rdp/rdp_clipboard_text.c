/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include "remote/rdp/rdp_clipboard_text.h"

#define REPLACEMENT 0xFFFDu

static size_t put_utf8(char *out, uint32_t c) {
	if (c < 0x80) {
		out[0] = (char)c;
		return 1;
	}
	if (c < 0x800) {
		out[0] = (char)(0xC0 | (c >> 6));
		out[1] = (char)(0x80 | (c & 0x3F));
		return 2;
	}
	if (c < 0x10000) {
		out[0] = (char)(0xE0 | (c >> 12));
		out[1] = (char)(0x80 | ((c >> 6) & 0x3F));
		out[2] = (char)(0x80 | (c & 0x3F));
		return 3;
	}
	out[0] = (char)(0xF0 | (c >> 18));
	out[1] = (char)(0x80 | ((c >> 12) & 0x3F));
	out[2] = (char)(0x80 | ((c >> 6) & 0x3F));
	out[3] = (char)(0x80 | (c & 0x3F));
	return 4;
}

bool rdp_clipboard_text_from_unicode(const uint8_t *data, size_t n, char **out,
		size_t *out_len) {
	size_t units = n / 2;
	/* A unit is at most 3 bytes of UTF-8; a pair (2 units) is 4. */
	char *text = malloc(units * 3 + 1);
	if (!text) {
		return false;
	}
	size_t o = 0;
	for (size_t i = 0; i < units; i++) {
		uint32_t c = data[2 * i] | (uint32_t)data[2 * i + 1] << 8;
		if (c == 0) {
			break;
		}
		if (c >= 0xD800 && c <= 0xDBFF && i + 1 < units) {
			uint32_t low = data[2 * i + 2] | (uint32_t)data[2 * i + 3] << 8;
			if (low >= 0xDC00 && low <= 0xDFFF) {
				c = 0x10000 + ((c - 0xD800) << 10) + (low - 0xDC00);
				i++;
			} else {
				c = REPLACEMENT;
			}
		} else if (c >= 0xD800 && c <= 0xDFFF) {
			c = REPLACEMENT;
		}
		if (c == '\r' && i + 1 < units && data[2 * i + 2] == '\n' &&
				data[2 * i + 3] == 0) {
			continue; /* the LF that follows stands for both */
		}
		o += put_utf8(text + o, c);
	}
	text[o] = '\0';
	*out = text;
	*out_len = o;
	return true;
}

/* The code point at s (len > 0 bytes left) and its length; U+FFFD for bad UTF-8. */
static uint32_t next_utf8(const unsigned char *s, size_t len, size_t *used) {
	unsigned char b = s[0];
	size_t need;
	uint32_t c, min;
	if (b < 0x80) {
		*used = 1;
		return b;
	} else if ((b & 0xE0) == 0xC0) {
		need = 1, c = b & 0x1F, min = 0x80;
	} else if ((b & 0xF0) == 0xE0) {
		need = 2, c = b & 0x0F, min = 0x800;
	} else if ((b & 0xF8) == 0xF0) {
		need = 3, c = b & 0x07, min = 0x10000;
	} else {
		*used = 1;
		return REPLACEMENT;
	}
	size_t i = 1;
	for (; i <= need; i++) {
		if (i >= len || (s[i] & 0xC0) != 0x80) {
			*used = i;
			return REPLACEMENT;
		}
		c = c << 6 | (s[i] & 0x3F);
	}
	*used = i;
	if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) {
		return REPLACEMENT;
	}
	return c;
}

static size_t put_unit(uint8_t *out, uint32_t unit) {
	out[0] = (uint8_t)(unit & 0xFF);
	out[1] = (uint8_t)(unit >> 8);
	return 2;
}

bool rdp_clipboard_text_to_unicode(const char *utf8, size_t len, uint8_t **out,
		size_t *out_len) {
	/* Each byte gives at most 2 units (LF: CR LF), 4 bytes at most 2 units. */
	uint8_t *data = malloc(len * 4 + 2);
	if (!data) {
		return false;
	}
	const unsigned char *s = (const unsigned char *)utf8;
	size_t o = 0;
	for (size_t i = 0; i < len;) {
		size_t used;
		uint32_t c = next_utf8(s + i, len - i, &used);
		if (c == '\n' && (i == 0 || s[i - 1] != '\r')) {
			o += put_unit(data + o, '\r');
		} else if (c == 0) {
			c = REPLACEMENT;
		}
		i += used;
		if (c >= 0x10000) {
			c -= 0x10000;
			o += put_unit(data + o, 0xD800 + (c >> 10));
			o += put_unit(data + o, 0xDC00 + (c & 0x3FF));
		} else {
			o += put_unit(data + o, c);
		}
	}
	o += put_unit(data + o, 0);
	*out = data;
	*out_len = o;
	return true;
}
