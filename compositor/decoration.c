/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>
#include <wlr/types/wlr_buffer.h>
#include <wlr/types/wlr_scene.h>
#include "compositor/decoration.h"
#include "compositor/frame_layout.h"
#include "compositor/icon_buffer.h"
#include "compositor/text_buffer.h"

static const float border_colour[4] = {0.2f, 0.2f, 0.25f, 1.0f};
static const float title_focused[4] = {0.16f, 0.35f, 0.60f, 1.0f};
static const float title_unfocused[4] = {0.35f, 0.35f, 0.38f, 1.0f};
/* A window that wants attention (urgency, DEMANDS_ATTENTION). */
static const float title_attention[4] = {1.0f, 0.55f, 0.0f, 1.0f};
static const float text_colour[4] = {1.0f, 1.0f, 1.0f, 1.0f};

void decoration_init(struct decoration *decoration, struct wlr_scene_tree *parent) {
	decoration->tree = wlr_scene_tree_create(&parent->node);
	for (int i = 0; i < 4; i++) {
		decoration->border[i] = wlr_scene_rect_create(&decoration->tree->node, 0, 0,
			border_colour);
	}
	decoration->title_bar = wlr_scene_rect_create(&decoration->tree->node, 0, 0,
		title_unfocused);
	decoration->enabled = false;
	wlr_scene_node_set_enabled(&decoration->tree->node, false);
}

/* Where the title starts: right of the icon, if there is one. */
static int title_left(const struct decoration *decoration) {
	return decoration->icon ? DECORATION_ICON_MARGIN + DECORATION_ICON_SIZE : 0;
}

/* Redrawn only when the title, the bar's width or the icon changed. */
static void update_title_text(struct decoration *decoration, int width, const char *title,
		bool force) {
	if (!title) {
		title = "";
	}
	if (!force && decoration->title_text && decoration->text_width == width &&
			decoration->text && strcmp(decoration->text, title) == 0) {
		return;
	}
	if (decoration->title_text) {
		wlr_scene_node_destroy(&decoration->title_text->node);
		decoration->title_text = NULL;
	}
	char *text = strdup(title);
	free(decoration->text);
	decoration->text = text;
	decoration->text_width = width;
	int left = title_left(decoration);
	/* The title stops where the buttons begin. */
	int room = frame_buttons_left(width) - left;
	struct wlr_buffer *buffer = room > 0 ? text_buffer_create(title, room,
		DECORATION_TITLE_HEIGHT, text_colour) : NULL;
	if (!buffer) {
		return;
	}
	decoration->title_text = wlr_scene_buffer_create(&decoration->tree->node, buffer);
	wlr_buffer_drop(buffer);
	if (decoration->title_text) {
		wlr_scene_node_set_position(&decoration->title_text->node, left,
			-DECORATION_TITLE_HEIGHT);
	}
}

static const enum frame_part button_parts[3] = {
	FRAME_PART_MINIMIZE, FRAME_PART_MAXIMIZE, FRAME_PART_CLOSE,
};

static void destroy_buttons(struct decoration *decoration) {
	for (int i = 0; i < 3; i++) {
		if (decoration->buttons[i]) {
			wlr_scene_node_destroy(&decoration->buttons[i]->node);
			decoration->buttons[i] = NULL;
		}
	}
}

/* Redrawn only when the bar's width or the maximized state changed. */
static void update_buttons(struct decoration *decoration, int width, bool maximized) {
	bool drawn = false;
	for (int i = 0; i < 3; i++) {
		drawn = drawn || decoration->buttons[i];
	}
	if (drawn && decoration->buttons_width == width &&
			decoration->buttons_maximized == maximized) {
		return;
	}
	destroy_buttons(decoration);
	decoration->buttons_width = width;
	decoration->buttons_maximized = maximized;
	uint32_t pixels[FRAME_BUTTON_SIZE * FRAME_BUTTON_SIZE];
	for (int i = 0; i < 3; i++) {
		struct frame_rect rect;
		if (!frame_button_rect(width, button_parts[i], &rect)) {
			continue;
		}
		frame_button_glyph(button_parts[i], maximized, pixels, FRAME_BUTTON_SIZE);
		struct wlr_buffer *buffer = icon_buffer_create(pixels, FRAME_BUTTON_SIZE);
		if (!buffer) {
			continue;
		}
		decoration->buttons[i] = wlr_scene_buffer_create(&decoration->tree->node,
			buffer);
		wlr_buffer_drop(buffer);
		if (decoration->buttons[i]) {
			wlr_scene_node_set_position(&decoration->buttons[i]->node, rect.x, rect.y);
		}
	}
}

void decoration_finish(struct decoration *decoration) {
	free(decoration->text);
	decoration->text = NULL;
	if (decoration->tree) {
		wlr_scene_node_destroy(&decoration->tree->node);
		decoration->tree = NULL;
	}
}

void decoration_update(struct decoration *decoration, int width, int height,
		const char *title, bool focused, bool attention, bool maximized) {
	decoration->focused = focused;
	decoration->attention = attention;
	const int b = DECORATION_BORDER, t = DECORATION_TITLE_HEIGHT;
	/* The content sits at (0,0); the frame reaches up and out from it. */
	/* Top and bottom span the corners; the sides run beside bar and content. */
	const struct { int x, y, w, h; } strips[4] = {
		{ -b, -t - b, width + 2 * b, b },
		{ -b, height, width + 2 * b, b },
		{ -b, -t, b, height + t },
		{ width, -t, b, height + t },
	};
	for (int i = 0; i < 4; i++) {
		wlr_scene_node_set_position(&decoration->border[i]->node, strips[i].x, strips[i].y);
		wlr_scene_rect_set_size(decoration->border[i], strips[i].w, strips[i].h);
	}
	wlr_scene_node_set_position(&decoration->title_bar->node, 0, -t);
	wlr_scene_rect_set_size(decoration->title_bar, width, t);
	wlr_scene_rect_set_color(decoration->title_bar,
		attention ? title_attention : focused ? title_focused : title_unfocused);
	if (decoration->enabled) {
		update_title_text(decoration, width, title, false);
		update_buttons(decoration, width, maximized);
	}
}

void decoration_set_enabled(struct decoration *decoration, bool enabled) {
	decoration->enabled = enabled;
	wlr_scene_node_set_enabled(&decoration->tree->node, enabled);
	if (!enabled && decoration->title_text) {
		/* Frees the text; it is drawn again on the next update. */
		wlr_scene_node_destroy(&decoration->title_text->node);
		decoration->title_text = NULL;
	}
	if (!enabled) {
		destroy_buttons(decoration);
	}
}

void decoration_set_icon(struct decoration *decoration, const uint32_t *pixels) {
	if (decoration->icon) {
		wlr_scene_node_destroy(&decoration->icon->node);
		decoration->icon = NULL;
	}
	struct wlr_buffer *buffer = icon_buffer_create(pixels, DECORATION_ICON_SIZE);
	if (buffer) {
		decoration->icon = wlr_scene_buffer_create(&decoration->tree->node, buffer);
		wlr_buffer_drop(buffer);
	}
	if (decoration->icon) {
		wlr_scene_node_set_position(&decoration->icon->node, DECORATION_ICON_MARGIN,
			-DECORATION_TITLE_HEIGHT +
			(DECORATION_TITLE_HEIGHT - DECORATION_ICON_SIZE) / 2);
	}
	/* The title moves over (or back). */
	if (decoration->enabled && decoration->text) {
		char *title = strdup(decoration->text);
		update_title_text(decoration, decoration->text_width, title, true);
		free(title);
	}
}
