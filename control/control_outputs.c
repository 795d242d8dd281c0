/* SPDX-License-Identifier: MIT */
/* org.oriel.Compositor.Outputs */

#include <inttypes.h>
#include <stdlib.h>
#include <wlr/types/wlr_output.h>
#include <wlr/util/box.h>
#include <wlr/util/log.h>
#include "control/control_private.h"
#include "control/control_utf8.h"
#include "compositor/output.h"
#include "compositor/server.h"

/* As output_set_size accepts. */
#define CONTROL_OUTPUT_MAX_SIZE 16384

static int method_list(sd_bus_message *msg, void *data, sd_bus_error *error) {
	struct control *control = data;
	sd_bus_message *reply;
	int r = control_array_reply_begin(msg, "(suuuiid)", &reply);
	struct output *output;
	wl_list_for_each(output, &control->server->outputs, link) {
		if (r < 0) {
			break;
		}
		struct wlr_output *wlr_output = output->wlr_output;
		struct wlr_box box;
		output_layout_box(output, &box);
		char *owned;
		const char *name = control_utf8_sanitize(wlr_output->name, &owned);
		r = sd_bus_message_append(reply, "(suuuiid)", name,
			(uint32_t)wlr_output->width, (uint32_t)wlr_output->height,
			(uint32_t)(wlr_output->refresh > 0 ? wlr_output->refresh : 0),
			(int32_t)box.x, (int32_t)box.y, (double)wlr_output->scale);
		free(owned);
	}
	return control_array_reply_end(reply, r);
}

static int method_set_size(sd_bus_message *msg, void *data, sd_bus_error *error) {
	struct control *control = data;
	const char *name;
	uint32_t width, height;
	int r = control_read_checked(control, msg, error, "suu", &name, &width, &height);
	if (r < 0) {
		return r;
	}
	struct output *output = output_by_name(control->server, name);
	if (!output) {
		return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
			"no output named '%.*s'", control_utf8_prefix(name, 64), name);
	}
	if (width < 1 || height < 1 || width > CONTROL_OUTPUT_MAX_SIZE ||
			height > CONTROL_OUTPUT_MAX_SIZE) {
		return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
			"output size %" PRIu32 "x%" PRIu32 " is out of range "
			"(1x1 to %dx%d)", width, height, CONTROL_OUTPUT_MAX_SIZE,
			CONTROL_OUTPUT_MAX_SIZE);
	}
	if (!output_set_size(output, (int)width, (int)height)) {
		return sd_bus_error_setf(error, SD_BUS_ERROR_FAILED,
			"cannot resize output %s to %" PRIu32 "x%" PRIu32
			" (only headless outputs can take any size)", name, width, height);
	}
	wlr_log(WLR_INFO, "control: output %s resized to %" PRIu32 "x%" PRIu32,
		name, width, height);
	return sd_bus_reply_method_return(msg, "");
}

const sd_bus_vtable control_outputs_vtable[] = {
	SD_BUS_VTABLE_START(0),
	SD_BUS_METHOD_WITH_ARGS("List",
		SD_BUS_NO_ARGS,
		SD_BUS_RESULT("a(suuuiid)", outputs),
		method_list, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD_WITH_ARGS("SetSize",
		SD_BUS_ARGS("s", name, "u", width, "u", height),
		SD_BUS_NO_RESULT,
		method_set_size, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_VTABLE_END,
};
