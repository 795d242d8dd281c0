/*
 * org.freedesktop.impl.portal.ScreenCast, version 4, for oriel.
 *
 * CreateSession makes a session object; SelectSources validates and keeps
 * the options (portal/options.c); Start asks the policy (portal.ini, see
 * README) whether the app may cast, and when it says "ask", the person at
 * the session through oriel's prompt (permission.c), who chooses the
 * output. Then it creates one oriel output cast per selected output
 * through org.oriel.Compositor.Casts and returns their PipeWire node ids.
 * The casts belong to this process's bus connection, so they live as long
 * as the portal session: Session.Close stops them, and if this process
 * dies oriel ends them.
 *
 * Without the prompt, the source is the first output of
 * org.oriel.Compositor.Outputs.List, or every output when the app asked
 * for multiple sources.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "portal/portal.h"

static int reply_response(sd_bus_message *msg, uint32_t response) {
	return sd_bus_reply_method_return(msg, "ua{sv}", response, 0);
}

/* Reads an a{sv} of SelectSources options; unknown keys are skipped. */
static int read_select_options(sd_bus_message *msg, struct portal_select_options *opts,
		char **restore_token, sd_bus_error *error) {
	int r = sd_bus_message_enter_container(msg, 'a', "{sv}");
	if (r < 0) {
		return r;
	}
	while ((r = sd_bus_message_enter_container(msg, 'e', "sv")) > 0) {
		const char *key;
		r = sd_bus_message_read(msg, "s", &key);
		if (r < 0) {
			return r;
		}
		const char *want = NULL;
		if (!strcmp(key, "types") || !strcmp(key, "cursor_mode") ||
				!strcmp(key, "persist_mode")) {
			want = "u";
		} else if (!strcmp(key, "multiple")) {
			want = "b";
		} else if (!strcmp(key, "restore_token")) {
			want = "s";
		}
		if (!want) {
			r = sd_bus_message_skip(msg, "v");
		} else {
			r = sd_bus_message_enter_container(msg, 'v', want);
			if (r < 0) {
				return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
					"option %s must be of type %s", key, want);
			}
			if (!strcmp(key, "types")) {
				r = sd_bus_message_read(msg, "u", &opts->types);
				opts->has_types = true;
			} else if (!strcmp(key, "cursor_mode")) {
				r = sd_bus_message_read(msg, "u", &opts->cursor_mode);
				opts->has_cursor_mode = true;
			} else if (!strcmp(key, "persist_mode")) {
				r = sd_bus_message_read(msg, "u", &opts->persist_mode);
				opts->has_persist_mode = true;
			} else if (!strcmp(key, "multiple")) {
				int b = 0;
				r = sd_bus_message_read(msg, "b", &b);
				opts->multiple = b;
				opts->has_multiple = true;
			} else {
				const char *token = NULL;
				r = sd_bus_message_read(msg, "s", &token);
				if (r >= 0) {
					free(*restore_token);
					*restore_token = strdup(token);
					opts->restore_token = *restore_token;
				}
			}
			if (r >= 0) {
				r = sd_bus_message_exit_container(msg);
			}
		}
		if (r < 0) {
			return r;
		}
		r = sd_bus_message_exit_container(msg);
		if (r < 0) {
			return r;
		}
	}
	if (r < 0) {
		return r;
	}
	return sd_bus_message_exit_container(msg);
}

/* See portal_caller_is_frontend. */
static int check_frontend(struct portal *portal, sd_bus_message *msg, sd_bus_error *error) {
	if (!portal_caller_is_frontend(portal, msg)) {
		return sd_bus_error_setf(error, SD_BUS_ERROR_ACCESS_DENIED,
			"only %s may call %s", PORTAL_FRONTEND_NAME, PORTAL_BUS_NAME);
	}
	return 0;
}

/* Checks the caller is the frontend, then reads the method's arguments. */
static int begin_request(struct portal *portal, sd_bus_message *msg,
		sd_bus_error *error, const char *types, ...) {
	int r = check_frontend(portal, msg, error);
	if (r < 0) {
		return r;
	}
	va_list args;
	va_start(args, types);
	r = sd_bus_message_readv(msg, types, args);
	va_end(args);
	return r;
}

