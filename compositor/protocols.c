/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <wlr/types/wlr_idle.h>
#include <wlr/types/wlr_idle_inhibit_v1.h>
#include <wlr/types/wlr_keyboard_shortcuts_inhibit_v1.h>
#include <wlr/types/wlr_seat.h>
#include <wlr/types/wlr_xdg_activation_v1.h>
#include <wlr/types/wlr_xdg_shell.h>
#include "compositor/protocols.h"
#include "compositor/seat.h"
#include "compositor/server.h"
#include "common/util.h"
#include "compositor/view.h"

struct protocols {
	struct server *server;
	struct wlr_xdg_activation_v1 *activation;
	struct wlr_idle_inhibit_manager_v1 *idle_inhibit;
	struct wlr_keyboard_shortcuts_inhibit_manager_v1 *shortcuts_inhibit;
	int idle_inhibitors;
	struct wl_listener request_activate;
	struct wl_listener new_idle_inhibitor;
	struct wl_listener new_shortcuts_inhibitor;
};

/* A token from a focused client's input may give focus to another window. */
static void handle_request_activate(struct wl_listener *listener, void *data) {
	struct protocols *protocols = wl_container_of(listener, protocols, request_activate);
	struct wlr_xdg_activation_v1_request_activate_event *event = data;
	if (!wlr_surface_is_xdg_surface(event->surface)) {
		return;
	}
	struct wlr_xdg_surface *xdg_surface = wlr_xdg_surface_from_wlr_surface(event->surface);
	struct view *view = xdg_surface ? xdg_surface->data : NULL;
	if (view && view->mapped && event->token->seat) {
		view_focus(view);
	}
}

struct idle_inhibitor {
	struct protocols *protocols;
	struct wl_listener destroy;
};

static void update_idle(struct protocols *protocols) {
	wlr_idle_set_enabled(protocols->server->idle, NULL, protocols->idle_inhibitors == 0);
}

static void handle_idle_inhibitor_destroy(struct wl_listener *listener, void *data) {
	struct idle_inhibitor *inhibitor = wl_container_of(listener, inhibitor, destroy);
	inhibitor->protocols->idle_inhibitors--;
	update_idle(inhibitor->protocols);
	wl_list_remove(&inhibitor->destroy.link);
	free(inhibitor);
}

static void handle_new_idle_inhibitor(struct wl_listener *listener, void *data) {
	struct protocols *protocols = wl_container_of(listener, protocols, new_idle_inhibitor);
	struct wlr_idle_inhibitor_v1 *wlr_inhibitor = data;
	struct idle_inhibitor *inhibitor = zalloc(sizeof(*inhibitor));
	inhibitor->protocols = protocols;
	inhibitor->destroy.notify = handle_idle_inhibitor_destroy;
	wl_signal_add(&wlr_inhibitor->events.destroy, &inhibitor->destroy);
	protocols->idle_inhibitors++;
	update_idle(protocols);
}

/* oriel's only shortcut is Alt+drag; a client that asks may have it. */
static void handle_new_shortcuts_inhibitor(struct wl_listener *listener, void *data) {
	wlr_keyboard_shortcuts_inhibitor_v1_activate(data);
}

void protocols_init(struct server *server) {
	struct protocols *protocols = zalloc(sizeof(*protocols));
	protocols->server = server;
	server->protocols = protocols;

	protocols->activation = wlr_xdg_activation_v1_create(server->display);
	protocols->request_activate.notify = handle_request_activate;
	wl_signal_add(&protocols->activation->events.request_activate,
		&protocols->request_activate);

	protocols->idle_inhibit = wlr_idle_inhibit_v1_create(server->display);
	protocols->new_idle_inhibitor.notify = handle_new_idle_inhibitor;
	wl_signal_add(&protocols->idle_inhibit->events.new_inhibitor,
		&protocols->new_idle_inhibitor);

	protocols->shortcuts_inhibit =
		wlr_keyboard_shortcuts_inhibit_v1_create(server->display);
	protocols->new_shortcuts_inhibitor.notify = handle_new_shortcuts_inhibitor;
	wl_signal_add(&protocols->shortcuts_inhibit->events.new_inhibitor,
		&protocols->new_shortcuts_inhibitor);
}

void protocols_finish(struct server *server) {
	struct protocols *protocols = server->protocols;
	if (!protocols) {
		return;
	}
	wl_list_remove(&protocols->request_activate.link);
	wl_list_remove(&protocols->new_idle_inhibitor.link);
	wl_list_remove(&protocols->new_shortcuts_inhibitor.link);
	free(protocols);
	server->protocols = NULL;
}
