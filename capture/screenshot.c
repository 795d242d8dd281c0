/* SPDX-License-Identifier: MIT */
#include <drm_fourcc.h>
#include <errno.h>
#include <limits.h>
#include <wlr/types/wlr_output.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/util/log.h>
#include "capture/png_writer.h"
#include "capture/scene_render.h"
#include "capture/screenshot.h"
#include "compositor/output.h"
#include "compositor/server.h"
#include "compositor/view.h"

/* Renders params, writes the PNG to fd and reports the size. */
static int capture(struct server *server, const struct scene_render_params *params,
		int fd, uint32_t *width, uint32_t *height) {
	if (fd < 0) {
		return -EBADF;
	}
	struct scene_pixels pixels = {0};
	int ret = scene_render_to_pixels(server->renderer, server->allocator, params,
		&pixels);
	if (ret < 0) {
		return ret;
	}
	/* The background is opaque black, so alpha carries nothing: write RGB. */
	struct png_pixels png = {
		.data = pixels.data,
		.width = pixels.width,
		.height = pixels.height,
		.stride = pixels.stride,
		.order = pixels.drm_format == DRM_FORMAT_ABGR8888 ?
			PNG_PIXELS_RGBA : PNG_PIXELS_BGRA,
		.alpha = false,
	};
	ret = png_write_fd(&png, fd);
	if (ret == 0) {
		if (width) {
			*width = pixels.width;
		}
		if (height) {
			*height = pixels.height;
		}
	}
	scene_pixels_finish(&pixels);
	return ret;
}

int screenshot_output_params(struct server *server, struct output *output,
		struct scene_render_params *params) {
	if (!output) {
		return -EINVAL;
	}
	*params = (struct scene_render_params){
		.root = &server->scene->node,
		.scale = output->wlr_output->scale,
	};
	output_layout_box(output, &params->box);
	if (params->box.width <= 0 || params->box.height <= 0) {
		return -ENODEV; /* disabled, or not in the layout */
	}
	return 0;
}

int screenshot_output(struct server *server, struct output *output, int fd,
		uint32_t *width, uint32_t *height) {
	struct scene_render_params params;
	int r = screenshot_output_params(server, output, &params);
	return r < 0 ? r : capture(server, &params, fd, width, height);
}

int screenshot_view_params(struct server *server, struct view *view,
		struct scene_render_params *params) {
	if (!view) {
		return -EINVAL;
	}
	if (!view->mapped || !view->content || view->geometry.width <= 0 ||
			view->geometry.height <= 0) {
		return -ENOENT;
	}
	/*
	 * view->scene_tree sits at the content's top-left, where the scene
	 * really shows it; only the content subtree is drawn, so windows above
	 * and the decoration (a sibling of the content) stay out. A minimized
	 * view's disabled tree does not matter: only the subtree's own nodes
	 * are checked.
	 */
	*params = (struct scene_render_params){
		.root = view->content,
		.box = {
			.width = view->geometry.width,
			.height = view->geometry.height,
		},
		.scale = 1.0f,
	};
	wlr_scene_node_coords(&view->scene_tree->node, &params->box.x, &params->box.y);
	return 0;
}

int screenshot_view(struct server *server, struct view *view, int fd,
		uint32_t *width, uint32_t *height) {
	struct scene_render_params params;
	int r = screenshot_view_params(server, view, &params);
	return r < 0 ? r : capture(server, &params, fd, width, height);
}

int screenshot_region(struct server *server, int x, int y, int width, int height,
		int fd, uint32_t *out_w, uint32_t *out_h) {
	if (width < 1 || height < 1 || width > SCENE_RENDER_MAX_SIDE ||
			height > SCENE_RENDER_MAX_SIDE ||
			(uint64_t)width * (uint64_t)height > SCENE_RENDER_MAX_PIXELS) {
		return -EINVAL;
	}
	/* Keep x + width and y + height inside int for the box arithmetic. */
	if (x > INT_MAX - width || y > INT_MAX - height ||
			x < INT_MIN / 2 || y < INT_MIN / 2) {
		return -EINVAL;
	}
	struct scene_render_params params = {
		.root = &server->scene->node,
		.box = { .x = x, .y = y, .width = width, .height = height },
		.scale = 1.0f,
	};
	return capture(server, &params, fd, out_w, out_h);
}
