/* SPDX-License-Identifier: MIT */
/* Unit tests for VNC cut text's Latin-1 ↔ UTF-8 conversion (capture/latin1.c). */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "capture/latin1.h"
#include "expect.h"


static void test_to_utf8(void) {
	char out[32];
	size_t n = latin1_to_utf8("caf\xe9 \xff", 6, out);
	EXPECT(n == 8 && strcmp(out, "caf\xc3\xa9 \xc3\xbf") == 0, "got %zu", n);
	n = latin1_to_utf8("ab\0cd", 5, out);
	EXPECT(n == 2 && strcmp(out, "ab") == 0, "stops at NUL: %zu", n);
}

static void test_from_utf8(void) {
	static const struct {
		const char *utf8, *latin1;
	} cases[] = {
		{ "caf\xc3\xa9", "caf\xe9" },
		{ "\xe2\x82\xac 5", "? 5" },            /* the euro sign is not Latin-1 */
		{ "\xf0\x9f\x98\x80!", "?!" },          /* one '?' per code point */
		{ "\xc3" "A", "?A" },                   /* a lead byte without its tail */
		{ "\xc1\x81", "??" },                   /* overlong 'A' */
		{ "\xed\xa0\x80", "???" },              /* a surrogate */
		{ "\xe2\x82", "??" },                   /* cut at the end */
		{ "\x80\xbf", "??" },                   /* stray continuation bytes */
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *in = cases[i].utf8;
		char out[32];
		size_t n = latin1_from_utf8(in, strlen(in), out);
		EXPECT(n == strlen(cases[i].latin1) && memcmp(out, cases[i].latin1, n) == 0,
			"case %zu: %zu bytes", i, n);
	}
}

static void test_round_trip(void) {
	char latin1[255], utf8[2 * 255 + 1], back[2 * 255];
	for (int c = 1; c < 256; c++) {
		latin1[c - 1] = (char)c;
	}
	size_t n = latin1_to_utf8(latin1, sizeof(latin1), utf8);
	size_t m = latin1_from_utf8(utf8, n, back);
	EXPECT(m == sizeof(latin1) && memcmp(back, latin1, m) == 0, "round trip %zu", m);
}

int main(void) {
	test_to_utf8();
	test_from_utf8();
	test_round_trip();
	if (failures) {
		fprintf(stderr, "%d failure(s)\n", failures);
		return 1;
	}
	printf("all passed\n");
	return 0;
}
