/* SPDX-License-Identifier: MIT */
/*
 * The permission prompt (see prompt.h): scene rects for the panel, the
 * rows and the buttons, pango text through text_buffer.c, laid out by
 * prompt_layout.c, and the choices' thumbnails as the caller draws them.
 * The whole overlay (thumbnails too) is rebuilt when the outputs change;
 * selection, checkbox and keyboard focus only recolour it.
 */
#include <linux/input-event-codes.h>
#include <stdio.h>
#include <stdlib.h>
#include <wlr/types/wlr_buffer.h>
#include <wlr/types/wlr_output_layout.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/util/log.h>
#include "compositor/output.h"
#include "compositor/prompt.h"
#include "compositor/prompt_layout.h"
#include "compositor/seat.h"
#include "compositor/seat_grab.h"
#include "compositor/server.h"
#include "compositor/text_buffer.h"
#include "common/util.h"

#define RGB(r, g, b) { (r) / 255.0f, (g) / 255.0f, (b) / 255.0f, 1.0f }
static const float backdrop_colour[4] = { 0.0f, 0.0f, 0.0f, 0.5f };
static const float panel_colour[4] = RGB(0x2b, 0x2b, 0x30);
static const float row_colour[4] = RGB(0x3a, 0x3a, 0x42);
static const float selected_colour[4] = RGB(0x2f, 0x6f, 0xcf);
static const float checkbox_border[4] = RGB(0xd0, 0xd0, 0xd0);
static const float allow_colour[4] = RGB(0x2e, 0x8b, 0x3e);
static const float deny_colour[4] = RGB(0xc0, 0x39, 0x2b);
static const float focus_colour[4] = RGB(0xf0, 0xc0, 0x40);
static const float text_colour[4] = { 1.0f, 1.0f, 1.0f, 1.0f };
static const float thumbnail_frame_colour[4] = RGB(0x8a, 0x8a, 0x96);

#define FOCUS_FRAME 2
#define CHECK_INSET 3

/* Where Tab moves the keyboard focus, in this order. */
enum prompt_focus { FOCUS_CHOICES, FOCUS_REMEMBER, FOCUS_DENY, FOCUS_ALLOW, FOCUS_COUNT };

struct prompt {
	struct server *server;
	prompt_answer_fn answer;
	void *data;

	char *app;
	enum prompt_kind kind;
	char **choices;
	int n_choices;
	bool persist_allowed;
	struct wlr_buffer *(*thumbnail)(int choice, int max_width, int max_height, void *data);

	int selected;
	bool remember;
	enum prompt_focus focus;
	struct prompt_hit pressed; /* what the button went down on */

	struct prompt_layout layout;
	struct wlr_scene_tree *tree;
	struct wlr_scene_rect *focus_frame;
	struct wlr_scene_rect *rows[PROMPT_MAX_CHOICES];
	struct wlr_scene_rect *check; /* the checkbox's inside */

	struct wl_event_source *timer;
	struct wl_listener outputs_changed;
	struct seat_grab grab; /* modal: it takes every key and button */
};

static struct wlr_scene_rect *add_rect(struct wlr_scene_tree *tree,
		const struct placement_box *box, const float colour[4]) {
	struct wlr_scene_rect *rect = wlr_scene_rect_create(&tree->node, box->width,
		box->height, colour);
	if (rect) {
		wlr_scene_node_set_position(&rect->node, box->x, box->y);
	}
	return rect;
}

/* The picture centered in its thumbnail box, framed. */
static void add_thumbnail(struct wlr_scene_tree *tree, const struct placement_box *box,
		struct wlr_buffer *picture) {
	struct placement_box at = prompt_layout_thumbnail_picture(box, picture->width,
		picture->height);
	if (at.width != picture->width || at.height != picture->height) {
		return; /* empty, or larger than asked for */
	}
	struct placement_box frame = {
		at.x - PROMPT_THUMBNAIL_FRAME, at.y - PROMPT_THUMBNAIL_FRAME,
		at.width + 2 * PROMPT_THUMBNAIL_FRAME, at.height + 2 * PROMPT_THUMBNAIL_FRAME,
	};
	add_rect(tree, &frame, thumbnail_frame_colour);
	struct wlr_scene_buffer *node = wlr_scene_buffer_create(&tree->node, picture);
	if (node) {
		wlr_scene_node_set_position(&node->node, at.x, at.y);
	}
}

