/* SPDX-License-Identifier: MIT */
/*
 * org.freedesktop.impl.portal.RemoteDesktop, version 1 (what
 * xdg-desktop-portal 1.16 speaks), for oriel.
 *
 * CreateSession makes a session that ScreenCast.SelectSources may also
 * select sources for; SelectDevices keeps the device types (keyboard,
 * pointer); Start asks portal_decide (the [remote-desktop] policy, or the
 * person in oriel's prompt, who also chooses the source when sources were
 * selected) and, when sources were selected, casts them like
 * ScreenCast.Start, answering "devices" and "streams". The Notify* methods go to oriel's virtual input
 * (org.oriel.Compositor.Input), which maps keysyms with the active keymap
 * as VNC does. Absolute motion is relative to a stream (a cast output);
 * relative motion moves from where the pointer is and stays on the
 * layout. Touch is not offered.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "portal/portal.h"

#define REMOTE_DESKTOP_VERSION 1u
enum {
	DEVICE_KEYBOARD = 1,
	DEVICE_POINTER = 2,
	DEVICE_TOUCHSCREEN = 4,
};
#define AVAILABLE_DEVICES ((uint32_t)(DEVICE_KEYBOARD | DEVICE_POINTER))
/* Smooth scroll: this many units of NotifyPointerAxis are one wheel step. */
#define AXIS_UNITS_PER_STEP 10.0

static int handle_create_session(sd_bus_message *msg, void *data, sd_bus_error *error) {
	struct portal *portal = data;
	const char *handle, *session_handle, *app_id;
	int r = portal_begin_call(portal, msg, error, "oos", &handle, &session_handle, &app_id);
	r = r < 0 ? r : sd_bus_message_skip(msg, "a{sv}");
	if (r < 0) {
		return r;
	}
	portal_log(portal, "RemoteDesktop.CreateSession %s app_id '%s'", session_handle, app_id);
	struct portal_session *session = portal_session_create(portal, session_handle, app_id);
	if (!session) {
		return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
			"cannot create session %s", session_handle);
	}
	session->remote = true;
	session->devices = AVAILABLE_DEVICES;
	return portal_reply_response(msg, PORTAL_RESPONSE_SUCCESS);
}

/* The session of a RemoteDesktop call, or NULL with error set. */
static struct portal_session *remote_session(struct portal *portal, const char *handle,
		sd_bus_error *error) {
	struct portal_session *session = portal_session_find(portal, handle);
	if (!session || !session->remote) {
		sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
			"no remote desktop session %s", handle);
		return NULL;
	}
	return session;
}

/* The session of a SelectDevices or Start call, which must come before it started. */
static struct portal_session *unstarted_remote_session(struct portal *portal,
		const char *handle, sd_bus_error *error) {
	struct portal_session *session = remote_session(portal, handle, error);
	if (session && (session->started || session->ask)) {
		sd_bus_error_setf(error, SD_BUS_ERROR_FAILED,
			"session %s has already started", handle);
		return NULL;
	}
	return session;
}

/* Reads the "types" option of SelectDevices; absent means every type offered. */
static int read_device_types(sd_bus_message *msg, uint32_t *types, sd_bus_error *error) {
	int r = sd_bus_message_enter_container(msg, 'a', "{sv}");
	while (r >= 0 && (r = sd_bus_message_enter_container(msg, 'e', "sv")) > 0) {
		const char *key;
		r = sd_bus_message_read(msg, "s", &key);
		if (r >= 0 && !strcmp(key, "types")) {
			if (sd_bus_message_verify_type(msg, 'v', "u") <= 0) {
				return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
					"option types must be of type u");
			}
			r = sd_bus_message_read(msg, "v", "u", types);
		} else if (r >= 0) {
			r = sd_bus_message_skip(msg, "v");
		}
		r = r < 0 ? r : sd_bus_message_exit_container(msg);
	}
	return r < 0 ? r : sd_bus_message_exit_container(msg);
}

