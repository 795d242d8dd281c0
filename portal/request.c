/* SPDX-License-Identifier: MIT */
/*
 * org.freedesktop.impl.portal.Request objects. The frontend may call
 * Close on a request's handle while the backend works on it; the request
 * owns the slot that exports it, and dropping the request unexports it.
 * Close marks it closed and tells its owner: a request waiting for
 * oriel's prompt (permission.c) is answered "cancelled" at once.
 */
#include <stdlib.h>
#include <string.h>
#include "portal/portal.h"

static int handle_close(sd_bus_message *msg, void *data, sd_bus_error *error) {
	struct portal_request *request = data;
	if (!portal_caller_is_frontend(request->portal, msg)) {
		return sd_bus_error_setf(error, SD_BUS_ERROR_ACCESS_DENIED,
			"only %s may close a request", PORTAL_FRONTEND_NAME);
	}
	request->closed = true;
	portal_log(request->portal, "request %s closed by the frontend", request->handle);
	int r = sd_bus_reply_method_return(msg, "");
	if (request->on_close) {
		/* It may destroy the request: nothing touches it after this. */
		request->on_close(request, request->close_data);
	}
	return r;
}

static const sd_bus_vtable request_vtable[] = {
	SD_BUS_VTABLE_START(0),
	SD_BUS_METHOD("Close", "", "", handle_close, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_VTABLE_END,
};

struct portal_request *portal_request_create(struct portal *portal, const char *handle) {
	if (!sd_bus_object_path_is_valid(handle)) {
		return NULL;
	}
	struct portal_request *request = calloc(1, sizeof(*request));
	if (!request) {
		return NULL;
	}
	request->portal = portal;
	request->handle = strdup(handle);
	if (!request->handle || sd_bus_add_object_vtable(portal->bus, &request->slot, handle,
			PORTAL_IFACE_REQUEST, request_vtable, request) < 0) {
		portal_request_destroy(request);
		return NULL;
	}
	return request;
}

void portal_request_destroy(struct portal_request *request) {
	if (!request) {
		return;
	}
	sd_bus_slot_unref(request->slot);
	free(request->handle);
	free(request);
}
