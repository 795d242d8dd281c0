/* SPDX-License-Identifier: MIT */
#include <glob.h>
#include <stdlib.h>
#include <wlr/backend.h>
#include <wlr/backend/headless.h>
#include <wlr/backend/multi.h>
#include <wlr/render/allocator.h>
#include <wlr/render/wlr_renderer.h>
#include <wlr/util/log.h>
#include "compositor/backend.h"
#include "compositor/headless_backend.h"
#include "compositor/server.h"

static bool have_kms_device(void) {
	glob_t cards;
	bool found = glob("/dev/dri/card[0-9]*", 0, NULL, &cards) == 0 && cards.gl_pathc > 0;
	globfree(&cards);
	return found;
}

static enum options_backend resolve_auto(void) {
	const char *wayland = getenv("WAYLAND_DISPLAY");
	const char *x11 = getenv("DISPLAY");
	if (wayland && wayland[0]) {
		return BACKEND_WAYLAND;
	}
	if (x11 && x11[0]) {
		return BACKEND_X11;
	}
	return have_kms_device() ? BACKEND_DRM : BACKEND_HEADLESS;
}

/* wlroots picks nested, DRM and libinput backends by WLR_BACKENDS. */
static struct wlr_backend *create_wlroots_backend(struct server *server,
		const char *names) {
	setenv("WLR_BACKENDS", names, 1);
	struct wlr_backend *backend = wlr_backend_autocreate(server->display);
	unsetenv("WLR_BACKENDS");
	return backend;
}

static const char *renderer_env(enum options_renderer renderer) {
	switch (renderer) {
	case RENDERER_PIXMAN:
		return "pixman";
	case RENDERER_GLES2:
		return "gles2";
	case RENDERER_AUTO:
		break;
	}
	return NULL;
}

bool backend_init(struct server *server) {
	enum options_backend choice = server->options->backend;
	if (choice == BACKEND_AUTO) {
		choice = resolve_auto();
	}

	server->backend = wlr_multi_backend_create(server->display);
	struct wlr_backend *child = NULL;
	switch (choice) {
	case BACKEND_HEADLESS:
		child = server->headless = headless_backend_create(server->display);
		break;
	case BACKEND_DRM:
		child = create_wlroots_backend(server, "drm,libinput");
		break;
	case BACKEND_WAYLAND:
		child = create_wlroots_backend(server, "wayland");
		break;
	case BACKEND_X11:
		child = create_wlroots_backend(server, "x11");
		break;
	case BACKEND_AUTO:
		break;
	}
	if (!child) {
		wlr_log(WLR_ERROR, "Cannot create the display backend");
		return false;
	}
	wlr_multi_backend_add(server->backend, child);

	/* Virtual input (remote peers, the control API) needs devices everywhere. */
	server->input_backend = wlr_headless_backend_create(server->display);
	if (!server->input_backend) {
		return false;
	}
	wlr_multi_backend_add(server->backend, server->input_backend);

	const char *renderer = renderer_env(server->options->renderer);
	if (renderer) {
		setenv("WLR_RENDERER", renderer, 1);
	}
	server->renderer = wlr_renderer_autocreate(server->backend);
	if (!server->renderer) {
		wlr_log(WLR_ERROR, "Cannot create the renderer");
		return false;
	}
	wlr_renderer_init_wl_display(server->renderer, server->display);
	server->allocator = wlr_allocator_autocreate(server->backend, server->renderer);
	if (!server->allocator) {
		wlr_log(WLR_ERROR, "Cannot create the allocator");
		return false;
	}
	return true;
}

void backend_add_headless_outputs(struct server *server) {
	if (!server->headless) {
		return;
	}
	for (int i = 0; i < server->options->n_outputs; i++) {
		const struct config_output_mode *mode = &server->options->outputs[i];
		headless_backend_add_output(server->headless, mode->width, mode->height,
			mode->refresh_mhz);
	}
}
