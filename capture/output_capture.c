/* SPDX-License-Identifier: MIT */
#include <drm_fourcc.h>
#include <stdlib.h>
#include <string.h>
#include <wlr/interfaces/wlr_output.h>
#include <wlr/render/pixman.h>
#include <wlr/render/wlr_renderer.h>
#include <wlr/types/wlr_buffer.h>
#include <wlr/types/wlr_output.h>
#include <wlr/types/wlr_output_damage.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/util/log.h>
#include "capture/output_capture.h"
#include "capture/pixel_copy.h"
#include "compositor/output.h"
#include "compositor/server.h"
#include "common/util.h"

static struct wl_list captures = { &captures, &captures };

static void damage_whole(struct output_capture *capture) {
	struct wlr_output *wlr_output = capture->output->wlr_output;
	pixman_region32_union_rect(&capture->damage, &capture->damage, 0, 0,
		wlr_output->width, wlr_output->height);
}

static void handle_precommit(struct wl_listener *listener, void *data) {
	struct output_capture *capture = wl_container_of(listener, capture, precommit);
	struct wlr_output *wlr_output = capture->output->wlr_output;
	if (!(wlr_output->pending.committed & WLR_OUTPUT_STATE_BUFFER)) {
		return;
	}
	/* The commit event names only rendered buffers, not a scanned-out one. */
	wlr_buffer_unlock(capture->scanout_buffer);
	capture->scanout_buffer = wlr_output->back_buffer ? NULL :
		wlr_buffer_lock(wlr_output->pending.buffer);
	struct wlr_scene_output *scene_output = capture->output->scene_output;
	if (wlr_output->pending.committed & WLR_OUTPUT_STATE_DAMAGE) {
		pixman_region32_union(&capture->damage, &capture->damage,
			&wlr_output->pending.damage);
	} else if (scene_output && scene_output->damage) {
		/* A client's buffer scanned out: what changed is the scene's damage. */
		pixman_region32_union(&capture->damage, &capture->damage,
			&scene_output->damage->current);
	} else {
		damage_whole(capture);
	}
}

static void handle_commit(struct wl_listener *listener, void *data) {
	struct output_capture *capture = wl_container_of(listener, capture, commit);
	struct wlr_output_event_commit *event = data;
	if (event->committed & WLR_OUTPUT_STATE_MODE) {
		damage_whole(capture);
	}
	struct wlr_buffer *buffer = event->buffer ? event->buffer : capture->scanout_buffer;
	if (!(event->committed & WLR_OUTPUT_STATE_BUFFER) || !buffer) {
		return;
	}
	struct output_capture_frame frame = {
		.buffer = buffer,
		.damage = &capture->damage,
		.width = buffer->width,
		.height = buffer->height,
	};
	pixman_region32_intersect_rect(&capture->damage, &capture->damage, 0, 0,
		frame.width, frame.height);
	struct output_capture_move move;
	if (output_moves_get(&capture->moves, &move)) {
		frame.move = &move;
	}
	bool want_pixels = capture->want_pixels;
	capture->want_pixels = false;
	if (pixman_region32_not_empty(&capture->damage)) {
		wl_signal_emit(&capture->events.frame, &frame);
	} else if (want_pixels) {
		wl_signal_emit(&capture->events.pixels, &frame);
	}
	pixman_region32_clear(&capture->damage);
	output_moves_reset(&capture->moves);
	wlr_buffer_unlock(capture->scanout_buffer);
	capture->scanout_buffer = NULL;
}

static void capture_free(struct output_capture *capture) {
	if (capture->locks_render) {
		wlr_output_lock_attach_render(capture->output->wlr_output, false);
	}
	wlr_buffer_unlock(capture->scanout_buffer);
	wl_list_remove(&capture->precommit.link);
	wl_list_remove(&capture->commit.link);
	wl_list_remove(&capture->output_destroy.link);
	output_moves_finish(&capture->moves);
	wl_list_remove(&capture->link);
	pixman_region32_fini(&capture->damage);
	free(capture);
}

