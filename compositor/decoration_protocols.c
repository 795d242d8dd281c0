/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <wlr/types/wlr_server_decoration.h>
#include <wlr/types/wlr_xdg_decoration_v1.h>
#include <wlr/types/wlr_xdg_shell.h>
#include "compositor/decoration_protocols.h"
#include "compositor/server.h"
#include "common/util.h"
#include "compositor/xdg_shell.h"

struct decoration_protocols {
	struct wlr_xdg_decoration_manager_v1 *xdg_manager;
	struct wlr_server_decoration_manager *kde_manager;
	struct wl_listener new_xdg_decoration;
	struct wl_listener new_kde_decoration;
};

struct xdg_decoration {
	struct wlr_xdg_toplevel_decoration_v1 *wlr_decoration;
	struct wl_listener request_mode;
	struct wl_listener destroy;
};

static void handle_xdg_request_mode(struct wl_listener *listener, void *data) {
	struct xdg_decoration *decoration = wl_container_of(listener, decoration,
		request_mode);
	/* Whatever the client prefers, the frame is ours: it looks the same everywhere. */
	wlr_xdg_toplevel_decoration_v1_set_mode(decoration->wlr_decoration,
		WLR_XDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE);
	xdg_shell_set_server_side(decoration->wlr_decoration->surface->surface, true);
}

static void handle_xdg_destroy(struct wl_listener *listener, void *data) {
	struct xdg_decoration *decoration = wl_container_of(listener, decoration, destroy);
	xdg_shell_set_server_side(decoration->wlr_decoration->surface->surface, false);
	wl_list_remove(&decoration->request_mode.link);
	wl_list_remove(&decoration->destroy.link);
	free(decoration);
}

static void handle_new_xdg_decoration(struct wl_listener *listener, void *data) {
	struct wlr_xdg_toplevel_decoration_v1 *wlr_decoration = data;
	struct xdg_decoration *decoration = zalloc(sizeof(*decoration));
	decoration->wlr_decoration = wlr_decoration;
	decoration->request_mode.notify = handle_xdg_request_mode;
	wl_signal_add(&wlr_decoration->events.request_mode, &decoration->request_mode);
	decoration->destroy.notify = handle_xdg_destroy;
	wl_signal_add(&wlr_decoration->events.destroy, &decoration->destroy);
	handle_xdg_request_mode(&decoration->request_mode, wlr_decoration);
}

struct kde_decoration {
	struct wlr_server_decoration *wlr_decoration;
	struct wl_listener mode;
	struct wl_listener destroy;
};

static void handle_kde_mode(struct wl_listener *listener, void *data) {
	struct kde_decoration *decoration = wl_container_of(listener, decoration, mode);
	xdg_shell_set_server_side(decoration->wlr_decoration->surface,
		decoration->wlr_decoration->mode == WLR_SERVER_DECORATION_MANAGER_MODE_SERVER);
}

static void handle_kde_destroy(struct wl_listener *listener, void *data) {
	struct kde_decoration *decoration = wl_container_of(listener, decoration, destroy);
	wl_list_remove(&decoration->mode.link);
	wl_list_remove(&decoration->destroy.link);
	free(decoration);
}

static void handle_new_kde_decoration(struct wl_listener *listener, void *data) {
	struct wlr_server_decoration *wlr_decoration = data;
	struct kde_decoration *decoration = zalloc(sizeof(*decoration));
	decoration->wlr_decoration = wlr_decoration;
	decoration->mode.notify = handle_kde_mode;
	wl_signal_add(&wlr_decoration->events.mode, &decoration->mode);
	decoration->destroy.notify = handle_kde_destroy;
	wl_signal_add(&wlr_decoration->events.destroy, &decoration->destroy);
	handle_kde_mode(&decoration->mode, NULL);
}

void decoration_protocols_init(struct server *server) {
	struct decoration_protocols *protocols = zalloc(sizeof(*protocols));
	server->decoration_protocols = protocols;
	protocols->xdg_manager = wlr_xdg_decoration_manager_v1_create(server->display);
	protocols->new_xdg_decoration.notify = handle_new_xdg_decoration;
	wl_signal_add(&protocols->xdg_manager->events.new_toplevel_decoration,
		&protocols->new_xdg_decoration);
	protocols->kde_manager = wlr_server_decoration_manager_create(server->display);
	wlr_server_decoration_manager_set_default_mode(protocols->kde_manager,
		WLR_SERVER_DECORATION_MANAGER_MODE_SERVER);
	protocols->new_kde_decoration.notify = handle_new_kde_decoration;
	wl_signal_add(&protocols->kde_manager->events.new_decoration,
		&protocols->new_kde_decoration);
}

void decoration_protocols_finish(struct server *server) {
	struct decoration_protocols *protocols = server->decoration_protocols;
	if (!protocols) {
		return;
	}
	wl_list_remove(&protocols->new_xdg_decoration.link);
	wl_list_remove(&protocols->new_kde_decoration.link);
	free(protocols);
	server->decoration_protocols = NULL;
}
