/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <wlr/types/wlr_idle.h>
#include <wlr/types/wlr_input_device.h>
#include <wlr/types/wlr_keyboard.h>
#include <wlr/types/wlr_seat.h>
#include <wlr/util/log.h>
#include <xkbcommon/xkbcommon.h>
#include "compositor/keyboard.h"
#include "compositor/keyboard_moveresize.h"
#include "compositor/seat.h"
#include "compositor/seat_grab.h"
#include "compositor/server.h"
#include "common/util.h"

#define DEFAULT_REPEAT_RATE 25
#define DEFAULT_REPEAT_DELAY 600

bool keyboard_create_keymap(struct seat *seat) {
	const struct oriel_config *config = &seat->server->options->config;
	/* NULL fields fall back to XKB_DEFAULT_* and then to the system default. */
	struct xkb_rule_names names = {
		.rules = config->xkb_rules,
		.model = config->xkb_model,
		.layout = config->xkb_layout,
		.variant = config->xkb_variant,
		.options = config->xkb_options,
	};
	struct xkb_context *context = xkb_context_new(XKB_CONTEXT_NO_FLAGS);
	if (!context) {
		return false;
	}
	seat->keymap = xkb_keymap_new_from_names(context, &names,
		XKB_KEYMAP_COMPILE_NO_FLAGS);
	xkb_context_unref(context);
	if (!seat->keymap) {
		wlr_log(WLR_ERROR, "Cannot compile the keyboard layout");
		return false;
	}
	return true;
}

static void handle_modifiers(struct wl_listener *listener, void *data) {
	struct keyboard *keyboard = wl_container_of(listener, keyboard, modifiers);
	struct wlr_seat *wlr_seat = keyboard->seat->wlr_seat;
	wlr_seat_set_keyboard(wlr_seat, keyboard->device);
	wlr_seat_keyboard_notify_modifiers(wlr_seat, &keyboard->device->keyboard->modifiers);
}

/*
 * Keys the compositor acts on itself: a modal grab first (the permission
 * prompt and the region selector take every key while they are up), then
 * keyboard move/resize, then another grab (the switcher's list), then the
 * screens that listen for a key to begin (Alt+Tab). The modifiers are the
 * ones held before this key.
 */
static bool handle_compositor_key(struct keyboard *keyboard, uint32_t keycode,
		bool pressed) {
	struct wlr_keyboard *wlr_keyboard = keyboard->device->keyboard;
	struct seat *seat = keyboard->seat;
	if (!wlr_keyboard->xkb_state) {
		return seat_grabs_modal(&seat->grabs);
	}
	struct seat_grab_event event = {
		.type = SEAT_GRAB_KEY,
		.sym = xkb_state_key_get_one_sym(wlr_keyboard->xkb_state, keycode + 8),
		.modifiers = wlr_keyboard_get_modifiers(wlr_keyboard),
		.pressed = pressed,
	};
	bool modal = seat_grabs_modal(&seat->grabs);
	if (modal && seat_grabs_offer_active(&seat->grabs, &event)) {
		return true;
	}
	if (keyboard_moveresize_key(seat, event.sym, pressed)) {
		return true;
	}
	if (!modal && seat_grabs_offer_active(&seat->grabs, &event)) {
		return true;
	}
	return seat_grabs_offer_listeners(&seat->grabs, &event);
}

static void handle_key(struct wl_listener *listener, void *data) {
	struct keyboard *keyboard = wl_container_of(listener, keyboard, key);
	struct wlr_event_keyboard_key *event = data;
	struct wlr_seat *wlr_seat = keyboard->seat->wlr_seat;
	wlr_idle_notify_activity(keyboard->seat->server->idle, wlr_seat);
	bool pressed = event->state == WL_KEYBOARD_KEY_STATE_PRESSED;
	bool taken = handle_compositor_key(keyboard, event->keycode, pressed);
	/*
	 * A release goes where its press went, whoever acts on it: a client
	 * that saw a key go down sees it come up, and one that did not, not.
	 */
	if (event->keycode < KEYBOARD_KEYCODES) {
		if (pressed) {
			keyboard->taken[event->keycode] = taken;
		} else {
			taken = keyboard->taken[event->keycode];
			keyboard->taken[event->keycode] = false;
		}
	}
	if (taken) {
		return;
	}
	wlr_seat_set_keyboard(wlr_seat, keyboard->device);
	wlr_seat_keyboard_notify_key(wlr_seat, event->time_msec, event->keycode,
		event->state);
}

static void handle_destroy(struct wl_listener *listener, void *data) {
	struct keyboard *keyboard = wl_container_of(listener, keyboard, destroy);
	keyboard_destroy(keyboard);
}

void keyboard_create(struct seat *seat, struct wlr_input_device *device) {
	const struct oriel_config *config = &seat->server->options->config;
	struct keyboard *keyboard = zalloc(sizeof(*keyboard));
	keyboard->seat = seat;
	keyboard->device = device;

	struct wlr_keyboard *wlr_keyboard = device->keyboard;
	wlr_keyboard_set_keymap(wlr_keyboard, seat->keymap);
	wlr_keyboard_set_repeat_info(wlr_keyboard,
		config->repeat_rate >= 0 ? config->repeat_rate : DEFAULT_REPEAT_RATE,
		config->repeat_delay >= 0 ? config->repeat_delay : DEFAULT_REPEAT_DELAY);

	keyboard->modifiers.notify = handle_modifiers;
	wl_signal_add(&wlr_keyboard->events.modifiers, &keyboard->modifiers);
	keyboard->key.notify = handle_key;
	wl_signal_add(&wlr_keyboard->events.key, &keyboard->key);
	keyboard->destroy.notify = handle_destroy;
	wl_signal_add(&device->events.destroy, &keyboard->destroy);
	wl_list_insert(&seat->keyboards, &keyboard->link);
	wlr_seat_set_keyboard(seat->wlr_seat, device);
}

void keyboard_destroy(struct keyboard *keyboard) {
	wl_list_remove(&keyboard->modifiers.link);
	wl_list_remove(&keyboard->key.link);
	wl_list_remove(&keyboard->destroy.link);
	wl_list_remove(&keyboard->link);
	free(keyboard);
}