static void add_text(struct wlr_scene_tree *tree, const struct placement_box *box,
		const char *text) {
	struct wlr_buffer *buffer = text_buffer_create(text, box->width, box->height,
		text_colour);
	if (!buffer) {
		return;
	}
	struct wlr_scene_buffer *node = wlr_scene_buffer_create(&tree->node, buffer);
	wlr_buffer_drop(buffer);
	if (node) {
		wlr_scene_node_set_position(&node->node, box->x, box->y);
	}
}

static const char *asks_for(enum prompt_kind kind) {
	switch (kind) {
	case PROMPT_KIND_SCREENCAST:
		return "wants to share your screen";
	case PROMPT_KIND_WINDOW:
		return "wants to share a window";
	case PROMPT_KIND_SCREENSHOT:
		return "wants to take a screenshot";
	case PROMPT_KIND_REMOTE:
		return "wants to control your screen, keyboard and pointer";
	}
	return "asks for access";
}

static bool first_output_box(struct server *server, struct placement_box *out) {
	if (wl_list_empty(&server->outputs)) {
		return false;
	}
	struct output *output = wl_container_of(server->outputs.next, output, link);
	struct wlr_box box;
	output_layout_box(output, &box);
	if (box.width <= 0 || box.height <= 0) {
		return false;
	}
	*out = (struct placement_box){ box.x, box.y, box.width, box.height };
	return true;
}

static const struct placement_box *focus_box(struct prompt *prompt) {
	switch (prompt->focus) {
	case FOCUS_CHOICES:
		return prompt->n_choices > 0 ? &prompt->layout.choices[prompt->selected] : NULL;
	case FOCUS_REMEMBER:
		return prompt->persist_allowed ? &prompt->layout.remember : NULL;
	case FOCUS_DENY:
		return &prompt->layout.deny;
	case FOCUS_ALLOW:
	case FOCUS_COUNT:
		break;
	}
	return &prompt->layout.allow;
}

/* Recolours what selection, checkbox and keyboard focus change. */
static void update_state(struct prompt *prompt) {
	for (int i = 0; i < prompt->layout.n_choices; i++) {
		if (prompt->rows[i]) {
			wlr_scene_rect_set_color(prompt->rows[i],
				i == prompt->selected ? selected_colour : row_colour);
		}
	}
	if (prompt->check) {
		wlr_scene_rect_set_color(prompt->check,
			prompt->remember ? selected_colour : panel_colour);
	}
	const struct placement_box *box = focus_box(prompt);
	if (prompt->focus_frame && box) {
		wlr_scene_node_set_position(&prompt->focus_frame->node,
			box->x - FOCUS_FRAME, box->y - FOCUS_FRAME);
		wlr_scene_rect_set_size(prompt->focus_frame, box->width + 2 * FOCUS_FRAME,
			box->height + 2 * FOCUS_FRAME);
	}
	if (prompt->focus_frame) {
		wlr_scene_node_set_enabled(&prompt->focus_frame->node, box != NULL);
	}
}

