/* SPDX-License-Identifier: MIT */
#include <wlr/util/log.h>
#include "remote/handover_server.h"
#include "remote/vnc/vnc_private.h"
#include "compositor/options.h"
#include "compositor/server.h"

/*
 * --exit-without-clients: a session with nobody watching ends after that
 * long, like an idle xrdp session's disconnect timeout. The timer runs
 * only while no viewer is connected. A session hosted by oriel-gateway
 * counts its RDP clients too: the hand-over server keeps that timer
 * (remote/handover_server.h).
 */

static int handle_unviewed(void *data) {
	struct vnc_server *vnc = data;
	wlr_log(WLR_INFO, "VNC: no viewer for %d s (--exit-without-clients): ending the session",
		vnc->options->exit_without_clients);
	wl_display_terminate(vnc->server->display);
	return 0;
}

void vnc_unviewed_init(struct vnc_server *vnc) {
	if (vnc->options->exit_without_clients <= 0 || vnc->server->handover) {
		return;
	}
	vnc->unviewed_timer = wl_event_loop_add_timer(vnc->server->loop, handle_unviewed, vnc);
	vnc_unviewed_update(vnc);
}

void vnc_unviewed_update(struct vnc_server *vnc) {
	handover_server_clients_changed(vnc->server->handover);
	if (!vnc->unviewed_timer) {
		return;
	}
	wl_event_source_timer_update(vnc->unviewed_timer, vnc->n_clients > 0 ? 0 :
		vnc->options->exit_without_clients * 1000);
}

void vnc_unviewed_finish(struct vnc_server *vnc) {
	if (vnc->unviewed_timer) {
		wl_event_source_remove(vnc->unviewed_timer);
		vnc->unviewed_timer = NULL;
	}
}
