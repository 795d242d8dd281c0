/* SPDX-License-Identifier: MIT */
/* GPU drawing of cast frames: see cast_render.h. */

#include <drm_fourcc.h>
#include <errno.h>
#include <wlr/render/wlr_renderer.h>
#include <wlr/render/wlr_texture.h>
#include <wlr/types/wlr_buffer.h>
#include <wlr/types/wlr_matrix.h>
#include <wlr/util/box.h>
#include <wlr/util/log.h>
#include "capture/cast_render.h"

int cast_render_into(struct wlr_renderer *renderer, struct wlr_buffer *target,
		struct wlr_buffer *source, const pixman_region32_t *damage,
		const struct cast_render_cursor *cursor) {
	if (renderer->rendering) {
		return -EBUSY; /* never inside an output's frame */
	}
	pixman_region32_t clip;
	pixman_region32_init_rect(&clip, 0, 0, target->width, target->height);
	pixman_region32_intersect(&clip, &clip, (pixman_region32_t *)damage);
	if (!pixman_region32_not_empty(&clip)) {
		pixman_region32_fini(&clip);
		return 0;
	}
	int ret = -EIO;
	struct wlr_texture *frame = NULL, *image = NULL;
	if (source && !(frame = wlr_texture_from_buffer(renderer, source))) {
		wlr_log(WLR_ERROR, "pipewire: the source's buffer is no texture");
		goto out;
	}
	if (cursor && cursor->pixels && cursor->width > 0 && cursor->height > 0) {
		image = wlr_texture_from_pixels(renderer, DRM_FORMAT_ARGB8888,
			(uint32_t)cursor->width * 4, (uint32_t)cursor->width,
			(uint32_t)cursor->height, cursor->pixels);
	}
	if (!wlr_renderer_begin_with_buffer(renderer, target)) {
		wlr_log(WLR_ERROR, "pipewire: the renderer cannot draw into a cast buffer");
		goto out;
	}
	/* wlroots 0.15 renderers apply the buffer's projection themselves. */
	float identity[9];
	wlr_matrix_identity(identity);
	int n;
	const pixman_box32_t *rects = pixman_region32_rectangles(&clip, &n);
	for (int i = 0; i < n; i++) {
		struct wlr_box box = {
			.x = rects[i].x1, .y = rects[i].y1,
			.width = rects[i].x2 - rects[i].x1, .height = rects[i].y2 - rects[i].y1,
		};
		wlr_renderer_scissor(renderer, &box);
		if (frame) {
			wlr_render_texture(renderer, frame, identity, 0, 0, 1.0f);
		}
		if (image) {
			wlr_render_texture(renderer, image, identity, cursor->x, cursor->y, 1.0f);
		}
	}
	wlr_renderer_scissor(renderer, NULL);
	wlr_renderer_end(renderer);
	ret = 0;

out:
	if (frame) {
		wlr_texture_destroy(frame);
	}
	if (image) {
		wlr_texture_destroy(image);
	}
	pixman_region32_fini(&clip);
	return ret;
}
