/* SPDX-License-Identifier: MIT */
/*
 * org.freedesktop.impl.portal.Access: the frontend's generic yes/no
 * question (the Device portal's camera and microphone, for instance).
 * xdg-desktop-portal 1.16 only exports the Screenshot portal when an
 * Access backend exists, so oriel offers one; its answers come from
 * portal_decide with the [access] policy (deny unless listed). oriel's
 * prompt has no room for the frontend's own wording, so "ask" denies.
 */
#include "portal/portal.h"

static void handle_decided(struct portal *portal, sd_bus_message *msg,
		const struct portal_answer *answer, void *data) {
	portal_reply_response(msg, answer->allowed ? PORTAL_RESPONSE_SUCCESS :
		PORTAL_RESPONSE_CANCELLED);
}

static int handle_access_dialog(sd_bus_message *msg, void *data, sd_bus_error *error) {
	struct portal *portal = data;
	const char *handle, *app_id, *parent_window, *title, *subtitle, *body;
	int r = portal_begin_call(portal, msg, error, "ossssss", &handle, &app_id,
		&parent_window, &title, &subtitle, &body);
	r = r < 0 ? r : sd_bus_message_skip(msg, "a{sv}");
	if (r < 0) {
		return r;
	}
	portal_log(portal, "AccessDialog for app_id '%s': %s", app_id, title);
	struct portal_question question = {
		.kind = PORTAL_KIND_ACCESS,
		.app_id = app_id,
		.request_handle = handle,
	};
	return portal_decide(portal, &question, msg, handle_decided);
}

static const sd_bus_vtable access_vtable[] = {
	SD_BUS_VTABLE_START(0),
	SD_BUS_METHOD_WITH_ARGS("AccessDialog",
		SD_BUS_ARGS("o", handle, "s", app_id, "s", parent_window, "s", title,
			"s", subtitle, "s", body, "a{sv}", options),
		SD_BUS_RESULT("u", response, "a{sv}", results),
		handle_access_dialog, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_VTABLE_END,
};

int portal_access_init(struct portal *portal) {
	return sd_bus_add_object_vtable(portal->bus, &portal->access_slot, PORTAL_OBJECT_PATH,
		PORTAL_IFACE_ACCESS, access_vtable, portal);
}

void portal_access_finish(struct portal *portal) {
	portal->access_slot = sd_bus_slot_unref(portal->access_slot);
}