static void handle_output_destroy(struct wl_listener *listener, void *data) {
	struct output_capture *capture = wl_container_of(listener, capture, output_destroy);
	wl_signal_emit(&capture->events.destroy, capture);
	capture_free(capture);
}

struct output_capture *output_capture_get(struct output *output) {
	struct output_capture *capture;
	wl_list_for_each(capture, &captures, link) {
		if (capture->output == output) {
			capture->refs++;
			return capture;
		}
	}
	capture = zalloc(sizeof(*capture));
	capture->output = output;
	capture->refs = 1;
	pixman_region32_init(&capture->damage);
	output_moves_init(&capture->moves, output);
	wl_signal_init(&capture->events.frame);
	wl_signal_init(&capture->events.pixels);
	wl_signal_init(&capture->events.destroy);
	capture->precommit.notify = handle_precommit;
	wl_signal_add(&output->wlr_output->events.precommit, &capture->precommit);
	capture->commit.notify = handle_commit;
	wl_signal_add(&output->wlr_output->events.commit, &capture->commit);
	/*
	 * First of the output's destroy listeners: the capture and its sinks
	 * go while the output is whole. The compositor's own handler (added
	 * before) frees the output and gathers the windows that were on it,
	 * moves that a capture of the freed output must not see.
	 */
	capture->output_destroy.notify = handle_output_destroy;
	wl_list_insert(&output->wlr_output->events.destroy.listener_list,
		&capture->output_destroy.link);
	wl_list_insert(&captures, &capture->link);
	/*
	 * A fullscreen client's buffer may be scanned out as is. With the
	 * pixman renderer it is shared memory that sinks read like our own
	 * frames, saving the composition; a GPU client's buffer may not be
	 * readable, so then every frame is rendered.
	 */
	capture->locks_render = !wlr_renderer_is_pixman(output->server->renderer);
	if (capture->locks_render) {
		wlr_output_lock_attach_render(output->wlr_output, true);
	}
	return capture;
}

void output_capture_put(struct output_capture *capture) {
	if (!capture || --capture->refs > 0) {
		return;
	}
	capture_free(capture);
}

void output_capture_request_full(struct output_capture *capture) {
	damage_whole(capture);
	struct wlr_scene_output *scene_output = capture->output->scene_output;
	if (scene_output && scene_output->damage) {
		wlr_output_damage_add_whole(scene_output->damage);
	} else {
		wlr_output_schedule_frame(capture->output->wlr_output);
	}
}

void output_capture_request_pixels(struct output_capture *capture) {
	capture->want_pixels = true;
	/* A frame with no damage: the compositor commits when the output needs one. */
	wlr_output_update_needs_frame(capture->output->wlr_output);
}

static bool format_is_bgrx(uint32_t format) {
	return format == DRM_FORMAT_XRGB8888 || format == DRM_FORMAT_ARGB8888;
}

static bool format_is_rgbx(uint32_t format) {
	return format == DRM_FORMAT_XBGR8888 || format == DRM_FORMAT_ABGR8888;
}

static uint32_t drm_format_of(pixman_format_code_t format) {
	switch (format) {
	case PIXMAN_x8r8g8b8: return DRM_FORMAT_XRGB8888;
	case PIXMAN_a8r8g8b8: return DRM_FORMAT_ARGB8888;
	case PIXMAN_x8b8g8r8: return DRM_FORMAT_XBGR8888;
	case PIXMAN_a8b8g8r8: return DRM_FORMAT_ABGR8888;
	default: return DRM_FORMAT_INVALID;
	}
}

/*
 * The pixels of a frame's buffer in memory, if they are. A scanned-out
 * client buffer gives no data pointer itself, but with the pixman renderer
 * its texture is an image over the client's shared memory.
 */
