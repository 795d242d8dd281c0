/* SPDX-License-Identifier: MIT */
/*
 * org.freedesktop.impl.portal.Screenshot for oriel.
 *
 * Screenshot writes the whole layout (every output, through oriel's
 * Screenshot.Region) as a PNG in $XDG_RUNTIME_DIR/oriel/screenshots/
 * (else $XDG_CACHE_HOME/oriel/screenshots/), private to the user, and
 * answers its file:// URI. PickColor answers the colour of the pixel under
 * the pointer as (ddd) in 0..1. Both ask portal_decide (the [screenshot]
 * policy, or the person in oriel's prompt) every time, and shoot or pick
 * once it answers, so a shot never shows the prompt and PickColor reads
 * the pointer where it is then.
 *
 * An "interactive" Screenshot always has the person choose in oriel's
 * prompt, unless the policy denies: an output (Screenshot.Output), a
 * window (Screenshot.Window: its own surfaces, not what covers it) or "A
 * region…", which then has the person drag a rectangle
 * (Permission.SelectRegion) that Screenshot.Region shoots.
 *
 * The interface says version 1 on purpose: from version 2 on, the 1.16
 * frontend first asks its own permission store and the Access dialog for
 * a non-interactive shot and keeps that answer for ever, so a later change
 * of the policy would never be seen. At version 1 every request comes here.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "portal/paths.h"
#include "portal/png_pixel.h"
#include "portal/portal.h"

#define SCREENSHOT_VERSION 1u
#define PICK_PNG_MAX (1u << 16)
/* The interactive chooser's words (as sources.c's) and its region row. */
#define MONITOR_PREFIX "monitor:"
#define WINDOW_PREFIX "window:"
#define REGION_WORD "region"
#define REGION_LABEL "A region\u2026 (drag a rectangle on the screen)"
#define ORIEL_IFACE_PERMISSION "org.oriel.Compositor.Permission"
#define ORIEL_ERROR_CANCELLED "org.oriel.Compositor.Error.Cancelled"
/* SelectRegion may take the selector's timeout and this much more. */
#define REGION_CALL_MARGIN_S 15

/* Reads the options a{sv}: only "interactive" matters. */
static int read_interactive(sd_bus_message *msg, bool *interactive) {
	int r = sd_bus_message_enter_container(msg, 'a', "{sv}");
	while (r >= 0 && (r = sd_bus_message_enter_container(msg, 'e', "sv")) > 0) {
		const char *key;
		r = sd_bus_message_read(msg, "s", &key);
		if (r >= 0 && !strcmp(key, "interactive") &&
				sd_bus_message_verify_type(msg, 'v', "b") > 0) {
			int b = 0;
			r = sd_bus_message_read(msg, "v", "b", &b);
			*interactive = b;
		} else if (r >= 0) {
			r = sd_bus_message_skip(msg, "v");
		}
		r = r < 0 ? r : sd_bus_message_exit_container(msg);
	}
	return r < 0 ? r : sd_bus_message_exit_container(msg);
}

static char *screenshot_dir(void) {
	const char *runtime = getenv("XDG_RUNTIME_DIR");
	const char *cache = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");
	char *dir = NULL;
	int r = -1;
	if (runtime && runtime[0] == '/') {
		r = asprintf(&dir, "%s/oriel/screenshots", runtime);
	} else if (cache && cache[0] == '/') {
		r = asprintf(&dir, "%s/oriel/screenshots", cache);
	} else if (home && home[0] == '/') {
		r = asprintf(&dir, "%s/.cache/oriel/screenshots", home);
	}
	return r < 0 ? NULL : dir;
}

/* Creates a new file "screenshot-DATE-TIME[-N].png" in dir; fd or -errno. */
static int create_file(const char *dir, char **path_out) {
	char stamp[32];
	time_t now = time(NULL);
	struct tm tm;
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", localtime_r(&now, &tm));
	for (int n = 1; n < 1000; n++) {
		char *path = NULL;
		int r = n == 1 ? asprintf(&path, "%s/screenshot-%s.png", dir, stamp) :
			asprintf(&path, "%s/screenshot-%s-%d.png", dir, stamp, n);
		if (r < 0) {
			return -ENOMEM;
		}
		int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (fd >= 0) {
			*path_out = path;
			return fd;
		}
		r = -errno;
		free(path);
		if (r != -EEXIST) {
			return r;
		}
	}
	return -EEXIST;
}

