/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <wlr/types/wlr_cursor.h>
#include <wlr/types/wlr_virtual_keyboard_v1.h>
#include <wlr/types/wlr_virtual_pointer_v1.h>
#include "compositor/seat.h"
#include "compositor/server.h"
#include "common/util.h"
#include "compositor/virtual_devices.h"

struct virtual_devices {
	struct server *server;
	struct wlr_virtual_keyboard_manager_v1 *keyboards;
	struct wlr_virtual_pointer_manager_v1 *pointers;
	struct wl_listener new_keyboard;
	struct wl_listener new_pointer;
	struct wl_list keyboards_alive; /* virtual_keyboard.link */
	struct wl_list keyboards_dead;  /* virtual_keyboard.link, to free */
	struct wl_event_source *free_idle;
};

/*
 * wlroots 0.15 allocates each virtual keyboard's wlr_keyboard and never
 * frees it: its destroy hook is empty. We free it once wlroots is done
 * with it, after the call that destroys the virtual keyboard.
 */
struct virtual_keyboard {
	struct virtual_devices *devices;
	struct wlr_keyboard *wlr_keyboard;
	struct wl_list link;
	struct wl_listener destroy;
};

static void free_dead_keyboards(struct virtual_devices *devices) {
	struct virtual_keyboard *keyboard, *tmp;
	wl_list_for_each_safe(keyboard, tmp, &devices->keyboards_dead, link) {
		wl_list_remove(&keyboard->link);
		free(keyboard->wlr_keyboard);
		free(keyboard);
	}
}

static void handle_free_idle(void *data) {
	struct virtual_devices *devices = data;
	devices->free_idle = NULL;
	free_dead_keyboards(devices);
}

static void handle_keyboard_destroy(struct wl_listener *listener, void *data) {
	struct virtual_keyboard *keyboard = wl_container_of(listener, keyboard, destroy);
	struct virtual_devices *devices = keyboard->devices;
	wl_list_remove(&keyboard->destroy.link);
	wl_list_remove(&keyboard->link);
	wl_list_insert(&devices->keyboards_dead, &keyboard->link);
	if (!devices->free_idle) {
		devices->free_idle = wl_event_loop_add_idle(devices->server->loop,
			handle_free_idle, devices);
	}
}

/*
 * The seat gives it oriel's keymap; the client's own keymap, which the
 * protocol requires before any key, replaces it.
 */
static void handle_new_keyboard(struct wl_listener *listener, void *data) {
	struct virtual_devices *devices = wl_container_of(listener, devices, new_keyboard);
	struct wlr_virtual_keyboard_v1 *wlr_virtual = data;
	struct virtual_keyboard *keyboard = zalloc(sizeof(*keyboard));
	keyboard->devices = devices;
	keyboard->wlr_keyboard = wlr_virtual->input_device.keyboard;
	keyboard->destroy.notify = handle_keyboard_destroy;
	wl_signal_add(&wlr_virtual->events.destroy, &keyboard->destroy);
	wl_list_insert(&devices->keyboards_alive, &keyboard->link);
	seat_add_device(devices->server->seat, &wlr_virtual->input_device);
}

static void handle_new_pointer(struct wl_listener *listener, void *data) {
	struct virtual_devices *devices = wl_container_of(listener, devices, new_pointer);
	struct wlr_virtual_pointer_v1_new_pointer_event *event = data;
	struct wlr_input_device *device = &event->new_pointer->input_device;
	struct seat *seat = devices->server->seat;
	seat_add_device(seat, device);
	/* Absolute motion then spans that output rather than the whole layout. */
	if (event->suggested_output) {
		wlr_cursor_map_input_to_output(seat_cursor(seat), device,
			event->suggested_output);
	}
}

struct virtual_devices *virtual_devices_create(struct server *server) {
	struct virtual_devices *devices = zalloc(sizeof(*devices));
	devices->server = server;
	wl_list_init(&devices->keyboards_alive);
	wl_list_init(&devices->keyboards_dead);
	devices->keyboards = wlr_virtual_keyboard_manager_v1_create(server->display);
	devices->pointers = wlr_virtual_pointer_manager_v1_create(server->display);
	devices->new_keyboard.notify = handle_new_keyboard;
	wl_signal_add(&devices->keyboards->events.new_virtual_keyboard,
		&devices->new_keyboard);
	devices->new_pointer.notify = handle_new_pointer;
	wl_signal_add(&devices->pointers->events.new_virtual_pointer,
		&devices->new_pointer);
	return devices;
}

void virtual_devices_destroy(struct virtual_devices *devices) {
	if (!devices) {
		return;
	}
	wl_list_remove(&devices->new_keyboard.link);
	wl_list_remove(&devices->new_pointer.link);
	/* Keyboards still alive go with the display; wlroots frees what it can. */
	struct virtual_keyboard *keyboard, *tmp;
	wl_list_for_each_safe(keyboard, tmp, &devices->keyboards_alive, link) {
		wl_list_remove(&keyboard->destroy.link);
		wl_list_remove(&keyboard->link);
		free(keyboard);
	}
	if (devices->free_idle) {
		wl_event_source_remove(devices->free_idle);
	}
	free_dead_keyboards(devices);
	free(devices);
}