/* (Re)builds the overlay for the current outputs. */
static void build(struct prompt *prompt) {
	struct server *server = prompt->server;
	if (prompt->tree) {
		wlr_scene_node_destroy(&prompt->tree->node);
		prompt->tree = NULL;
	}
	prompt->focus_frame = NULL;
	prompt->check = NULL;
	for (int i = 0; i < PROMPT_MAX_CHOICES; i++) {
		prompt->rows[i] = NULL;
	}
	struct placement_box area;
	if (!first_output_box(server, &area)) {
		return;
	}
	struct prompt_layout *l = &prompt->layout;
	prompt_layout_compute(l, &area, prompt->n_choices, prompt->persist_allowed,
		prompt->thumbnail != NULL);

	/* Drawn now, while the scene shows no prompt: once, not per frame. */
	struct wlr_buffer *thumbnails[PROMPT_MAX_CHOICES] = {0};
	for (int i = 0; l->has_thumbnails && i < l->n_choices; i++) {
		thumbnails[i] = prompt->thumbnail(i,
			l->thumbnails[i].width - 2 * PROMPT_THUMBNAIL_FRAME,
			l->thumbnails[i].height - 2 * PROMPT_THUMBNAIL_FRAME, prompt->data);
	}
	prompt->tree = wlr_scene_tree_create(&server->layers[LAYER_SYSTEM]->node);
	if (!prompt->tree) {
		for (int i = 0; i < l->n_choices; i++) {
			if (thumbnails[i]) {
				wlr_buffer_drop(thumbnails[i]);
			}
		}
		return;
	}

	/* Dims every output: the rest of the session does not take input now. */
	struct wlr_box *all = wlr_output_layout_get_box(server->output_layout, NULL);
	struct placement_box backdrop = area;
	if (all) {
		backdrop = (struct placement_box){ all->x, all->y, all->width, all->height };
	}
	add_rect(prompt->tree, &backdrop, backdrop_colour);
	add_rect(prompt->tree, &l->panel, panel_colour);
	prompt->focus_frame = add_rect(prompt->tree, &l->allow, focus_colour);

	char *title = NULL;
	if (asprintf(&title, "%s %s", prompt->app[0] ? prompt->app :
			"A program that is not identified", asks_for(prompt->kind)) < 0) {
		title = NULL;
	}
	add_text(prompt->tree, &l->title, title ? title : asks_for(prompt->kind));
	free(title);
	if (l->n_choices > 0) {
		add_text(prompt->tree, &l->subtitle, prompt->kind == PROMPT_KIND_REMOTE ?
			"Choose the screen to control:" : "Choose what to share:");
	}
	for (int i = 0; i < l->n_choices; i++) {
		prompt->rows[i] = add_rect(prompt->tree, &l->choices[i], row_colour);
		if (thumbnails[i]) {
			add_thumbnail(prompt->tree, &l->thumbnails[i], thumbnails[i]);
			wlr_buffer_drop(thumbnails[i]);
		}
		add_text(prompt->tree, &l->labels[i], prompt->choices[i]);
	}
	if (l->has_remember) {
		add_rect(prompt->tree, &l->remember, checkbox_border);
		struct placement_box inside = {
			l->remember.x + CHECK_INSET, l->remember.y + CHECK_INSET,
			l->remember.width - 2 * CHECK_INSET, l->remember.height - 2 * CHECK_INSET,
		};
		prompt->check = add_rect(prompt->tree, &inside, panel_colour);
		add_text(prompt->tree, &l->remember_label, "Remember this decision");
	}
	add_rect(prompt->tree, &l->deny, deny_colour);
	add_text(prompt->tree, &l->deny, "Deny");
	add_rect(prompt->tree, &l->allow, allow_colour);
	add_text(prompt->tree, &l->allow, "Allow");
	update_state(prompt);
}

static void finish_with(struct prompt *prompt, bool allowed, bool timed_out) {
	struct prompt_answer answer = {
		.allowed = allowed,
		.choice = prompt->n_choices > 0 ? prompt->selected : -1,
		.remember = allowed && prompt->persist_allowed && prompt->remember,
		.timed_out = timed_out,
	};
	prompt_answer_fn fn = prompt->answer;
	void *data = prompt->data;
	prompt->answer = NULL;
	/* The callee usually destroys the prompt: touch nothing after this. */
	if (fn) {
		fn(&answer, data);
	}
}

static int handle_timeout(void *data) {
	struct prompt *prompt = data;
	wlr_log(WLR_INFO, "prompt: no answer in time: denied");
	finish_with(prompt, false, true);
	return 0;
}

static void handle_outputs_changed(struct wl_listener *listener, void *data) {
	struct prompt *prompt = wl_container_of(listener, prompt, outputs_changed);
	build(prompt);
}

static const struct seat_grab_interface grab_impl;

struct prompt *prompt_create(struct server *server, const struct prompt_request *request,
		prompt_answer_fn answer, void *data) {
	struct placement_box area;
	if (server->prompt || !first_output_box(server, &area)) {
		return NULL;
	}
	struct prompt *prompt = zalloc(sizeof(*prompt));
	prompt->server = server;
	prompt->answer = answer;
	prompt->data = data;
	prompt->app = xstrdup(request->app ? request->app : "");
	prompt->kind = request->kind;
	prompt->n_choices = request->n_choices < PROMPT_MAX_CHOICES ?
		request->n_choices : PROMPT_MAX_CHOICES;
	if (prompt->n_choices < 0) {
		prompt->n_choices = 0;
	}
	prompt->choices = zalloc((prompt->n_choices + 1) * sizeof(char *));
	for (int i = 0; i < prompt->n_choices; i++) {
		prompt->choices[i] = xstrdup(request->choices[i]);
	}
	prompt->persist_allowed = request->persist_allowed;
	prompt->thumbnail = request->thumbnail;
	prompt->focus = FOCUS_ALLOW;
	prompt->pressed.kind = PROMPT_HIT_NONE;

	server->prompt = prompt;
	prompt->outputs_changed.notify = handle_outputs_changed;
	wl_signal_add(&server->events_outputs_changed, &prompt->outputs_changed);
	prompt->timer = wl_event_loop_add_timer(server->loop, handle_timeout, prompt);
	if (prompt->timer && request->timeout_ms > 0) {
		wl_event_source_timer_update(prompt->timer,
			request->timeout_ms > INT32_MAX ? INT32_MAX : (int)request->timeout_ms);
	}
	build(prompt);
	prompt->grab.impl = &grab_impl;
	seat_grab_begin(server->seat, &prompt->grab);
	wlr_log(WLR_INFO, "prompt: '%s' %s (%d choices)", prompt->app,
		asks_for(prompt->kind), prompt->n_choices);
	return prompt;
}

