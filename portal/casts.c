/*
 * A session's oriel casts: which outputs to cast (the person's choice, or
 * the first or every output), one org.oriel.Compositor.Casts output cast
 * per chosen output, and the "streams" result the frontend hands to the app
 * (and checks NotifyPointerMotionAbsolute against). Each cast is named
 * after the app (Casts.SetClient) for oriel's sharing indicator. The
 * casts belong to this process's bus connection: oriel ends them if the
 * backend dies.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "portal/portal.h"

static int cast_output(struct portal_session *session, const struct portal_output *output,
		const char *client, sd_bus_error *error) {
	struct portal *portal = session->portal;
	sd_bus_message *reply = NULL;
	uint64_t cast_id;
	uint32_t node_id;
	int r = sd_bus_call_method(portal->bus, ORIEL_BUS_NAME, ORIEL_PATH, ORIEL_IFACE_CASTS,
		"CreateOutputCast", error, &reply, "su", output->name,
		session->selection.cursor_mode);
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
		return r;
	}
	struct portal_cast *cast = &session->casts[session->n_casts];
	*cast = (struct portal_cast){ cast_id, node_id, *output };
	cast->output.name = strdup(output->name);
	session->n_casts++;
	portal_log(portal, "session %s: cast %llu of %s is PipeWire node %u", session->handle,
		(unsigned long long)cast_id, output->name, node_id);
	/* The sharing indicator names the app rather than this backend. */
	if (client && client[0] && sd_bus_call_method(portal->bus, ORIEL_BUS_NAME, ORIEL_PATH,
			ORIEL_IFACE_CASTS, "SetClient", NULL, NULL, "ts", cast_id, client) < 0) {
		portal_log(portal, "cannot name cast %llu's client", (unsigned long long)cast_id);
	}
	return cast->output.name ? 0 : -ENOMEM;
}

int portal_session_cast_outputs(struct portal_session *session,
		const struct portal_output *outputs, int n, const char *client,
		sd_bus_error *error) {
	session->casts = calloc(n > 0 ? n : 1, sizeof(*session->casts));
	if (!session->casts) {
		return -ENOMEM;
	}
	for (int i = 0; i < n; i++) {
		int r = cast_output(session, &outputs[i], client, error);
		if (r < 0) {
			portal_log(session->portal, "session %s: cannot cast %s: %s",
				session->handle, outputs[i].name,
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
		const struct portal_output *o = &session->casts[i].output;
		r = sd_bus_message_append(reply, "(ua{sv})", session->casts[i].node_id, 4,
			"position", "(ii)", o->x, o->y,
			"size", "(ii)", (int32_t)o->width, (int32_t)o->height,
			"source_type", "u", (uint32_t)PORTAL_SOURCE_MONITOR,
			"id", "s", o->name);
	}
	r = r < 0 ? r : sd_bus_message_close_container(reply);
	r = r < 0 ? r : sd_bus_message_close_container(reply);
	r = r < 0 ? r : sd_bus_message_close_container(reply);
	return r;
}

void portal_session_choose_outputs(struct portal_session *session, const char *choice,
		const struct portal_output *outputs, int n, const struct portal_output **chosen,
		int *n_chosen) {
	*chosen = outputs;
	*n_chosen = session->selection.multiple || n == 0 ? n : 1;
	if (choice && choice[0]) {
		*chosen = portal_output_find(outputs, n, choice);
		*n_chosen = *chosen ? 1 : 0;
	}
}