/* The bounding box of every output. */
static void layout_box(const struct portal_output *o, int n, int32_t box[4]) {
	int64_t x1 = INT32_MAX, y1 = INT32_MAX, x2 = INT32_MIN, y2 = INT32_MIN;
	for (int i = 0; i < n; i++) {
		x1 = o[i].x < x1 ? o[i].x : x1;
		y1 = o[i].y < y1 ? o[i].y : y1;
		x2 = (int64_t)o[i].x + o[i].width > x2 ? (int64_t)o[i].x + o[i].width : x2;
		y2 = (int64_t)o[i].y + o[i].height > y2 ? (int64_t)o[i].y + o[i].height : y2;
	}
	box[0] = x1;
	box[1] = y1;
	box[2] = x2 - x1;
	box[3] = y2 - y1;
}

/* What a shot shows: oriel's Screenshot method and its arguments. */
struct shot {
	enum { SHOT_LAYOUT, SHOT_OUTPUT, SHOT_WINDOW, SHOT_REGION } type;
	const char *output;
	uint64_t window;
	int32_t box[4];
};

/* Takes shot into a new file; its path, or NULL. */
static char *shoot(struct portal *portal, const struct shot *shot) {
	sd_bus_error error = SD_BUS_ERROR_NULL;
	struct portal_output *outputs = NULL;
	int n = 0;
	char *dir = screenshot_dir(), *path = NULL;
	int fd = -1;
	int r = dir ? portal_make_dirs(dir) : -ENOENT;
	if (r >= 0 && shot->type == SHOT_LAYOUT) {
		r = portal_list_outputs(portal, &outputs, &n, &error);
		if (r >= 0 && n == 0) {
			r = -ENODEV;
		}
	}
	if (r >= 0) {
		fd = r = create_file(dir, &path);
	}
	if (r >= 0) {
		int32_t box[4];
		switch (shot->type) {
		case SHOT_LAYOUT:
		case SHOT_REGION:
			if (shot->type == SHOT_LAYOUT) {
				layout_box(outputs, n, box);
			} else {
				memcpy(box, shot->box, sizeof(box));
			}
			r = sd_bus_call_method(portal->bus, ORIEL_BUS_NAME, ORIEL_PATH,
				ORIEL_IFACE_SCREENSHOT, "Region", &error, NULL, "iiuuh", box[0], box[1],
				(uint32_t)box[2], (uint32_t)box[3], fd);
			break;
		case SHOT_OUTPUT:
			r = sd_bus_call_method(portal->bus, ORIEL_BUS_NAME, ORIEL_PATH,
				ORIEL_IFACE_SCREENSHOT, "Output", &error, NULL, "sh", shot->output, fd);
			break;
		case SHOT_WINDOW:
			r = sd_bus_call_method(portal->bus, ORIEL_BUS_NAME, ORIEL_PATH,
				ORIEL_IFACE_SCREENSHOT, "Window", &error, NULL, "th", shot->window, fd);
			break;
		}
	}
	if (fd >= 0 && close(fd) < 0 && r >= 0) {
		r = -errno;
	}
	if (r < 0) {
		portal_log(portal, "screenshot failed: %s",
			sd_bus_error_is_set(&error) ? error.message : strerror(-r));
		if (path) {
			unlink(path);
		}
		free(path);
		path = NULL;
	}
	sd_bus_error_free(&error);
	portal_outputs_free(outputs, n);
	free(dir);
	return path;
}

/* Takes shot and answers msg with its URI (or response 2). */
static void shoot_and_reply(struct portal *portal, sd_bus_message *msg, const char *app,
		const struct shot *shot) {
	char *path = shoot(portal, shot);
	char *uri = path ? portal_file_uri(path) : NULL;
	if (uri) {
		/* oriel's sharing indicator says so for a moment. */
		if (app && app[0] && sd_bus_call_method(portal->bus,
				ORIEL_BUS_NAME, ORIEL_PATH, ORIEL_IFACE_SCREENSHOT, "Taken", NULL, NULL,
				"s", app) < 0) {
			portal_log(portal, "cannot note the screenshot on the indicator");
		}
		sd_bus_reply_method_return(msg, "ua{sv}", PORTAL_RESPONSE_SUCCESS, 1, "uri", "s",
			uri);
	} else {
		if (path) {
			unlink(path);
		}
		portal_reply_response(msg, PORTAL_RESPONSE_OTHER);
	}
	free(uri);
	free(path);
}

/*
 * An interactive shot waiting for the person to drag its region. It keeps
 * the frontend's request: when the app closes it, the selector is
 * withdrawn (Permission.Withdraw names the SelectRegion call by cookie).
 */