void prompt_destroy(struct prompt *prompt) {
	if (!prompt) {
		return;
	}
	struct server *server = prompt->server;
	if (prompt->timer) {
		wl_event_source_remove(prompt->timer);
	}
	wl_list_remove(&prompt->outputs_changed.link);
	if (prompt->tree) {
		wlr_scene_node_destroy(&prompt->tree->node);
	}
	for (int i = 0; i < prompt->n_choices; i++) {
		free(prompt->choices[i]);
	}
	free(prompt->choices);
	free(prompt->app);
	if (server->prompt == prompt) {
		server->prompt = NULL;
	}
	seat_grab_end(&prompt->grab);
	free(prompt);
}

/* Acts on what was clicked: the button went down and up on the same thing. */
static void activate(struct prompt *prompt, struct prompt_hit hit) {
	switch (hit.kind) {
	case PROMPT_HIT_CHOICE:
		prompt->selected = hit.choice;
		prompt->focus = FOCUS_CHOICES;
		update_state(prompt);
		break;
	case PROMPT_HIT_REMEMBER:
		prompt->remember = !prompt->remember;
		prompt->focus = FOCUS_REMEMBER;
		update_state(prompt);
		break;
	case PROMPT_HIT_DENY:
		finish_with(prompt, false, false);
		break;
	case PROMPT_HIT_ALLOW:
		finish_with(prompt, true, false);
		break;
	case PROMPT_HIT_NONE:
		break;
	}
}

static bool grab_button(struct seat_grab *grab, double lx, double ly, uint32_t button,
		bool pressed) {
	struct prompt *prompt = wl_container_of(grab, prompt, grab);
	struct prompt_hit hit = prompt_layout_hit(&prompt->layout, lx, ly);
	if (pressed) {
		prompt->pressed = hit;
		return true;
	}
	struct prompt_hit down = prompt->pressed;
	prompt->pressed.kind = PROMPT_HIT_NONE;
	if (hit.kind == down.kind && hit.choice == down.choice) {
		activate(prompt, hit);
	}
	return true;
}

static void move_focus(struct prompt *prompt, int step) {
	for (int i = 0; i < FOCUS_COUNT; i++) {
		prompt->focus = (prompt->focus + FOCUS_COUNT + step) % FOCUS_COUNT;
		if (focus_box(prompt)) {
			break;
		}
	}
	update_state(prompt);
}

/* Keys answer the prompt; a release does nothing. */
static bool grab_key(struct seat_grab *grab, xkb_keysym_t sym, bool pressed,
		uint32_t modifiers) {
	struct prompt *prompt = wl_container_of(grab, prompt, grab);
	if (!pressed) {
		return true;
	}
	switch (sym) {
	case XKB_KEY_Escape:
		finish_with(prompt, false, false);
		break;
	case XKB_KEY_Return:
	case XKB_KEY_KP_Enter:
		/* Return allows, unless the person moved the focus to Deny. */
		finish_with(prompt, prompt->focus != FOCUS_DENY, false);
		break;
	case XKB_KEY_space:
		if (prompt->focus == FOCUS_REMEMBER) {
			activate(prompt, (struct prompt_hit){ PROMPT_HIT_REMEMBER, -1 });
		} else if (prompt->focus == FOCUS_DENY || prompt->focus == FOCUS_ALLOW) {
			finish_with(prompt, prompt->focus == FOCUS_ALLOW, false);
		}
		break;
	case XKB_KEY_Tab:
		move_focus(prompt, 1);
		break;
	case XKB_KEY_ISO_Left_Tab:
		move_focus(prompt, -1);
		break;
	case XKB_KEY_Up:
	case XKB_KEY_Down:
		if (prompt->n_choices > 0) {
			int step = sym == XKB_KEY_Up ? -1 : 1;
			prompt->selected = (prompt->selected + prompt->n_choices + step) %
				prompt->n_choices;
			prompt->focus = FOCUS_CHOICES;
			update_state(prompt);
		}
		break;
	default:
		break;
	}
	return true;
}

/* Modal: no client sees a key, a button or the wheel while it is up. */
static const struct seat_grab_interface grab_impl = {
	.key = grab_key,
	.pointer_button = grab_button,
	.modal = true,
	.cursor = "left_ptr",
};