static int handle_create_session(sd_bus_message *msg, void *data, sd_bus_error *error) {
	struct portal *portal = data;
	const char *handle, *session_handle, *app_id;
	int r = begin_request(portal, msg, error, "oos", &handle, &session_handle, &app_id);
	if (r < 0) {
		return r;
	}
	r = sd_bus_message_skip(msg, "a{sv}");
	if (r < 0) {
		return r;
	}
	portal_log(portal, "CreateSession %s app_id '%s'", session_handle, app_id);
	struct portal_session *session = portal_session_create(portal, session_handle, app_id);
	if (!session) {
		return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
			"cannot create session %s", session_handle);
	}
	return reply_response(msg, PORTAL_RESPONSE_SUCCESS);
}

static int handle_select_sources(sd_bus_message *msg, void *data, sd_bus_error *error) {
	struct portal *portal = data;
	const char *handle, *session_handle, *app_id;
	int r = begin_request(portal, msg, error, "oos", &handle, &session_handle, &app_id);
	if (r < 0) {
		return r;
	}
	struct portal_select_options opts = {0};
	char *restore_token = NULL;
	r = read_select_options(msg, &opts, &restore_token, error);
	if (r < 0) {
		free(restore_token);
		return r;
	}
	struct portal_session *session = portal_session_find(portal, session_handle);
	if (!session) {
		free(restore_token);
		return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
			"no session %s", session_handle);
	}
	if (session->started) {
		free(restore_token);
		return sd_bus_error_setf(error, SD_BUS_ERROR_FAILED,
			"session %s has already started", session_handle);
	}
	struct portal_selection sel;
	const char *why = portal_select_options_validate(&opts, &sel);
	free(restore_token);
	if (why) {
		portal_log(portal, "SelectSources %s refused: %s", session_handle, why);
		return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS, "%s", why);
	}
	session->selection = sel;
	session->selected = true;
	portal_log(portal, "SelectSources %s types %u multiple %d cursor %u persist %u",
		session_handle, sel.types, sel.multiple, sel.cursor_mode, sel.persist_mode);
	return reply_response(msg, PORTAL_RESPONSE_SUCCESS);
}

struct output_info {
	char *name;
	uint32_t width, height;
	int32_t x, y;
};

static void free_outputs(struct output_info *outputs, int n) {
	for (int i = 0; i < n; i++) {
		free(outputs[i].name);
	}
	free(outputs);
}

/* org.oriel.Compositor.Outputs.List: name, width, height, refresh, x, y, scale. */
static int list_outputs(struct portal *portal, struct output_info **out, int *n_out,
		sd_bus_error *error) {
	sd_bus_message *reply = NULL;
	int r = sd_bus_call_method(portal->bus, ORIEL_BUS_NAME, ORIEL_PATH, ORIEL_IFACE_OUTPUTS,
		"List", error, &reply, "");
	if (r < 0) {
		return r;
	}
	struct output_info *outputs = NULL;
	int n = 0;
	r = sd_bus_message_enter_container(reply, 'a', "(suuuiid)");
	while (r >= 0) {
		const char *name;
		uint32_t w, h, refresh;
		int32_t x, y;
		double scale;
		r = sd_bus_message_read(reply, "(suuuiid)", &name, &w, &h, &refresh, &x, &y, &scale);
		if (r <= 0) {
			break;
		}
		struct output_info *grown = realloc(outputs, (n + 1) * sizeof(*outputs));
		if (!grown) {
			r = -ENOMEM;
			break;
		}
		outputs = grown;
		outputs[n] = (struct output_info){ strdup(name), w, h, x, y };
		if (!outputs[n].name) {
			r = -ENOMEM;
			break;
		}
		n++;
	}
	sd_bus_message_unref(reply);
	if (r < 0) {
		free_outputs(outputs, n);
		return r;
	}
	*out = outputs;
	*n_out = n;
	return 0;
}

static void reload_policy(struct portal *portal) {
	portal_policy_finish(&portal->policy);
	portal_policy_init(&portal->policy);
	if (portal->policy_path &&
			!portal_policy_load(&portal->policy, portal->policy_path, stderr)) {
		portal_log(portal, "no policy file at %s: everything is denied",
			portal->policy_path);
	}
}

