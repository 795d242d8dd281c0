#include <stdlib.h>
#include <wlr/types/wlr_cursor.h>
#include <wlr/types/wlr_virtual_keyboard_v1.h>
#include <wlr/types/wlr_virtual_pointer_v1.h>
#include "compositor/seat.h"
#include "compositor/server.h"
#include "compositor/util.h"
#include "compositor/virtual_devices.h"

struct virtual_devices {
	struct server *server;
	struct wlr_virtual_keyboard_manager_v1 *keyboards;
	struct wlr_virtual_pointer_manager_v1 *pointers;
	struct wl_listener new_keyboard;
	struct wl_listener new_pointer;
};

/*
 * The seat gives it oriel's keymap; the client's own keymap, which the
 * protocol requires before any key, replaces it.
 */
static void handle_new_keyboard(struct wl_listener *listener, void *data) {
	struct virtual_devices *devices = wl_container_of(listener, devices, new_keyboard);
	struct wlr_virtual_keyboard_v1 *keyboard = data;
	seat_add_device(devices->server->seat, &keyboard->input_device);
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
	free(devices);
}
