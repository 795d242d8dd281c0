/* SPDX-License-Identifier: MIT */
/* Scene sources shared by their casts: see cast_source.h. */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wlr/render/wlr_renderer.h>
#include <wlr/types/wlr_buffer.h>
#include <wlr/types/wlr_compositor.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/util/log.h>
#include "capture/cast_source.h"
#include "capture/output_capture.h"
#include "capture/scene_render.h"
#include "compositor/output.h"
#include "compositor/server.h"
#include "common/util.h"
#include "compositor/view.h"

/* One output's frames, for the damage they show on the source. */
struct cast_source_watch {
	struct cast_source *source;
	struct output_capture *capture;
	struct wl_listener frame;
	struct wl_listener capture_destroy;
	struct wl_list link; /* cast_source.watches */
};

static struct wl_list sources = { &sources, &sources };

bool cast_source_box(struct cast_source *source, struct wlr_box *box,
		struct wlr_scene_node **root) {
	if (!source->view_id) {
		*box = source->region;
		*root = &source->server->scene->node;
		return true;
	}
	struct view *view = view_from_id(source->server, source->view_id);
	if (!view || !view->mapped || !view->content || view->geometry.width <= 0 ||
			view->geometry.height <= 0) {
		return false;
	}
	*box = (struct wlr_box){ .width = view->geometry.width,
		.height = view->geometry.height };
	wlr_scene_node_coords(&view->scene_tree->node, &box->x, &box->y);
	*root = view->content;
	return true;
}

bool cast_source_shared(const struct cast_source *source) {
	return source->refs > 1;
}

static void emit_damage(struct cast_source *source, pixman_region32_t *damage, bool now) {
	if (source->shared) {
		/* Without one, a new shared buffer is rendered whole anyway. */
		pixman_region32_union(&source->stale, &source->stale, damage);
	}
	struct cast_source_damage event = { .region = damage, .now = now };
	wl_signal_emit(&source->events.damage, &event);
}

static void emit_gone(struct cast_source *source) {
	wl_signal_emit(&source->events.gone, (void *)"the window closed");
}

static void handle_watch_frame(struct wl_listener *listener, void *data) {
	struct cast_source_watch *watch = wl_container_of(listener, watch, frame);
	struct cast_source *source = watch->source;
	struct output_capture_frame *frame = data;
	struct wlr_box box;
	struct wlr_scene_node *root;
	if (!cast_source_box(source, &box, &root)) {
		emit_gone(source);
		return;
	}
	/* Output buffer coordinates to the source's (scale 1, normal transform). */
	struct wlr_box output_box;
	output_layout_box(watch->capture->output, &output_box);
	pixman_region32_t damage;
	pixman_region32_init(&damage);
	pixman_region32_copy(&damage, frame->damage);
	pixman_region32_translate(&damage, output_box.x - box.x, output_box.y - box.y);
	pixman_region32_intersect_rect(&damage, &damage, 0, 0, box.width, box.height);
	/* Even when empty: each cast checks the source's size on every frame. */
	emit_damage(source, &damage, true);
	pixman_region32_fini(&damage);
}

static void watch_destroy(struct cast_source_watch *watch) {
	wl_list_remove(&watch->frame.link);
	wl_list_remove(&watch->capture_destroy.link);
	wl_list_remove(&watch->link);
	free(watch);
}

static void handle_watch_capture_destroy(struct wl_listener *listener, void *data) {
	struct cast_source_watch *watch = wl_container_of(listener, watch, capture_destroy);
	/* The output went away; a region or window may still show elsewhere. */
	watch_destroy(watch);
}

