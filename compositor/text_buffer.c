/* SPDX-License-Identifier: MIT */
#include <cairo.h>
#include <drm_fourcc.h>
#include <pango/pangocairo.h>
#include <stdlib.h>
#include "compositor/pixel_buffer.h"
#include "compositor/text_buffer.h"

#define FONT "Sans 10"
#define PADDING 6
/* Between the text and its tail. */
#define TAIL_GAP 8

static void release_surface(void *surface) {
	cairo_surface_destroy(surface);
}

static PangoLayout *create_layout(cairo_t *cairo, const char *text) {
	PangoLayout *layout = pango_cairo_create_layout(cairo);
	PangoFontDescription *font = pango_font_description_from_string(FONT);
	pango_layout_set_font_description(layout, font);
	pango_font_description_free(font);
	pango_layout_set_text(layout, text, -1);
	pango_layout_set_single_paragraph_mode(layout, TRUE);
	return layout;
}

static void show_layout(cairo_t *cairo, PangoLayout *layout, double x, int height,
		const float colour[4]) {
	int text_width, text_height;
	pango_layout_get_pixel_size(layout, &text_width, &text_height);
	cairo_set_source_rgba(cairo, colour[0], colour[1], colour[2], colour[3]);
	cairo_move_to(cairo, x, (height - text_height) / 2.0);
	pango_cairo_show_layout(cairo, layout);
}

struct wlr_buffer *text_buffer_create(const char *text, int max_width, int height,
		const float colour[4]) {
	return text_buffer_create_with_tail(text, NULL, max_width, height, colour);
}

struct wlr_buffer *text_buffer_create_with_tail(const char *text, const char *tail,
		int max_width, int height, const float colour[4]) {
	if (!text || !text[0] || max_width <= 2 * PADDING || height <= 0) {
		return NULL;
	}
	int width = max_width;
	cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32,
		width, height);
	if (cairo_surface_status(surface) != CAIRO_STATUS_SUCCESS) {
		cairo_surface_destroy(surface);
		return NULL;
	}
	cairo_t *cairo = cairo_create(surface);
	int room = width - 2 * PADDING;
	if (tail && tail[0]) {
		/* The tail whole, at the right end; the text gets what is left. */
		PangoLayout *layout = create_layout(cairo, tail);
		int tail_width, tail_height;
		pango_layout_get_pixel_size(layout, &tail_width, &tail_height);
		if (tail_width + TAIL_GAP < room / 2) {
			show_layout(cairo, layout, width - PADDING - tail_width, height, colour);
			room -= tail_width + TAIL_GAP;
		}
		g_object_unref(layout);
	}
	PangoLayout *layout = create_layout(cairo, text);
	pango_layout_set_width(layout, room * PANGO_SCALE);
	pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END);
	show_layout(cairo, layout, PADDING, height, colour);
	g_object_unref(layout);
	cairo_destroy(cairo);
	cairo_surface_flush(surface);

	/* cairo's ARGB32 is premultiplied, native-endian: DRM's ARGB8888. */
	return pixel_buffer_create(cairo_image_surface_get_data(surface), width, height,
		(size_t)cairo_image_surface_get_stride(surface), DRM_FORMAT_ARGB8888,
		release_surface, surface);
}
