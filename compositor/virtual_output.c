/* SPDX-License-Identifier: MIT */
/* Outputs that exist only for a virtual cast: see virtual_output.h. */

#include <stdlib.h>
#include <wlr/backend.h>
#include <wlr/backend/multi.h>
#include <wlr/types/wlr_output.h>
#include <wlr/util/log.h>
#include "compositor/headless_backend.h"
#include "compositor/output.h"
#include "compositor/server.h"
#include "common/util.h"
#include "compositor/virtual_output.h"

struct virtual_output {
	struct wlr_output *wlr_output;
	struct wl_listener destroy;
};

/* Our headless backend: the one oriel runs on, or one added for these. */
static struct wlr_backend *virtual_backend(struct server *server) {
	if (server->headless) {
		return server->headless;
	}
	if (!server->virtual_backend) {
		struct wlr_backend *backend = headless_backend_create(server->display);
		if (!backend) {
			wlr_log(WLR_ERROR, "Cannot create a backend for virtual outputs");
			return NULL;
		}
		if (!wlr_multi_backend_add(server->backend, backend) ||
				!wlr_backend_start(backend)) {
			wlr_log(WLR_ERROR, "Cannot add a backend for virtual outputs");
			wlr_backend_destroy(backend);
			return NULL;
		}
		server->virtual_backend = backend;
	}
	return server->virtual_backend;
}

static void handle_destroy(struct wl_listener *listener, void *data) {
	struct virtual_output *virtual = wl_container_of(listener, virtual, destroy);
	wl_list_remove(&virtual->destroy.link);
	wl_list_init(&virtual->destroy.link);
	virtual->wlr_output = NULL;
}

struct virtual_output *virtual_output_create(struct server *server, int width,
		int height) {
	return virtual_output_create_named(server, "VIRTUAL", width, height);
}

struct virtual_output *virtual_output_create_named(struct server *server,
		const char *prefix, int width, int height) {
	struct wlr_backend *backend = virtual_backend(server);
	if (!backend) {
		return NULL;
	}
	/* The backend is started: output.c takes the output in right away. */
	struct wlr_output *wlr_output = headless_backend_add_named_output(backend,
		prefix, width, height, 0);
	if (!wlr_output) {
		return NULL;
	}
	if (!wlr_output->data) {
		wlr_log(WLR_ERROR, "Cannot enable virtual output %s", wlr_output->name);
		wlr_output_destroy(wlr_output);
		return NULL;
	}
	struct virtual_output *virtual = zalloc(sizeof(*virtual));
	virtual->wlr_output = wlr_output;
	virtual->destroy.notify = handle_destroy;
	wl_signal_add(&wlr_output->events.destroy, &virtual->destroy);
	wlr_log(WLR_INFO, "Virtual output %s: %dx%d", wlr_output->name, width, height);
	return virtual;
}

void virtual_output_destroy(struct virtual_output *virtual) {
	if (!virtual) {
		return;
	}
	wl_list_remove(&virtual->destroy.link);
	if (virtual->wlr_output) {
		wlr_log(WLR_INFO, "Virtual output %s goes away", virtual->wlr_output->name);
		wlr_output_destroy(virtual->wlr_output);
	}
	free(virtual);
}

struct output *virtual_output_get(struct virtual_output *virtual) {
	return virtual && virtual->wlr_output ? virtual->wlr_output->data : NULL;
}
