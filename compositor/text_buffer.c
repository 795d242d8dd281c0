#include <cairo.h>
#include <drm_fourcc.h>
#include <pango/pangocairo.h>
#include <stdlib.h>
#include <wlr/types/wlr_buffer.h>
#include "compositor/text_buffer.h"
#include "compositor/util.h"

#define FONT "Sans 10"
#define PADDING 6

struct text_buffer {
	struct wlr_buffer base;
	cairo_surface_t *surface;
};

static void buffer_destroy(struct wlr_buffer *wlr_buffer) {
	struct text_buffer *buffer = wl_container_of(wlr_buffer, buffer, base);
	cairo_surface_destroy(buffer->surface);
	free(buffer);
}

static bool buffer_begin_data_ptr_access(struct wlr_buffer *wlr_buffer, uint32_t flags,
		void **data, uint32_t *format, size_t *stride) {
	struct text_buffer *buffer = wl_container_of(wlr_buffer, buffer, base);
	if (flags & WLR_BUFFER_DATA_PTR_ACCESS_WRITE) {
		return false;
	}
	*data = cairo_image_surface_get_data(buffer->surface);
	*format = DRM_FORMAT_ARGB8888; /* cairo's ARGB32 is premultiplied, native-endian */
	*stride = cairo_image_surface_get_stride(buffer->surface);
	return true;
}

static void buffer_end_data_ptr_access(struct wlr_buffer *wlr_buffer) {
}

static const struct wlr_buffer_impl buffer_impl = {
	.destroy = buffer_destroy,
	.begin_data_ptr_access = buffer_begin_data_ptr_access,
	.end_data_ptr_access = buffer_end_data_ptr_access,
};

struct wlr_buffer *text_buffer_create(const char *text, int max_width, int height,
		const float colour[4]) {
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
	PangoLayout *layout = pango_cairo_create_layout(cairo);
	PangoFontDescription *font = pango_font_description_from_string(FONT);
	pango_layout_set_font_description(layout, font);
	pango_font_description_free(font);
	pango_layout_set_text(layout, text, -1);
	pango_layout_set_width(layout, (width - 2 * PADDING) * PANGO_SCALE);
	pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END);
	pango_layout_set_single_paragraph_mode(layout, TRUE);

	int text_width, text_height;
	pango_layout_get_pixel_size(layout, &text_width, &text_height);
	cairo_set_source_rgba(cairo, colour[0], colour[1], colour[2], colour[3]);
	cairo_move_to(cairo, PADDING, (height - text_height) / 2.0);
	pango_cairo_show_layout(cairo, layout);
	g_object_unref(layout);
	cairo_destroy(cairo);
	cairo_surface_flush(surface);

	struct text_buffer *buffer = zalloc(sizeof(*buffer));
	buffer->surface = surface;
	wlr_buffer_init(&buffer->base, &buffer_impl, width, height);
	return &buffer->base;
}