static bool buffer_pixels(struct wlr_buffer *buffer, bool *accessed,
		void **data, uint32_t *format, size_t *stride) {
	*accessed = wlr_buffer_begin_data_ptr_access(buffer,
		WLR_BUFFER_DATA_PTR_ACCESS_READ, data, format, stride);
	if (*accessed) {
		return true;
	}
	struct wlr_client_buffer *client = wlr_client_buffer_get(buffer);
	if (!client || !client->texture || !wlr_texture_is_pixman(client->texture)) {
		return false;
	}
	pixman_image_t *image = wlr_pixman_texture_get_image(client->texture);
	*data = pixman_image_get_data(image);
	*format = drm_format_of(pixman_image_get_format(image));
	*stride = (size_t)pixman_image_get_stride(image);
	return *data != NULL;
}

bool output_capture_pixels_begin(struct wlr_buffer *buffer,
		struct output_capture_pixels *pixels) {
	void *data;
	uint32_t format;
	size_t stride;
	if (!buffer_pixels(buffer, &pixels->accessed, &data, &format, &stride)) {
		return false;
	}
	if (!format_is_bgrx(format)) {
		output_capture_pixels_end(buffer, pixels);
		return false;
	}
	pixels->data = data;
	pixels->stride = stride;
	return true;
}

void output_capture_pixels_end(struct wlr_buffer *buffer,
		struct output_capture_pixels *pixels) {
	if (pixels->accessed) {
		wlr_buffer_end_data_ptr_access(buffer);
	}
	pixels->accessed = false;
}

bool output_capture_frame_copy(struct output_capture *capture,
		const struct output_capture_frame *frame, const pixman_region32_t *region,
		uint8_t *dst, int dst_stride, int dst_width, int dst_height, int dx, int dy,
		bool dst_rgbx) {
	pixman_region32_t clip;
	pixman_region32_init(&clip);
	pixman_region32_intersect_rect(&clip, (pixman_region32_t *)region, 0, 0,
		frame->width, frame->height);
	pixman_region32_translate(&clip, dx, dy);
	pixman_region32_intersect_rect(&clip, &clip, 0, 0, dst_width, dst_height);
	pixman_region32_translate(&clip, -dx, -dy);
	int n_rects;
	const pixman_box32_t *rects = pixman_region32_rectangles(&clip, &n_rects);
	bool ok = true;

	void *data;
	uint32_t format;
	size_t stride;
	bool accessed;
	if (buffer_pixels(frame->buffer, &accessed, &data, &format, &stride)) {
		if (format_is_bgrx(format) || format_is_rgbx(format)) {
			bool swap = format_is_rgbx(format) != dst_rgbx;
			for (int r = 0; r < n_rects; r++) {
				const pixman_box32_t *b = &rects[r];
				for (int y = b->y1; y < b->y2; y++) {
					pixel_copy_row(dst + (size_t)(y + dy) * dst_stride + (size_t)(b->x1 + dx) * 4,
						(const uint8_t *)data + (size_t)y * stride + (size_t)b->x1 * 4,
						b->x2 - b->x1, swap);
				}
			}
		} else {
			wlr_log(WLR_ERROR, "Capture: unsupported buffer format 0x%08x", format);
			ok = false;
		}
		if (accessed) {
			wlr_buffer_end_data_ptr_access(frame->buffer);
		}
		pixman_region32_fini(&clip);
		return ok;
	}

	/* A GPU buffer: read it back through the renderer. */
	struct wlr_renderer *renderer = capture->output->server->renderer;
	if (!wlr_renderer_begin_with_buffer(renderer, frame->buffer)) {
		pixman_region32_fini(&clip);
		return false;
	}
	/* Offsets go into the pointer: 0.15's pixman read_pixels clips dst_x/y. */
	for (int r = 0; r < n_rects && ok; r++) {
		const pixman_box32_t *b = &rects[r];
		ok = wlr_renderer_read_pixels(renderer,
			dst_rgbx ? DRM_FORMAT_XBGR8888 : DRM_FORMAT_XRGB8888, NULL,
			dst_stride, b->x2 - b->x1, b->y2 - b->y1, b->x1, b->y1, 0, 0,
			dst + (size_t)(b->y1 + dy) * dst_stride + (size_t)(b->x1 + dx) * 4);
	}
	wlr_renderer_end(renderer);
	pixman_region32_fini(&clip);
	return ok;
}
