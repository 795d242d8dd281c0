/* SPDX-License-Identifier: MIT */
/*
 * org.freedesktop.impl.portal.ScreenCast, version 4, for oriel.
 *
 * CreateSession makes a session object; SelectSources validates and keeps
 * the options (portal/options.c) and the grant a restore token brought
 * back (restore.c); Start casts the restored grant's sources without
 * asking, or else asks portal_decide whether the app may cast (the policy,
 * or the person in oriel's prompt, who also chooses the source), then
 * creates one oriel cast per chosen source (casts.c) and returns their
 * PipeWire node ids, with restore_data when the grant is to be
 * remembered. Session.Close stops the casts, and answers a Start still
 * waiting for the prompt "cancelled".
 *
 * The source is the one the person chose in the prompt (an output, a
 * window or a new virtual screen, among the types the app selected); when
 * the policy decided, see portal_catalog_pick (sources.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "portal/portal.h"

/*
 * Reads an a{sv} of SelectSources options; unknown keys are skipped. The
 * frontend replaces the app's restore_token with our restore_data.
 */
static int read_select_options(sd_bus_message *msg, struct portal_select_options *opts,
		char **restore_token, char **restore_id, sd_bus_error *error) {
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
		if (!strcmp(key, "restore_data")) {
			r = portal_restore_read(msg, restore_id);
		} else if (!want) {
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

static int handle_create_session(sd_bus_message *msg, void *data, sd_bus_error *error) {
	struct portal *portal = data;
	const char *handle, *session_handle, *app_id;
	int r = portal_begin_call(portal, msg, error, "oos", &handle, &session_handle, &app_id);
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
	return portal_reply_response(msg, PORTAL_RESPONSE_SUCCESS);
}

static int handle_select_sources(sd_bus_message *msg, void *data, sd_bus_error *error) {
	struct portal *portal = data;
	const char *handle, *session_handle, *app_id;
	int r = portal_begin_call(portal, msg, error, "oos", &handle, &session_handle, &app_id);
	if (r < 0) {
		return r;
	}
	struct portal_select_options opts = {0};
	char *restore_token = NULL, *restore_id = NULL;
	r = read_select_options(msg, &opts, &restore_token, &restore_id, error);
	if (r < 0) {
		free(restore_token);
		free(restore_id);
		return r;
	}
	struct portal_session *session = portal_session_find(portal, session_handle);
	if (!session) {
		free(restore_token);
		free(restore_id);
		return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
			"no session %s", session_handle);
	}
	if (session->started || session->ask) {
		free(restore_token);
		free(restore_id);
		return sd_bus_error_setf(error, SD_BUS_ERROR_FAILED,
			"session %s has already started", session_handle);
	}
	struct portal_selection sel;
	const char *why = portal_select_options_validate(&opts, &sel);
	free(restore_token);
	if (why) {
		free(restore_id);
		portal_log(portal, "SelectSources %s refused: %s", session_handle, why);
		return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS, "%s", why);
	}
	session->selection = sel;
	session->selected = true;
	free(session->restore_id);
	session->restore_id = restore_id;
	portal_log(portal, "SelectSources %s types %u multiple %d cursor %u persist %u",
		session_handle, sel.types, sel.multiple, sel.cursor_mode, sel.persist_mode);
	return portal_reply_response(msg, PORTAL_RESPONSE_SUCCESS);
}

/*
 * Casts targets for session and answers Start (msg) with their streams
 * and, when the grant is to be remembered, restore_data.
 */
static int start_casts(struct portal_session *session, sd_bus_message *msg,
		const struct portal_target *targets, int n, bool restored, const char *client) {
	sd_bus_error call_error = SD_BUS_ERROR_NULL;
	int r = portal_session_cast(session, targets, n, client, &call_error);
	sd_bus_error_free(&call_error);
	if (r < 0) {
		return portal_reply_response(msg, PORTAL_RESPONSE_OTHER);
	}
	session->started = true;
	sd_bus_message *reply = NULL;
	r = sd_bus_message_new_method_return(msg, &reply);
	r = r < 0 ? r : sd_bus_message_append(reply, "u", (uint32_t)PORTAL_RESPONSE_SUCCESS);
	r = r < 0 ? r : sd_bus_message_open_container(reply, 'a', "{sv}");
	r = r < 0 ? r : portal_append_streams(reply, session);
	r = r < 0 ? r : portal_restore_remember(session, restored, reply);
	r = r < 0 ? r : sd_bus_message_close_container(reply);
	r = r < 0 ? r : sd_bus_send(NULL, reply, NULL);
	sd_bus_message_unref(reply);
	return r;
}

