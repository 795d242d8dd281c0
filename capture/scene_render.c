/* SPDX-License-Identifier: MIT */
#include <drm_fourcc.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <wlr/render/allocator.h>
#include <wlr/render/drm_format_set.h>
#include <wlr/render/wlr_renderer.h>
#include <wlr/render/wlr_texture.h>
#include <wlr/types/wlr_buffer.h>
#include <wlr/types/wlr_matrix.h>
#include <wlr/types/wlr_output.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/types/wlr_surface.h>
#include <wlr/util/log.h>
#include "capture/scene_render.h"
#include "common/util.h"

/* A scale above this is a mistake, and would overflow the limits anyway. */
#define MAX_SCALE 16.0f

struct render_context {
	struct wlr_renderer *renderer;
	int origin_x, origin_y; /* layout position of the target's top-left */
	float scale;
	const pixman_region32_t *clip; /* target pixels being redrawn */
	/*
	 * wlroots 0.15 renderers apply their own buffer projection; what they
	 * take is the output transform matrix, which is the identity for an
	 * untransformed target.
	 */
	float projection[9];
	/*
	 * Textures of the buffer nodes being drawn, in drawing order: 0.15
	 * cannot import a texture while rendering, so they are imported first.
	 */
	struct wl_array buffer_textures; /* struct wlr_texture *, NULL if failed */
	size_t next_buffer_texture;
	bool imports_lost; /* out of memory: the order is gone, draw no buffers */
};

static float params_scale(const struct scene_render_params *params) {
	return params->scale > 0 ? params->scale : 1.0f;
}

bool scene_render_target_size(const struct scene_render_params *params,
		int *width, int *height) {
	float scale = params_scale(params);
	if (!isfinite(scale) || scale > MAX_SCALE || params->box.width <= 0 ||
			params->box.height <= 0 || params->box.width > SCENE_RENDER_MAX_SIDE ||
			params->box.height > SCENE_RENDER_MAX_SIDE) {
		return false;
	}
	double w = round(params->box.width * (double)scale);
	double h = round(params->box.height * (double)scale);
	if (w < 1 || h < 1 || w > SCENE_RENDER_MAX_SIDE || h > SCENE_RENDER_MAX_SIDE ||
			w * h > SCENE_RENDER_MAX_PIXELS) {
		return false;
	}
	*width = (int)w;
	*height = (int)h;
	return true;
}

/* Scales like wlroots' scene does, so edges of adjacent nodes still meet. */
static void scale_box(struct wlr_box *box, float scale) {
	int x = round(box->x * scale), y = round(box->y * scale);
	box->width = round((box->x + box->width) * scale) - x;
	box->height = round((box->y + box->height) * scale) - y;
	box->x = x;
	box->y = y;
}

/* A node's own size in layout units (0x0 for trees), as wlr_scene sees it. */
static void node_size(struct wlr_scene_node *node, int *width, int *height) {
	*width = *height = 0;
	switch (node->type) {
	case WLR_SCENE_NODE_ROOT:
	case WLR_SCENE_NODE_TREE:
		break;
	case WLR_SCENE_NODE_SURFACE: {
		struct wlr_surface *surface = wlr_scene_surface_from_node(node)->surface;
		*width = surface->current.width;
		*height = surface->current.height;
		break;
	}
	case WLR_SCENE_NODE_RECT: {
		struct wlr_scene_rect *rect = (struct wlr_scene_rect *)node;
		*width = rect->width;
		*height = rect->height;
		break;
	}
	case WLR_SCENE_NODE_BUFFER: {
		struct wlr_scene_buffer *scene_buffer = (struct wlr_scene_buffer *)node;
		if (scene_buffer->dst_width > 0 && scene_buffer->dst_height > 0) {
			*width = scene_buffer->dst_width;
			*height = scene_buffer->dst_height;
		} else if (scene_buffer->buffer) {
			bool rotated = scene_buffer->transform & WL_OUTPUT_TRANSFORM_90;
			*width = rotated ? scene_buffer->buffer->height : scene_buffer->buffer->width;
			*height = rotated ? scene_buffer->buffer->width : scene_buffer->buffer->height;
		}
		break;
	}
	}
}

