/* SPDX-License-Identifier: MIT */
/*
 * oriel's windows, as org.oriel.Compositor.Windows.List gives them
 * (bottom of the stack first): what a window cast may show.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "portal/portal.h"

void portal_windows_free(struct portal_window *windows, int n) {
	for (int i = 0; i < n; i++) {
		free(windows[i].title);
		free(windows[i].app_id);
	}
	free(windows);
}

int portal_list_windows(struct portal *portal, struct portal_window **out, int *n_out,
		sd_bus_error *error) {
	sd_bus_message *reply = NULL;
	int r = sd_bus_call_method(portal->bus, ORIEL_BUS_NAME, ORIEL_PATH, ORIEL_IFACE_WINDOWS,
		"List", error, &reply, "");
	if (r < 0) {
		return r;
	}
	struct portal_window *windows = NULL;
	int n = 0;
	r = sd_bus_message_enter_container(reply, 'a', "(tsssiiiiubbbb)");
	while (r >= 0) {
		uint64_t id;
		const char *title, *app_id, *kind;
		int32_t x, y, w, h;
		uint32_t pid;
		int focused, maximized, fullscreen, minimized;
		r = sd_bus_message_read(reply, "(tsssiiiiubbbb)", &id, &title, &app_id, &kind,
			&x, &y, &w, &h, &pid, &focused, &maximized, &fullscreen, &minimized);
		if (r <= 0) {
			break;
		}
		if (w <= 0 || h <= 0) {
			continue; /* nothing to show yet */
		}
		struct portal_window *grown = realloc(windows, (n + 1) * sizeof(*windows));
		if (!grown) {
			r = -ENOMEM;
			break;
		}
		windows = grown;
		windows[n] = (struct portal_window){ id, strdup(title), strdup(app_id), x, y,
			(uint32_t)w, (uint32_t)h, focused, minimized, (pid_t)pid };
		n++;
		if (!windows[n - 1].title || !windows[n - 1].app_id) {
			r = -ENOMEM;
			break;
		}
	}
	sd_bus_message_unref(reply);
	if (r < 0) {
		portal_windows_free(windows, n);
		return r;
	}
	*out = windows;
	*n_out = n;
	return 0;
}
