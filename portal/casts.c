/* SPDX-License-Identifier: MIT */
/*
 * A session's oriel casts: one org.oriel.Compositor.Casts cast per target
 * (sources.c): an output cast for a monitor, a window cast for a window,
 * RecordVirtual for a virtual screen, each with the cursor mode the app
 * selected; and the "streams" result the frontend hands to the app (and
 * checks NotifyPointerMotionAbsolute against). Each cast is named after
 * the app (Casts.SetClient) for oriel's sharing indicator. The casts
 * belong to this process's bus connection: oriel ends them if the
 * backend dies.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "portal/portal.h"

/* The output oriel made for virtual cast cast_id (Casts.List), and where it is. */
static int find_virtual_output(struct portal *portal, uint64_t cast_id,
		struct portal_target *t, sd_bus_error *error) {
	sd_bus_message *reply = NULL;
	int r = sd_bus_call_method(portal->bus, ORIEL_BUS_NAME, ORIEL_PATH, ORIEL_IFACE_CASTS,
		"List", error, &reply, "");
	r = r < 0 ? r : sd_bus_message_enter_container(reply, 'a', "(tsuu)");
	char *name = NULL;
	while (r > 0 && !name) {
		uint64_t id;
		const char *output;
		uint32_t node, cursor;
		r = sd_bus_message_read(reply, "(tsuu)", &id, &output, &node, &cursor);
		if (r > 0 && id == cast_id) {
			name = strdup(output);
		}
	}
	sd_bus_message_unref(reply);
	if (r < 0 || !name) {
		free(name);
		return r < 0 ? r : -ENOENT;
	}
	struct portal_output *outputs = NULL;
	int n = 0;
	r = portal_list_outputs(portal, &outputs, &n, error);
	const struct portal_output *o = r < 0 ? NULL : portal_output_find(outputs, n, name);
	if (o) {
		t->x = o->x;
		t->y = o->y;
	}
	free(t->name);
	t->name = name;
	portal_outputs_free(outputs, n);
	return r < 0 ? r : o ? 0 : -ENOENT;
}

static int create_cast(struct portal_session *session, const struct portal_target *t,
		sd_bus_error *error, sd_bus_message **reply) {
	struct portal *portal = session->portal;
	uint32_t cursor = session->selection.cursor_mode;
	switch (t->type) {
	case PORTAL_SOURCE_MONITOR:
		return sd_bus_call_method(portal->bus, ORIEL_BUS_NAME, ORIEL_PATH,
			ORIEL_IFACE_CASTS, "CreateOutputCast", error, reply, "su", t->name, cursor);
	case PORTAL_SOURCE_WINDOW:
		return sd_bus_call_method(portal->bus, ORIEL_BUS_NAME, ORIEL_PATH,
			ORIEL_IFACE_CASTS, "CreateWindowCast", error, reply, "tu", t->window_id,
			cursor);
	case PORTAL_SOURCE_VIRTUAL:
		return sd_bus_call_method(portal->bus, ORIEL_BUS_NAME, ORIEL_PATH,
			ORIEL_IFACE_CASTS, "RecordVirtual", error, reply, "uuu", t->width, t->height,
			cursor);
	}
	return -EINVAL;
}

static int cast_target(struct portal_session *session, const struct portal_target *t,
		const char *client, sd_bus_error *error) {
	struct portal *portal = session->portal;
	sd_bus_message *reply = NULL;
	uint64_t cast_id;
	uint32_t node_id;
	int r = create_cast(session, t, error, &reply);
	if (r >= 0) {
		r = sd_bus_message_read(reply, "tu", &cast_id, &node_id);
	}
	if (r >= 0) {
		portal_note_oriel(portal, reply);
	}
	sd_bus_message_unref(reply);
	if (r < 0) {
		return r;
	}
	struct portal_cast *cast = &session->casts[session->n_casts];
	*cast = (struct portal_cast){ cast_id, node_id, *t };
	cast->target.source = strdup(t->source);
	cast->target.name = strdup(t->name);
	session->n_casts++;
	if (!cast->target.source || !cast->target.name) {
		return -ENOMEM;
	}
	if (t->type == PORTAL_SOURCE_VIRTUAL) {
		r = find_virtual_output(portal, cast_id, &cast->target, error);
		if (r < 0) {
			return r;
		}
	}
	portal_log(portal, "session %s: cast %llu of %s (%s) is PipeWire node %u",
		session->handle, (unsigned long long)cast_id, cast->target.source,
		cast->target.name, node_id);
	/* The sharing indicator names the app rather than this backend. */
	if (client && client[0] && sd_bus_call_method(portal->bus, ORIEL_BUS_NAME, ORIEL_PATH,
			ORIEL_IFACE_CASTS, "SetClient", NULL, NULL, "ts", cast_id, client) < 0) {
		portal_log(portal, "cannot name cast %llu's client", (unsigned long long)cast_id);
	}
	return 0;
}

int portal_session_cast(struct portal_session *session, const struct portal_target *targets,
		int n, const char *client, sd_bus_error *error) {
	session->casts = calloc(n > 0 ? n : 1, sizeof(*session->casts));
	if (!session->casts) {
		return -ENOMEM;
	}
	for (int i = 0; i < n; i++) {
		int r = cast_target(session, &targets[i], client, error);
		if (r < 0) {
			portal_log(session->portal, "session %s: cannot cast %s: %s",
				session->handle, targets[i].source,
				sd_bus_error_is_set(error) ? error->message : strerror(-r));
			portal_session_stop_casts(session);
			return r;
		}
	}
	return 0;
}

int portal_append_streams(sd_bus_message *reply, struct portal_session *session) {
	int r = sd_bus_message_open_container(reply, 'e', "sv");
	r = r < 0 ? r : sd_bus_message_append(reply, "s", "streams");
	r = r < 0 ? r : sd_bus_message_open_container(reply, 'v', "a(ua{sv})");
	r = r < 0 ? r : sd_bus_message_open_container(reply, 'a', "(ua{sv})");
	for (int i = 0; r >= 0 && i < session->n_casts; i++) {
		const struct portal_target *t = &session->casts[i].target;
		r = sd_bus_message_open_container(reply, 'r', "ua{sv}");
		r = r < 0 ? r : sd_bus_message_append(reply, "u", session->casts[i].node_id);
		r = r < 0 ? r : sd_bus_message_open_container(reply, 'a', "{sv}");
		/* The portal gives a position for monitor streams only. */
		if (t->type != PORTAL_SOURCE_WINDOW) {
			r = r < 0 ? r : sd_bus_message_append(reply, "{sv}", "position", "(ii)",
				t->x, t->y);
		}
		r = r < 0 ? r : sd_bus_message_append(reply, "{sv}{sv}{sv}",
			"size", "(ii)", (int32_t)t->width, (int32_t)t->height,
			"source_type", "u", (uint32_t)t->type,
			"id", "s", t->type == PORTAL_SOURCE_MONITOR ? t->name : t->source);
		r = r < 0 ? r : sd_bus_message_close_container(reply);
		r = r < 0 ? r : sd_bus_message_close_container(reply);
	}
	r = r < 0 ? r : sd_bus_message_close_container(reply);
	r = r < 0 ? r : sd_bus_message_close_container(reply);
	r = r < 0 ? r : sd_bus_message_close_container(reply);
	return r;
}
