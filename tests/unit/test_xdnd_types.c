/* SPDX-License-Identifier: MIT */
/* Unit tests for the MIME types an X drag offers Wayland clients (xwm/xdnd_types.c). */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "xwm/xdnd_types.h"
#include "expect.h"

static void expect_mime(const char *target, const char *want) {
	const char *got = xdnd_mime_type_for_target(target);
	EXPECT((!got && !want) || (got && want && strcmp(got, want) == 0),
		"%s: got %s, want %s", target, got ? got : "(none)", want ? want : "(none)");
}

int main(void) {
	expect_mime("UTF8_STRING", "text/plain;charset=utf-8");
	expect_mime("STRING", "text/plain");
	expect_mime("text/uri-list", "text/uri-list");
	expect_mime("text/plain;charset=utf-8", "text/plain;charset=utf-8");
	expect_mime("image/png", "image/png");
	/* X's own targets and names that are not MIME types. */
	expect_mime("TARGETS", NULL);
	expect_mime("TIMESTAMP", NULL);
	expect_mime("TEXT", NULL);
	expect_mime("COMPOUND_TEXT", NULL);
	expect_mime("_NETSCAPE_URL", NULL);
	expect_mime("/leading", NULL);
	expect_mime("trailing/", NULL);
	expect_mime("has space/x", NULL);
	expect_mime("", NULL);
	if (failures) {
		fprintf(stderr, "%d failure(s)\n", failures);
		return 1;
	}
	printf("all passed\n");
	return 0;
}
