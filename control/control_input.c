/* SPDX-License-Identifier: MIT */
/*
 * org.oriel.Compositor.Input: virtual input through capture/virtual_input.c,
 * as a person at the seat would type and point. Remote control sessions,
 * which the sharing indicator shows and can stop, are control_remote.c's.
 */

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <linux/input-event-codes.h>
#include <wlr/types/wlr_cursor.h>
#include <xkbcommon/xkbcommon.h>
#include "capture/virtual_input.h"
#include "control/control_private.h"
#include "compositor/seat.h"
#include "compositor/server.h"

#define CONTROL_MAX_COORD 1000000.0
#define CONTROL_MAX_SCROLL_STEPS 1000.0
/* The mouse buttons capture/virtual_input.c sends; it ignores others. */
#define CONTROL_BUTTON_MIN BTN_LEFT
#define CONTROL_BUTTON_MAX BTN_TASK

/* Reads the arguments, checks the caller and finds the virtual devices. */
static int begin_input(struct control *control, sd_bus_message *msg,
		sd_bus_error *error, struct virtual_input **vi, const char *types, ...) {
	va_list args;
	va_start(args, types);
	int r = control_read_checkedv(control, msg, error, types, args);
	va_end(args);
	if (r < 0) {
		return r;
	}
	*vi = control->server->virtual_input;
	if (!*vi) {
		return sd_bus_error_setf(error, SD_BUS_ERROR_FAILED,
			"virtual input is not available in this session");
	}
	return 0;
}

static int method_pointer_motion_absolute(sd_bus_message *msg, void *data,
		sd_bus_error *error) {
	double x, y;
	struct virtual_input *vi;
	int r = begin_input(data, msg, error, &vi, "dd", &x, &y);
	r = r < 0 ? r : control_remote_check_sender(data, msg, error);
	if (r < 0) {
		return r;
	}
	if (!isfinite(x) || !isfinite(y) || fabs(x) > CONTROL_MAX_COORD ||
			fabs(y) > CONTROL_MAX_COORD) {
		return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
			"pointer position %g,%g is out of range", x, y);
	}
	if (!virtual_input_pointer_motion_absolute(vi, x, y)) {
		return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
			"cannot move the pointer to %g,%g: it is not on any output", x, y);
	}
	return sd_bus_reply_method_return(msg, "");
}

static int method_pointer_button(sd_bus_message *msg, void *data,
		sd_bus_error *error) {
	uint32_t button;
	int pressed;
	struct virtual_input *vi;
	int r = begin_input(data, msg, error, &vi, "ub", &button, &pressed);
	/* A release always passes: a stopped session leaves nothing held down. */
	if (r >= 0 && pressed) {
		r = control_remote_check_sender(data, msg, error);
	}
	if (r < 0) {
		return r;
	}
	if (button < CONTROL_BUTTON_MIN || button > CONTROL_BUTTON_MAX) {
		return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
			"%" PRIu32 " is not a mouse button code (BTN_LEFT %d to BTN_TASK %d)",
			button, CONTROL_BUTTON_MIN, CONTROL_BUTTON_MAX);
	}
	virtual_input_pointer_button(vi, button, pressed);
	return sd_bus_reply_method_return(msg, "");
}

static int method_pointer_axis(sd_bus_message *msg, void *data, sd_bus_error *error) {
	uint32_t axis;
	double steps;
	struct virtual_input *vi;
	int r = begin_input(data, msg, error, &vi, "ud", &axis, &steps);
	r = r < 0 ? r : control_remote_check_sender(data, msg, error);
	if (r < 0) {
		return r;
	}
	if (axis > 1) {
		return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
			"axis %" PRIu32 " does not exist (0 = vertical, 1 = horizontal)", axis);
	}
	if (!isfinite(steps) || fabs(steps) > CONTROL_MAX_SCROLL_STEPS) {
		return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
			"%g scroll steps is out of range (at most %g either way)",
			steps, CONTROL_MAX_SCROLL_STEPS);
	}
	virtual_input_pointer_axis(vi, axis, steps);
	return sd_bus_reply_method_return(msg, "");
}

