/* SPDX-License-Identifier: MIT */
/*
 * oriel's outputs, as org.oriel.Compositor.Outputs.List gives them:
 * name, width, height, refresh, x, y, scale.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "portal/portal.h"

void portal_outputs_free(struct portal_output *outputs, int n) {
	for (int i = 0; i < n; i++) {
		free(outputs[i].name);
	}
	free(outputs);
}

int portal_list_outputs(struct portal *portal, struct portal_output **out, int *n_out,
		sd_bus_error *error) {
	sd_bus_message *reply = NULL;
	int r = sd_bus_call_method(portal->bus, ORIEL_BUS_NAME, ORIEL_PATH, ORIEL_IFACE_OUTPUTS,
		"List", error, &reply, "");
	if (r < 0) {
		return r;
	}
	struct portal_output *outputs = NULL;
	int n = 0;
	r = sd_bus_message_enter_container(reply, 'a', "(suuuiid)");
	while (r >= 0) {
		const char *name;
		uint32_t w, h, refresh;
		int32_t x, y;
		double scale;
		r = sd_bus_message_read(reply, "(suuuiid)", &name, &w, &h, &refresh, &x, &y, &scale);
		if (r <= 0) {
			break;
		}
		struct portal_output *grown = realloc(outputs, (n + 1) * sizeof(*outputs));
		if (!grown) {
			r = -ENOMEM;
			break;
		}
		outputs = grown;
		outputs[n] = (struct portal_output){ strdup(name), w, h, x, y };
		if (!outputs[n].name) {
			r = -ENOMEM;
			break;
		}
		n++;
	}
	sd_bus_message_unref(reply);
	if (r < 0) {
		portal_outputs_free(outputs, n);
		return r;
	}
	*out = outputs;
	*n_out = n;
	return 0;
}

const struct portal_output *portal_output_find(const struct portal_output *outputs, int n,
		const char *name) {
	for (int i = 0; i < n; i++) {
		if (!strcmp(outputs[i].name, name)) {
			return &outputs[i];
		}
	}
	return NULL;
}

void portal_sources_finish(struct portal_sources *sources) {
	for (int i = 0; i < sources->n; i++) {
		free(sources->ids[i]);
		free(sources->labels[i]);
	}
	free(sources->ids);
	free(sources->labels);
	*sources = (struct portal_sources){0};
}
