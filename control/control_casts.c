/* SPDX-License-Identifier: MIT */
/*
 * org.oriel.Compositor.Casts: PipeWire screen casts (capture/pipewire/pipewire_stream.h).
 * CreateOutputCast answers once the stream has its node id (asynchronously,
 * the compositor does not wait). A cast lives until Stop, until its
 * consumer or PipeWire goes away, or until the bus connection of the
 * caller that created it closes (sd_bus_track), so a dead orielctl or
 * portal leaves no cast behind. Closed(cast_id) is emitted when a cast ends.
 * Every change shows on the sharing indicator (control_share.c).
 * RecordVirtual casts an output made for the cast (compositor/virtual_output.h)
 * that goes away with it.
 */

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <wlr/types/wlr_output.h>
#include <wlr/util/log.h>
#include "oriel-config.h"
#include "control/control_private.h"
#include "control/control_utf8.h"
#include "compositor/output.h"
#include "compositor/server.h"
#include "common/util.h"
#include "compositor/view.h"
#include "compositor/virtual_output.h"
#if HAVE_PIPEWIRE
#include <stdarg.h>
#include <stdio.h>
#include "capture/pipewire/pipewire_stream.h"
#include "capture/scene_render.h"
#endif

/* Cursor modes, as the ScreenCast portal numbers them; 0 is the default. */
#define CAST_CURSOR_DEFAULT 0
#define CAST_CURSOR_HIDDEN 1
#define CAST_CURSOR_EMBEDDED 2
#define CAST_CURSOR_METADATA 4
#define CONTROL_MAX_CASTS 64
#define CONTROL_MAX_CLIENT_NAME 256

#if HAVE_PIPEWIRE

struct control_cast {
	struct control *control;
	uint64_t id;
	char *output_name;
	char *client; /* who gets it, for the sharing indicator */
	uint32_t cursor_mode;
	struct pipewire_cast *cast;
	struct virtual_output *virtual; /* RecordVirtual's output, or NULL */
	sd_bus_track *track;
	sd_bus_message *pending_reply; /* CreateOutputCast until ready */
	struct wl_list link; /* control_casts.casts */
};

struct control_casts {
	struct pipewire_core *core;
	struct wl_list casts;
	uint64_t next_id;
};

static char *ctl_strdup_printf(const char *fmt, ...) {
	va_list ap;
	va_start(ap, fmt);
	char *s = NULL;
	if (vasprintf(&s, fmt, ap) < 0) {
		s = NULL;
	}
	va_end(ap);
	return s;
}

static struct control_casts *casts_of(struct control *control) {
	if (!control->casts) {
		control->casts = zalloc(sizeof(*control->casts));
		wl_list_init(&control->casts->casts);
		control->casts->next_id = 1;
	}
	return control->casts;
}

/* A reply sent outside sd_bus_process: make sure it leaves now. */
static void flush_soon(struct control *control) {
	int events = sd_bus_get_events(control->bus);
	if (events > 0 && (events & POLLOUT)) {
		sd_bus_flush(control->bus);
	}
}

static void cast_free(struct control_cast *cc, const char *why) {
	struct control *control = cc->control;
	if (cc->pending_reply) {
		sd_bus_error error = SD_BUS_ERROR_NULL;
		sd_bus_error_setf(&error, SD_BUS_ERROR_FAILED, "the cast failed: %s",
			why ? why : "stopped");
		sd_bus_reply_method_error(cc->pending_reply, &error);
		sd_bus_error_free(&error);
		cc->pending_reply = sd_bus_message_unref(cc->pending_reply);
	} else if (why && control->bus && sd_bus_is_open(control->bus) > 0) {
		sd_bus_emit_signal(control->bus, CONTROL_PATH, CONTROL_IFACE_CASTS, "Closed",
			"t", cc->id);
	}
	flush_soon(control);
	pipewire_cast_destroy(cc->cast);
	/* After the cast: its end is ours, not the output's going away. */
	virtual_output_destroy(cc->virtual);
	cc->track = sd_bus_track_unref(cc->track);
	wl_list_remove(&cc->link);
	free(cc->output_name);
	free(cc->client);
	free(cc);
	control_share_update(control);
}