static int method_keyboard_keycode(sd_bus_message *msg, void *data,
		sd_bus_error *error) {
	uint32_t keycode;
	int pressed;
	struct virtual_input *vi;
	int r = begin_input(data, msg, error, &vi, "ub", &keycode, &pressed);
	/* A release always passes: a stopped session leaves nothing held down. */
	if (r >= 0 && pressed) {
		r = control_remote_check_sender(data, msg, error);
	}
	if (r < 0) {
		return r;
	}
	if (keycode == KEY_RESERVED || keycode > KEY_MAX) {
		return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
			"%" PRIu32 " is not an evdev key code (1 to %d)", keycode, KEY_MAX);
	}
	if (!virtual_input_keycode(vi, keycode, pressed)) {
		return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
			"key code %" PRIu32 " cannot be sent", keycode);
	}
	return sd_bus_reply_method_return(msg, "");
}

static int method_keyboard_keysym(sd_bus_message *msg, void *data,
		sd_bus_error *error) {
	uint32_t keysym;
	int pressed;
	struct virtual_input *vi;
	int r = begin_input(data, msg, error, &vi, "ub", &keysym, &pressed);
	/* A release always passes: a stopped session leaves nothing held down. */
	if (r >= 0 && pressed) {
		r = control_remote_check_sender(data, msg, error);
	}
	if (r < 0) {
		return r;
	}
	if (keysym == XKB_KEY_NoSymbol) {
		return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
			"keysym 0 (NoSymbol) cannot be typed");
	}
	if (!virtual_input_keysym(vi, keysym, pressed)) {
		char name[64];
		if (xkb_keysym_get_name(keysym, name, sizeof(name)) < 0) {
			snprintf(name, sizeof(name), "0x%" PRIx32, keysym);
		}
		return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
			"keysym %s cannot be typed with the active keymap", name);
	}
	return sd_bus_reply_method_return(msg, "");
}

/* Where the pointer is, e.g. for a colour picker that reads the pixel under it. */
static int method_pointer_position(sd_bus_message *msg, void *data, sd_bus_error *error) {
	struct control *control = data;
	int r = control_read_checked(control, msg, error, "");
	if (r < 0) {
		return r;
	}
	struct wlr_cursor *cursor = seat_cursor(control->server->seat);
	return sd_bus_reply_method_return(msg, "dd", cursor->x, cursor->y);
}

const sd_bus_vtable control_input_vtable[] = {
	SD_BUS_VTABLE_START(0),
	SD_BUS_METHOD_WITH_ARGS("PointerMotionAbsolute",
		SD_BUS_ARGS("d", x, "d", y),
		SD_BUS_NO_RESULT,
		method_pointer_motion_absolute, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD_WITH_ARGS("PointerButton",
		SD_BUS_ARGS("u", button, "b", pressed),
		SD_BUS_NO_RESULT,
		method_pointer_button, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD_WITH_ARGS("PointerAxis",
		SD_BUS_ARGS("u", axis, "d", steps),
		SD_BUS_NO_RESULT,
		method_pointer_axis, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD_WITH_ARGS("KeyboardKeycode",
		SD_BUS_ARGS("u", keycode, "b", pressed),
		SD_BUS_NO_RESULT,
		method_keyboard_keycode, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD_WITH_ARGS("KeyboardKeysym",
		SD_BUS_ARGS("u", keysym, "b", pressed),
		SD_BUS_NO_RESULT,
		method_keyboard_keysym, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD_WITH_ARGS("OpenSession",
		SD_BUS_ARGS("s", client),
		SD_BUS_RESULT("t", session_id),
		control_remote_open_session, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD_WITH_ARGS("CloseSession",
		SD_BUS_ARGS("t", session_id),
		SD_BUS_NO_RESULT,
		control_remote_close_session, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_SIGNAL_WITH_ARGS("SessionClosed",
		SD_BUS_ARGS("t", session_id), 0),
	SD_BUS_METHOD_WITH_ARGS("PointerPosition",
		SD_BUS_NO_ARGS,
		SD_BUS_RESULT("d", x, "d", y),
		method_pointer_position, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_VTABLE_END,
};