static void handle_surface_commit(struct wl_listener *listener, void *data) {
	struct cast_source *source = wl_container_of(listener, source, surface_commit);
	struct wlr_box box;
	struct wlr_scene_node *root;
	if (!cast_source_box(source, &box, &root)) {
		emit_gone(source);
		return;
	}
	/*
	 * The window's own commit: seen also when it is covered or off-screen.
	 * Its damage is what changed, unless subsurfaces (which commit with it
	 * and are not followed one by one) may have changed too.
	 */
	pixman_region32_t damage;
	pixman_region32_init(&damage);
	struct view *view = view_from_id(source->server, source->view_id);
	struct wlr_surface *surface = view ? view->surface : NULL;
	if (surface && view->content && wl_list_empty(&surface->current.subsurfaces_below) &&
			wl_list_empty(&surface->current.subsurfaces_above)) {
		int cx, cy, vx, vy;
		wlr_scene_node_coords(view->content, &cx, &cy);
		wlr_scene_node_coords(&view->scene_tree->node, &vx, &vy);
		wlr_surface_get_effective_damage(surface, &damage);
		pixman_region32_translate(&damage, cx - vx, cy - vy);
	} else {
		pixman_region32_union_rect(&damage, &damage, 0, 0, box.width, box.height);
	}
	pixman_region32_intersect_rect(&damage, &damage, 0, 0, box.width, box.height);
	emit_damage(source, &damage, false);
	pixman_region32_fini(&damage);
}

static void handle_surface_destroy(struct wl_listener *listener, void *data) {
	struct cast_source *source = wl_container_of(listener, source, surface_destroy);
	wl_list_remove(&source->surface_commit.link);
	wl_list_remove(&source->surface_destroy.link);
	wl_list_init(&source->surface_commit.link);
	wl_list_init(&source->surface_destroy.link);
	emit_gone(source);
}

static struct cast_source *source_new(struct server *server) {
	struct cast_source *source = zalloc(sizeof(*source));
	source->server = server;
	source->refs = 1;
	wl_signal_init(&source->events.damage);
	wl_signal_init(&source->events.gone);
	pixman_region32_init(&source->stale);
	wl_list_init(&source->watches);
	wl_list_init(&source->surface_commit.link);
	wl_list_init(&source->surface_destroy.link);
	struct output *output;
	wl_list_for_each(output, &server->outputs, link) {
		struct cast_source_watch *watch = zalloc(sizeof(*watch));
		watch->source = source;
		watch->capture = output_capture_get(output);
		watch->frame.notify = handle_watch_frame;
		wl_signal_add(&watch->capture->events.frame, &watch->frame);
		watch->capture_destroy.notify = handle_watch_capture_destroy;
		wl_signal_add(&watch->capture->events.destroy, &watch->capture_destroy);
		wl_list_insert(&source->watches, &watch->link);
	}
	wl_list_insert(&sources, &source->link);
	return source;
}

struct cast_source *cast_source_get_view(struct server *server, struct view *view) {
	if (!view || !view->mapped || !view->content || view->geometry.width <= 0 ||
			view->geometry.height <= 0) {
		return NULL;
	}
	struct cast_source *source;
	wl_list_for_each(source, &sources, link) {
		if (source->server == server && source->view_id == view->id) {
			source->refs++;
			return source;
		}
	}
	source = source_new(server);
	source->view_id = view->id;
	snprintf(source->description, sizeof(source->description), "window %" PRIu64,
		view->id);
	if (view->surface) {
		source->surface_commit.notify = handle_surface_commit;
		wl_signal_add(&view->surface->events.commit, &source->surface_commit);
		source->surface_destroy.notify = handle_surface_destroy;
		wl_signal_add(&view->surface->events.destroy, &source->surface_destroy);
	}
	return source;
}

struct cast_source *cast_source_get_region(struct server *server,
		const struct wlr_box *region) {
	struct cast_source *source;
	wl_list_for_each(source, &sources, link) {
		if (source->server == server && !source->view_id &&
				source->region.x == region->x && source->region.y == region->y &&
				source->region.width == region->width &&
				source->region.height == region->height) {
			source->refs++;
			return source;
		}
	}
	source = source_new(server);
	source->region = *region;
	snprintf(source->description, sizeof(source->description), "region %dx%d+%d+%d",
		region->width, region->height, region->x, region->y);
	return source;
}