static void handle_cast_ready(struct pipewire_cast *cast, uint32_t node_id, void *data) {
	struct control_cast *cc = data;
	wlr_log(WLR_INFO, "control: cast %" PRIu64 " of %s is PipeWire node %u",
		cc->id, cc->output_name, node_id);
	if (cc->pending_reply) {
		sd_bus_reply_method_return(cc->pending_reply, "tu", cc->id, node_id);
		cc->pending_reply = sd_bus_message_unref(cc->pending_reply);
		flush_soon(cc->control);
	}
}

static void handle_cast_closed(struct pipewire_cast *cast, const char *why, void *data) {
	struct control_cast *cc = data;
	wlr_log(WLR_INFO, "control: cast %" PRIu64 " ended: %s", cc->id, why);
	cast_free(cc, why);
}

static const struct pipewire_cast_callbacks cast_callbacks = {
	.ready = handle_cast_ready,
	.closed = handle_cast_closed,
};

static int handle_track(sd_bus_track *track, void *data) {
	struct control_cast *cc = data;
	wlr_log(WLR_INFO, "control: the owner of cast %" PRIu64 " left the bus", cc->id);
	cast_free(cc, "its owner left the bus");
	return 0;
}

static struct control_cast *cast_by_id(struct control *control, uint64_t id) {
	if (!control->casts) {
		return NULL;
	}
	struct control_cast *cc;
	wl_list_for_each(cc, &control->casts->casts, link) {
		if (cc->id == id) {
			return cc;
		}
	}
	return NULL;
}

enum cast_kind { CAST_KIND_OUTPUT, CAST_KIND_WINDOW, CAST_KIND_REGION, CAST_KIND_VIRTUAL };

struct cast_request {
	enum cast_kind kind;
	struct output *output;
	struct view *view;
	struct wlr_box region; /* CAST_KIND_VIRTUAL: its size */
	uint32_t cursor_mode;
};