static int handle_select_devices(sd_bus_message *msg, void *data, sd_bus_error *error) {
	struct portal *portal = data;
	const char *handle, *session_handle, *app_id;
	uint32_t types = AVAILABLE_DEVICES;
	int r = portal_begin_call(portal, msg, error, "oos", &handle, &session_handle, &app_id);
	r = r < 0 ? r : read_device_types(msg, &types, error);
	if (r < 0) {
		return r;
	}
	struct portal_session *session = unstarted_remote_session(portal, session_handle, error);
	if (!session) {
		return -EINVAL;
	}
	if (types & ~(uint32_t)(DEVICE_KEYBOARD | DEVICE_POINTER | DEVICE_TOUCHSCREEN)) {
		return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
			"device types 0x%x has unknown bits", types);
	}
	if (!(types & AVAILABLE_DEVICES)) {
		return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
			"none of the requested device types (0x%x) is offered", types);
	}
	/* Offer what we have among what was asked for. */
	session->devices = types & AVAILABLE_DEVICES;
	portal_log(portal, "SelectDevices %s: 0x%x", session_handle, session->devices);
	return portal_reply_response(msg, PORTAL_RESPONSE_SUCCESS);
}

/*
 * portal_decide answered, now or when the person did: cast the sources
 * ScreenCast.SelectSources chose, if any (the source the person chose,
 * or what portal_catalog_pick picks), and answer devices and streams.
 */
static void handle_decided(struct portal *portal, sd_bus_message *msg,
		const struct portal_answer *answer, void *data) {
	struct portal_session *session = data;
	if (!answer->allowed) {
		portal_reply_response(msg, PORTAL_RESPONSE_CANCELLED);
		return;
	}
	struct portal_catalog cat = {0};
	struct portal_target *targets = NULL;
	int n = 0, r = 0;
	sd_bus_error call_error = SD_BUS_ERROR_NULL;
	if (session->selected) {
		r = portal_catalog_load(portal, session->selection.types, &cat, &call_error);
		r = r < 0 ? r : portal_catalog_pick(&cat, answer->choice,
			session->selection.multiple,
			portal_policy_window(&portal->policy, PORTAL_KIND_REMOTE_DESKTOP), &targets,
			&n);
		if (r >= 0 && n == 0) {
			r = -ENODEV;
		}
		r = r < 0 ? r : portal_session_cast(session, targets, n, answer->app, &call_error);
	}
	/* Shown on oriel's sharing indicator, which can stop it, while it lasts. */
	r = r < 0 ? r : portal_input_open_session(session, answer->app, &call_error);
	if (r < 0) {
		portal_session_stop_casts(session);
	}
	sd_bus_error_free(&call_error);
	portal_targets_free(targets, n);
	portal_catalog_finish(&cat);
	if (r < 0) {
		portal_reply_response(msg, PORTAL_RESPONSE_OTHER);
		return;
	}
	session->started = true;
	portal_log(portal, "RemoteDesktop.Start %s: devices 0x%x, %d streams", session->handle,
		session->devices, session->n_casts);
	sd_bus_message *reply = NULL;
	r = sd_bus_message_new_method_return(msg, &reply);
	r = r < 0 ? r : sd_bus_message_append(reply, "u", (uint32_t)PORTAL_RESPONSE_SUCCESS);
	r = r < 0 ? r : sd_bus_message_open_container(reply, 'a', "{sv}");
	r = r < 0 ? r : sd_bus_message_append(reply, "{sv}", "devices", "u", session->devices);
	if (session->n_casts > 0) {
		r = r < 0 ? r : portal_append_streams(reply, session);
	}
	r = r < 0 ? r : sd_bus_message_close_container(reply);
	r = r < 0 ? r : sd_bus_send(NULL, reply, NULL);
	sd_bus_message_unref(reply);
	if (r < 0) {
		sd_bus_reply_method_errno(msg, r, NULL);
	}
}

