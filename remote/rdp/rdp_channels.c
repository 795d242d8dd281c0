/* SPDX-License-Identifier: MIT */
#include <freerdp/channels/wtsvc.h>
#include <winpr/synch.h>
#include <winpr/wtsapi.h>
#include <wlr/util/log.h>
#include "remote/rdp/rdp_private.h"
#include "compositor/options.h"
#include "compositor/server.h"

/*
 * A peer's virtual channels, through FreeRDP's virtual channel manager.
 * Channel writes only queue in the manager; they reach the client when
 * the manager is checked: right after a write (rdp_channels_flush), and
 * when its queue's event fires (writes from channel threads). Static
 * channels (cliprdr, rdp_clipboard.c; rdpsnd, rdp_sound.c) use this
 * manager too. The dynamic channels (graphics pipeline, display control,
 * sound and the microphone) open once the client answered drdynvc's
 * capabilities, which FreeRDP reads within the peer's own dispatch:
 * rdp_channels_check runs after each.
 */

/* A write into the client's socket may wait this long for a stalled client. */
#define CALL_MS 5000

static int handle_vcm_event(int fd, uint32_t mask, void *data) {
	rdp_channels_flush(data);
	return 0;
}

bool rdp_channels_init_peer(struct rdp_peer *peer) {
	/* Takes the peer's ReceiveChannelData: static channel data goes to it. */
	peer->vcm = WTSOpenServerA((LPSTR)peer->client->context);
	if (!peer->vcm || peer->vcm == INVALID_HANDLE_VALUE) {
		peer->vcm = NULL;
		return false;
	}
	return true;
}

bool rdp_channels_watch(struct rdp_peer *peer) {
	int fd = GetEventFileDescriptor(WTSVirtualChannelManagerGetEventHandle(peer->vcm));
	if (fd < 0) {
		return false;
	}
	peer->vcm_source = wl_event_loop_add_fd(peer->rdp->server->loop, fd,
		WL_EVENT_READABLE, handle_vcm_event, peer);
	return peer->vcm_source != NULL;
}

void rdp_channels_finish_peer(struct rdp_peer *peer) {
	rdp_sound_mic_close(peer);
	rdp_sound_close(peer);
	rdp_disp_close(peer);
	rdp_gfx_close(peer);
	rdp_unserved_probe_close(peer);
	if (peer->vcm_source) {
		wl_event_source_remove(peer->vcm_source);
		peer->vcm_source = NULL;
	}
	if (peer->vcm) {
		WTSCloseServer(peer->vcm);
		peer->vcm = NULL;
	}
}

bool rdp_channels_flush(struct rdp_peer *peer) {
	if (!peer->vcm || peer->closing) {
		return !peer->closing;
	}
	rdp_peer_enter_freerdp(peer);
	rdp_watchdog_arm(peer->rdp->watchdog, peer->client->sockfd, CALL_MS);
	bool ok = WTSVirtualChannelManagerCheckFileDescriptor(peer->vcm);
	rdp_watchdog_disarm(peer->rdp->watchdog);
	rdp_peer_leave_freerdp(peer);
	if (!rdp_peer_alive(peer)) {
		return false;
	}
	if (!ok) {
		rdp_peer_drop(peer, "cannot send channel data");
	}
	return ok;
}

static void open_dynamic_channels(struct rdp_peer *peer) {
	peer->dynamic_channels_opened = true;
	rdpSettings *settings = peer->client->settings;
	if (settings->SupportGraphicsPipeline && !rdp_gfx_open(peer)) {
		wlr_log(WLR_ERROR, "RDP: cannot open the graphics pipeline to %s: "
			"classic bitmap updates", peer->host);
	}
	/* Clients tell no display control in advance: it is offered to all. */
	if (!rdp_disp_open(peer)) {
		wlr_log(WLR_ERROR, "RDP: cannot open display control to %s", peer->host);
	}
	if (!rdp_sound_open(peer)) {
		wlr_log(WLR_ERROR, "RDP: cannot open sound to %s", peer->host);
	}
	if (peer->rdp->options->audio == CONFIG_RDP_AUDIO_ON) {
		if (!rdp_sound_mic_open(peer)) {
			wlr_log(WLR_ERROR, "RDP: cannot open the microphone of %s", peer->host);
		}
	} else {
		rdp_unserved_probe_open(peer);
	}
	/* A client without drdynvc gets classic bitmap updates. */
	rdp_display_schedule(peer);
}

bool rdp_channels_check(struct rdp_peer *peer) {
	if (!peer->vcm || peer->state != RDP_PEER_SESSION || peer->closing ||
			!peer->client->activated) {
		return true;
	}
	/* The first check after activation sends drdynvc's capabilities. */
	if (!rdp_channels_flush(peer)) {
		return false;
	}
	if (peer->dynamic_channels_opened) {
		rdp_unserved_probe_check(peer);
		return true;
	}
	if (!peer->unserved_logged) {
		peer->unserved_logged = true;
		rdp_unserved_log_channels(peer);
	}
	if (!WTSVirtualChannelManagerIsChannelJoined(peer->vcm, "drdynvc")) {
		peer->dynamic_channels_opened = true;
		peer->client->settings->SupportGraphicsPipeline = FALSE;
		if (!rdp_sound_open(peer)) {
			wlr_log(WLR_ERROR, "RDP: cannot open sound to %s", peer->host);
		}
		rdp_display_schedule(peer);
		return true;
	}
	if (WTSVirtualChannelManagerGetDrdynvcState(peer->vcm) == DRDYNVC_STATE_READY) {
		open_dynamic_channels(peer);
		return rdp_channels_flush(peer);
	}
	return true;
}
