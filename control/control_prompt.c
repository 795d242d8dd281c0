/* SPDX-License-Identifier: MIT */
/*
 * org.oriel.Compositor.Permission: the portal backend asks the person at
 * the session through oriel's own prompt (prompt.h). Ask is answered when
 * the person answers, or when the timeout denies: the reply is sent from
 * the prompt's callback, long after the method handler returned. Asks
 * queue up behind the one shown. An ask is withdrawn when its caller
 * leaves the bus, or when it calls Withdraw with the cookie of its Ask
 * call (the portal does when the app closes its request): a queued ask
 * leaves the queue, a shown one takes its prompt down and the next one
 * shows.
 *
 * SelectRegion shows the region selector (region_select.h) for an
 * interactive screenshot and answers the rectangle the person drags, or
 * the error Cancelled. Asks wait while it is up; it is refused (Busy)
 * while a prompt or another selector is up, and taken down when its
 * caller leaves the bus.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wlr/util/log.h>
#include "capture/thumbnail.h"
#include "control/control_private.h"
#include "control/control_utf8.h"
#include "compositor/output.h"
#include "compositor/prompt.h"
#include "compositor/prompt_layout.h"
#include "compositor/region_select.h"
#include "compositor/server.h"
#include "common/util.h"
#include "compositor/view.h"

#define MAX_PENDING_ASKS 8
#define MAX_TEXT_BYTES 1024
#define DEFAULT_TIMEOUT_MS 30000u
#define MAX_TIMEOUT_MS 600000u
/* Source ids that the prompt shows a thumbnail of (the portal's words). */
#define SOURCE_MONITOR "monitor:"
#define SOURCE_WINDOW "window:"
/* What a withdrawn Ask is answered with; its caller no longer waits. */
#define ERROR_WITHDRAWN CONTROL_BUS_NAME ".Error.Withdrawn"
/* SelectRegion's errors: the person cancelled; something else is up. */
#define ERROR_CANCELLED CONTROL_BUS_NAME ".Error.Cancelled"
#define ERROR_BUSY CONTROL_BUS_NAME ".Error.Busy"
#define DEFAULT_REGION_TIMEOUT_MS 60000u

struct control_ask {
	struct control *control;
	sd_bus_message *msg; /* answered when the person answers */
	sd_bus_track *track; /* the caller */
	char *app;
	enum prompt_kind kind;
	char *ids[PROMPT_MAX_CHOICES];
	char *labels[PROMPT_MAX_CHOICES];
	int n_sources;
	bool persist_allowed;
	uint32_t timeout_ms;
	/*
	 * The timeout runs from the question, not from when its prompt shows:
	 * a question queued behind another is not answered later than its
	 * caller waits.
	 */
	int64_t deadline_ms;
	struct wl_list link; /* control_asks.queue, the shown one first */
};

struct control_asks {
	struct wl_list queue;
	struct prompt *shown; /* the prompt of the first ask, if it is up */
	/* SelectRegion's selector while it is up, its call and its caller. */
	struct region_select *region;
	sd_bus_message *region_msg;
	sd_bus_track *region_track;
};

static const struct {
	const char *name;
	enum prompt_kind kind;
} kinds[] = {
	{ "screencast", PROMPT_KIND_SCREENCAST },
	{ "window", PROMPT_KIND_WINDOW },
	{ "screenshot", PROMPT_KIND_SCREENSHOT },
	{ "remote", PROMPT_KIND_REMOTE },
};


static struct control_asks *asks_of(struct control *control) {
	if (!control->asks) {
		control->asks = zalloc(sizeof(*control->asks));
		wl_list_init(&control->asks->queue);
	}
	return control->asks;
}

static void ask_free(struct control_ask *ask) {
	wl_list_remove(&ask->link);
	sd_bus_message_unref(ask->msg);
	sd_bus_track_unref(ask->track);
	for (int i = 0; i < ask->n_sources; i++) {
		free(ask->ids[i]);
		free(ask->labels[i]);
	}
	free(ask->app);
	free(ask);
}

static void show_next(struct control *control);
static void region_end(struct control *control);

/* A picture of the output "monitor:NAME" or the window "window:ID"; none else. */
static struct wlr_buffer *draw_thumbnail(int choice, int max_width, int max_height,
		void *data) {
	struct control_ask *ask = data;
	struct server *server = ask->control->server;
	if (choice < 0 || choice >= ask->n_sources) {
		return NULL;
	}
	const char *id = ask->ids[choice];
	if (strncmp(id, SOURCE_MONITOR, strlen(SOURCE_MONITOR)) == 0) {
		struct output *output = output_by_name(server, id + strlen(SOURCE_MONITOR));
		return output ? thumbnail_output(server, output, max_width, max_height) : NULL;
	}
	if (strncmp(id, SOURCE_WINDOW, strlen(SOURCE_WINDOW)) == 0) {
		const char *digits = id + strlen(SOURCE_WINDOW);
		char *end = NULL;
		errno = 0;
		unsigned long long view_id = strtoull(digits, &end, 10);
		if (digits[0] < '0' || digits[0] > '9' || *end || errno) {
			return NULL;
		}
		struct view *view = view_from_id(server, view_id);
		return view ? thumbnail_view(server, view, max_width, max_height) : NULL;
	}
	return NULL;
}

