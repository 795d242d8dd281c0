/* SPDX-License-Identifier: MIT */
#include <malloc.h>
#include <openssl/err.h>
#include <wlr/util/log.h>
#include "remote/account_check.h"
#include "remote/rdp/rdp_private.h"
#include "compositor/server.h"

/*
 * A peer's life, in one place: calls into FreeRDP are counted here, a
 * dropped peer is marked, and it is freed here alone, from the loop once
 * nothing runs for it: from an idle callback, or when its handshake
 * thread has ended. So no module's state is ever freed under the module
 * itself (a channel's handler, the frame being sent); after a call into
 * FreeRDP, or anything that may drop the peer, a module asks
 * rdp_peer_alive whether to go on.
 */

static bool is_guest(const struct rdp_peer *peer) {
	return peer->state != RDP_PEER_SESSION;
}

void rdp_peer_set_reading(struct rdp_peer *peer, bool reading) {
	for (int i = 0; i < peer->n_sources; i++) {
		wl_event_source_fd_update(peer->sources[i], reading ? WL_EVENT_READABLE : 0);
	}
}

static void peer_free(struct rdp_peer *peer) {
	struct rdp_server *rdp = peer->rdp;
	if (peer->reap) {
		wl_event_source_remove(peer->reap);
	}
	if (peer->prelogon) {
		rdp_prelogon_cancel(peer);
	}
	account_check_cancel(peer->check);
	for (int i = 0; i < peer->n_sources; i++) {
		wl_event_source_remove(peer->sources[i]);
	}
	if (peer->deadline) {
		wl_event_source_remove(peer->deadline);
	}
	if (is_guest(peer)) {
		rdp->n_guests--;
	} else {
		rdp->n_sessions--;
		if (rdp->n_sessions == 0) {
			rdp_server_fb_release(rdp); /* no copy of the desktop for nobody */
		}
		rdp_input_peer_gone(peer);
		rdp_handover_clients_changed(rdp);
	}
	rdp_clipboard_peer_gone(peer);
	rdp_channels_finish_peer(peer);
	rdp_display_finish_peer(peer);
	wl_list_remove(&peer->link);
	freerdp_peer *client = peer->client;
	if (client->context) {
		client->Disconnect(client);
		freerdp_peer_context_free(client);
	}
	freerdp_peer_free(client);
	rdp_handover_login_destroy(peer->handover); /* after FreeRDP closed its end */
	ERR_clear_error(); /* its failure is no other client's (rdp_peer_enter_freerdp) */
	free(peer);
	/*
	 * A connection's FreeRDP objects (TLS, codecs, the H.264 encoder's
	 * buffers, channel streams) are allocated on its own threads and the
	 * loop's, in glibc arenas that keep freed pages mapped: without this,
	 * every connection left its high-water mark in oriel's RSS.
	 */
	malloc_trim(0);
}

static void handle_reap(void *data) {
	struct rdp_peer *peer = data;
	peer->reap = NULL; /* an idle source is gone once it ran */
	if (peer->in_freerdp > 0) {
		return; /* cannot be (the loop is at its top); its leave reaps it */
	}
	peer_free(peer);
}

/* Frees peer from the loop, once the caller and FreeRDP are done with it. */
static void reap_later(struct rdp_peer *peer) {
	if (peer->reap || peer->prelogon) {
		return; /* a thread's peer is freed when the thread has ended */
	}
	peer->reap = wl_event_loop_add_idle(peer->rdp->server->loop, handle_reap, peer);
	if (!peer->reap) {
		wlr_log(WLR_ERROR, "RDP: cannot schedule freeing the connection from %s",
			peer->host);
	}
}

void rdp_peer_drop(struct rdp_peer *peer, const char *why) {
	if (!peer) {
		return;
	}
	if (!peer->closing) {
		if (why) {
			wlr_log(WLR_INFO, "RDP: closing the connection from %s: %s", peer->host, why);
		}
		peer->closing = true;
		if (peer->prelogon) {
			rdp_prelogon_interrupt(peer); /* freed when its thread has ended */
			return;
		}
		rdp_peer_set_reading(peer, false);
	}
	reap_later(peer);
}

bool rdp_peer_alive(const struct rdp_peer *peer) {
	return !peer->closing;
}

void rdp_peer_enter_freerdp(struct rdp_peer *peer) {
	ERR_clear_error();
	peer->in_freerdp++;
}

void rdp_peer_leave_freerdp(struct rdp_peer *peer) {
	if (--peer->in_freerdp == 0 && peer->closing && !peer->reap) {
		reap_later(peer);
	}
}

void rdp_peers_finish(struct rdp_server *rdp) {
	struct rdp_peer *peer, *tmp;
	wl_list_for_each_safe(peer, tmp, &rdp->peers, link) {
		if (peer->state == RDP_PEER_SESSION && peer->client->context) {
			peer->client->Close(peer->client);
		}
		peer_free(peer);
	}
}