static int handle_start(sd_bus_message *msg, void *data, sd_bus_error *error) {
	struct portal *portal = data;
	const char *handle, *session_handle, *app_id, *parent_window;
	int r = portal_begin_call(portal, msg, error, "ooss", &handle, &session_handle, &app_id,
		&parent_window);
	r = r < 0 ? r : sd_bus_message_skip(msg, "a{sv}");
	if (r < 0) {
		return r;
	}
	struct portal_session *session = unstarted_remote_session(portal, session_handle, error);
	if (!session) {
		return -EINVAL;
	}
	/* The person chooses among the sources only when some are to be cast. */
	struct portal_sources sources = {0};
	if (session->selected) {
		struct portal_catalog cat;
		sd_bus_error call_error = SD_BUS_ERROR_NULL;
		r = portal_catalog_load(portal, session->selection.types, &cat, &call_error);
		sd_bus_error_free(&call_error);
		if (r < 0) {
			return portal_reply_response(msg, PORTAL_RESPONSE_OTHER);
		}
		cat.caller_pid = portal_caller_pid(portal, handle);
		r = portal_catalog_sources(&cat, &sources);
		portal_catalog_finish(&cat);
		if (r < 0) {
			return portal_reply_response(msg, PORTAL_RESPONSE_OTHER);
		}
	}
	struct portal_question question = {
		.kind = PORTAL_KIND_REMOTE_DESKTOP,
		.app_id = session->app_id,
		.request_handle = handle,
		.session = session,
		.sources = &sources,
	};
	r = portal_decide(portal, &question, msg, handle_decided);
	portal_sources_finish(&sources);
	return r;
}

/*
 * Begins a Notify* call: the frontend calls, the session is a started
 * remote desktop session that selected device. Reads the arguments after
 * the options.
 */
static struct portal_session *begin_notify(struct portal *portal, sd_bus_message *msg,
		sd_bus_error *error, uint32_t device, const char *types, ...) {
	const char *session_handle;
	if (portal_begin_call(portal, msg, error, "o", &session_handle) < 0 ||
			sd_bus_message_skip(msg, "a{sv}") < 0) {
		if (!sd_bus_error_is_set(error)) {
			sd_bus_error_set(error, SD_BUS_ERROR_INVALID_ARGS, "malformed arguments");
		}
		return NULL;
	}
	va_list args;
	va_start(args, types);
	int r = sd_bus_message_readv(msg, types, args);
	va_end(args);
	if (r < 0) {
		sd_bus_error_set(error, SD_BUS_ERROR_INVALID_ARGS, "malformed arguments");
		return NULL;
	}
	struct portal_session *session = remote_session(portal, session_handle, error);
	if (!session) {
		return NULL;
	}
	if (!session->started || !(session->devices & device)) {
		sd_bus_error_setf(error, SD_BUS_ERROR_ACCESS_DENIED,
			"session %s has not started with a %s", session_handle,
			device == DEVICE_KEYBOARD ? "keyboard" : "pointer");
		return NULL;
	}
	return session;
}

static int reply_input(sd_bus_message *msg, int r) {
	return r < 0 ? r : sd_bus_reply_method_return(msg, "");
}

static bool on_output(const struct portal_output *o, double x, double y) {
	return x >= o->x && y >= o->y && x < (double)o->x + o->width &&
		y < (double)o->y + o->height;
}

/* Moves from where the pointer is by dx, dy, kept on the output it was on. */
static int handle_notify_pointer_motion(sd_bus_message *msg, void *data,
		sd_bus_error *error) {
	double dx, dy, x, y;
	struct portal_session *session = begin_notify(data, msg, error, DEVICE_POINTER,
		"dd", &dx, &dy);
	if (!session) {
		return -EINVAL;
	}
	if (!isfinite(dx) || !isfinite(dy)) {
		return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS, "motion is not finite");
	}
	struct portal_output *outputs = NULL;
	int n = 0;
	int r = portal_input_pointer_position(session->portal, &x, &y, error);
	r = r < 0 ? r : portal_list_outputs(session->portal, &outputs, &n, error);
	if (r >= 0 && n == 0) {
		r = sd_bus_error_setf(error, SD_BUS_ERROR_FAILED, "oriel has no outputs");
	}
	if (r >= 0) {
		const struct portal_output *from = &outputs[0];
		bool landed = false;
		for (int i = 0; i < n; i++) {
			from = on_output(&outputs[i], x, y) ? &outputs[i] : from;
			landed = landed || on_output(&outputs[i], x + dx, y + dy);
		}
		x += dx;
		y += dy;
		if (!landed) {
			x = fmax(from->x, fmin(x, from->x + from->width - 1.0));
			y = fmax(from->y, fmin(y, from->y + from->height - 1.0));
		}
		r = portal_input_call(session, "PointerMotionAbsolute", error, "dd", x, y);
	}
	portal_outputs_free(outputs, n);
	return reply_input(msg, r);
}