/* Checks, connects to PipeWire and starts the cast; answered when ready. */
static int create_cast(struct control *control, sd_bus_message *msg,
		const struct cast_request *req, sd_bus_error *error) {
	if (req->cursor_mode != CAST_CURSOR_DEFAULT && req->cursor_mode != CAST_CURSOR_HIDDEN &&
			req->cursor_mode != CAST_CURSOR_EMBEDDED &&
			req->cursor_mode != CAST_CURSOR_METADATA) {
		return sd_bus_error_setf(error, SD_BUS_ERROR_NOT_SUPPORTED,
			"cursor mode %" PRIu32 " is not supported (0 default, 1 hidden, "
			"2 embedded or 4 metadata)", req->cursor_mode);
	}
	struct control_casts *casts = casts_of(control);
	if (wl_list_length(&casts->casts) >= CONTROL_MAX_CASTS) {
		return sd_bus_error_setf(error, SD_BUS_ERROR_LIMITS_EXCEEDED,
			"too many casts (at most %d)", CONTROL_MAX_CASTS);
	}
	if (casts->core && !pipewire_core_connected(casts->core) &&
			wl_list_empty(&casts->casts)) {
		/* PipeWire restarted: connect again. */
		pipewire_core_destroy(casts->core);
		casts->core = NULL;
	}
	if (!casts->core) {
		casts->core = pipewire_core_create(control->server->loop);
	}
	if (!pipewire_core_connected(casts->core)) {
		return sd_bus_error_setf(error, SD_BUS_ERROR_FAILED,
			"PipeWire is not available (oriel's log says why)");
	}

	struct control_cast *cc = zalloc(sizeof(*cc));
	cc->control = control;
	cc->id = casts->next_id++;
	switch (req->kind) {
	case CAST_KIND_OUTPUT:
		cc->output_name = strdup(req->output->wlr_output->name);
		break;
	case CAST_KIND_WINDOW:
		cc->output_name = ctl_strdup_printf("window:%" PRIu64, req->view->id);
		break;
	case CAST_KIND_REGION:
		cc->output_name = ctl_strdup_printf("region:%dx%d+%d+%d", req->region.width,
			req->region.height, req->region.x, req->region.y);
		break;
	case CAST_KIND_VIRTUAL:
		cc->virtual = virtual_output_create(control->server, req->region.width,
			req->region.height);
		if (!cc->virtual) {
			free(cc);
			return sd_bus_error_setf(error, SD_BUS_ERROR_FAILED,
				"cannot create a virtual output (oriel's log says why)");
		}
		cc->output_name = strdup(virtual_output_get(cc->virtual)->wlr_output->name);
		break;
	}
	cc->cursor_mode = req->cursor_mode ? req->cursor_mode : CAST_CURSOR_EMBEDDED;
	cc->client = control_caller_name(msg);
	wl_list_insert(casts->casts.prev, &cc->link);
	int r = sd_bus_track_new(control->bus, &cc->track, handle_track, cc);
	if (r >= 0) {
		r = sd_bus_track_add_sender(cc->track, msg);
	}
	if (r < 0) {
		cast_free(cc, NULL);
		return r;
	}
	switch (req->kind) {
	case CAST_KIND_OUTPUT:
		cc->cast = pipewire_cast_create_output(casts->core, req->output,
			&cast_callbacks, cc);
		break;
	case CAST_KIND_WINDOW:
		cc->cast = pipewire_cast_create_view(casts->core, req->view, &cast_callbacks, cc);
		break;
	case CAST_KIND_REGION:
		cc->cast = pipewire_cast_create_region(casts->core, control->server,
			&req->region, &cast_callbacks, cc);
		break;
	case CAST_KIND_VIRTUAL:
		cc->cast = pipewire_cast_create_virtual(casts->core,
			virtual_output_get(cc->virtual), &cast_callbacks, cc);
		break;
	}
	if (!cc->cast) {
		cast_free(cc, NULL);
		return sd_bus_error_setf(error, SD_BUS_ERROR_FAILED,
			"cannot create the PipeWire stream (oriel's log says why)");
	}
	pipewire_cast_set_cursor_mode(cc->cast, cc->cursor_mode);
	control_share_update(control);
	/* Answered by handle_cast_ready (or cast_free, on failure). */
	cc->pending_reply = sd_bus_message_ref(msg);
	return 1;
}

static int method_create_output_cast(sd_bus_message *msg, void *data,
		sd_bus_error *error) {
	struct control *control = data;
	const char *name;
	struct cast_request req = { .kind = CAST_KIND_OUTPUT };
	int r = control_read_checked(control, msg, error, "su", &name, &req.cursor_mode);
	if (r < 0) {
		return r;
	}
	req.output = output_by_name(control->server, name);
	if (!req.output) {
		return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
			"no output named '%.*s'", control_utf8_prefix(name, 64), name);
	}
	return create_cast(control, msg, &req, error);
}

static int method_create_window_cast(sd_bus_message *msg, void *data,
		sd_bus_error *error) {
	struct control *control = data;
	uint64_t id;
	struct cast_request req = { .kind = CAST_KIND_WINDOW };
	int r = control_read_checked(control, msg, error, "tu", &id, &req.cursor_mode);
	if (r < 0) {
		return r;
	}
	req.view = view_from_id(control->server, id);
	if (!req.view) {
		return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
			"no window with id %" PRIu64, id);
	}
	if (!req.view->mapped || req.view->geometry.width <= 0 ||
			req.view->geometry.height <= 0) {
		return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
			"window %" PRIu64 " shows nothing", id);
	}
	return create_cast(control, msg, &req, error);
}