static void scissor(struct wlr_renderer *renderer, const pixman_box32_t *rect) {
	struct wlr_box box = {
		.x = rect->x1,
		.y = rect->y1,
		.width = rect->x2 - rect->x1,
		.height = rect->y2 - rect->y1,
	};
	wlr_renderer_scissor(renderer, &box);
}

static void draw_texture(struct render_context *ctx, const pixman_region32_t *region,
		struct wlr_texture *texture, const struct wlr_fbox *src_box,
		const struct wlr_box *dst, enum wl_output_transform transform) {
	struct wlr_fbox src = *src_box;
	if (wlr_fbox_empty(&src)) {
		src = (struct wlr_fbox){ .width = texture->width, .height = texture->height };
	}
	float matrix[9];
	wlr_matrix_project_box(matrix, dst, wlr_output_transform_invert(transform), 0,
		ctx->projection);
	int n_rects;
	const pixman_box32_t *rects = pixman_region32_rectangles(region, &n_rects);
	for (int i = 0; i < n_rects; i++) {
		scissor(ctx->renderer, &rects[i]);
		wlr_render_subtexture_with_matrix(ctx->renderer, texture, &src, matrix, 1.0f);
	}
}

/*
 * Where the node lands on the target (dst) and which of the pixels being
 * redrawn it covers (region, initialised only when true is returned).
 */
static bool node_region(struct render_context *ctx, struct wlr_scene_node *node,
		int lx, int ly, struct wlr_box *dst, pixman_region32_t *region) {
	*dst = (struct wlr_box){ .x = lx - ctx->origin_x, .y = ly - ctx->origin_y };
	node_size(node, &dst->width, &dst->height);
	if (dst->width <= 0 || dst->height <= 0) {
		return false;
	}
	scale_box(dst, ctx->scale);
	pixman_region32_init_rect(region, dst->x, dst->y, dst->width, dst->height);
	pixman_region32_intersect(region, region, (pixman_region32_t *)ctx->clip);
	if (!pixman_region32_not_empty(region)) {
		pixman_region32_fini(region);
		return false;
	}
	return true;
}

/* Imports the textures of the buffer nodes draw_subtree will draw. */
static void import_subtree(struct render_context *ctx, struct wlr_scene_node *node,
		int lx, int ly) {
	if (!node->state.enabled) {
		return;
	}
	struct wlr_box dst;
	pixman_region32_t region;
	if (node->type == WLR_SCENE_NODE_BUFFER &&
			node_region(ctx, node, lx, ly, &dst, &region)) {
		pixman_region32_fini(&region);
		struct wlr_scene_buffer *scene_buffer = (struct wlr_scene_buffer *)node;
		/* The scene's cached texture is private; import our own for this draw. */
		struct wlr_texture *texture = scene_buffer->buffer ?
			wlr_texture_from_buffer(ctx->renderer, scene_buffer->buffer) : NULL;
		if (!texture) {
			wlr_log(WLR_DEBUG, "Cannot import a scene buffer for capture");
		}
		struct wlr_texture **slot = wl_array_add(&ctx->buffer_textures, sizeof(*slot));
		if (!slot) {
			wlr_texture_destroy(texture);
			ctx->imports_lost = true;
			return;
		}
		*slot = texture;
	}
	struct wlr_scene_node *child;
	wl_list_for_each(child, &node->state.children, state.link) {
		import_subtree(ctx, child, lx + child->state.x, ly + child->state.y);
	}
}

