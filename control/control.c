/* SPDX-License-Identifier: MIT */
/*
 * The control API's bus connection: the name, the exported object and the
 * integration of sd-bus into the compositor's event loop. The methods live
 * in control_outputs.c, control_windows.c, control_screenshot.c,
 * control_input.c, control_remote_server.c, control_casts.c and control_prompt.c;
 * the caller check in control_access.c.
 *
 * sd-bus runs without a thread and without polling: its fd is a source of
 * server->loop, watched for what sd_bus_get_events asks, and a timer is
 * armed only while sd_bus_get_timeout reports a finite deadline (a pending
 * method call). Both are re-armed after every round of processing.
 */

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wlr/util/log.h>
#include "control/control.h"
#include "control/control_private.h"
#include "compositor/server.h"
#include "common/util.h"

/* Bounds a synchronous call (the caller-credential query) that the bus stalls. */
#define CONTROL_METHOD_CALL_TIMEOUT_USEC (5 * 1000 * 1000)

static void control_disconnect_sources(struct control *control) {
	if (control->bus_source) {
		wl_event_source_remove(control->bus_source);
		control->bus_source = NULL;
	}
	if (control->timer_source) {
		wl_event_source_remove(control->timer_source);
		control->timer_source = NULL;
	}
}

static uint32_t poll_to_wl_mask(int events) {
	uint32_t mask = 0;
	if (events & POLLIN) {
		mask |= WL_EVENT_READABLE;
	}
	if (events & POLLOUT) {
		mask |= WL_EVENT_WRITABLE;
	}
	return mask;
}

/* Tells the event loop what sd-bus waits for now: fd events and a deadline. */
static void control_rearm(struct control *control) {
	if (!control->bus_source) {
		return;
	}
	int events = sd_bus_get_events(control->bus);
	if (events < 0) {
		wlr_log(WLR_ERROR, "control: sd_bus_get_events: %s", strerror(-events));
		events = 0;
	}
	wl_event_source_fd_update(control->bus_source, poll_to_wl_mask(events));

	uint64_t deadline;
	int r = sd_bus_get_timeout(control->bus, &deadline);
	int delay_ms = 0; /* 0 disarms the timer */
	if (r >= 0 && deadline != UINT64_MAX) {
		struct timespec now;
		clock_gettime(CLOCK_MONOTONIC, &now);
		uint64_t now_usec = (uint64_t)now.tv_sec * 1000000 + now.tv_nsec / 1000;
		if (deadline <= now_usec) {
			delay_ms = 1;
		} else {
			uint64_t ms = (deadline - now_usec + 999) / 1000;
			delay_ms = ms > INT_MAX ? INT_MAX : (int)ms;
		}
	}
	wl_event_source_timer_update(control->timer_source, delay_ms);
}

/* Dispatches everything sd-bus has, then re-arms the sources. */
static void control_process(struct control *control) {
	int r;
	do {
		r = sd_bus_process(control->bus, NULL);
	} while (r > 0);
	if (r < 0) {
		/* The bus went away (or broke): the compositor goes on without it. */
		wlr_log(WLR_ERROR, "control: session bus connection lost: %s; "
			"the control API is no longer available", strerror(-r));
		control_disconnect_sources(control);
		return;
	}
	control_rearm(control);
}

void control_flush(struct control *control) {
	/* sd-bus asks for POLLOUT while its write queue holds something. */
	control_rearm(control);
}

static int handle_bus_fd(int fd, uint32_t mask, void *data) {
	struct control *control = data;
	control_process(control);
	return 0;
}

static int handle_bus_timer(void *data) {
	struct control *control = data;
	control_process(control);
	return 0;
}

struct control_interface {
	sd_bus_slot **slot;
	const char *interface;
	const sd_bus_vtable *vtable;
	void *userdata;
};

static bool control_add_interfaces(struct control *control) {
	/* In this order: four, the remote servers', then Casts and Permission. */
	struct control_interface interfaces[4 + REMOTE_SERVERS + 2] = {
		{ &control->outputs_slot, CONTROL_IFACE_OUTPUTS, control_outputs_vtable, control },
		{ &control->windows_slot, CONTROL_IFACE_WINDOWS, control_windows_vtable, control },
		{ &control->screenshot_slot, CONTROL_IFACE_SCREENSHOT,
			control_screenshot_vtable, control },
		{ &control->input_slot, CONTROL_IFACE_INPUT, control_input_vtable, control },
	};
	size_t n = 4;
	for (size_t i = 0; i < REMOTE_SERVERS; i++) {
		struct control_remote_server *remote = &control->remote_servers[i];
		interfaces[n++] = (struct control_interface){ &remote->slot, remote->interface,
			control_remote_server_vtable, remote };
	}
	interfaces[n++] = (struct control_interface){ &control->casts_slot,
		CONTROL_IFACE_CASTS, control_casts_vtable, control };
	interfaces[n++] = (struct control_interface){ &control->permission_slot,
		CONTROL_IFACE_PERMISSION, control_permission_vtable, control };
	for (size_t i = 0; i < n; i++) {
		int r = sd_bus_add_object_vtable(control->bus, interfaces[i].slot,
			CONTROL_PATH, interfaces[i].interface, interfaces[i].vtable,
			interfaces[i].userdata);
		if (r < 0) {
			wlr_log(WLR_ERROR, "control: cannot export %s: %s",
				interfaces[i].interface, strerror(-r));
			return false;
		}
	}
	return true;
}

