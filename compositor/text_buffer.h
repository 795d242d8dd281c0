/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_TEXT_BUFFER_H
#define ORIEL_TEXT_BUFFER_H

/* A line of text drawn with pango into a wlr_buffer, for title bars. */

struct wlr_buffer;

/*
 * Renders text (ellipsized to max_width) in colour on a transparent
 * background, height pixels tall. Returns NULL for empty text or on
 * failure; the caller drops the buffer with wlr_buffer_drop.
 */
struct wlr_buffer *text_buffer_create(const char *text, int max_width, int height,
	const float colour[4]);
/*
 * The same, with tail drawn whole at the right end, and the text shortened
 * to the room left; a tail wider than half the width is left out.
 */
struct wlr_buffer *text_buffer_create_with_tail(const char *text, const char *tail,
	int max_width, int height, const float colour[4]);

#endif