static void destroy_imported(struct render_context *ctx) {
	struct wlr_texture **texture;
	wl_array_for_each(texture, &ctx->buffer_textures) {
		wlr_texture_destroy(*texture);
	}
	wl_array_release(&ctx->buffer_textures);
}

static struct wlr_texture *next_imported(struct render_context *ctx) {
	size_t n = ctx->buffer_textures.size / sizeof(struct wlr_texture *);
	if (ctx->imports_lost || ctx->next_buffer_texture >= n) {
		return NULL;
	}
	struct wlr_texture **textures = ctx->buffer_textures.data;
	return textures[ctx->next_buffer_texture++];
}

static void draw_node(struct render_context *ctx, struct wlr_scene_node *node,
		int lx, int ly) {
	/* Only what the node covers of the pixels being redrawn. */
	struct wlr_box dst;
	pixman_region32_t region;
	if (!node_region(ctx, node, lx, ly, &dst, &region)) {
		return;
	}

	switch (node->type) {
	case WLR_SCENE_NODE_ROOT:
	case WLR_SCENE_NODE_TREE:
		break;
	case WLR_SCENE_NODE_SURFACE: {
		struct wlr_surface *surface = wlr_scene_surface_from_node(node)->surface;
		struct wlr_texture *texture = wlr_surface_get_texture(surface);
		if (!texture) {
			break; /* nothing committed yet */
		}
		/* The buffer's part the surface shows, after viewporter cropping. */
		struct wlr_fbox src;
		wlr_surface_get_buffer_source_box(surface, &src);
		draw_texture(ctx, &region, texture, &src, &dst, surface->current.transform);
		break;
	}
	case WLR_SCENE_NODE_RECT: {
		struct wlr_scene_rect *rect = (struct wlr_scene_rect *)node;
		int n_rects;
		const pixman_box32_t *rects = pixman_region32_rectangles(&region, &n_rects);
		for (int i = 0; i < n_rects; i++) {
			scissor(ctx->renderer, &rects[i]);
			wlr_render_rect(ctx->renderer, &dst, rect->color, ctx->projection);
		}
		break;
	}
	case WLR_SCENE_NODE_BUFFER: {
		struct wlr_scene_buffer *scene_buffer = (struct wlr_scene_buffer *)node;
		/* import_subtree met the same nodes in the same order. */
		struct wlr_texture *texture = next_imported(ctx);
		if (texture) {
			draw_texture(ctx, &region, texture, &scene_buffer->src_box, &dst,
				scene_buffer->transform);
		}
		break;
	}
	}
	pixman_region32_fini(&region);
}

/* Parents before children, siblings bottom to top: the outputs' order. */
static void draw_subtree(struct render_context *ctx, struct wlr_scene_node *node,
		int lx, int ly) {
	if (!node->state.enabled) {
		return;
	}
	draw_node(ctx, node, lx, ly);
	struct wlr_scene_node *child;
	wl_list_for_each(child, &node->state.children, state.link) {
		draw_subtree(ctx, child, lx + child->state.x, ly + child->state.y);
	}
}

/*
 * Reads the clip's rectangles into pixels. Offsets go into the pointer, not
 * dst_x/dst_y: 0.15's pixman read_pixels clips its destination to
 * width x height and would drop anything written at an offset.
 */
