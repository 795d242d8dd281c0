/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <wlr/backend.h>
#include <wlr/types/wlr_cursor.h>
#include <wlr/types/wlr_data_device.h>
#include <wlr/types/wlr_input_device.h>
#include <wlr/types/wlr_keyboard_shortcuts_inhibit_v1.h>
#include <wlr/types/wlr_output_layout.h>
#include <wlr/types/wlr_pointer_constraints_v1.h>
#include <wlr/types/wlr_primary_selection.h>
#include <wlr/types/wlr_relative_pointer_v1.h>
#include <wlr/types/wlr_seat.h>
#include <wlr/types/wlr_xcursor_manager.h>
#include <wlr/util/log.h>
#include <xkbcommon/xkbcommon.h>
#include "compositor/cursor.h"
#include "compositor/keyboard.h"
#include "compositor/keyboard_moveresize.h"
#include "compositor/frame_input.h"
#include "compositor/seat.h"
#include "compositor/server.h"
#include "common/util.h"
#include "compositor/view.h"

static void update_capabilities(struct seat *seat) {
	uint32_t caps = WL_SEAT_CAPABILITY_POINTER;
	if (!wl_list_empty(&seat->keyboards)) {
		caps |= WL_SEAT_CAPABILITY_KEYBOARD;
	}
	wlr_seat_set_capabilities(seat->wlr_seat, caps);
}

void seat_add_device(struct seat *seat, struct wlr_input_device *device) {
	switch (device->type) {
	case WLR_INPUT_DEVICE_KEYBOARD:
		keyboard_create(seat, device);
		break;
	case WLR_INPUT_DEVICE_POINTER:
	case WLR_INPUT_DEVICE_TOUCH:
	case WLR_INPUT_DEVICE_TABLET_TOOL:
		wlr_cursor_attach_input_device(seat->cursor, device);
		break;
	default:
		break;
	}
	update_capabilities(seat);
}

static void handle_new_input(struct wl_listener *listener, void *data) {
	struct seat *seat = wl_container_of(listener, seat, new_input);
	seat_add_device(seat, data);
}

static void handle_request_set_selection(struct wl_listener *listener, void *data) {
	struct seat *seat = wl_container_of(listener, seat, request_set_selection);
	struct wlr_seat_request_set_selection_event *event = data;
	wlr_seat_set_selection(seat->wlr_seat, event->source, event->serial);
}

static void handle_request_set_primary_selection(struct wl_listener *listener,
		void *data) {
	struct seat *seat = wl_container_of(listener, seat, request_set_primary_selection);
	struct wlr_seat_request_set_primary_selection_event *event = data;
	wlr_seat_set_primary_selection(seat->wlr_seat, event->source, event->serial);
}

static void handle_request_start_drag(struct wl_listener *listener, void *data) {
	struct seat *seat = wl_container_of(listener, seat, request_start_drag);
	struct wlr_seat_request_start_drag_event *event = data;
	if (wlr_seat_validate_pointer_grab_serial(seat->wlr_seat, event->origin,
			event->serial)) {
		wlr_seat_start_pointer_drag(seat->wlr_seat, event->drag, event->serial);
	} else {
		wlr_data_source_destroy(event->drag->source);
	}
}

void seat_focus_surface(struct seat *seat, struct wlr_surface *surface) {
	struct wlr_seat *wlr_seat = seat->wlr_seat;
	if (!surface) {
		wlr_seat_keyboard_notify_clear_focus(wlr_seat);
		return;
	}
	if (seat_grabs_modal(&seat->grabs)) {
		return; /* the focused view gets the keyboard when the grab ends */
	}
	struct wlr_keyboard *keyboard = wlr_seat_get_keyboard(wlr_seat);
	if (keyboard) {
		wlr_seat_keyboard_notify_enter(wlr_seat, surface, keyboard->keycodes,
			keyboard->num_keycodes, &keyboard->modifiers);
	} else {
		wlr_seat_keyboard_notify_enter(wlr_seat, surface, NULL, 0, NULL);
	}
	cursor_constraint_check(seat, surface);
}

