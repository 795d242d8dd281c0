/* SPDX-License-Identifier: MIT */
/*
 * Pure logic of the portal backend: SelectSources option validation.
 * See options.h.
 */
#include <stddef.h>
#include "portal/options.h"

const char *portal_select_options_validate(const struct portal_select_options *opts,
		struct portal_selection *out) {
	struct portal_selection sel = {
		.types = PORTAL_SOURCE_MONITOR,
		.multiple = false,
		.cursor_mode = PORTAL_CURSOR_EMBEDDED,
		.persist_mode = PORTAL_PERSIST_NONE,
	};
	if (opts->has_types) {
		if (opts->types == 0) {
			return "types is empty";
		}
		if (opts->types & ~(uint32_t)(PORTAL_SOURCE_MONITOR | PORTAL_SOURCE_WINDOW |
				PORTAL_SOURCE_VIRTUAL)) {
			return "types has unknown bits";
		}
		if (!(opts->types & PORTAL_AVAILABLE_SOURCE_TYPES)) {
			return "none of the requested source types is available";
		}
		/* Offer what we have among what was asked for. */
		sel.types = opts->types & PORTAL_AVAILABLE_SOURCE_TYPES;
	}
	if (opts->has_multiple) {
		sel.multiple = opts->multiple;
	}
	if (opts->has_cursor_mode) {
		uint32_t m = opts->cursor_mode;
		if (m != PORTAL_CURSOR_HIDDEN && m != PORTAL_CURSOR_EMBEDDED &&
				m != PORTAL_CURSOR_METADATA) {
			return "cursor_mode is not exactly one known mode";
		}
		if (!(m & PORTAL_AVAILABLE_CURSOR_MODES)) {
			return "cursor_mode is not available";
		}
		sel.cursor_mode = m;
	}
	if (opts->has_persist_mode) {
		if (opts->persist_mode > PORTAL_PERSIST_PERSISTENT) {
			return "persist_mode is out of range";
		}
		sel.persist_mode = opts->persist_mode;
	}
	if (out) {
		*out = sel;
	}
	return NULL;
}