static int append_streams(sd_bus_message *reply, struct portal_session *session,
		struct output_info *outputs) {
	int r = sd_bus_message_open_container(reply, 'a', "{sv}");
	r = r < 0 ? r : sd_bus_message_open_container(reply, 'e', "sv");
	r = r < 0 ? r : sd_bus_message_append(reply, "s", "streams");
	r = r < 0 ? r : sd_bus_message_open_container(reply, 'v', "a(ua{sv})");
	r = r < 0 ? r : sd_bus_message_open_container(reply, 'a', "(ua{sv})");
	for (int i = 0; r >= 0 && i < session->n_casts; i++) {
		struct output_info *o = &outputs[i];
		r = sd_bus_message_append(reply, "(ua{sv})", session->casts[i].node_id, 4,
			"position", "(ii)", o->x, o->y,
			"size", "(ii)", (int32_t)o->width, (int32_t)o->height,
			"source_type", "u", (uint32_t)PORTAL_SOURCE_MONITOR,
			"id", "s", o->name);
	}
	r = r < 0 ? r : sd_bus_message_close_container(reply);
	r = r < 0 ? r : sd_bus_message_close_container(reply);
	r = r < 0 ? r : sd_bus_message_close_container(reply);
	r = r < 0 ? r : sd_bus_message_close_container(reply);
	return r;
}

/*
 * Casts outputs[0..n) for session and answers Start (msg) with their
 * streams, or with response 2 when oriel cannot cast.
 */
static int start_casts(struct portal *portal, struct portal_session *session,
		sd_bus_message *msg, struct output_info *outputs, int n, const char *client) {
	session->casts = calloc(n, sizeof(*session->casts));
	if (!session->casts) {
		return -ENOMEM;
	}
	for (int i = 0; i < n; i++) {
		uint64_t cast_id;
		uint32_t node_id;
		sd_bus_error call_error = SD_BUS_ERROR_NULL;
		sd_bus_message *reply = NULL;
		int r = sd_bus_call_method(portal->bus, ORIEL_BUS_NAME, ORIEL_PATH,
			ORIEL_IFACE_CASTS, "CreateOutputCast", &call_error, &reply, "su",
			outputs[i].name, session->selection.cursor_mode);
		if (r >= 0) {
			r = sd_bus_message_read(reply, "tu", &cast_id, &node_id);
		}
		if (r >= 0 && sd_bus_message_get_sender(reply)) {
			/* Closed signals are believed from this unique name only. */
			free(portal->oriel_unique_name);
			portal->oriel_unique_name = strdup(sd_bus_message_get_sender(reply));
		}
		sd_bus_message_unref(reply);
		if (r < 0) {
			portal_log(portal, "Start %s: cannot cast %s: %s", session->handle,
				outputs[i].name,
				call_error.message ? call_error.message : strerror(-r));
			sd_bus_error_free(&call_error);
			portal_session_stop_casts(session);
			return reply_response(msg, PORTAL_RESPONSE_OTHER);
		}
		session->casts[session->n_casts++] = (struct portal_cast){ cast_id, node_id };
		portal_log(portal, "Start %s: cast %llu of %s is PipeWire node %u",
			session->handle, (unsigned long long)cast_id, outputs[i].name, node_id);
		/* The sharing indicator names the app rather than this backend. */
		if (client && client[0] && sd_bus_call_method(portal->bus, ORIEL_BUS_NAME,
				ORIEL_PATH, ORIEL_IFACE_CASTS, "SetClient", NULL, NULL, "ts", cast_id,
				client) < 0) {
			portal_log(portal, "cannot name cast %llu's client",
				(unsigned long long)cast_id);
		}
	}
	session->started = true;

	sd_bus_message *reply = NULL;
	int r = sd_bus_message_new_method_return(msg, &reply);
	r = r < 0 ? r : sd_bus_message_append(reply, "u", (uint32_t)PORTAL_RESPONSE_SUCCESS);
	r = r < 0 ? r : append_streams(reply, session, outputs);
	r = r < 0 ? r : sd_bus_send(NULL, reply, NULL);
	sd_bus_message_unref(reply);
	return r;
}

