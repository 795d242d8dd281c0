/* SPDX-License-Identifier: MIT */
/*
 * org.freedesktop.impl.portal.Session objects: one per CreateSession.
 * A session owns the slot that exports it and the oriel casts that its
 * Start created; Close (from the frontend, when the app closes the
 * session or leaves the bus) stops the casts. A cast that oriel ends on
 * its own (its consumer went away) closes the session with Closed.
 * ScreenCast and RemoteDesktop share sessions: the frontend calls
 * ScreenCast.SelectSources on a RemoteDesktop session to cast with it.
 * Keys and buttons a RemoteDesktop session still holds are released
 * when it ends, and its remote control session in oriel is closed.
 */
#include <stdlib.h>
#include <string.h>
#include "portal/portal.h"

static int handle_close(sd_bus_message *msg, void *data, sd_bus_error *error) {
	struct portal_session *session = data;
	/* Only the frontend (or this process) may close a session. */
	if (!portal_caller_is_frontend(session->portal, msg)) {
		return sd_bus_error_setf(error, SD_BUS_ERROR_ACCESS_DENIED,
			"only %s may close a session", PORTAL_FRONTEND_NAME);
	}
	portal_log(session->portal, "session %s closed by the frontend", session->handle);
	int r = sd_bus_reply_method_return(msg, "");
	portal_session_destroy(session, false);
	return r;
}

static int get_version(sd_bus *bus, const char *path, const char *iface,
		const char *prop, sd_bus_message *reply, void *data, sd_bus_error *error) {
	return sd_bus_message_append(reply, "u", 1u);
}

static const sd_bus_vtable session_vtable[] = {
	SD_BUS_VTABLE_START(0),
	SD_BUS_METHOD("Close", "", "", handle_close, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_SIGNAL("Closed", "", 0),
	SD_BUS_PROPERTY("version", "u", get_version, 0, SD_BUS_VTABLE_PROPERTY_CONST),
	SD_BUS_VTABLE_END,
};

struct portal_session *portal_session_create(struct portal *portal, const char *handle,
		const char *app_id) {
	if (!sd_bus_object_path_is_valid(handle) || portal_session_find(portal, handle)) {
		return NULL;
	}
	struct portal_session *session = calloc(1, sizeof(*session));
	if (!session) {
		return NULL;
	}
	session->portal = portal;
	session->handle = strdup(handle);
	session->app_id = strdup(app_id ? app_id : "");
	if (!session->handle || !session->app_id ||
			sd_bus_add_object_vtable(portal->bus, &session->slot, handle,
				PORTAL_IFACE_SESSION, session_vtable, session) < 0) {
		free(session->handle);
		free(session->app_id);
		free(session);
		return NULL;
	}
	session->next = portal->sessions;
	portal->sessions = session;
	return session;
}

struct portal_session *portal_session_find(struct portal *portal, const char *handle) {
	for (struct portal_session *s = portal->sessions; s; s = s->next) {
		if (!strcmp(s->handle, handle)) {
			return s;
		}
	}
	return NULL;
}

void portal_session_stop_casts(struct portal_session *session) {
	struct portal *portal = session->portal;
	for (int i = 0; i < session->n_casts; i++) {
		sd_bus_error error = SD_BUS_ERROR_NULL;
		int r = sd_bus_call_method(portal->bus, ORIEL_BUS_NAME, ORIEL_PATH,
			ORIEL_IFACE_CASTS, "Stop", &error, NULL, "t", session->casts[i].cast_id);
		/*
		 * InvalidArgs: the cast ended already (its consumer left, or the
		 * person stopped it at the badge), which is how casts end.
		 */
		if (r < 0 && !sd_bus_error_has_name(&error, SD_BUS_ERROR_INVALID_ARGS)) {
			portal_log(portal, "stopping cast %llu: %s",
				(unsigned long long)session->casts[i].cast_id,
				error.message ? error.message : strerror(-r));
		}
		sd_bus_error_free(&error);
		portal_target_finish(&session->casts[i].target);
	}
	free(session->casts);
	session->casts = NULL;
	session->n_casts = 0;
}

void portal_session_destroy(struct portal_session *session, bool emit_closed) {
	if (!session) {
		return;
	}
	struct portal *portal = session->portal;
	for (struct portal_session **p = &portal->sessions; *p; p = &(*p)->next) {
		if (*p == session) {
			*p = session->next;
			break;
		}
	}
	portal_permission_cancel(portal, session);
	portal_session_stop_casts(session);
	portal_input_release_all(session);
	portal_input_close_session(session);
	if (emit_closed) {
		sd_bus_emit_signal(portal->bus, session->handle, PORTAL_IFACE_SESSION, "Closed", "");
	}
	sd_bus_slot_unref(session->slot);
	free(session->handle);
	free(session->app_id);
	free(session->restore_id);
	free(session->held);
	free(session);
}
