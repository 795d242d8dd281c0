/* SPDX-License-Identifier: MIT */
/* Unit tests for RDP clipboard text (remote/rdp/rdp_clipboard_text.c). */

#include <stdlib.h>
#include <string.h>
#include "remote/rdp/rdp_clipboard_text.h"
#include "tests/unit/expect.h"

static void from_unicode(const uint8_t *data, size_t n, const char *want, const char *what) {
	char *got = NULL;
	size_t len = 0;
	EXPECT(rdp_clipboard_text_from_unicode(data, n, &got, &len), "%s: failed", what);
	EXPECT(got && len == strlen(want) && memcmp(got, want, len) == 0 && got[len] == '\0',
		"%s: got \"%.*s\" (%zu bytes), want \"%s\"", what, (int)len, got ? got : "",
		len, want);
	free(got);
}

static void to_unicode(const char *utf8, const uint8_t *want, size_t want_len,
		const char *what) {
	uint8_t *got = NULL;
	size_t len = 0;
	EXPECT(rdp_clipboard_text_to_unicode(utf8, strlen(utf8), &got, &len), "%s: failed", what);
	EXPECT(got && len == want_len && memcmp(got, want, len) == 0,
		"%s: got %zu bytes, want %zu", what, len, want_len);
	free(got);
}

int main(void) {
	/* "a\r\nä€", NUL, then what follows the NUL is not text. */
	static const uint8_t windows[] = {
		'a', 0, '\r', 0, '\n', 0, 0xE4, 0, 0xAC, 0x20, 0, 0, 'x', 0,
	};
	from_unicode(windows, sizeof(windows), "a\n\xC3\xA4\xE2\x82\xAC", "CRLF, ä, €, NUL");
	/* U+1F600 as a surrogate pair; a lone low surrogate; a lone CR stays. */
	static const uint8_t pair[] = { 0x3D, 0xD8, 0x00, 0xDE, 0x00, 0xDC, '\r', 0, 'b', 0 };
	from_unicode(pair, sizeof(pair), "\xF0\x9F\x98\x80\xEF\xBF\xBD\rb", "surrogates");
	/* A high surrogate at the end, an odd byte: replaced, ignored. */
	static const uint8_t tail[] = { 'c', 0, 0x3D, 0xD8, 'z' };
	from_unicode(tail, sizeof(tail), "c\xEF\xBF\xBD", "cut short");
	from_unicode(NULL, 0, "", "empty");

	static const uint8_t lines[] = {
		'a', 0, '\r', 0, '\n', 0, 'b', 0, '\r', 0, '\n', 0, 0xE4, 0, 0xAC, 0x20, 0, 0,
	};
	to_unicode("a\nb\r\n\xC3\xA4\xE2\x82\xAC", lines, sizeof(lines), "LF, CRLF, ä, €");
	static const uint8_t emoji[] = { 0x3D, 0xD8, 0x00, 0xDE, 0, 0 };
	to_unicode("\xF0\x9F\x98\x80", emoji, sizeof(emoji), "U+1F600");
	/* A stray continuation byte, a truncated sequence, an overlong '/': one U+FFFD each. */
	static const uint8_t bad[] = { 0xFD, 0xFF, 'x', 0, 0xFD, 0xFF, 0xFD, 0xFF, 0, 0 };
	to_unicode("\x80x\xE2\x82\xC0\xAF", bad, sizeof(bad), "invalid UTF-8");
	static const uint8_t nothing[] = { 0, 0 };
	to_unicode("", nothing, sizeof(nothing), "empty");
	return failures != 0;
}