static int read_back(struct wlr_renderer *renderer, const pixman_region32_t *clip,
		struct scene_pixels *pixels, bool choose_format) {
	/* R,G,B,A bytes first: GLES2 can always read those (GL_RGBA). */
	static const uint32_t formats[] = { DRM_FORMAT_ABGR8888, DRM_FORMAT_ARGB8888 };
	int n_rects;
	const pixman_box32_t *rects =
		pixman_region32_rectangles((pixman_region32_t *)clip, &n_rects);
	for (int i = 0; i < n_rects; i++) {
		const pixman_box32_t *r = &rects[i];
		uint8_t *dst = pixels->data + (size_t)r->y1 * pixels->stride + (size_t)r->x1 * 4;
		uint32_t w = r->x2 - r->x1, h = r->y2 - r->y1;
		bool ok = false;
		uint32_t flags = 0;
		if (choose_format && i == 0) {
			for (size_t f = 0; !ok && f < sizeof(formats) / sizeof(formats[0]); f++) {
				pixels->drm_format = formats[f];
				flags = 0;
				ok = wlr_renderer_read_pixels(renderer, formats[f], &flags,
					pixels->stride, w, h, r->x1, r->y1, 0, 0, dst);
			}
		} else {
			ok = wlr_renderer_read_pixels(renderer, pixels->drm_format, &flags,
				pixels->stride, w, h, r->x1, r->y1, 0, 0, dst);
		}
		if (!ok) {
			wlr_log(WLR_ERROR, "Cannot read back captured pixels");
			return -EIO;
		}
		if (flags & WLR_RENDERER_READ_PIXELS_Y_INVERT) {
			/* Renderers only flip reads from their own surfaces, not from buffers. */
			wlr_log(WLR_ERROR, "Renderer read captured pixels upside down");
			return -ENOTSUP;
		}
	}
	return 0;
}

/* Internal, never returned: the renderer cannot draw into this buffer. */
#define BIND_FAILED 1

static int render_bound(struct wlr_renderer *renderer, struct wlr_buffer *buffer,
		const struct scene_render_params *params, int width, int height,
		struct scene_pixels *pixels) {
	if (renderer->rendering) {
		return -EBUSY; /* never nest inside an output's frame */
	}
	if (buffer->width != width || buffer->height != height) {
		return -EINVAL;
	}
	bool choose_format = false;
	if (pixels && pixels->data) {
		if (pixels->width != (uint32_t)width || pixels->height != (uint32_t)height) {
			return -EINVAL;
		}
	} else if (pixels) {
		/* Sized by a peer's request: fail the request, not the compositor. */
		uint8_t *data = calloc((size_t)width * height, 4);
		if (!data) {
			return -ENOMEM;
		}
		*pixels = (struct scene_pixels){
			.width = width, .height = height, .stride = width * 4, .data = data,
		};
		choose_format = true;
	}

	struct render_context ctx = {
		.renderer = renderer,
		.origin_x = params->box.x,
		.origin_y = params->box.y,
		.scale = params_scale(params),
	};
	wlr_matrix_identity(ctx.projection);
	pixman_region32_t clip;
	pixman_region32_init_rect(&clip, 0, 0, width, height);
	if (params->damage) {
		pixman_region32_intersect(&clip, &clip, (pixman_region32_t *)params->damage);
	}
	ctx.clip = &clip;
	if (!pixman_region32_not_empty(&clip)) {
		pixman_region32_fini(&clip);
		return 0; /* nothing changed: no render, no copy */
	}

	int lx = 0, ly = 0;
	wl_array_init(&ctx.buffer_textures);
	if (params->root) {
		wlr_scene_node_coords(params->root, &lx, &ly);
		import_subtree(&ctx, params->root, lx, ly);
	}

	if (!wlr_renderer_begin_with_buffer(renderer, buffer)) {
		destroy_imported(&ctx);
		pixman_region32_fini(&clip);
		if (choose_format) {
			scene_pixels_finish(pixels);
		}
		return BIND_FAILED;
	}
	static const float black[4] = { 0.0f, 0.0f, 0.0f, 1.0f };
	int n_rects;
	const pixman_box32_t *rects = pixman_region32_rectangles(&clip, &n_rects);
	for (int i = 0; i < n_rects; i++) {
		scissor(renderer, &rects[i]);
		wlr_renderer_clear(renderer, black);
	}
	if (params->root) {
		draw_subtree(&ctx, params->root, lx, ly);
	}
	wlr_renderer_scissor(renderer, NULL);

	int ret = 0;
	if (pixels) {
		ret = read_back(renderer, &clip, pixels, choose_format);
	}
	wlr_renderer_end(renderer);
	destroy_imported(&ctx);
	pixman_region32_fini(&clip);
	if (ret < 0 && choose_format) {
		scene_pixels_finish(pixels);
	}
	return ret;
}