static int handle_notify_pointer_motion_absolute(sd_bus_message *msg, void *data,
		sd_bus_error *error) {
	uint32_t stream;
	double x, y;
	struct portal_session *session = begin_notify(data, msg, error, DEVICE_POINTER,
		"udd", &stream, &x, &y);
	if (!session) {
		return -EINVAL;
	}
	for (int i = 0; i < session->n_casts; i++) {
		const struct portal_target *o = &session->casts[i].target;
		if (session->casts[i].node_id != stream) {
			continue;
		}
		if (!isfinite(x) || !isfinite(y) || x < 0 || y < 0 || x >= o->width ||
				y >= o->height) {
			return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
				"%g,%g is outside stream %u (%ux%u)", x, y, stream, o->width, o->height);
		}
		return reply_input(msg, portal_input_call(session, "PointerMotionAbsolute", error,
			"dd", o->x + x, o->y + y));
	}
	return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
		"session %s has no stream %u", session->handle, stream);
}

static int handle_notify_pointer_button(sd_bus_message *msg, void *data,
		sd_bus_error *error) {
	int32_t button;
	uint32_t state;
	struct portal_session *session = begin_notify(data, msg, error, DEVICE_POINTER,
		"iu", &button, &state);
	if (!session) {
		return -EINVAL;
	}
	if (button < 0 || state > 1) {
		return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
			"button %d state %u is not a press (1) or release (0)", button, state);
	}
	return reply_input(msg, portal_input_press(session, PORTAL_HELD_BUTTON,
		(uint32_t)button, state == 1, error));
}

static int handle_notify_pointer_axis(sd_bus_message *msg, void *data,
		sd_bus_error *error) {
	double dx, dy;
	struct portal_session *session = begin_notify(data, msg, error, DEVICE_POINTER,
		"dd", &dx, &dy);
	if (!session) {
		return -EINVAL;
	}
	if (!isfinite(dx) || !isfinite(dy)) {
		return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS, "scroll is not finite");
	}
	int r = 0;
	if (dy != 0) {
		r = portal_input_call(session, "PointerAxis", error, "ud", 0u,
			dy / AXIS_UNITS_PER_STEP);
	}
	if (r >= 0 && dx != 0) {
		r = portal_input_call(session, "PointerAxis", error, "ud", 1u,
			dx / AXIS_UNITS_PER_STEP);
	}
	return reply_input(msg, r);
}

static int handle_notify_pointer_axis_discrete(sd_bus_message *msg, void *data,
		sd_bus_error *error) {
	uint32_t axis;
	int32_t steps;
	struct portal_session *session = begin_notify(data, msg, error, DEVICE_POINTER,
		"ui", &axis, &steps);
	if (!session) {
		return -EINVAL;
	}
	/* The portal's axis numbering (0 vertical, 1 horizontal) is oriel's. */
	return reply_input(msg, portal_input_call(session, "PointerAxis", error, "ud", axis,
		(double)steps));
}

static int notify_key(sd_bus_message *msg, void *data, sd_bus_error *error, int type) {
	int32_t code;
	uint32_t state;
	struct portal_session *session = begin_notify(data, msg, error, DEVICE_KEYBOARD,
		"iu", &code, &state);
	if (!session) {
		return -EINVAL;
	}
	if (code <= 0 || state > 1) {
		return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
			"key %d state %u is not a press (1) or release (0)", code, state);
	}
	return reply_input(msg, portal_input_press(session, type, (uint32_t)code, state == 1,
		error));
}

static int handle_notify_keyboard_keycode(sd_bus_message *msg, void *data,
		sd_bus_error *error) {
	return notify_key(msg, data, error, PORTAL_HELD_KEYCODE);
}