void seat_view_gone(struct seat *seat, struct view *view) {
	if (seat->grabbed_view == view) {
		seat->grabbed_view = NULL;
		seat->mode = CURSOR_PASSTHROUGH;
	}
	if (seat->key_grab_view == view) {
		keyboard_moveresize_end(seat);
	}
	frame_input_view_gone(seat, view);
}

/* Clients lose the pointer and the keyboard while a modal grab is up. */
static void take_input(struct seat *seat) {
	seat->mode = CURSOR_PASSTHROUGH;
	seat->grabbed_view = NULL;
	wlr_seat_keyboard_notify_clear_focus(seat->wlr_seat);
	seat_update_pointer_focus(seat, (uint32_t)monotonic_ms());
}

static void give_input_back(struct seat *seat) {
	struct view *view = seat->server->focused_view;
	if (view && view->mapped && view->surface) {
		seat_focus_surface(seat, view->surface);
	}
	seat_update_pointer_focus(seat, (uint32_t)monotonic_ms());
}

bool seat_grab_begin(struct seat *seat, struct seat_grab *grab) {
	if (!seat_grabs_begin(&seat->grabs, grab)) {
		return false;
	}
	if (grab->impl->modal) {
		take_input(seat);
	}
	return true;
}

void seat_grab_end(struct seat_grab *grab) {
	struct seat_grabs *grabs = grab->grabs;
	if (!grabs || !grab->active) {
		return;
	}
	bool modal = grab->impl->modal;
	seat_grabs_end(grab);
	struct seat *seat = wl_container_of(grabs, seat, grabs);
	if (modal) {
		/* A modal grab still up (the one below) keeps the input. */
		give_input_back(seat);
	}
}

void seat_grab_listen(struct seat *seat, struct seat_grab *grab) {
	seat_grabs_listen(&seat->grabs, grab);
}

void seat_grab_unlisten(struct seat_grab *grab) {
	seat_grabs_unlisten(grab);
}

struct wlr_cursor *seat_cursor(struct seat *seat) {
	return seat->cursor;
}

struct seat *seat_create(struct server *server) {
	struct seat *seat = zalloc(sizeof(*seat));
	seat->server = server;
	wl_list_init(&seat->keyboards);
	seat_grabs_init(&seat->grabs);
	if (!keyboard_create_keymap(seat)) {
		free(seat);
		return NULL;
	}
	seat->wlr_seat = wlr_seat_create(server->display, "seat0");

	seat->new_input.notify = handle_new_input;
	wl_signal_add(&server->backend->events.new_input, &seat->new_input);

	seat->request_set_selection.notify = handle_request_set_selection;
	wl_signal_add(&seat->wlr_seat->events.request_set_selection,
		&seat->request_set_selection);
	seat->request_set_primary_selection.notify = handle_request_set_primary_selection;
	wl_signal_add(&seat->wlr_seat->events.request_set_primary_selection,
		&seat->request_set_primary_selection);
	seat->request_start_drag.notify = handle_request_start_drag;
	wl_signal_add(&seat->wlr_seat->events.request_start_drag,
		&seat->request_start_drag);

	cursor_init(seat);
	update_capabilities(seat);
	return seat;
}

void seat_destroy(struct seat *seat) {
	if (!seat) {
		return;
	}
	seat_grabs_finish(&seat->grabs);
	cursor_finish(seat);
	struct keyboard *keyboard, *tmp;
	wl_list_for_each_safe(keyboard, tmp, &seat->keyboards, link) {
		keyboard_destroy(keyboard);
	}
	wl_list_remove(&seat->new_input.link);
	wl_list_remove(&seat->request_set_selection.link);
	wl_list_remove(&seat->request_set_primary_selection.link);
	wl_list_remove(&seat->request_start_drag.link);
	wlr_seat_destroy(seat->wlr_seat);
	xkb_keymap_unref(seat->keymap);
	free(seat);
}
