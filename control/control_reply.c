/* SPDX-License-Identifier: MIT */
#include "control/control_private.h"

int control_array_reply_begin(sd_bus_message *msg, const char *contents,
		sd_bus_message **reply) {
	*reply = NULL;
	int r = sd_bus_message_new_method_return(msg, reply);
	if (r >= 0) {
		r = sd_bus_message_open_container(*reply, 'a', contents);
	}
	return r;
}

int control_array_reply_end(sd_bus_message *reply, int r) {
	if (r >= 0) {
		r = sd_bus_message_close_container(reply);
	}
	if (r >= 0) {
		r = sd_bus_send(NULL, reply, NULL);
	}
	sd_bus_message_unref(reply);
	return r;
}
