/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <wlr/backend.h>
#include <wlr/backend/headless.h>
#include <wlr/backend/multi.h>
#include <wlr/render/allocator.h>
#include <wlr/render/pixman.h>
#include <wlr/render/wlr_renderer.h>
#include <wlr/util/log.h>
#include "compositor/backend.h"
#include "compositor/backend_probe.h"
#include "compositor/headless_backend.h"
#include "compositor/server.h"
#include "compositor/startup_error.h"

static const char *backend_name(enum options_backend backend) {
	static const char *const names[] = {"auto", "headless", "drm", "wayland", "x11"};
	return names[backend];
}

/* What auto picks: a nested display that answers, else KMS, else headless. */
static enum options_backend resolve_auto(void) {
	const char *wayland = getenv("WAYLAND_DISPLAY");
	const char *x11 = getenv("DISPLAY");
	if (wayland && wayland[0]) {
		if (backend_probe_wayland()) {
			return BACKEND_WAYLAND;
		}
		wlr_log(WLR_INFO, "No Wayland compositor at %s; not nesting in it", wayland);
	}
	if (x11 && x11[0]) {
		if (backend_probe_x11()) {
			return BACKEND_X11;
		}
		wlr_log(WLR_INFO, "No X server at %s; not nesting in it", x11);
	}
	return backend_probe_kms() ? BACKEND_DRM : BACKEND_HEADLESS;
}

/* A backend the user named must be there: say so before wlroots tries. */
static bool check_backend(enum options_backend choice) {
	const char *wayland = getenv("WAYLAND_DISPLAY");
	const char *x11 = getenv("DISPLAY");
	switch (choice) {
	case BACKEND_WAYLAND:
		if (backend_probe_wayland()) {
			return true;
		}
		startup_error("no Wayland compositor at %s for --backend wayland; "
			"start one (and set WAYLAND_DISPLAY) or use --backend headless",
			wayland && wayland[0] ? wayland : "wayland-0");
		return false;
	case BACKEND_X11:
		if (backend_probe_x11()) {
			return true;
		}
		if (x11 && x11[0]) {
			startup_error("no X display at %s for --backend x11; "
				"start X there or use --backend headless", x11);
		} else {
			startup_error("no X display for --backend x11 (DISPLAY is not set); "
				"set DISPLAY or use --backend headless");
		}
		return false;
	case BACKEND_DRM:
		if (backend_probe_kms()) {
			return true;
		}
		startup_error("no DRM/KMS device (/dev/dri/card*) for --backend drm; "
			"use --backend headless");
		return false;
	case BACKEND_HEADLESS:
	case BACKEND_AUTO:
		break;
	}
	return true;
}

/* wlroots picks nested, DRM and libinput backends by WLR_BACKENDS. */
static struct wlr_backend *create_wlroots_backend(struct server *server,
		const char *names) {
	setenv("WLR_BACKENDS", names, 1);
	struct wlr_backend *backend = wlr_backend_autocreate(server->display);
	unsetenv("WLR_BACKENDS");
	return backend;
}

static struct wlr_backend *create_backend(struct server *server,
		enum options_backend choice) {
	switch (choice) {
	case BACKEND_HEADLESS:
		return server->headless = headless_backend_create(server->display);
	case BACKEND_DRM:
		return create_wlroots_backend(server, "drm,libinput");
	case BACKEND_WAYLAND:
		return create_wlroots_backend(server, "wayland");
	case BACKEND_X11:
		return create_wlroots_backend(server, "x11");
	case BACKEND_AUTO:
		break;
	}
	return NULL;
}

/*
 * Without a GPU node, pixman is made directly: wlroots' autocreate would
 * look for one first and log its absence as an error.
 */
static struct wlr_renderer *create_renderer(struct server *server) {
	enum options_renderer choice = server->options->renderer;
	if (choice == RENDERER_PIXMAN ||
			(choice == RENDERER_AUTO && !backend_probe_gpu())) {
		struct wlr_renderer *renderer = wlr_pixman_renderer_create();
		if (!renderer) {
			startup_error("cannot create the pixman renderer; "
				"see the messages above");
		}
		return renderer;
	}
	if (choice == RENDERER_GLES2 && !backend_probe_gpu()) {
		startup_error("no GPU (/dev/dri) for --renderer gles2; "
			"use --renderer pixman");
		return NULL;
	}
	if (choice == RENDERER_GLES2) {
		setenv("WLR_RENDERER", "gles2", 1);
	}
	struct wlr_renderer *renderer = wlr_renderer_autocreate(server->backend);
	if (choice == RENDERER_GLES2) {
		unsetenv("WLR_RENDERER");
	}
	if (!renderer) {
		startup_error("cannot create the %s renderer; use --renderer pixman",
			choice == RENDERER_GLES2 ? "GLES2" : "GPU");
	}
	return renderer;
}

bool backend_init(struct server *server) {
	enum options_backend choice = server->options->backend;
	if (choice == BACKEND_AUTO) {
		choice = resolve_auto();
	} else if (!check_backend(choice)) {
		return false;
	}

	server->backend = wlr_multi_backend_create(server->display);
	struct wlr_backend *child = create_backend(server, choice);
	if (!child) {
		startup_error("cannot start the %s backend; see the messages above, "
			"or use --backend headless", backend_name(choice));
		return false;
	}
	wlr_multi_backend_add(server->backend, child);

	/* Virtual input (remote peers, the control API) needs devices everywhere. */
	server->input_backend = wlr_headless_backend_create(server->display);
	if (!server->input_backend) {
		startup_error("cannot create the virtual input devices; "
			"see the messages above");
		return false;
	}
	wlr_multi_backend_add(server->backend, server->input_backend);

	server->renderer = create_renderer(server);
	if (!server->renderer) {
		return false;
	}
	wlr_renderer_init_wl_display(server->renderer, server->display);
	server->allocator = wlr_allocator_autocreate(server->backend, server->renderer);
	if (!server->allocator) {
		startup_error("cannot create a buffer allocator for the renderer; "
			"use --renderer pixman");
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