static int method_create_region_cast(sd_bus_message *msg, void *data,
		sd_bus_error *error) {
	struct control *control = data;
	int32_t x, y;
	uint32_t w, h;
	struct cast_request req = { .kind = CAST_KIND_REGION };
	int r = control_read_checked(control, msg, error, "iiuuu", &x, &y, &w, &h, &req.cursor_mode);
	if (r < 0) {
		return r;
	}
	if (w < 1 || h < 1 || w > SCENE_RENDER_MAX_SIDE || h > SCENE_RENDER_MAX_SIDE ||
			(uint64_t)w * h > SCENE_RENDER_MAX_PIXELS ||
			x > INT32_MAX - (int32_t)w || y > INT32_MAX - (int32_t)h ||
			x < INT32_MIN / 2 || y < INT32_MIN / 2) {
		return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
			"bad region %" PRIu32 "x%" PRIu32 "+%" PRId32 "+%" PRId32
			" (sides 1..%d, at most %u pixels)", w, h, x, y, SCENE_RENDER_MAX_SIDE,
			SCENE_RENDER_MAX_PIXELS);
	}
	req.region = (struct wlr_box){ .x = x, .y = y, .width = (int)w, .height = (int)h };
	return create_cast(control, msg, &req, error);
}

static int method_record_virtual(sd_bus_message *msg, void *data, sd_bus_error *error) {
	struct control *control = data;
	uint32_t w, h;
	struct cast_request req = { .kind = CAST_KIND_VIRTUAL };
	int r = control_read_checked(control, msg, error, "uuu", &w, &h, &req.cursor_mode);
	if (r < 0) {
		return r;
	}
	if (w < 1 || h < 1 || w > PIPEWIRE_CAST_VIRTUAL_MAX_SIDE ||
			h > PIPEWIRE_CAST_VIRTUAL_MAX_SIDE) {
		return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
			"bad virtual output size %" PRIu32 "x%" PRIu32 " (sides 1..%d)", w, h,
			PIPEWIRE_CAST_VIRTUAL_MAX_SIDE);
	}
	req.region = (struct wlr_box){ .width = (int)w, .height = (int)h };
	return create_cast(control, msg, &req, error);
}

static int method_stop(sd_bus_message *msg, void *data, sd_bus_error *error) {
	struct control *control = data;
	uint64_t id;
	int r = control_read_checked(control, msg, error, "t", &id);
	if (r < 0) {
		return r;
	}
	struct control_cast *cc = cast_by_id(control, id);
	if (!cc) {
		return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
			"no cast with id %" PRIu64, id);
	}
	cast_free(cc, "stopped");
	return sd_bus_reply_method_return(msg, "");
}

/* Names who gets the cast, for the indicator; only its creator may. */
static int method_set_client(sd_bus_message *msg, void *data, sd_bus_error *error) {
	struct control *control = data;
	uint64_t id;
	const char *client;
	int r = control_read_checked(control, msg, error, "ts", &id, &client);
	if (r < 0) {
		return r;
	}
	struct control_cast *cc = cast_by_id(control, id);
	if (!cc || sd_bus_track_count_sender(cc->track, msg) <= 0) {
		return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
			"no cast with id %" PRIu64 " of yours", id);
	}
	if (!client[0] || strlen(client) > CONTROL_MAX_CLIENT_NAME) {
		return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
			"the client's name must have 1 to %d bytes", CONTROL_MAX_CLIENT_NAME);
	}
	free(cc->client);
	cc->client = xstrdup(client);
	control_share_update(control);
	return sd_bus_reply_method_return(msg, "");
}

void control_casts_for_each(struct control *control,
		void (*fn)(const char *source, const char *client, void *data), void *data) {
	if (!control->casts) {
		return;
	}
	struct control_cast *cc;
	wl_list_for_each(cc, &control->casts->casts, link) {
		fn(cc->output_name, cc->client, data);
	}
}

