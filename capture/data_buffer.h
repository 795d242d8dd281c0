#ifndef ORIEL_CAPTURE_DATA_BUFFER_H
#define ORIEL_CAPTURE_DATA_BUFFER_H

/*
 * A wlr_buffer over pixels a sink owns (a PipeWire memfd mapping), so that
 * the pixman renderer draws straight into them: no offscreen buffer, no
 * read-back, no copy. The memory must outlive the buffer; drop it with
 * wlr_buffer_drop before unmapping.
 */

#include <stddef.h>
#include <stdint.h>

struct wlr_buffer;

/* drm_format: DRM_FORMAT_XRGB8888 and the like, 4 bytes a pixel. */
struct wlr_buffer *data_buffer_create(void *data, int width, int height, size_t stride,
	uint32_t drm_format);

#endif