struct region_wait {
	struct portal *portal;
	sd_bus_message *msg;
	char *app;
	struct portal_request *request;
	uint64_t cookie; /* of the SelectRegion call */
	bool closed;     /* the request was: msg is answered already */
};

static void region_wait_free(void *data) {
	struct region_wait *wait = data;
	sd_bus_message_unref(wait->msg);
	portal_request_destroy(wait->request);
	free(wait->app);
	free(wait);
}

static void handle_region_request_close(struct portal_request *request, void *data) {
	struct region_wait *wait = data;
	portal_log(wait->portal, "the request was closed while the region selector was up: "
		"cancelled");
	wait->closed = true;
	portal_reply_response(wait->msg, PORTAL_RESPONSE_CANCELLED);
	/* oriel answers SelectRegion with Withdrawn; that reply frees wait. */
	if (sd_bus_call_method_async(wait->portal->bus, NULL, ORIEL_BUS_NAME, ORIEL_PATH,
			ORIEL_IFACE_PERMISSION, "Withdraw", NULL, NULL, "t", wait->cookie) < 0) {
		portal_log(wait->portal, "cannot withdraw the region selector");
	}
}

static int handle_region_reply(sd_bus_message *reply, void *data, sd_bus_error *ret_error) {
	struct region_wait *wait = data;
	struct portal *portal = wait->portal;
	const sd_bus_error *error = sd_bus_message_get_error(reply);
	struct shot shot = { .type = SHOT_REGION };
	uint32_t width = 0, height = 0;
	if (wait->closed) {
		return 0; /* answered "cancelled" when the request closed */
	}
	if (error) {
		bool cancelled = error->name && !strcmp(error->name, ORIEL_ERROR_CANCELLED);
		portal_log(portal, "no region for the screenshot: %s",
			error->message ? error->message : error->name);
		portal_reply_response(wait->msg, cancelled ? PORTAL_RESPONSE_CANCELLED :
			PORTAL_RESPONSE_OTHER);
	} else if (sd_bus_message_read(reply, "iiuu", &shot.box[0], &shot.box[1], &width,
			&height) < 0 || width == 0 || height == 0 || width > INT32_MAX ||
			height > INT32_MAX) {
		portal_log(portal, "oriel's region is malformed");
		portal_reply_response(wait->msg, PORTAL_RESPONSE_OTHER);
	} else {
		shot.box[2] = (int32_t)width;
		shot.box[3] = (int32_t)height;
		portal_log(portal, "the person selected %d,%d %ux%u", shot.box[0], shot.box[1],
			width, height);
		shoot_and_reply(portal, wait->msg, wait->app, &shot);
	}
	return 0;
}

/*
 * Has the person drag a region (Permission.SelectRegion); msg answered
 * then. request is the frontend's, taken over from the prompt's answer
 * (NULL when there is none).
 */
static void select_region(struct portal *portal, sd_bus_message *msg, const char *app,
		struct portal_request *request) {
	struct region_wait *wait = calloc(1, sizeof(*wait));
	sd_bus_message *call = NULL;
	sd_bus_slot *slot = NULL;
	unsigned timeout_s = portal_policy_prompt_timeout(&portal->policy,
		PORTAL_KIND_SCREENSHOT);
	int r = wait ? 0 : -ENOMEM;
	if (r >= 0) {
		wait->portal = portal;
		wait->msg = sd_bus_message_ref(msg);
		wait->app = strdup(app ? app : "");
		wait->request = request;
		request = NULL;
		r = wait->app ? 0 : -ENOMEM;
	}
	r = r < 0 ? r : sd_bus_message_new_method_call(portal->bus, &call, ORIEL_BUS_NAME,
		ORIEL_PATH, ORIEL_IFACE_PERMISSION, "SelectRegion");
	r = r < 0 ? r : sd_bus_message_append(call, "u", timeout_s * 1000u);
	/* The call outlives the selector's own timeout. */
	r = r < 0 ? r : sd_bus_call_async(portal->bus, &slot, call, handle_region_reply, wait,
		(timeout_s + REGION_CALL_MARGIN_S) * 1000000ull);
	r = r < 0 ? r : sd_bus_message_get_cookie(call, &wait->cookie);
	sd_bus_message_unref(call);
	if (r < 0) {
		portal_log(portal, "cannot ask oriel for a region: %s", strerror(-r));
		portal_reply_response(msg, PORTAL_RESPONSE_OTHER);
		sd_bus_slot_unref(slot);
		if (wait) {
			region_wait_free(wait);
		}
		portal_request_destroy(request);
		return;
	}
	if (wait->request) {
		wait->request->on_close = handle_region_request_close;
		wait->request->close_data = wait;
	}
	/* The slot frees wait: after the reply, or when the bus goes. */
	sd_bus_slot_set_destroy_callback(slot, region_wait_free);
	sd_bus_slot_set_floating(slot, 1);
	sd_bus_slot_unref(slot);
}

