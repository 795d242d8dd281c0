/* SPDX-License-Identifier: MIT */
/*
 * What every impl method does first: check that the frontend calls (see
 * portal_caller_is_frontend), then read the arguments.
 */
#include <stdarg.h>
#include "portal/portal.h"

int portal_begin_call(struct portal *portal, sd_bus_message *msg, sd_bus_error *error,
		const char *types, ...) {
	if (!portal_caller_is_frontend(portal, msg)) {
		return sd_bus_error_setf(error, SD_BUS_ERROR_ACCESS_DENIED,
			"only %s may call %s", PORTAL_FRONTEND_NAME, PORTAL_BUS_NAME);
	}
	va_list args;
	va_start(args, types);
	int r = sd_bus_message_readv(msg, types, args);
	va_end(args);
	return r;
}

int portal_reply_response(sd_bus_message *msg, uint32_t response) {
	return sd_bus_reply_method_return(msg, "ua{sv}", response, 0);
}