/* The person answered the prompt: cast the output they chose, if any. */
static void handle_ask_answer(struct portal_session *session, sd_bus_message *start,
		const struct portal_answer *answer) {
	struct portal *portal = session->portal;
	const char *choice = answer->choice;
	if (!answer->allowed) {
		reply_response(start, PORTAL_RESPONSE_CANCELLED);
		return;
	}
	struct output_info *outputs = NULL;
	int n_outputs = 0, r = -ENOENT;
	sd_bus_error call_error = SD_BUS_ERROR_NULL;
	if (list_outputs(portal, &outputs, &n_outputs, &call_error) >= 0) {
		for (int i = 0; i < n_outputs; i++) {
			if (!strcmp(outputs[i].name, choice)) {
				r = start_casts(portal, session, start, &outputs[i], 1,
					answer->app);
				break;
			}
		}
	}
	if (r == -ENOENT) {
		portal_log(portal, "Start %s: output '%s' is gone", session->handle, choice);
		r = reply_response(start, PORTAL_RESPONSE_OTHER);
	}
	if (r < 0) {
		sd_bus_reply_method_errno(start, r, NULL);
	}
	sd_bus_error_free(&call_error);
	free_outputs(outputs, n_outputs);
}

/* Puts the outputs to the person (permission.c); Start is answered later. */
static int ask_for_start(struct portal_session *session, sd_bus_message *msg,
		const char *handle, struct output_info *outputs, int n_outputs) {
	char **ids = calloc(n_outputs, sizeof(char *));
	char **labels = calloc(n_outputs, sizeof(char *));
	int r = ids && labels ? 0 : -ENOMEM;
	for (int i = 0; r >= 0 && i < n_outputs; i++) {
		ids[i] = outputs[i].name;
		if (asprintf(&labels[i], "Screen %s (%ux%u)", outputs[i].name,
				outputs[i].width, outputs[i].height) < 0) {
			labels[i] = NULL;
			r = -ENOMEM;
		}
	}
	if (r >= 0) {
		/* No restore tokens yet: nothing could honour "remember". */
		r = portal_permission_ask(session, msg, handle, "screencast", ids, labels,
			n_outputs, false, handle_ask_answer);
	}
	for (int i = 0; labels && i < n_outputs; i++) {
		free(labels[i]);
	}
	free(labels);
	free(ids);
	return r < 0 ? reply_response(msg, PORTAL_RESPONSE_CANCELLED) : 1;
}

static int handle_start(sd_bus_message *msg, void *data, sd_bus_error *error) {
	struct portal *portal = data;
	const char *handle, *session_handle, *app_id, *parent_window;
	int r = begin_request(portal, msg, error, "ooss", &handle, &session_handle, &app_id,
		&parent_window);
	if (r < 0) {
		return r;
	}
	r = sd_bus_message_skip(msg, "a{sv}");
	if (r < 0) {
		return r;
	}
	struct portal_session *session = portal_session_find(portal, session_handle);
	if (!session) {
		return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
			"no session %s", session_handle);
	}
	if (session->started || session->ask) {
		return sd_bus_error_setf(error, SD_BUS_ERROR_FAILED,
			"session %s has already started", session_handle);
	}
	if (!session->selected) {
		return sd_bus_error_setf(error, SD_BUS_ERROR_FAILED,
			"session %s has no sources selected", session_handle);
	}
	struct portal_request *request = portal_request_create(portal, handle);

	reload_policy(portal);
	enum portal_decision decision = portal_policy_screencast(&portal->policy,
		session->app_id);
	if (decision == PORTAL_DENY) {
		portal_log(portal, "Start %s: the policy denies a screen cast to app_id '%s'",
			session_handle, session->app_id);
		portal_request_destroy(request);
		return reply_response(msg, PORTAL_RESPONSE_CANCELLED);
	}

	struct output_info *outputs = NULL;
	int n_outputs = 0;
	sd_bus_error call_error = SD_BUS_ERROR_NULL;
	r = list_outputs(portal, &outputs, &n_outputs, &call_error);
	if (r < 0 || n_outputs == 0) {
		portal_log(portal, "Start %s: cannot list oriel's outputs: %s", session_handle,
			r < 0 ? (call_error.message ? call_error.message : strerror(-r)) : "none");
		sd_bus_error_free(&call_error);
		free_outputs(outputs, n_outputs);
		portal_request_destroy(request);
		return reply_response(msg, PORTAL_RESPONSE_OTHER);
	}
	portal_request_destroy(request);
	if (decision == PORTAL_ASK) {
		r = ask_for_start(session, msg, handle, outputs, n_outputs);
	} else {
		char *client = portal_app_label(session, handle);
		r = client ? start_casts(portal, session, msg, outputs,
			session->selection.multiple ? n_outputs : 1, client) : -ENOMEM;
		free(client);
	}
	free_outputs(outputs, n_outputs);
	return r;
}

