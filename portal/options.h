/* SPDX-License-Identifier: MIT */
/*
 * Pure logic of xdg-desktop-portal-oriel, with no D-Bus calls, so that
 * tests/unit/test_portal_options.c links it directly:
 * validation of ScreenCast SelectSources options against what oriel
 * offers (the portal's numbering of source types and cursor modes). The
 * policy file is policy.h.
 */
#ifndef ORIEL_PORTAL_OPTIONS_H
#define ORIEL_PORTAL_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

/* org.freedesktop.portal.ScreenCast numbering. */
enum portal_source_type {
	PORTAL_SOURCE_MONITOR = 1,
	PORTAL_SOURCE_WINDOW = 2,
	PORTAL_SOURCE_VIRTUAL = 4,
};

enum portal_cursor_mode {
	PORTAL_CURSOR_HIDDEN = 1,
	PORTAL_CURSOR_EMBEDDED = 2,
	PORTAL_CURSOR_METADATA = 4,
};

enum portal_persist_mode {
	PORTAL_PERSIST_NONE = 0,
	PORTAL_PERSIST_TRANSIENT = 1,
	PORTAL_PERSIST_PERSISTENT = 2,
};

/* What oriel offers: every source type and cursor mode of the portal. */
#define PORTAL_AVAILABLE_SOURCE_TYPES \
	((uint32_t)(PORTAL_SOURCE_MONITOR | PORTAL_SOURCE_WINDOW | PORTAL_SOURCE_VIRTUAL))
#define PORTAL_AVAILABLE_CURSOR_MODES \
	((uint32_t)(PORTAL_CURSOR_HIDDEN | PORTAL_CURSOR_EMBEDDED | PORTAL_CURSOR_METADATA))
#define PORTAL_SCREENCAST_VERSION 4u

/* SelectSources options; the has_* flags say which keys were present. */
struct portal_select_options {
	bool has_types, has_multiple, has_cursor_mode, has_persist_mode;
	uint32_t types;
	bool multiple;
	uint32_t cursor_mode;
	uint32_t persist_mode;
	const char *restore_token; /* borrowed; NULL when absent */
};

/* The selection a session keeps after a valid SelectSources. */
struct portal_selection {
	uint32_t types;
	bool multiple;
	uint32_t cursor_mode;
	uint32_t persist_mode;
};

/*
 * Checks opts and fills out with defaults for absent keys (monitor, one
 * source, embedded cursor, no persistence). Returns NULL when valid, or a
 * static English reason. A restore_token from the app is never seen by
 * the backend (the frontend swaps it for our restore_data, restore.c),
 * so any token is accepted here.
 */
const char *portal_select_options_validate(const struct portal_select_options *opts,
	struct portal_selection *out);

#endif
