/* SPDX-License-Identifier: MIT */
/*
 * org.oriel.Compositor.Screenshot: PNGs written by capture/screenshot.c to
 * a file descriptor the caller passes. Taken notes on the sharing
 * indicator that a screenshot was taken for an app.
 */

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <wlr/util/log.h>
#include "capture/scene_render.h"
#include "capture/screenshot.h"
#include "control/control_private.h"
#include "control/control_utf8.h"
#include "compositor/output.h"
#include "compositor/server.h"
#include "compositor/view.h"

#define CONTROL_MAX_COORD 1000000
#define CONTROL_MAX_CLIENT_NAME 256

/*
 * The fd must be a file (or memfd), pipe or socket open for writing;
 * capture/ bounds how long a pipe or socket may stall the write. Devices
 * and directories are refused.
 */
static int check_fd(int fd, sd_bus_error *error) {
	struct stat st;
	int flags = fcntl(fd, F_GETFL);
	if (flags < 0 || fstat(fd, &st) < 0) {
		return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
			"the file descriptor is unusable: %s", strerror(errno));
	}
	if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode) && !S_ISSOCK(st.st_mode)) {
		return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
			"the file descriptor must be a file, pipe or socket");
	}
	int mode = flags & O_ACCMODE;
	if (mode != O_WRONLY && mode != O_RDWR) {
		return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
			"the file descriptor is not open for writing");
	}
	return 0;
}

static int reply_size(sd_bus_message *msg, sd_bus_error *error, int r,
		uint32_t width, uint32_t height, const char *what) {
	if (r == -ENOENT) {
		return sd_bus_error_setf(error, SD_BUS_ERROR_FAILED,
			"%s shows nothing yet", what);
	}
	if (r < 0) {
		wlr_log(WLR_ERROR, "control: screenshot of %s failed: %s", what,
			strerror(-r));
		return sd_bus_error_setf(error, SD_BUS_ERROR_FAILED,
			"screenshot of %s failed: %s", what, strerror(-r));
	}
	return sd_bus_reply_method_return(msg, "uu", width, height);
}

static int method_output(sd_bus_message *msg, void *data, sd_bus_error *error) {
	struct control *control = data;
	const char *name;
	int fd;
	int r = control_read_checked(control, msg, error, "sh", &name, &fd);
	if (r < 0) {
		return r;
	}
	struct output *output = output_by_name(control->server, name);
	if (!output) {
		return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
			"no output named '%.*s'", control_utf8_prefix(name, 64), name);
	}
	r = check_fd(fd, error);
	if (r < 0) {
		return r;
	}
	uint32_t width = 0, height = 0;
	r = screenshot_output(control->server, output, fd, &width, &height);
	return reply_size(msg, error, r, width, height, name);
}

static int method_window(sd_bus_message *msg, void *data, sd_bus_error *error) {
	struct control *control = data;
	uint64_t id;
	int fd;
	int r = control_read_checked(control, msg, error, "th", &id, &fd);
	if (r < 0) {
		return r;
	}
	struct view *view = view_from_id(control->server, id);
	if (!view) {
		return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
			"no window with id %" PRIu64, id);
	}
	r = check_fd(fd, error);
	if (r < 0) {
		return r;
	}
	uint32_t width = 0, height = 0;
	r = screenshot_view(control->server, view, fd, &width, &height);
	char what[64];
	snprintf(what, sizeof(what), "window %" PRIu64, id);
	return reply_size(msg, error, r, width, height, what);
}

static int method_region(sd_bus_message *msg, void *data, sd_bus_error *error) {
	struct control *control = data;
	int32_t x, y;
	uint32_t width, height;
	int fd;
	int r = control_read_checked(control, msg, error, "iiuuh", &x, &y, &width, &height, &fd);
	if (r < 0) {
		return r;
	}
	if (width < 1 || height < 1 || width > SCENE_RENDER_MAX_SIDE ||
			height > SCENE_RENDER_MAX_SIDE ||
			(uint64_t)width * height > SCENE_RENDER_MAX_PIXELS) {
		return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
			"region size %" PRIu32 "x%" PRIu32 " is out of range (sides 1 to %d, "
			"at most %u pixels)", width, height, SCENE_RENDER_MAX_SIDE,
			(unsigned)SCENE_RENDER_MAX_PIXELS);
	}
	if (x < -CONTROL_MAX_COORD || x > CONTROL_MAX_COORD ||
			y < -CONTROL_MAX_COORD || y > CONTROL_MAX_COORD) {
		return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
			"region position %" PRId32 ",%" PRId32 " is out of range "
			"(at most %d either way)", x, y, CONTROL_MAX_COORD);
	}
	r = check_fd(fd, error);
	if (r < 0) {
		return r;
	}
	uint32_t out_w = 0, out_h = 0;
	r = screenshot_region(control->server, x, y, (int)width, (int)height, fd,
		&out_w, &out_h);
	char what[96];
	snprintf(what, sizeof(what), "region %" PRId32 ",%" PRId32 " %" PRIu32 "x%" PRIu32,
		x, y, width, height);
	return reply_size(msg, error, r, out_w, out_h, what);
}

/* For an app (the portal calls it): the sharing indicator notes the screenshot. */
static int method_taken(sd_bus_message *msg, void *data, sd_bus_error *error) {
	struct control *control = data;
	const char *client;
	int r = control_read_checked(control, msg, error, "s", &client);
	if (r < 0) {
		return r;
	}
	if (!client[0] || strlen(client) > CONTROL_MAX_CLIENT_NAME) {
		return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
			"the client's name must have 1 to %d bytes", CONTROL_MAX_CLIENT_NAME);
	}
	control_share_screenshot_taken(control, client);
	return sd_bus_reply_method_return(msg, "");
}

const sd_bus_vtable control_screenshot_vtable[] = {
	SD_BUS_VTABLE_START(0),
	SD_BUS_METHOD_WITH_ARGS("Output",
		SD_BUS_ARGS("s", name, "h", fd),
		SD_BUS_RESULT("u", width, "u", height),
		method_output, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD_WITH_ARGS("Window",
		SD_BUS_ARGS("t", id, "h", fd),
		SD_BUS_RESULT("u", width, "u", height),
		method_window, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD_WITH_ARGS("Region",
		SD_BUS_ARGS("i", x, "i", y, "u", width, "u", height, "h", fd),
		SD_BUS_RESULT("u", width, "u", height),
		method_region, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD_WITH_ARGS("Taken",
		SD_BUS_ARGS("s", client),
		SD_BUS_NO_RESULT,
		method_taken, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_VTABLE_END,
};
