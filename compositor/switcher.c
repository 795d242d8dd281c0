/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <wlr/types/wlr_buffer.h>
#include <wlr/types/wlr_keyboard.h>
#include <wlr/types/wlr_scene.h>
#include "compositor/output.h"
#include "compositor/seat.h"
#include "compositor/seat_grab.h"
#include "compositor/server.h"
#include "compositor/switcher.h"
#include "compositor/text_buffer.h"
#include "common/util.h"
#include "compositor/view.h"

#define MAX_ENTRIES 16
#define ROW_HEIGHT 28
#define LIST_WIDTH 420
#define PADDING 8

static const float background_colour[4] = {0.12f, 0.12f, 0.14f, 1.0f};
static const float selected_colour[4] = {0.85f, 0.65f, 0.13f, 1.0f};
static const float text_colour[4] = {1.0f, 1.0f, 1.0f, 1.0f};

struct switcher {
	struct server *server;
	bool active;
	struct view *views[MAX_ENTRIES]; /* most recently focused first */
	int n_views;
	int selected;
	struct wlr_scene_tree *tree; /* in LAYER_OVERLAY while active */
	struct wlr_scene_rect *selection;
	/* Listens for Alt+Tab; begun while the list is up. */
	struct seat_grab grab;
};

static const struct seat_grab_interface grab_impl;

struct switcher *switcher_create(struct server *server) {
	struct switcher *switcher = zalloc(sizeof(*switcher));
	switcher->server = server;
	switcher->grab.impl = &grab_impl;
	seat_grab_listen(server->seat, &switcher->grab);
	return switcher;
}

static void hide(struct switcher *switcher) {
	if (switcher->tree) {
		wlr_scene_node_destroy(&switcher->tree->node);
		switcher->tree = NULL;
		switcher->selection = NULL;
	}
	switcher->active = false;
	switcher->n_views = 0;
	seat_grab_end(&switcher->grab);
}

void switcher_destroy(struct switcher *switcher) {
	if (!switcher) {
		return;
	}
	hide(switcher);
	seat_grab_unlisten(&switcher->grab);
	free(switcher);
}

static int by_focus_order(const void *a, const void *b) {
	const struct view *va = *(struct view *const *)a, *vb = *(struct view *const *)b;
	return va->focus_serial < vb->focus_serial ? 1 :
		va->focus_serial > vb->focus_serial ? -1 : 0;
}

/* The windows a person switches between; taskbar-less ones are left out. */
static void collect(struct switcher *switcher) {
	switcher->n_views = 0;
	struct view *view;
	wl_list_for_each(view, &switcher->server->views, link) {
		if (switcher->n_views < MAX_ENTRIES && view->mapped && !view->skip_taskbar) {
			switcher->views[switcher->n_views++] = view;
		}
	}
	qsort(switcher->views, switcher->n_views, sizeof(switcher->views[0]),
		by_focus_order);
}

static void place_selection(struct switcher *switcher) {
	if (switcher->selection) {
		wlr_scene_node_set_position(&switcher->selection->node, 0,
			PADDING + switcher->selected * ROW_HEIGHT);
	}
}

static void draw(struct switcher *switcher) {
	struct server *server = switcher->server;
	if (switcher->tree) {
		wlr_scene_node_destroy(&switcher->tree->node);
	}
	switcher->tree = wlr_scene_tree_create(&server->layers[LAYER_OVERLAY]->node);
	int height = 2 * PADDING + switcher->n_views * ROW_HEIGHT;
	wlr_scene_rect_create(&switcher->tree->node, LIST_WIDTH, height, background_colour);
	switcher->selection = wlr_scene_rect_create(&switcher->tree->node, LIST_WIDTH,
		ROW_HEIGHT, selected_colour);
	for (int i = 0; i < switcher->n_views; i++) {
		struct view *view = switcher->views[i];
		const char *title = view->impl->get_title(view);
		struct wlr_buffer *buffer = text_buffer_create(title && *title ? title : "(untitled)",
			LIST_WIDTH - 2 * PADDING, ROW_HEIGHT, text_colour);
		if (!buffer) {
			continue;
		}
		struct wlr_scene_buffer *text =
			wlr_scene_buffer_create(&switcher->tree->node, buffer);
		wlr_buffer_drop(buffer);
		if (text) {
			wlr_scene_node_set_position(&text->node, PADDING, PADDING + i * ROW_HEIGHT);
		}
	}
	place_selection(switcher);
	struct output *output = output_focused(server);
	if (output) {
		struct wlr_box box;
		output_layout_box(output, &box);
		wlr_scene_node_set_position(&switcher->tree->node,
			box.x + (box.width - LIST_WIDTH) / 2, box.y + (box.height - height) / 2);
	}
}

static void step(struct switcher *switcher, bool backwards) {
	if (!switcher->active) {
		collect(switcher);
		if (switcher->n_views == 0) {
			return;
		}
		switcher->active = true;
		switcher->selected = 0;
		draw(switcher);
		seat_grab_begin(switcher->server->seat, &switcher->grab);
	}
	int n = switcher->n_views;
	switcher->selected = (switcher->selected + (backwards ? n - 1 : 1)) % n;
	place_selection(switcher);
}

static bool is_alt(xkb_keysym_t sym) {
	return sym == XKB_KEY_Alt_L || sym == XKB_KEY_Alt_R || sym == XKB_KEY_Meta_L ||
		sym == XKB_KEY_Meta_R;
}

static bool grab_key(struct seat_grab *grab, xkb_keysym_t sym, bool pressed,
		uint32_t modifiers) {
	struct switcher *switcher = wl_container_of(grab, switcher, grab);
	bool tab = sym == XKB_KEY_Tab || sym == XKB_KEY_ISO_Left_Tab;
	if (!switcher->active) {
		if (tab && pressed && (modifiers & WLR_MODIFIER_ALT) &&
				!switcher->server->options->kiosk) {
			step(switcher, modifiers & WLR_MODIFIER_SHIFT);
			return true;
		}
		return false;
	}
	if (tab) {
		if (pressed) {
			step(switcher, modifiers & WLR_MODIFIER_SHIFT);
		}
		return true;
	}
	if (sym == XKB_KEY_Escape) {
		if (pressed) {
			hide(switcher);
		}
		return true;
	}
	if (is_alt(sym) && !pressed) {
		struct view *chosen = switcher->n_views ?
			switcher->views[switcher->selected] : NULL;
		hide(switcher);
		if (chosen) {
			view_focus(chosen);
		}
		return false; /* the client sees Alt go up too */
	}
	/* Shift and the like pass; other keys wait for the choice. */
	return !(sym >= XKB_KEY_Shift_L && sym <= XKB_KEY_Hyper_R);
}

/* The seat is going away: the list goes with it. */
static void grab_cancel(struct seat_grab *grab) {
	struct switcher *switcher = wl_container_of(grab, switcher, grab);
	hide(switcher);
}

/* The pointer works as usual while the list is up. */
static const struct seat_grab_interface grab_impl = {
	.key = grab_key,
	.cancel = grab_cancel,
};

void switcher_view_gone(struct switcher *switcher, struct view *view) {
	if (!switcher || !switcher->active) {
		return;
	}
	int j = 0;
	for (int i = 0; i < switcher->n_views; i++) {
		if (switcher->views[i] != view) {
			switcher->views[j++] = switcher->views[i];
		} else if (i < switcher->selected) {
			switcher->selected--;
		}
	}
	switcher->n_views = j;
	if (j == 0) {
		hide(switcher);
		return;
	}
	if (switcher->selected >= j) {
		switcher->selected = 0;
	}
	draw(switcher);
}
