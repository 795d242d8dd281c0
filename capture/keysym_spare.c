/* SPDX-License-Identifier: MIT */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "capture/keysym_spare.h"

/* The lowest and highest keycodes the X11 protocol can carry. */
#define MIN_X11_KEYCODE 8
#define MAX_X11_KEYCODE 255

size_t keysym_spare_find(struct xkb_keymap *keymap, xkb_keycode_t *out, size_t max) {
	size_t n = 0;
	xkb_keycode_t min = xkb_keymap_min_keycode(keymap);
	xkb_keycode_t top = xkb_keymap_max_keycode(keymap);
	if (top > MAX_X11_KEYCODE) {
		top = MAX_X11_KEYCODE;
	}
	if (min < MIN_X11_KEYCODE) {
		min = MIN_X11_KEYCODE;
	}
	for (xkb_keycode_t kc = top; kc >= min && n < max; kc--) {
		if (xkb_keymap_key_get_name(keymap, kc) &&
				xkb_keymap_num_layouts_for_key(keymap, kc) == 0) {
			out[n++] = kc;
		}
	}
	return n;
}

/*
 * xkb_keymap_get_as_string writes each section as `xkb_NAME "..." {`
 * with its body indented and `};` at the start of a line at its end.
 */
static const char *symbols_section_end(const char *text) {
	const char *start = strstr(text, "xkb_symbols");
	if (!start) {
		return NULL;
	}
	const char *end = strstr(start, "\n};");
	return end ? end + 1 : NULL;
}

struct xkb_keymap *keysym_spare_keymap(struct xkb_keymap *base,
		const struct keysym_spare_binding *bindings, size_t n) {
	char *text = xkb_keymap_get_as_string(base, XKB_KEYMAP_FORMAT_TEXT_V1);
	if (!text) {
		return NULL;
	}
	const char *insert_at = symbols_section_end(text);
	if (!insert_at) {
		free(text);
		return NULL;
	}
	char *extra = NULL;
	size_t extra_len = 0;
	FILE *stream = open_memstream(&extra, &extra_len);
	if (!stream) {
		free(text);
		return NULL;
	}
	xkb_layout_index_t n_layouts = xkb_keymap_num_layouts(base);
	if (n_layouts < 1) {
		n_layouts = 1;
	}
	bool ok = true;
	for (size_t i = 0; i < n && ok; i++) {
		const char *name = xkb_keymap_key_get_name(base, bindings[i].keycode);
		char sym[64];
		if (!name || xkb_keysym_get_name(bindings[i].sym, sym, sizeof(sym)) <= 0) {
			ok = false;
			break;
		}
		fprintf(stream, "\tkey <%s> {", name);
		for (xkb_layout_index_t g = 0; g < n_layouts; g++) {
			fprintf(stream, "%s symbols[Group%u] = [ %s ]", g ? "," : "", g + 1, sym);
		}
		fprintf(stream, " };\n");
	}
	if (fclose(stream) != 0) {
		ok = false;
	}
	struct xkb_keymap *keymap = NULL;
	if (ok) {
		size_t head = (size_t)(insert_at - text);
		size_t tail = strlen(insert_at);
		char *full = malloc(head + extra_len + tail + 1);
		if (full) {
			memcpy(full, text, head);
			memcpy(full + head, extra, extra_len);
			memcpy(full + head + extra_len, insert_at, tail + 1);
			struct xkb_context *context = xkb_context_new(XKB_CONTEXT_NO_ENVIRONMENT_NAMES |
				XKB_CONTEXT_NO_DEFAULT_INCLUDES);
			if (context) {
				keymap = xkb_keymap_new_from_string(context, full,
					XKB_KEYMAP_FORMAT_TEXT_V1, XKB_KEYMAP_COMPILE_NO_FLAGS);
				xkb_context_unref(context);
			}
			free(full);
		}
	}
	free(extra);
	free(text);
	return keymap;
}
