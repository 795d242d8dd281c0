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

#endif
