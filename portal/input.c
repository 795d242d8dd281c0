/* SPDX-License-Identifier: MIT */
/*
 * oriel's virtual input (org.oriel.Compositor.Input) for RemoteDesktop
 * sessions. Keys and buttons a session presses are tracked, so that a
 * session that ends (closed, or its app gone) never leaves one held down.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "portal/portal.h"

#define INPUT_MAX_HELD 256

int portal_input_pointer_position(struct portal *portal, double *x, double *y,
		sd_bus_error *error) {
	sd_bus_message *reply = NULL;
	int r = sd_bus_call_method(portal->bus, ORIEL_BUS_NAME, ORIEL_PATH, ORIEL_IFACE_INPUT,
		"PointerPosition", error, &reply, "");
	r = r < 0 ? r : sd_bus_message_read(reply, "dd", x, y);
	sd_bus_message_unref(reply);
	return r;
}

int portal_input_call(struct portal_session *session, const char *method,
		sd_bus_error *error, const char *types, ...) {
	va_list args;
	va_start(args, types);
	int r = sd_bus_call_methodv(session->portal->bus, ORIEL_BUS_NAME, ORIEL_PATH,
		ORIEL_IFACE_INPUT, method, error, NULL, types, args);
	va_end(args);
	return r;
}

static const char *const press_methods[] = {
	[PORTAL_HELD_BUTTON] = "PointerButton",
	[PORTAL_HELD_KEYCODE] = "KeyboardKeycode",
	[PORTAL_HELD_KEYSYM] = "KeyboardKeysym",
};

static int find_held(struct portal_session *session, int type, uint32_t code) {
	for (int i = 0; i < session->n_held; i++) {
		if ((int)session->held[i].type == type && session->held[i].code == code) {
			return i;
		}
	}
	return -1;
}

int portal_input_press(struct portal_session *session, int type, uint32_t code,
		bool pressed, sd_bus_error *error) {
	if (type < PORTAL_HELD_BUTTON || type > PORTAL_HELD_KEYSYM) {
		return -EINVAL;
	}
	int i = find_held(session, type, code);
	if (pressed && i < 0 && session->n_held >= INPUT_MAX_HELD) {
		return sd_bus_error_setf(error, SD_BUS_ERROR_LIMITS_EXCEEDED,
			"more than %d keys and buttons held down", INPUT_MAX_HELD);
	}
	int r = portal_input_call(session, press_methods[type], error, "ub", code, pressed);
	if (r < 0) {
		return r;
	}
	if (pressed && i < 0) {
		struct portal_held *held = realloc(session->held,
			(session->n_held + 1) * sizeof(*held));
		if (!held) {
			return -ENOMEM;
		}
		session->held = held;
		held[session->n_held++] = (struct portal_held){ type, code };
	} else if (!pressed && i >= 0) {
		session->held[i] = session->held[--session->n_held];
	}
	return 0;
}

void portal_input_release_all(struct portal_session *session) {
	while (session->n_held > 0) {
		struct portal_held h = session->held[--session->n_held];
		sd_bus_error error = SD_BUS_ERROR_NULL;
		if (portal_input_call(session, press_methods[h.type], &error, "ub", h.code, 0) < 0) {
			portal_log(session->portal, "session %s: cannot release %s %u: %s",
				session->handle, press_methods[h.type], h.code,
				error.message ? error.message : "oriel is gone");
		}
		sd_bus_error_free(&error);
	}
}

void portal_note_oriel(struct portal *portal, sd_bus_message *reply) {
	const char *sender = sd_bus_message_get_sender(reply);
	if (sender && (!portal->oriel_unique_name || strcmp(sender, portal->oriel_unique_name))) {
		free(portal->oriel_unique_name);
		portal->oriel_unique_name = strdup(sender);
	}
}

int portal_input_open_session(struct portal_session *session, const char *client,
		sd_bus_error *error) {
	struct portal *portal = session->portal;
	sd_bus_message *reply = NULL;
	int r = sd_bus_call_method(portal->bus, ORIEL_BUS_NAME, ORIEL_PATH, ORIEL_IFACE_INPUT,
		"OpenSession", error, &reply, "s", client ? client : "");
	r = r < 0 ? r : sd_bus_message_read(reply, "t", &session->input_session_id);
	if (r >= 0) {
		session->input_session_open = true;
		portal_note_oriel(portal, reply);
	}
	sd_bus_message_unref(reply);
	return r;
}

void portal_input_close_session(struct portal_session *session) {
	if (!session->input_session_open) {
		return;
	}
	session->input_session_open = false;
	sd_bus_error error = SD_BUS_ERROR_NULL;
	if (sd_bus_call_method(session->portal->bus, ORIEL_BUS_NAME, ORIEL_PATH,
			ORIEL_IFACE_INPUT, "CloseSession", &error, NULL, "t",
			session->input_session_id) < 0) {
		/* Already stopped by the person, or oriel is gone. */
		portal_log(session->portal, "session %s: closing remote control: %s",
			session->handle, error.message ? error.message : "oriel is gone");
	}
	sd_bus_error_free(&error);
}

/* The person stopped remote control from oriel's indicator: the session is over. */
static int handle_session_closed(sd_bus_message *msg, void *data, sd_bus_error *error) {
	struct portal *portal = data;
	const char *sender = sd_bus_message_get_sender(msg);
	uint64_t id;
	if (!sender || !portal->oriel_unique_name ||
			strcmp(sender, portal->oriel_unique_name) != 0 ||
			sd_bus_message_read(msg, "t", &id) < 0) {
		return 0;
	}
	for (struct portal_session *s = portal->sessions; s; s = s->next) {
		if (s->input_session_open && s->input_session_id == id) {
			portal_log(portal, "remote control %llu stopped by the person: closing "
				"session %s", (unsigned long long)id, s->handle);
			/* Stopped in oriel already; releasing what it holds still works. */
			s->input_session_open = false;
			portal_session_destroy(s, true);
			return 0;
		}
	}
	return 0;
}

int portal_input_init(struct portal *portal) {
	return sd_bus_match_signal(portal->bus, &portal->remote_closed_slot, NULL, ORIEL_PATH,
		ORIEL_IFACE_INPUT, "SessionClosed", handle_session_closed, portal);
}

void portal_input_finish(struct portal *portal) {
	portal->remote_closed_slot = sd_bus_slot_unref(portal->remote_closed_slot);
}