/* portal_decide answered, now or when the person did: cast, or refuse. */
static void handle_decided(struct portal *portal, sd_bus_message *msg,
		const struct portal_answer *answer, void *data) {
	struct portal_session *session = data;
	if (!answer->allowed) {
		portal_log(portal, "Start %s: a screen cast is denied to '%s'", session->handle,
			answer->app);
		portal_reply_response(msg, PORTAL_RESPONSE_CANCELLED);
		return;
	}
	if (!answer->remember) {
		session->selection.persist_mode = PORTAL_PERSIST_NONE;
	}
	struct portal_catalog cat;
	struct portal_target *targets = NULL;
	int n = 0;
	sd_bus_error call_error = SD_BUS_ERROR_NULL;
	int r = portal_catalog_load(portal, session->selection.types, &cat, &call_error);
	r = r < 0 ? r : portal_catalog_pick(&cat, answer->choice, session->selection.multiple,
		portal_policy_window(&portal->policy, PORTAL_KIND_SCREENCAST), &targets, &n);
	if (r < 0 || n == 0) {
		portal_log(portal, "Start %s: nothing to cast ('%s'): %s", session->handle,
			answer->choice, r >= 0 ? "gone, or no rule picks one" :
			call_error.message ? call_error.message : strerror(-r));
		r = portal_reply_response(msg, PORTAL_RESPONSE_OTHER);
	} else {
		r = start_casts(session, msg, targets, n, false, answer->app);
	}
	if (r < 0) {
		sd_bus_reply_method_errno(msg, r, NULL);
	}
	sd_bus_error_free(&call_error);
	portal_targets_free(targets, n);
	portal_catalog_finish(&cat);
}

static int handle_start(sd_bus_message *msg, void *data, sd_bus_error *error) {
	struct portal *portal = data;
	const char *handle, *session_handle, *app_id, *parent_window;
	int r = portal_begin_call(portal, msg, error, "ooss", &handle, &session_handle, &app_id,
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
	struct portal_catalog cat;
	sd_bus_error call_error = SD_BUS_ERROR_NULL;
	r = portal_catalog_load(portal, session->selection.types, &cat, &call_error);
	if (r < 0) {
		portal_log(portal, "Start %s: cannot list oriel's sources: %s", session_handle,
			call_error.message ? call_error.message : strerror(-r));
		sd_bus_error_free(&call_error);
		return portal_reply_response(msg, PORTAL_RESPONSE_OTHER);
	}
	struct portal_target *restored = NULL;
	int n_restored = 0;
	if (portal_restore_targets(session, &cat, &restored, &n_restored)) {
		char *client = portal_app_label(portal, session->app_id, handle);
		r = start_casts(session, msg, restored, n_restored, true, client);
		free(client);
		portal_targets_free(restored, n_restored);
	} else {
		struct portal_sources sources;
		struct portal_question question = {
			.kind = PORTAL_KIND_SCREENCAST,
			.app_id = session->app_id,
			.request_handle = handle,
			.session = session,
			.wants_remember = session->selection.persist_mode != PORTAL_PERSIST_NONE,
			.sources = &sources,
			.prompt_kind = portal_catalog_prompt_kind(&cat),
		};
		cat.caller_pid = portal_caller_pid(portal, handle);
		r = portal_catalog_sources(&cat, &sources);
		r = r < 0 ? r : portal_decide(portal, &question, msg, handle_decided);
		portal_sources_finish(&sources);
	}
	portal_catalog_finish(&cat);
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
			portal_target_finish(&s->casts[i].target);
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