static void handle_answer(const struct prompt_answer *answer, void *data) {
	struct control_ask *ask = data;
	struct control *control = ask->control;
	const char *choice = answer->choice >= 0 && answer->choice < ask->n_sources ?
		ask->ids[answer->choice] : "";
	wlr_log(WLR_INFO, "control: permission for '%s' %s%s%s%s", ask->app,
		answer->allowed ? "allowed: " : "denied",
		answer->allowed ? choice : "", answer->timed_out ? " (no answer in time)" : "",
		answer->remember ? ", remembered" : "");
	int r = sd_bus_reply_method_return(ask->msg, "bsb", answer->allowed,
		answer->allowed ? choice : "", answer->remember);
	if (r < 0) {
		wlr_log(WLR_ERROR, "control: cannot answer Permission.Ask: %s", strerror(-r));
	}
	prompt_destroy(control->asks->shown);
	control->asks->shown = NULL;
	ask_free(ask);
	control_flush(control);
	show_next(control);
}

/* Shows the first queued ask, unless a prompt is up already. */
static void show_next(struct control *control) {
	struct control_asks *asks = control->asks;
	while (asks && !asks->shown && !asks->region && !wl_list_empty(&asks->queue)) {
		struct control_ask *ask = wl_container_of(asks->queue.next, ask, link);
		int64_t left_ms = ask->deadline_ms - monotonic_ms();
		if (left_ms <= 0) {
			wlr_log(WLR_INFO, "control: permission for '%s' denied (no answer in time, "
				"still queued)", ask->app);
			sd_bus_reply_method_return(ask->msg, "bsb", 0, "", 0);
			ask_free(ask);
			control_flush(control);
			continue;
		}
		const char *labels[PROMPT_MAX_CHOICES];
		for (int i = 0; i < ask->n_sources; i++) {
			labels[i] = ask->labels[i];
		}
		struct prompt_request request = {
			.app = ask->app,
			.kind = ask->kind,
			.choices = labels,
			.n_choices = ask->n_sources,
			.persist_allowed = ask->persist_allowed,
			.timeout_ms = (uint32_t)left_ms,
			.thumbnail = draw_thumbnail,
		};
		asks->shown = prompt_create(control->server, &request, handle_answer, ask);
		if (asks->shown) {
			return;
		}
		sd_bus_error error = SD_BUS_ERROR_NULL;
		sd_bus_error_setf(&error, SD_BUS_ERROR_FAILED,
			"the prompt cannot be shown (no output)");
		sd_bus_reply_method_error(ask->msg, &error);
		sd_bus_error_free(&error);
		ask_free(ask);
		control_flush(control);
	}
}

/* Takes ask out: its prompt down if it is shown, then the next one up. */
static void withdraw(struct control *control, struct control_ask *ask) {
	struct control_asks *asks = control->asks;
	if (asks->shown && asks->queue.next == &ask->link) {
		prompt_destroy(asks->shown);
		asks->shown = NULL;
	}
	ask_free(ask);
	show_next(control);
}

static int handle_caller_gone(sd_bus_track *track, void *data) {
	struct control_ask *ask = data;
	wlr_log(WLR_INFO, "control: the caller asking for '%s' left the bus", ask->app);
	withdraw(ask->control, ask);
	return 0;
}