struct control *control_create(struct server *server) {
	struct control *control = zalloc(sizeof(*control));
	control->server = server;
	wl_list_init(&control->remotes);
	control->next_remote_id = 1;
	for (size_t i = 0; i < REMOTE_SERVERS; i++) {
		control_remote_server_init(&control->remote_servers[i], control,
			remote_servers[i]);
	}

	int r = sd_bus_open_user(&control->bus);
	if (r < 0) {
		wlr_log(WLR_ERROR, "control: cannot connect to the session bus: %s",
			strerror(-r));
		goto error;
	}
	sd_bus_set_method_call_timeout(control->bus, CONTROL_METHOD_CALL_TIMEOUT_USEC);
	if (!control_add_interfaces(control)) {
		goto error;
	}

	/* Without REPLACE_EXISTING or QUEUE: a second oriel on the bus fails here. */
	r = sd_bus_request_name(control->bus, CONTROL_BUS_NAME, 0);
	if (r < 0) {
		wlr_log(WLR_ERROR, "control: cannot own %s on the session bus: %s%s",
			CONTROL_BUS_NAME, strerror(-r),
			r == -EEXIST ? " (another compositor owns it)" : "");
		goto error;
	}

	int fd = sd_bus_get_fd(control->bus);
	if (fd < 0) {
		wlr_log(WLR_ERROR, "control: sd_bus_get_fd: %s", strerror(-fd));
		goto error;
	}
	control->bus_source = wl_event_loop_add_fd(server->loop, fd, 0,
		handle_bus_fd, control);
	control->timer_source = wl_event_loop_add_timer(server->loop,
		handle_bus_timer, control);
	if (!control->bus_source || !control->timer_source) {
		wlr_log(WLR_ERROR, "control: cannot watch the session bus");
		goto error;
	}
	/* Messages may already be queued (e.g. read while requesting the name). */
	control_process(control);
	if (!control->bus_source) {
		goto error;
	}
	wlr_log(WLR_INFO, "control: serving %s on the session bus", CONTROL_BUS_NAME);
	return control;

error:
	control_destroy(control);
	return NULL;
}

void control_destroy(struct control *control) {
	if (!control) {
		return;
	}
	control_disconnect_sources(control);
	control->activation_slot = sd_bus_slot_unref(control->activation_slot);
	control->permission_slot = sd_bus_slot_unref(control->permission_slot);
	control_prompt_finish(control);
	control->casts_slot = sd_bus_slot_unref(control->casts_slot);
	control_casts_finish(control);
	control_remote_finish(control);
	control_share_finish(control);
	for (size_t i = REMOTE_SERVERS; i-- > 0;) {
		control_remote_server_finish(&control->remote_servers[i]);
	}
	control->input_slot = sd_bus_slot_unref(control->input_slot);
	control->screenshot_slot = sd_bus_slot_unref(control->screenshot_slot);
	control->windows_slot = sd_bus_slot_unref(control->windows_slot);
	control->outputs_slot = sd_bus_slot_unref(control->outputs_slot);
	if (control->bus) {
		if (sd_bus_is_open(control->bus) > 0) {
			/* Asynchronous, then flushed: never waits for a reply at exit. */
			sd_bus_release_name_async(control->bus, NULL, CONTROL_BUS_NAME,
				NULL, NULL);
		}
		control->bus = sd_bus_flush_close_unref(control->bus);
	}
	free(control);
}

static int handle_activation_reply(sd_bus_message *reply, void *data,
		sd_bus_error *ret_error) {
	struct control *control = data;
	const sd_bus_error *error = sd_bus_message_get_error(reply);
	if (error) {
		wlr_log(WLR_ERROR, "control: UpdateActivationEnvironment failed: %s",
			error->message ? error->message : error->name);
	} else {
		wlr_log(WLR_DEBUG, "control: activation environment updated");
	}
	control->activation_slot = sd_bus_slot_unref(control->activation_slot);
	return 0;
}

static int append_env(sd_bus_message *msg, const char *name, const char *fallback) {
	const char *value = getenv(name);
	if (!value || !value[0]) {
		value = fallback;
	}
	if (!value) {
		return 0;
	}
	return sd_bus_message_append(msg, "{ss}", name, value);
}

void control_update_activation_environment(struct control *control) {
	if (!control || !control->bus_source) {
		return;
	}
	sd_bus_message *msg = NULL;
	int r = sd_bus_message_new_method_call(control->bus, &msg,
		"org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
		"UpdateActivationEnvironment");
	if (r >= 0) {
		r = sd_bus_message_open_container(msg, 'a', "{ss}");
	}
	if (r >= 0) {
		r = append_env(msg, "WAYLAND_DISPLAY", NULL);
	}
	if (r >= 0) {
		r = append_env(msg, "DISPLAY", NULL);
	}
	if (r >= 0) {
		r = append_env(msg, "XDG_SESSION_TYPE", "wayland");
	}
	if (r >= 0) {
		r = append_env(msg, "XDG_CURRENT_DESKTOP", "oriel");
	}
	if (r >= 0) {
		r = sd_bus_message_close_container(msg);
	}
	if (r >= 0) {
		/* A newer environment replaces an update still in flight. */
		control->activation_slot = sd_bus_slot_unref(control->activation_slot);
		r = sd_bus_call_async(control->bus, &control->activation_slot, msg,
			handle_activation_reply, control, 0);
	}
	sd_bus_message_unref(msg);
	if (r < 0) {
		wlr_log(WLR_ERROR, "control: cannot update the activation environment: %s",
			strerror(-r));
		return;
	}
	/* The call may still sit in the write queue, and now has a reply deadline. */
	control_rearm(control);
}