int scene_render_to_buffer(struct wlr_renderer *renderer, struct wlr_buffer *buffer,
		const struct scene_render_params *params, struct scene_pixels *pixels) {
	int width, height;
	if (!renderer || !buffer || !scene_render_target_size(params, &width, &height)) {
		return -EINVAL;
	}
	int ret = render_bound(renderer, buffer, params, width, height, pixels);
	if (ret == BIND_FAILED) {
		wlr_log(WLR_ERROR, "The renderer cannot draw into the capture buffer");
		return -EIO;
	}
	return ret;
}

struct wlr_buffer *scene_render_buffer_create(struct wlr_renderer *renderer,
		struct wlr_allocator *allocator, int width, int height) {
	if (!renderer || !allocator || renderer->rendering || width <= 0 || height <= 0) {
		return NULL;
	}
	/*
	 * The shm allocator (pixman) ignores modifiers. GBM takes LINEAR, cheap
	 * to read back, where the driver renders to it; the implicit layout
	 * (INVALID) is the fallback every GLES2 driver can render to.
	 */
	static const uint32_t formats[] = { DRM_FORMAT_XRGB8888, DRM_FORMAT_ARGB8888 };
	static const uint64_t modifier_sets[][2] = {
		{ DRM_FORMAT_MOD_LINEAR, DRM_FORMAT_MOD_INVALID },
		{ DRM_FORMAT_MOD_INVALID, DRM_FORMAT_MOD_INVALID },
	};
	static const size_t modifier_counts[] = { 2, 1 };
	struct wlr_drm_format *format = zalloc(sizeof(*format) + 2 * sizeof(uint64_t));
	for (size_t f = 0; f < sizeof(formats) / sizeof(formats[0]); f++) {
		for (size_t m = 0; m < sizeof(modifier_counts) / sizeof(modifier_counts[0]); m++) {
			format->format = formats[f];
			format->len = format->capacity = modifier_counts[m];
			for (size_t i = 0; i < format->len; i++) {
				format->modifiers[i] = modifier_sets[m][i];
			}
			struct wlr_buffer *buffer =
				wlr_allocator_create_buffer(allocator, width, height, format);
			if (!buffer) {
				continue;
			}
			/* Allocated is not enough: the renderer must draw into it. */
			if (wlr_renderer_begin_with_buffer(renderer, buffer)) {
				wlr_renderer_end(renderer);
				free(format);
				return buffer;
			}
			wlr_buffer_drop(buffer);
		}
	}
	free(format);
	wlr_log(WLR_ERROR, "Cannot allocate a %dx%d buffer the renderer draws into",
		width, height);
	return NULL;
}

int scene_render_to_pixels(struct wlr_renderer *renderer, struct wlr_allocator *allocator,
		const struct scene_render_params *params, struct scene_pixels *pixels) {
	int width, height;
	if (!renderer || !allocator || !pixels ||
			!scene_render_target_size(params, &width, &height)) {
		return -EINVAL;
	}
	if (renderer->rendering) {
		return -EBUSY; /* never nest inside an output's frame */
	}
	struct wlr_buffer *buffer =
		scene_render_buffer_create(renderer, allocator, width, height);
	if (!buffer) {
		return -ENOMEM;
	}
	int ret = render_bound(renderer, buffer, params, width, height, pixels);
	wlr_buffer_drop(buffer);
	return ret == BIND_FAILED ? -EIO : ret;
}

void scene_pixels_finish(struct scene_pixels *pixels) {
	if (!pixels) {
		return;
	}
	free(pixels->data);
	*pixels = (struct scene_pixels){0};
}
