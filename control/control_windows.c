/* SPDX-License-Identifier: MIT */
/* org.oriel.Compositor.Windows */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <wlr/util/box.h>
#include <wlr/util/log.h>
#include "control/control_private.h"
#include "control/control_utf8.h"
#include "compositor/server.h"
#include "compositor/view.h"

/* Bounds for what peers ask: far beyond any layout, far from overflow. */
#define CONTROL_MAX_COORD 1000000
#define CONTROL_MAX_WINDOW_SIZE 16384

static int append_window(sd_bus_message *reply, struct view *view) {
	char *title_owned, *app_id_owned;
	const char *title = control_utf8_sanitize(view->impl->get_title(view),
		&title_owned);
	const char *app_id = control_utf8_sanitize(view->impl->get_app_id(view),
		&app_id_owned);
	pid_t pid = view->impl->get_pid ? view->impl->get_pid(view) : 0;
	struct server *server = view->server;
	int r = sd_bus_message_append(reply, "(tsssiiiiubbbb)", view->id, title, app_id,
		view_kind_name(view), (int32_t)view->geometry.x, (int32_t)view->geometry.y,
		(int32_t)view->geometry.width, (int32_t)view->geometry.height,
		(uint32_t)(pid > 0 ? pid : 0), server->focused_view == view,
		view->maximized, view->fullscreen, view->minimized);
	free(title_owned);
	free(app_id_owned);
	return r;
}

static int method_list(sd_bus_message *msg, void *data, sd_bus_error *error) {
	struct control *control = data;
	sd_bus_message *reply;
	int r = control_array_reply_begin(msg, "(tsssiiiiubbbb)", &reply);
	/* server->views is top first; the API lists bottom first. */
	struct view *view;
	wl_list_for_each_reverse(view, &control->server->views, link) {
		if (r < 0) {
			break;
		}
		if (view->mapped) {
			r = append_window(reply, view);
		}
	}
	return control_array_reply_end(reply, r);
}

/* The mapped window with this id; NULL with error set when there is none. */
static struct view *find_view(struct control *control, uint64_t id,
		sd_bus_error *error) {
	struct view *view = view_from_id(control->server, id);
	if (!view) {
		sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
			"no window with id %" PRIu64, id);
	}
	return view;
}

/* The common start of every mutation: caller check, then the window. */
/*
 * Reads the arguments, whose first is the window id ("t..."), checks the
 * caller and finds the window.
 */
static int begin_mutation(struct control *control, sd_bus_message *msg,
		sd_bus_error *error, struct view **view, const char *types, ...) {
	va_list args, id_arg;
	va_start(args, types);
	va_copy(id_arg, args);
	const uint64_t *id = va_arg(id_arg, const uint64_t *);
	va_end(id_arg);
	int r = control_read_checkedv(control, msg, error, types, args);
	va_end(args);
	if (r < 0) {
		return r;
	}
	*view = find_view(control, *id, error);
	return *view ? 0 : -EINVAL;
}

static int refuse_if_fitted(struct view *view, sd_bus_error *error, const char *what) {
	if (view->fullscreen || view->maximized_axes) {
		return sd_bus_error_setf(error, SD_BUS_ERROR_FAILED,
			"window %" PRIu64 " is %s; it cannot be %s until it is restored",
			view->id, view->fullscreen ? "fullscreen" : "maximized", what);
	}
	return 0;
}

static int method_focus(sd_bus_message *msg, void *data, sd_bus_error *error) {
	uint64_t id;
	struct view *view;
	int r = begin_mutation(data, msg, error, &view, "t", &id);
	if (r < 0) {
		return r;
	}
	view_focus(view);
	return sd_bus_reply_method_return(msg, "");
}

static int method_move(sd_bus_message *msg, void *data, sd_bus_error *error) {
	uint64_t id;
	int32_t x, y;
	struct view *view;
	int r = begin_mutation(data, msg, error, &view, "tii", &id, &x, &y);
	if (r < 0) {
		return r;
	}
	if (x < -CONTROL_MAX_COORD || x > CONTROL_MAX_COORD ||
			y < -CONTROL_MAX_COORD || y > CONTROL_MAX_COORD) {
		return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
			"position %" PRId32 ",%" PRId32 " is out of range "
			"(at most %d either way)", x, y, CONTROL_MAX_COORD);
	}
	r = refuse_if_fitted(view, error, "moved");
	if (r < 0) {
		return r;
	}
	view_move(view, x, y);
	return sd_bus_reply_method_return(msg, "");
}

