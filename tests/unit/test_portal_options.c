/* SPDX-License-Identifier: MIT */
/* The portal backend's pure logic: SelectSources options. */
#include <stdio.h>
#include "portal/options.h"
#include "expect.h"


static void test_select_defaults(void) {
	struct portal_select_options opts = {0};
	struct portal_selection sel;
	const char *why = portal_select_options_validate(&opts, &sel);
	EXPECT(!why, "no options: %s", why);
	EXPECT(sel.types == PORTAL_SOURCE_MONITOR, "default types %u", sel.types);
	EXPECT(!sel.multiple, "default multiple");
	EXPECT(sel.cursor_mode == PORTAL_CURSOR_EMBEDDED, "default cursor %u", sel.cursor_mode);
	EXPECT(sel.persist_mode == PORTAL_PERSIST_NONE, "default persist %u", sel.persist_mode);
}

static void test_select_valid(void) {
	struct portal_select_options opts = {
		.has_types = true, .types = PORTAL_SOURCE_MONITOR | PORTAL_SOURCE_WINDOW,
		.has_multiple = true, .multiple = true,
		.has_cursor_mode = true, .cursor_mode = PORTAL_CURSOR_EMBEDDED,
		.has_persist_mode = true, .persist_mode = PORTAL_PERSIST_PERSISTENT,
		.restore_token = "some-token-we-never-issued",
	};
	struct portal_selection sel;
	const char *why = portal_select_options_validate(&opts, &sel);
	EXPECT(!why, "valid options refused: %s", why);
	EXPECT(sel.types == (PORTAL_SOURCE_MONITOR | PORTAL_SOURCE_WINDOW), "types %u", sel.types);
	EXPECT(sel.multiple, "multiple");
	EXPECT(sel.persist_mode == PORTAL_PERSIST_PERSISTENT, "persist %u", sel.persist_mode);
}

static void test_select_invalid(void) {
	struct {
		const char *what;
		struct portal_select_options opts;
	} cases[] = {
		{"empty types", {.has_types = true, .types = 0}},
		{"unknown type bit", {.has_types = true, .types = 8}},
		{"two cursor modes", {.has_cursor_mode = true, .cursor_mode = 3}},
		{"cursor mode 0", {.has_cursor_mode = true, .cursor_mode = 0}},
		{"persist 3", {.has_persist_mode = true, .persist_mode = 3}},
		{"persist huge", {.has_persist_mode = true, .persist_mode = 0xffffffffu}},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct portal_selection sel = {0};
		EXPECT(portal_select_options_validate(&cases[i].opts, &sel) != NULL,
			"%s accepted", cases[i].what);
	}
}

/* Every source type and cursor mode is offered, each alone. */
static void test_select_each(void) {
	const uint32_t types[] = {PORTAL_SOURCE_MONITOR, PORTAL_SOURCE_WINDOW,
		PORTAL_SOURCE_VIRTUAL};
	const uint32_t modes[] = {PORTAL_CURSOR_HIDDEN, PORTAL_CURSOR_EMBEDDED,
		PORTAL_CURSOR_METADATA};
	for (int i = 0; i < 3; i++) {
		struct portal_select_options opts = {
			.has_types = true, .types = types[i],
			.has_cursor_mode = true, .cursor_mode = modes[i],
		};
		struct portal_selection sel;
		const char *why = portal_select_options_validate(&opts, &sel);
		EXPECT(!why, "type %u cursor %u refused: %s", types[i], modes[i], why);
		EXPECT(sel.types == types[i] && sel.cursor_mode == modes[i], "selection %u %u",
			sel.types, sel.cursor_mode);
	}
}

int main(void) {
	test_select_defaults();
	test_select_valid();
	test_select_invalid();
	test_select_each();
	if (failures) {
		fprintf(stderr, "%d failures\n", failures);
		return 1;
	}
	return 0;
}