static int method_withdraw(sd_bus_message *msg, void *data, sd_bus_error *error) {
	struct control *control = data;
	uint64_t cookie = 0;
	int r = control_read_checked(control, msg, error, "t", &cookie);
	if (r < 0) {
		return r;
	}
	if (cookie == 0) {
		return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
			"cookie 0 names no call");
	}
	const char *sender = sd_bus_message_get_sender(msg);
	struct control_asks *asks = asks_of(control);
	uint64_t selecting = 0;
	const char *selector = asks->region_msg ? sd_bus_message_get_sender(asks->region_msg) : NULL;
	if (asks->region_msg && sd_bus_message_get_cookie(asks->region_msg, &selecting) >= 0 &&
			selecting == cookie && sender && selector && strcmp(selector, sender) == 0) {
		wlr_log(WLR_INFO, "control: the caller withdrew its region selection");
		sd_bus_error withdrawn = SD_BUS_ERROR_NULL;
		sd_bus_error_setf(&withdrawn, ERROR_WITHDRAWN, "withdrawn by its caller");
		sd_bus_reply_method_error(asks->region_msg, &withdrawn);
		sd_bus_error_free(&withdrawn);
		region_end(control);
		show_next(control);
		return sd_bus_reply_method_return(msg, "");
	}
	struct control_ask *found = NULL;
	if (control->asks && sender) {
		struct control_ask *ask;
		wl_list_for_each(ask, &control->asks->queue, link) {
			uint64_t asked = 0;
			const char *asker = sd_bus_message_get_sender(ask->msg);
			if (sd_bus_message_get_cookie(ask->msg, &asked) >= 0 && asked == cookie &&
					asker && strcmp(asker, sender) == 0) {
				found = ask;
				break;
			}
		}
	}
	if (!found) {
		return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
			"no Ask or SelectRegion with cookie %" PRIu64 " from this caller is waiting "
			"(answered already, or never asked)", cookie);
	}
	wlr_log(WLR_INFO, "control: the caller withdrew its question for '%s'%s", found->app,
		control->asks->shown && control->asks->queue.next == &found->link ?
		" (shown: taken down)" : " (queued)");
	sd_bus_error withdrawn = SD_BUS_ERROR_NULL;
	sd_bus_error_setf(&withdrawn, ERROR_WITHDRAWN, "withdrawn by its caller");
	sd_bus_reply_method_error(found->msg, &withdrawn);
	sd_bus_error_free(&withdrawn);
	withdraw(control, found);
	return sd_bus_reply_method_return(msg, "");
}

static int read_sources(struct control_ask *ask, sd_bus_message *msg, sd_bus_error *error) {
	int r = sd_bus_message_enter_container(msg, 'a', "(ss)");
	if (r < 0) {
		return r;
	}
	const char *id, *label;
	while ((r = sd_bus_message_read(msg, "(ss)", &id, &label)) > 0) {
		if (ask->n_sources == PROMPT_MAX_CHOICES) {
			return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
				"too many sources (at most %d)", PROMPT_MAX_CHOICES);
		}
		if (strlen(id) > MAX_TEXT_BYTES || strlen(label) > MAX_TEXT_BYTES) {
			return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
				"a source id or label is longer than %d bytes", MAX_TEXT_BYTES);
		}
		ask->ids[ask->n_sources] = xstrdup(id);
		ask->labels[ask->n_sources] = xstrdup(label[0] ? label : id);
		ask->n_sources++;
	}
	if (r < 0) {
		return r;
	}
	return sd_bus_message_exit_container(msg);
}

/* Reads and checks Ask's arguments into ask. */
static int read_ask(struct control_ask *ask, sd_bus_message *msg, sd_bus_error *error) {
	const char *app, *kind;
	int r = control_read_checked(ask->control, msg, error, "ss", &app, &kind);
	if (r < 0) {
		return r;
	}
	if (strlen(app) > MAX_TEXT_BYTES) {
		return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
			"app is longer than %d bytes", MAX_TEXT_BYTES);
	}
	bool known = false;
	for (size_t i = 0; i < ARRAY_LEN(kinds); i++) {
		if (strcmp(kind, kinds[i].name) == 0) {
			ask->kind = kinds[i].kind;
			known = true;
		}
	}
	if (!known) {
		return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
			"kind '%.*s' is not screencast, window, screenshot or remote",
			control_utf8_prefix(kind, 32), kind);
	}
	ask->app = xstrdup(app);
	r = read_sources(ask, msg, error);
	if (r < 0) {
		return r;
	}
	int persist = 0;
	r = sd_bus_message_read(msg, "bu", &persist, &ask->timeout_ms);
	if (r < 0) {
		return r;
	}
	ask->persist_allowed = persist;
	if (ask->timeout_ms > MAX_TIMEOUT_MS) {
		return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
			"timeout_ms is over %u", MAX_TIMEOUT_MS);
	}
	if (ask->timeout_ms == 0) {
		ask->timeout_ms = DEFAULT_TIMEOUT_MS;
	}
	ask->deadline_ms = monotonic_ms() + ask->timeout_ms;
	return 0;
}