static int method_resize(sd_bus_message *msg, void *data, sd_bus_error *error) {
	uint64_t id;
	int32_t width, height;
	struct view *view;
	int r = begin_mutation(data, msg, error, &view, "tii", &id, &width, &height);
	if (r < 0) {
		return r;
	}
	if (width < 1 || height < 1 || width > CONTROL_MAX_WINDOW_SIZE ||
			height > CONTROL_MAX_WINDOW_SIZE) {
		return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
			"window size %" PRId32 "x%" PRId32 " is out of range (1x1 to %dx%d)",
			width, height, CONTROL_MAX_WINDOW_SIZE, CONTROL_MAX_WINDOW_SIZE);
	}
	r = refuse_if_fitted(view, error, "resized");
	if (r < 0) {
		return r;
	}
	struct wlr_box box = {
		.x = view->geometry.x,
		.y = view->geometry.y,
		.width = width,
		.height = height,
	};
	view_move_resize(view, &box);
	return sd_bus_reply_method_return(msg, "");
}

static int method_close(sd_bus_message *msg, void *data, sd_bus_error *error) {
	uint64_t id;
	struct view *view;
	int r = begin_mutation(data, msg, error, &view, "t", &id);
	if (r < 0) {
		return r;
	}
	view_close(view);
	return sd_bus_reply_method_return(msg, "");
}

static int set_state(sd_bus_message *msg, void *data, sd_bus_error *error,
		void (*set)(struct view *view, bool on)) {
	uint64_t id;
	int on;
	struct view *view;
	int r = begin_mutation(data, msg, error, &view, "tb", &id, &on);
	if (r < 0) {
		return r;
	}
	set(view, on);
	return sd_bus_reply_method_return(msg, "");
}

static int method_set_maximized(sd_bus_message *msg, void *data, sd_bus_error *error) {
	return set_state(msg, data, error, view_set_maximized);
}

static int method_set_fullscreen(sd_bus_message *msg, void *data,
		sd_bus_error *error) {
	return set_state(msg, data, error, view_set_fullscreen);
}

static int method_set_minimized(sd_bus_message *msg, void *data, sd_bus_error *error) {
	return set_state(msg, data, error, view_set_minimized);
}

const sd_bus_vtable control_windows_vtable[] = {
	SD_BUS_VTABLE_START(0),
	SD_BUS_METHOD_WITH_ARGS("List",
		SD_BUS_NO_ARGS,
		SD_BUS_RESULT("a(tsssiiiiubbbb)", windows),
		method_list, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD_WITH_ARGS("Focus",
		SD_BUS_ARGS("t", id),
		SD_BUS_NO_RESULT,
		method_focus, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD_WITH_ARGS("Move",
		SD_BUS_ARGS("t", id, "i", x, "i", y),
		SD_BUS_NO_RESULT,
		method_move, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD_WITH_ARGS("Resize",
		SD_BUS_ARGS("t", id, "i", width, "i", height),
		SD_BUS_NO_RESULT,
		method_resize, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD_WITH_ARGS("Close",
		SD_BUS_ARGS("t", id),
		SD_BUS_NO_RESULT,
		method_close, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD_WITH_ARGS("SetMaximized",
		SD_BUS_ARGS("t", id, "b", maximized),
		SD_BUS_NO_RESULT,
		method_set_maximized, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD_WITH_ARGS("SetFullscreen",
		SD_BUS_ARGS("t", id, "b", fullscreen),
		SD_BUS_NO_RESULT,
		method_set_fullscreen, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD_WITH_ARGS("SetMinimized",
		SD_BUS_ARGS("t", id, "b", minimized),
		SD_BUS_NO_RESULT,
		method_set_minimized, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_VTABLE_END,
};
