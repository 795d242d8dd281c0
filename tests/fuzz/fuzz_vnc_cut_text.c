/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for VNC cut text's Latin-1 ↔ UTF-8 conversion: a
 * viewer's Latin-1 becomes the session clipboard, the session's UTF-8
 * (any bytes a client offers) goes to viewers as Latin-1. Output buffers
 * are exactly the documented size, so writing past them is caught.
 * Besides memory errors it checks that UTF-8 made from Latin-1 is well
 * formed and converts back to the same bytes.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "capture/latin1.h"
#include "common/utf8.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok, const char *what) {
	if (!ok) {
		fprintf(stderr, "fuzz-vnc-cut-text: invariant broken: %s\n", what);
		abort();
	}
}

/* The number of code points, or SIZE_MAX when s is not well-formed UTF-8. */
static size_t code_points(const char *s, size_t len) {
	size_t n = 0;
	for (size_t i = 0; i < len; n++) {
		uint32_t cp;
		size_t k = utf8_decode(s + i, len - i, &cp);
		if (k == 0) {
			return SIZE_MAX;
		}
		i += k;
	}
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
	const char *in = (const char *)data;

	/* The bytes as a viewer's Latin-1. */
	char *utf8 = malloc(2 * size + 1);
	char *back = malloc(2 * size + 1);
	if (!utf8 || !back) {
		free(utf8);
		free(back);
		return 0;
	}
	size_t n = latin1_to_utf8(in, size, utf8);
	size_t text_len = strnlen(in, size);
	check(n <= 2 * size && utf8[n] == '\0' && strlen(utf8) == n, "UTF-8 length");
	check(code_points(utf8, n) == text_len, "well-formed, one code point per byte");
	size_t m = latin1_from_utf8(utf8, n, back);
	check(m == text_len && memcmp(back, in, m) == 0, "Latin-1 round trip");

	/* The bytes as the session's UTF-8. */
	char *latin1 = malloc(size ? size : 1);
	if (latin1) {
		size_t l = latin1_from_utf8(in, size, latin1);
		check(l <= size, "Latin-1 length");
		size_t cps = code_points(in, size);
		if (cps != SIZE_MAX) {
			check(l == cps, "one byte per code point of well-formed UTF-8");
		}
		free(latin1);
	}
	free(back);
	free(utf8);
	return 0;
}
