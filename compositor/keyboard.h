/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_KEYBOARD_H
#define ORIEL_KEYBOARD_H

#include <stdbool.h>
#include <wayland-server-core.h>

struct seat;
struct wlr_input_device;

/* Linux key codes go up to KEY_MAX (0x2ff). */
#define KEYBOARD_KEYCODES 0x300

struct keyboard {
	struct seat *seat;
	struct wlr_input_device *device;
	struct wl_list link; /* seat.keyboards */
	struct wl_listener modifiers;
	struct wl_listener key;
	struct wl_listener destroy;
	bool taken[KEYBOARD_KEYCODES]; /* presses oriel kept from the clients */
};

/* Builds the keymap from [keyboard] in the config, else XKB_DEFAULT_*. */
bool keyboard_create_keymap(struct seat *seat);
void keyboard_create(struct seat *seat, struct wlr_input_device *device);
void keyboard_destroy(struct keyboard *keyboard);

#endif