void control_casts_stop_all(struct control *control, const char *why) {
	if (!control->casts) {
		return;
	}
	struct control_cast *cc, *tmp;
	wl_list_for_each_safe(cc, tmp, &control->casts->casts, link) {
		wlr_log(WLR_INFO, "control: cast %" PRIu64 " ended: %s", cc->id, why);
		cast_free(cc, why);
	}
}

static int method_list(sd_bus_message *msg, void *data, sd_bus_error *error) {
	struct control *control = data;
	sd_bus_message *reply;
	int r = control_array_reply_begin(msg, "(tsuu)", &reply);
	if (control->casts) {
		struct control_cast *cc;
		wl_list_for_each(cc, &control->casts->casts, link) {
			if (r < 0) {
				break;
			}
			r = sd_bus_message_append(reply, "(tsuu)", cc->id, cc->output_name,
				pipewire_cast_node_id(cc->cast), cc->cursor_mode);
		}
	}
	return control_array_reply_end(reply, r);
}

void control_casts_finish(struct control *control) {
	if (!control->casts) {
		return;
	}
	struct control_cast *cc, *tmp;
	wl_list_for_each_safe(cc, tmp, &control->casts->casts, link) {
		cast_free(cc, NULL);
	}
	pipewire_core_destroy(control->casts->core);
	free(control->casts);
	control->casts = NULL;
}

#else

static int not_built(sd_bus_message *msg, void *data, sd_bus_error *error) {
	return sd_bus_error_setf(error, SD_BUS_ERROR_NOT_SUPPORTED,
		"oriel was built without PipeWire support");
}
#define method_create_output_cast not_built
#define method_create_window_cast not_built
#define method_create_region_cast not_built
#define method_record_virtual not_built
#define method_stop not_built
#define method_set_client not_built

void control_casts_for_each(struct control *control,
		void (*fn)(const char *source, const char *client, void *data), void *data) {
}

void control_casts_stop_all(struct control *control, const char *why) {
}

static int method_list(sd_bus_message *msg, void *data, sd_bus_error *error) {
	return sd_bus_reply_method_return(msg, "a(tsuu)", 0);
}

void control_casts_finish(struct control *control) {
}

#endif

const sd_bus_vtable control_casts_vtable[] = {
	SD_BUS_VTABLE_START(0),
	SD_BUS_METHOD_WITH_ARGS("CreateOutputCast",
		SD_BUS_ARGS("s", output, "u", cursor_mode),
		SD_BUS_RESULT("t", cast_id, "u", node_id),
		method_create_output_cast, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD_WITH_ARGS("CreateWindowCast",
		SD_BUS_ARGS("t", window_id, "u", cursor_mode),
		SD_BUS_RESULT("t", cast_id, "u", node_id),
		method_create_window_cast, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD_WITH_ARGS("CreateRegionCast",
		SD_BUS_ARGS("i", x, "i", y, "u", width, "u", height, "u", cursor_mode),
		SD_BUS_RESULT("t", cast_id, "u", node_id),
		method_create_region_cast, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD_WITH_ARGS("RecordVirtual",
		SD_BUS_ARGS("u", width, "u", height, "u", cursor_mode),
		SD_BUS_RESULT("t", cast_id, "u", node_id),
		method_record_virtual, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD_WITH_ARGS("Stop",
		SD_BUS_ARGS("t", cast_id),
		SD_BUS_NO_RESULT,
		method_stop, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD_WITH_ARGS("SetClient",
		SD_BUS_ARGS("t", cast_id, "s", client),
		SD_BUS_NO_RESULT,
		method_set_client, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD_WITH_ARGS("List",
		SD_BUS_NO_ARGS,
		SD_BUS_RESULT("a(tsuu)", casts),
		method_list, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_SIGNAL_WITH_ARGS("Closed",
		SD_BUS_ARGS("t", cast_id),
		0),
	SD_BUS_VTABLE_END,
};