static int handle_notify_keyboard_keysym(sd_bus_message *msg, void *data,
		sd_bus_error *error) {
	return notify_key(msg, data, error, PORTAL_HELD_KEYSYM);
}

static int get_device_types(sd_bus *bus, const char *path, const char *iface,
		const char *prop, sd_bus_message *reply, void *data, sd_bus_error *error) {
	return sd_bus_message_append(reply, "u", AVAILABLE_DEVICES);
}

static int get_version(sd_bus *bus, const char *path, const char *iface,
		const char *prop, sd_bus_message *reply, void *data, sd_bus_error *error) {
	return sd_bus_message_append(reply, "u", REMOTE_DESKTOP_VERSION);
}

static const sd_bus_vtable remote_desktop_vtable[] = {
	SD_BUS_VTABLE_START(0),
	SD_BUS_METHOD_WITH_ARGS("CreateSession",
		SD_BUS_ARGS("o", handle, "o", session_handle, "s", app_id, "a{sv}", options),
		SD_BUS_RESULT("u", response, "a{sv}", results),
		handle_create_session, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD_WITH_ARGS("SelectDevices",
		SD_BUS_ARGS("o", handle, "o", session_handle, "s", app_id, "a{sv}", options),
		SD_BUS_RESULT("u", response, "a{sv}", results),
		handle_select_devices, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD_WITH_ARGS("Start",
		SD_BUS_ARGS("o", handle, "o", session_handle, "s", app_id, "s", parent_window,
			"a{sv}", options),
		SD_BUS_RESULT("u", response, "a{sv}", results),
		handle_start, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD_WITH_ARGS("NotifyPointerMotion",
		SD_BUS_ARGS("o", session_handle, "a{sv}", options, "d", dx, "d", dy),
		SD_BUS_NO_RESULT, handle_notify_pointer_motion, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD_WITH_ARGS("NotifyPointerMotionAbsolute",
		SD_BUS_ARGS("o", session_handle, "a{sv}", options, "u", stream, "d", x, "d", y),
		SD_BUS_NO_RESULT, handle_notify_pointer_motion_absolute, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD_WITH_ARGS("NotifyPointerButton",
		SD_BUS_ARGS("o", session_handle, "a{sv}", options, "i", button, "u", state),
		SD_BUS_NO_RESULT, handle_notify_pointer_button, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD_WITH_ARGS("NotifyPointerAxis",
		SD_BUS_ARGS("o", session_handle, "a{sv}", options, "d", dx, "d", dy),
		SD_BUS_NO_RESULT, handle_notify_pointer_axis, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD_WITH_ARGS("NotifyPointerAxisDiscrete",
		SD_BUS_ARGS("o", session_handle, "a{sv}", options, "u", axis, "i", steps),
		SD_BUS_NO_RESULT, handle_notify_pointer_axis_discrete, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD_WITH_ARGS("NotifyKeyboardKeycode",
		SD_BUS_ARGS("o", session_handle, "a{sv}", options, "i", keycode, "u", state),
		SD_BUS_NO_RESULT, handle_notify_keyboard_keycode, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD_WITH_ARGS("NotifyKeyboardKeysym",
		SD_BUS_ARGS("o", session_handle, "a{sv}", options, "i", keysym, "u", state),
		SD_BUS_NO_RESULT, handle_notify_keyboard_keysym, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_PROPERTY("AvailableDeviceTypes", "u", get_device_types, 0,
		SD_BUS_VTABLE_PROPERTY_CONST),
	SD_BUS_PROPERTY("version", "u", get_version, 0, SD_BUS_VTABLE_PROPERTY_CONST),
	SD_BUS_VTABLE_END,
};

int portal_remote_desktop_init(struct portal *portal) {
	int r = sd_bus_add_object_vtable(portal->bus, &portal->remote_desktop_slot,
		PORTAL_OBJECT_PATH, PORTAL_IFACE_REMOTE_DESKTOP, remote_desktop_vtable, portal);
	return r < 0 ? r : portal_input_init(portal);
}

void portal_remote_desktop_finish(struct portal *portal) {
	portal_input_finish(portal);
	portal->remote_desktop_slot = sd_bus_slot_unref(portal->remote_desktop_slot);
}
