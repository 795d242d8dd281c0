/* SPDX-License-Identifier: MIT */
/*
 * Unit tests for Windows keyboard layout IDs to xkb names
 * (remote/windows_layout.c): every entry compiles with
 * xkbcommon against xkb-data, and lookups fall back as documented.
 */

#include <stdio.h>
#include <string.h>
#include <xkbcommon/xkbcommon.h>
#include "remote/windows_layout.h"
#include "expect.h"

static bool compiles(struct xkb_context *context, const char *layout, const char *variant) {
	struct xkb_rule_names names = {
		.rules = "evdev", .model = "pc105", .layout = layout, .variant = variant,
		.options = "",
	};
	struct xkb_keymap *keymap = xkb_keymap_new_from_names(context, &names,
		XKB_KEYMAP_COMPILE_NO_FLAGS);
	xkb_keymap_unref(keymap);
	return keymap != NULL;
}

static void finds(uint32_t klid, uint32_t type, const char *layout, const char *variant) {
	const struct windows_layout *found = windows_layout_find(klid, type);
	EXPECT(found && strcmp(found->layout, layout) == 0 &&
		strcmp(found->variant, variant) == 0, "0x%08x (type %u): got %s(%s), want %s(%s)",
		klid, type, found ? found->layout : "-", found ? found->variant : "-",
		layout, variant);
}

int main(void) {
	struct xkb_context *context = xkb_context_new(XKB_CONTEXT_NO_DEFAULT_INCLUDES);
	xkb_context_include_path_append_default(context);
	xkb_context_set_log_level(context, XKB_LOG_LEVEL_CRITICAL);

	/* The check can fail: a variant xkb-data lacks does not compile. */
	EXPECT(!compiles(context, "de", "no-such-variant"), "a made-up variant compiled");

	size_t n;
	const struct windows_layout *table = windows_layout_table(&n);
	EXPECT(n >= 40, "only %zu layouts", n);
	size_t distinct = 0;
	for (size_t i = 0; i < n; i++) {
		EXPECT(compiles(context, table[i].layout, table[i].variant),
			"0x%08x: %s(%s) does not compile", table[i].klid, table[i].layout,
			table[i].variant);
		bool seen = false;
		for (size_t j = 0; j < i; j++) {
			EXPECT(table[j].klid != table[i].klid, "0x%08x twice", table[i].klid);
			seen = seen || (strcmp(table[j].layout, table[i].layout) == 0 &&
				strcmp(table[j].variant, table[i].variant) == 0);
		}
		distinct += !seen;
	}
	EXPECT(distinct >= 40, "only %zu distinct xkb layouts", distinct);

	finds(0x00000409, 0, "us", "");
	finds(0x00000407, 4, "de", "");
	finds(0x0000040C, 4, "fr", "");
	finds(0x00000809, 4, "gb", "");
	finds(0x00000807, 4, "ch", "");
	finds(0x0000100C, 4, "ch", "fr");
	finds(0x00010409, 4, "us", "dvorak");
	finds(0x00020409, 4, "us", "intl");
	finds(0x00011009, 4, "ca", "multix");
	finds(0x0000081A, 4, "rs", "latin");
	/* An IME's ID keeps its language in the low word. */
	finds(0xE0010411, 7, "jp", "");
	finds(0xE0200804, 4, "cn", "");
	/* An unknown variant of a known language: the language's default. */
	finds(0x00090407, 4, "de", "");
	/* Only the keyboard type says it. */
	finds(0x00000000, WINDOWS_KEYBOARD_TYPE_JAPANESE, "jp", "");
	finds(0x00000000, WINDOWS_KEYBOARD_TYPE_KOREAN, "kr", "");
	EXPECT(!windows_layout_find(0x00000000, 4), "no ID found a layout");
	EXPECT(!windows_layout_find(0x0000047F, 4), "an unknown ID found a layout");

	xkb_context_unref(context);
	return failures != 0;
}