/* portal_decide answered, now or when the person did: shoot, or refuse. */
static void handle_screenshot_decided(struct portal *portal, sd_bus_message *msg,
		const struct portal_answer *answer, void *data) {
	if (!answer->allowed) {
		portal_reply_response(msg, PORTAL_RESPONSE_CANCELLED);
		return;
	}
	const char *choice = answer->choice ? answer->choice : "";
	struct shot shot = { .type = SHOT_LAYOUT };
	if (!strcmp(choice, REGION_WORD)) {
		struct portal_request *request = answer->request ? *answer->request : NULL;
		if (answer->request) {
			*answer->request = NULL; /* the region wait hears of Close now */
		}
		select_region(portal, msg, answer->app, request);
		return;
	}
	if (!strncmp(choice, MONITOR_PREFIX, strlen(MONITOR_PREFIX))) {
		shot.type = SHOT_OUTPUT;
		shot.output = choice + strlen(MONITOR_PREFIX);
	} else if (!strncmp(choice, WINDOW_PREFIX, strlen(WINDOW_PREFIX))) {
		const char *digits = choice + strlen(WINDOW_PREFIX);
		char *end = NULL;
		shot.type = SHOT_WINDOW;
		shot.window = strtoull(digits, &end, 10);
		if (digits[0] < '0' || digits[0] > '9' || *end) {
			portal_log(portal, "the prompt chose an unknown window '%s'", choice);
			portal_reply_response(msg, PORTAL_RESPONSE_OTHER);
			return;
		}
	} else if (choice[0]) {
		portal_log(portal, "the prompt chose an unknown source '%s'", choice);
		portal_reply_response(msg, PORTAL_RESPONSE_OTHER);
		return;
	}
	shoot_and_reply(portal, msg, answer->app, &shot);
}

/*
 * The interactive chooser's rows: the outputs and windows as ScreenCast
 * offers them (sources.c), then the region; the last row gives way to it
 * when the prompt is full.
 */
static int interactive_sources(struct portal *portal, struct portal_sources *sources) {
	sd_bus_error error = SD_BUS_ERROR_NULL;
	struct portal_catalog cat;
	int r = portal_catalog_load(portal, PORTAL_SOURCE_MONITOR | PORTAL_SOURCE_WINDOW, &cat,
		&error);
	if (r < 0) {
		portal_log(portal, "cannot list what to shoot: %s",
			sd_bus_error_is_set(&error) ? error.message : strerror(-r));
		sd_bus_error_free(&error);
		return r;
	}
	r = portal_catalog_sources(&cat, sources);
	portal_catalog_finish(&cat);
	if (r < 0) {
		return r;
	}
	if (sources->n == PORTAL_PROMPT_MAX_SOURCES) {
		sources->n--;
		free(sources->ids[sources->n]);
		free(sources->labels[sources->n]);
	}
	sources->ids[sources->n] = strdup(REGION_WORD);
	sources->labels[sources->n] = strdup(REGION_LABEL);
	sources->n++;
	if (!sources->ids[sources->n - 1] || !sources->labels[sources->n - 1]) {
		portal_sources_finish(sources);
		return -ENOMEM;
	}
	return 0;
}

static int handle_screenshot(sd_bus_message *msg, void *data, sd_bus_error *error) {
	struct portal *portal = data;
	const char *handle, *app_id, *parent_window;
	int r = portal_begin_call(portal, msg, error, "oss", &handle, &app_id, &parent_window);
	bool interactive = false;
	r = r < 0 ? r : read_interactive(msg, &interactive);
	if (r < 0) {
		return r;
	}
	portal_log(portal, "Screenshot for app_id '%s'%s", app_id,
		interactive ? " (interactive: the person chooses)" : "");
	struct portal_sources sources = {0};
	if (interactive && interactive_sources(portal, &sources) < 0) {
		return portal_reply_response(msg, PORTAL_RESPONSE_OTHER);
	}
	struct portal_question question = {
		.kind = PORTAL_KIND_SCREENSHOT,
		.app_id = app_id,
		.request_handle = handle,
		.sources = interactive ? &sources : NULL,
		.always_ask = interactive,
	};
	r = portal_decide(portal, &question, msg, handle_screenshot_decided);
	portal_sources_finish(&sources);
	return r;
}