static int method_ask(sd_bus_message *msg, void *data, sd_bus_error *error) {
	struct control *control = data;
	struct control_asks *asks = asks_of(control);
	struct control_ask *ask = zalloc(sizeof(*ask));
	ask->control = control;
	wl_list_init(&ask->link);
	int r = read_ask(ask, msg, error);
	if (r >= 0 && wl_list_length(&asks->queue) >= MAX_PENDING_ASKS) {
		r = sd_bus_error_setf(error, SD_BUS_ERROR_LIMITS_EXCEEDED,
			"too many permission requests waiting (at most %d)", MAX_PENDING_ASKS);
	}
	if (r >= 0) {
		r = sd_bus_track_new(control->bus, &ask->track, handle_caller_gone, ask);
	}
	if (r >= 0) {
		r = sd_bus_track_add_sender(ask->track, msg);
	}
	if (r < 0) {
		ask_free(ask);
		return r;
	}
	ask->msg = sd_bus_message_ref(msg);
	wl_list_insert(asks->queue.prev, &ask->link);
	show_next(control);
	return 1; /* answered by handle_answer */
}

/* The selector down, its call and caller let go of; the asks may show. */
static void region_end(struct control *control) {
	struct control_asks *asks = control->asks;
	region_select_destroy(asks->region);
	asks->region = NULL;
	asks->region_msg = sd_bus_message_unref(asks->region_msg);
	asks->region_track = sd_bus_track_unref(asks->region_track);
}

static void handle_region(bool selected, const struct placement_box *box, void *data) {
	struct control *control = data;
	struct control_asks *asks = control->asks;
	int r;
	if (selected) {
		wlr_log(WLR_INFO, "control: region selected: %d,%d %dx%d", box->x, box->y,
			box->width, box->height);
		r = sd_bus_reply_method_return(asks->region_msg, "iiuu", box->x, box->y,
			(uint32_t)box->width, (uint32_t)box->height);
	} else {
		sd_bus_error error = SD_BUS_ERROR_NULL;
		sd_bus_error_setf(&error, ERROR_CANCELLED, "no region was selected");
		r = sd_bus_reply_method_error(asks->region_msg, &error);
		sd_bus_error_free(&error);
	}
	if (r < 0) {
		wlr_log(WLR_ERROR, "control: cannot answer SelectRegion: %s", strerror(-r));
	}
	region_end(control);
	control_flush(control);
	show_next(control);
}

static int handle_region_caller_gone(sd_bus_track *track, void *data) {
	struct control *control = data;
	wlr_log(WLR_INFO, "control: the caller selecting a region left the bus");
	region_end(control);
	show_next(control);
	return 0;
}

static int method_select_region(sd_bus_message *msg, void *data, sd_bus_error *error) {
	struct control *control = data;
	struct control_asks *asks = asks_of(control);
	uint32_t timeout_ms = 0;
	int r = control_read_checked(control, msg, error, "u", &timeout_ms);
	if (r < 0) {
		return r;
	}
	if (timeout_ms > MAX_TIMEOUT_MS) {
		return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
			"timeout_ms is over %u", MAX_TIMEOUT_MS);
	}
	if (asks->shown || asks->region || control->server->prompt) {
		return sd_bus_error_setf(error, ERROR_BUSY,
			"a permission prompt or a region selector is up");
	}
	r = sd_bus_track_new(control->bus, &asks->region_track, handle_region_caller_gone,
		control);
	r = r < 0 ? r : sd_bus_track_add_sender(asks->region_track, msg);
	if (r >= 0) {
		asks->region = region_select_create(control->server,
			timeout_ms ? timeout_ms : DEFAULT_REGION_TIMEOUT_MS, handle_region, control);
		if (!asks->region) {
			r = sd_bus_error_setf(error, SD_BUS_ERROR_FAILED,
				"the region selector cannot be shown (no output)");
		}
	}
	if (r < 0) {
		region_end(control);
		return r;
	}
	asks->region_msg = sd_bus_message_ref(msg);
	return 1; /* answered by handle_region */
}

void control_prompt_finish(struct control *control) {
	struct control_asks *asks = control->asks;
	if (!asks) {
		return;
	}
	region_end(control);
	prompt_destroy(asks->shown);
	asks->shown = NULL;
	struct control_ask *ask, *tmp;
	wl_list_for_each_safe(ask, tmp, &asks->queue, link) {
		ask_free(ask);
	}
	free(asks);
	control->asks = NULL;
}

const sd_bus_vtable control_permission_vtable[] = {
	SD_BUS_VTABLE_START(0),
	SD_BUS_METHOD_WITH_ARGS("Ask",
		SD_BUS_ARGS("s", app, "s", kind, "a(ss)", sources, "b", persist_allowed,
			"u", timeout_ms),
		SD_BUS_RESULT("b", allowed, "s", choice, "b", remember),
		method_ask, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD_WITH_ARGS("Withdraw", SD_BUS_ARGS("t", ask_cookie), SD_BUS_NO_RESULT,
		method_withdraw, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD_WITH_ARGS("SelectRegion", SD_BUS_ARGS("u", timeout_ms),
		SD_BUS_RESULT("i", x, "i", y, "u", width, "u", height),
		method_select_region, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_VTABLE_END,
};