static int get_source_types(sd_bus *bus, const char *path, const char *iface,
		const char *prop, sd_bus_message *reply, void *data, sd_bus_error *error) {
	return sd_bus_message_append(reply, "u", PORTAL_AVAILABLE_SOURCE_TYPES);
}

static int get_cursor_modes(sd_bus *bus, const char *path, const char *iface,
		const char *prop, sd_bus_message *reply, void *data, sd_bus_error *error) {
	return sd_bus_message_append(reply, "u", PORTAL_AVAILABLE_CURSOR_MODES);
}

static int get_version(sd_bus *bus, const char *path, const char *iface,
		const char *prop, sd_bus_message *reply, void *data, sd_bus_error *error) {
	return sd_bus_message_append(reply, "u", PORTAL_SCREENCAST_VERSION);
}

static const sd_bus_vtable screencast_vtable[] = {
	SD_BUS_VTABLE_START(0),
	SD_BUS_METHOD_WITH_ARGS("CreateSession",
		SD_BUS_ARGS("o", handle, "o", session_handle, "s", app_id, "a{sv}", options),
		SD_BUS_RESULT("u", response, "a{sv}", results),
		handle_create_session, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD_WITH_ARGS("SelectSources",
		SD_BUS_ARGS("o", handle, "o", session_handle, "s", app_id, "a{sv}", options),
		SD_BUS_RESULT("u", response, "a{sv}", results),
		handle_select_sources, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD_WITH_ARGS("Start",
		SD_BUS_ARGS("o", handle, "o", session_handle, "s", app_id, "s", parent_window,
			"a{sv}", options),
		SD_BUS_RESULT("u", response, "a{sv}", results),
		handle_start, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_PROPERTY("AvailableSourceTypes", "u", get_source_types, 0,
		SD_BUS_VTABLE_PROPERTY_CONST),
	SD_BUS_PROPERTY("AvailableCursorModes", "u", get_cursor_modes, 0,
		SD_BUS_VTABLE_PROPERTY_CONST),
	SD_BUS_PROPERTY("version", "u", get_version, 0, SD_BUS_VTABLE_PROPERTY_CONST),
	SD_BUS_VTABLE_END,
};

/* oriel ended a cast on its own: the session that owned it is over. */
static int handle_cast_closed(sd_bus_message *msg, void *data, sd_bus_error *error) {
	struct portal *portal = data;
	uint64_t cast_id;
	const char *sender = sd_bus_message_get_sender(msg);
	if (!sender || !portal->oriel_unique_name ||
			strcmp(sender, portal->oriel_unique_name) != 0) {
		return 0;
	}
	if (sd_bus_message_read(msg, "t", &cast_id) < 0) {
		return 0;
	}
	for (struct portal_session *s = portal->sessions; s; s = s->next) {
		for (int i = 0; i < s->n_casts; i++) {
			if (s->casts[i].cast_id != cast_id) {
				continue;
			}
			portal_log(portal, "cast %llu ended: closing session %s",
				(unsigned long long)cast_id, s->handle);
			s->casts[i] = s->casts[--s->n_casts];
			portal_session_destroy(s, true);
			return 0;
		}
	}
	return 0;
}

int portal_screencast_init(struct portal *portal) {
	int r = sd_bus_add_object_vtable(portal->bus, &portal->screencast_slot,
		PORTAL_OBJECT_PATH, PORTAL_IFACE_SCREENCAST, screencast_vtable, portal);
	if (r < 0) {
		return r;
	}
	return sd_bus_match_signal(portal->bus, &portal->cast_closed_slot, NULL, ORIEL_PATH,
		ORIEL_IFACE_CASTS, "Closed", handle_cast_closed, portal);
}

void portal_screencast_finish(struct portal *portal) {
	while (portal->sessions) {
		portal_session_destroy(portal->sessions, false);
	}
	portal->cast_closed_slot = sd_bus_slot_unref(portal->cast_closed_slot);
	portal->screencast_slot = sd_bus_slot_unref(portal->screencast_slot);
	free(portal->oriel_unique_name);
	portal->oriel_unique_name = NULL;
}