/* The colour under the pointer, through a one-pixel Screenshot.Region. */
static int pick_colour(struct portal *portal, double rgb_out[3]) {
	sd_bus_error error = SD_BUS_ERROR_NULL;
	double x, y;
	int r = portal_input_pointer_position(portal, &x, &y, &error);
	int fd = -1;
	if (r >= 0) {
		fd = r = memfd_create("oriel-pick", MFD_CLOEXEC);
		r = r < 0 ? -errno : r;
	}
	if (r >= 0) {
		r = sd_bus_call_method(portal->bus, ORIEL_BUS_NAME, ORIEL_PATH,
			ORIEL_IFACE_SCREENSHOT, "Region", &error, NULL, "iiuuh", (int32_t)floor(x),
			(int32_t)floor(y), 1u, 1u, fd);
	}
	struct stat st;
	if (r >= 0 && (fstat(fd, &st) < 0 || st.st_size <= 0 || st.st_size > PICK_PNG_MAX)) {
		r = -EBADMSG;
	}
	void *png = MAP_FAILED;
	if (r >= 0) {
		png = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		r = png == MAP_FAILED ? -errno : 0;
	}
	uint8_t rgb[3];
	if (r >= 0 && !portal_png_first_pixel(png, st.st_size, rgb)) {
		r = -EBADMSG;
	}
	if (png != MAP_FAILED) {
		munmap(png, st.st_size);
	}
	if (fd >= 0) {
		close(fd);
	}
	if (r < 0) {
		portal_log(portal, "PickColor failed: %s",
			sd_bus_error_is_set(&error) ? error.message : strerror(-r));
	} else {
		portal_log(portal, "PickColor at %.1f,%.1f: #%02x%02x%02x", x, y, rgb[0], rgb[1],
			rgb[2]);
		for (int i = 0; i < 3; i++) {
			rgb_out[i] = rgb[i] / 255.0;
		}
	}
	sd_bus_error_free(&error);
	return r;
}

static void handle_pick_color_decided(struct portal *portal, sd_bus_message *msg,
		const struct portal_answer *answer, void *data) {
	double rgb[3];
	if (!answer->allowed) {
		portal_reply_response(msg, PORTAL_RESPONSE_CANCELLED);
	} else if (pick_colour(portal, rgb) < 0) {
		portal_reply_response(msg, PORTAL_RESPONSE_OTHER);
	} else {
		sd_bus_reply_method_return(msg, "ua{sv}", PORTAL_RESPONSE_SUCCESS, 1,
			"color", "(ddd)", rgb[0], rgb[1], rgb[2]);
	}
}

static int handle_pick_color(sd_bus_message *msg, void *data, sd_bus_error *error) {
	struct portal *portal = data;
	const char *handle, *app_id, *parent_window;
	int r = portal_begin_call(portal, msg, error, "oss", &handle, &app_id, &parent_window);
	r = r < 0 ? r : sd_bus_message_skip(msg, "a{sv}");
	if (r < 0) {
		return r;
	}
	struct portal_question question = {
		.kind = PORTAL_KIND_SCREENSHOT,
		.app_id = app_id,
		.request_handle = handle,
	};
	return portal_decide(portal, &question, msg, handle_pick_color_decided);
}

static int get_version(sd_bus *bus, const char *path, const char *iface,
		const char *prop, sd_bus_message *reply, void *data, sd_bus_error *error) {
	return sd_bus_message_append(reply, "u", SCREENSHOT_VERSION);
}

static const sd_bus_vtable screenshot_vtable[] = {
	SD_BUS_VTABLE_START(0),
	SD_BUS_METHOD_WITH_ARGS("Screenshot",
		SD_BUS_ARGS("o", handle, "s", app_id, "s", parent_window, "a{sv}", options),
		SD_BUS_RESULT("u", response, "a{sv}", results),
		handle_screenshot, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD_WITH_ARGS("PickColor",
		SD_BUS_ARGS("o", handle, "s", app_id, "s", parent_window, "a{sv}", options),
		SD_BUS_RESULT("u", response, "a{sv}", results),
		handle_pick_color, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_PROPERTY("version", "u", get_version, 0, SD_BUS_VTABLE_PROPERTY_CONST),
	SD_BUS_VTABLE_END,
};

int portal_screenshot_init(struct portal *portal) {
	return sd_bus_add_object_vtable(portal->bus, &portal->screenshot_slot,
		PORTAL_OBJECT_PATH, PORTAL_IFACE_SCREENSHOT, screenshot_vtable, portal);
}

void portal_screenshot_finish(struct portal *portal) {
	portal->screenshot_slot = sd_bus_slot_unref(portal->screenshot_slot);
}