static void drop_shared(struct cast_source *source) {
	wlr_buffer_drop(source->shared);
	source->shared = NULL;
	pixman_region32_clear(&source->stale);
}

void cast_source_put(struct cast_source *source) {
	if (!source) {
		return;
	}
	if (--source->refs > 0) {
		if (source->refs == 1) {
			/* Alone again: its cast draws straight into its buffers. */
			drop_shared(source);
		}
		return;
	}
	struct cast_source_watch *watch, *tmp;
	wl_list_for_each_safe(watch, tmp, &source->watches, link) {
		struct output_capture *capture = watch->capture;
		watch_destroy(watch);
		output_capture_put(capture);
	}
	wl_list_remove(&source->surface_commit.link);
	wl_list_remove(&source->surface_destroy.link);
	wl_list_remove(&source->link);
	drop_shared(source);
	pixman_region32_fini(&source->stale);
	free(source);
}

static void log_render(struct cast_source *source, const pixman_region32_t *damage) {
	int n = 0;
	pixman_region32_rectangles((pixman_region32_t *)damage, &n);
	wlr_log(WLR_DEBUG, "pipewire: source %s: render %" PRIu64 ", %d rect(s)",
		source->description, ++source->renders, n);
}

struct wlr_buffer *cast_source_render(struct cast_source *source, int width,
		int height) {
	struct wlr_box box;
	struct wlr_scene_node *root;
	struct wlr_renderer *renderer = source->server->renderer;
	if (!cast_source_box(source, &box, &root) || box.width != width ||
			box.height != height || renderer->rendering) {
		return NULL;
	}
	if (source->shared && (source->shared->width != width ||
			source->shared->height != height)) {
		drop_shared(source);
	}
	if (!source->shared) {
		source->shared = scene_render_buffer_create(renderer, source->server->allocator,
			width, height);
		if (!source->shared) {
			wlr_log(WLR_ERROR, "pipewire: source %s: no buffer to render it into",
				source->description);
			return NULL;
		}
		pixman_region32_union_rect(&source->stale, &source->stale, 0, 0, width, height);
	}
	pixman_region32_intersect_rect(&source->stale, &source->stale, 0, 0, width, height);
	if (!pixman_region32_not_empty(&source->stale)) {
		return source->shared;
	}
	struct scene_render_params params = {
		.root = root,
		.box = box,
		.scale = 1.0f,
		.damage = &source->stale,
	};
	int r = scene_render_to_buffer(renderer, source->shared, &params, NULL);
	if (r < 0) {
		wlr_log(WLR_ERROR, "pipewire: source %s: cannot render it: %s",
			source->description, strerror(-r));
		return NULL;
	}
	log_render(source, &source->stale);
	pixman_region32_clear(&source->stale);
	return source->shared;
}

bool cast_source_read(struct cast_source *source, const pixman_region32_t *region,
		uint8_t *dst, int stride) {
	return source->shared && buffer_read_region(source->server->renderer,
		source->shared, region, dst, stride, &source->read);
}

int cast_source_draw(struct cast_source *source, struct wlr_buffer *target,
		const pixman_region32_t *damage) {
	struct wlr_box box;
	struct wlr_scene_node *root;
	if (!cast_source_box(source, &box, &root) || box.width != target->width ||
			box.height != target->height) {
		return -ENOENT;
	}
	struct scene_render_params params = {
		.root = root,
		.box = box,
		.scale = 1.0f,
		.damage = damage,
	};
	/* The shared buffer stays as it is: only the scene's damage ages it. */
	int r = scene_render_to_buffer(source->server->renderer, target, &params, NULL);
	if (r == 0 && pixman_region32_not_empty((pixman_region32_t *)damage)) {
		log_render(source, damage);
	}
	return r;
}
