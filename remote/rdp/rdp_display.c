/* SPDX-License-Identifier: MIT */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <freerdp/update.h>
#include <wlr/util/log.h>
#include "remote/rdp/rdp_private.h"
#include "compositor/options.h"
#include "compositor/server.h"
#include "common/util.h"

/*
 * Frames to each client: the damage it has not seen, merged, and encoded
 * (rdp_encode.c) once the client may have the next frame: when it
 * acknowledged the one before (frame acknowledgements), or, for a client
 * without them, when its output buffer is empty; and at most
 * --rdp-max-fps a second. A slow client so gets fewer frames, each with
 * all the damage since its last, never a growing queue.
 */

/* Frames a client may have unacknowledged. */
#define MAX_UNACKED 2

/* Every this many frames, or this often, a debug line says what they cost. */
#define STAT_FRAMES 300
#define STAT_MS 5000

/* What held a frame's damage last before it was encoded. */
enum rdp_display_hold {
	HOLD_NONE,   /* nothing: encoded when it came */
	HOLD_ACK,    /* the client had not acknowledged enough frames */
	HOLD_SOCKET, /* FreeRDP's output buffer was not sent yet */
	HOLD_PACE,   /* --rdp-max-fps */
};

static int64_t monotonic_us(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static void hold(struct rdp_peer *peer, enum rdp_display_hold why) {
	peer->held_by = why;
}

static void count_frame(struct rdp_peer *peer) {
	int64_t now = monotonic_ms();
	if (peer->stat_frames == 0) {
		peer->stat_since_ms = now;
	}
	int64_t ms = now - peer->stat_since_ms;
	if (++peer->stat_frames < STAT_FRAMES && ms < STAT_MS) {
		return;
	}
	uint32_t n = peer->stat_frames;
	wlr_log(WLR_DEBUG, "RDP: %s: %u frames in %" PRId64 " ms, %" PRIu64 " bytes each; "
		"a frame's damage waited %.1f ms for nothing, %.1f for acknowledgements, "
		"%.1f for the socket, %.1f for the frame rate; encoding and sending took "
		"%.1f ms, the acknowledgement came %.1f ms after", peer->host, n, ms,
		peer->stat_bytes / n, peer->stat_held_us[HOLD_NONE] / 1e3 / n,
		peer->stat_held_us[HOLD_ACK] / 1e3 / n, peer->stat_held_us[HOLD_SOCKET] / 1e3 / n,
		peer->stat_held_us[HOLD_PACE] / 1e3 / n, peer->stat_encode_us / 1e3 / n,
		peer->stat_acks ? peer->stat_ack_us / 1e3 / peer->stat_acks : 0.0);
	peer->stat_frames = 0;
	peer->stat_bytes = 0;
	memset(peer->stat_held_us, 0, sizeof(peer->stat_held_us));
	peer->stat_encode_us = 0;
	peer->stat_ack_us = 0;
	peer->stat_acks = 0;
}

/* What stayed still after lossy frames, losslessly (graphics pipeline). */
static bool send_refinement(struct rdp_peer *peer) {
	peer->frame_id++;
	peer->last_frame_ms = monotonic_ms();
	bool ok = rdp_gfx_send_refine(peer);
	count_frame(peer);
	return ok;
}

static bool send_frame(struct rdp_peer *peer) {
	pixman_region32_t damage;
	pixman_region32_init(&damage);
	pixman_region32_intersect_rect(&damage, &peer->damage, 0, 0,
		peer->rdp->width, peer->rdp->height);
	pixman_region32_clear(&peer->damage);
	peer->frame_id++;
	peer->last_frame_ms = monotonic_ms();
	int64_t start = monotonic_us();
	if (peer->pending_since_us) {
		peer->stat_held_us[peer->held_by] += start - peer->pending_since_us;
	}
	peer->pending_since_us = 0;
	peer->held_by = HOLD_NONE;
	bool ok = rdp_gfx_ready(peer) ? rdp_gfx_send_frame(peer, &damage) :
		rdp_encoder_send(peer, &damage);
	pixman_region32_fini(&damage);
	int64_t end = monotonic_us();
	peer->stat_encode_us += end - start;
	count_frame(peer);
	return ok;
}

static int handle_writable(int fd, uint32_t mask, void *data) {
	struct rdp_peer *peer = data;
	freerdp_peer *client = peer->client;
	if (!rdp_peer_alive(peer)) {
		return 0;
	}
	rdp_peer_enter_freerdp(peer);
	int drained = client->DrainOutputBuffer(client);
	rdp_peer_leave_freerdp(peer);
	if (!rdp_peer_alive(peer)) {
		return 0;
	}
	if (drained < 0) {
		rdp_peer_drop(peer, "the connection failed");
		return 0;
	}
	if (!client->IsWriteBlocked(client)) {
		wl_event_source_remove(peer->writable);
		peer->writable = NULL;
		rdp_display_schedule(peer);
	}
	return 0;
}

/*
 * A client whose desktop differs from ours is reactivated with ours, or
 * through the graphics pipeline gets a graphics reset with it.
 */
static bool resize_client(struct rdp_peer *peer) {
	rdpSettings *settings = peer->client->settings;
	struct rdp_server *rdp = peer->rdp;
	if (rdp_gfx_ready(peer)) {
		if (!rdp_gfx_resize(peer)) {
			rdp_peer_drop(peer, "cannot resize the client's graphics surface");
			return false;
		}
		return true;
	}
	if (rdp_gfx_expected(peer)) {
		return true; /* its surface will have the size of the time */
	}
	if (settings->DesktopWidth == (UINT32)rdp->width &&
			settings->DesktopHeight == (UINT32)rdp->height) {
		return true;
	}
	if (!settings->DesktopResize) {
		rdp_peer_drop(peer, "the desktop changed size, and the client cannot follow");
		return false;
	}
	settings->DesktopWidth = (UINT32)rdp->width;
	settings->DesktopHeight = (UINT32)rdp->height;
	peer->activated = false; /* until it confirms the new size */
	rdpUpdate *update = peer->client->update;
	if (!update->DesktopResize(update->context)) {
		rdp_peer_drop(peer, "cannot resize the client's desktop");
		return false;
	}
	return true;
}

static void send_due(struct rdp_peer *peer) {
	if (!resize_client(peer) || !peer->activated) {
		return;
	}
	bool damaged = pixman_region32_not_empty(&peer->damage);
	bool refine = !damaged && rdp_gfx_ready(peer) && rdp_gfx_refine_due(peer);
	if (!peer->output_enabled || (!damaged && !refine)) {
		return;
	}
	if (peer->writable) {
		hold(peer, HOLD_SOCKET);
		return;
	}
	if (rdp_gfx_ready(peer)) {
		if (!rdp_gfx_may_send(peer)) {
			hold(peer, HOLD_ACK);
			return; /* the acknowledgement schedules again */
		}
	} else if (rdp_gfx_expected(peer)) {
		return; /* its graphics pipeline is being set up */
	} else if (rdp_peer_uses_acks(peer) && peer->frame_id - peer->acked_id >= MAX_UNACKED) {
		hold(peer, HOLD_ACK);
		return; /* the acknowledgement schedules again */
	}
	int64_t interval = 1000 / peer->rdp->options->max_fps;
	int64_t since = monotonic_ms() - peer->last_frame_ms;
	if (since >= 0 && since < interval) {
		hold(peer, HOLD_PACE);
		if (!peer->pace_armed) {
			peer->pace_armed = true;
			wl_event_source_timer_update(peer->pace_timer, (int)(interval - since));
		}
		return;
	}
	if (!rdp_gfx_ready(peer) && !rdp_encoder_prepare(peer)) {
		rdp_peer_drop(peer, "cannot set the encoder up");
		return;
	}
	if (!(refine ? send_refinement(peer) : send_frame(peer))) {
		rdp_peer_drop(peer, "cannot send a frame");
		return;
	}
	rdp_display_frame_sent(peer);
}

void rdp_display_frame_sent(struct rdp_peer *peer) {
	/* An H.264 frame goes out after its encoding, when this is called again. */
	peer->sent_us[peer->frame_id % 4] = monotonic_us();
	freerdp_peer *client = peer->client;
	if (!peer->writable && client->IsWriteBlocked(client)) {
		/* The rest goes when the socket takes it; no frame until then. */
		peer->writable = wl_event_loop_add_fd(peer->rdp->server->loop, client->sockfd,
			WL_EVENT_WRITABLE, handle_writable, peer);
	}
}

static void try_send(struct rdp_peer *peer) {
	if (peer->state != RDP_PEER_SESSION || !rdp_peer_alive(peer) || !peer->activated) {
		return;
	}
	if (!rdp_server_fb_ready(peer->rdp)) {
		return; /* the picture comes first (rdp_server.c), then all of it */
	}
	rdp_peer_enter_freerdp(peer);
	send_due(peer);
	rdp_peer_leave_freerdp(peer);
}

static int handle_pace(void *data) {
	struct rdp_peer *peer = data;
	peer->pace_armed = false;
	try_send(peer);
	return 0;
}

void rdp_display_schedule(struct rdp_peer *peer) {
	if (peer->in_freerdp > 0) {
		/* Not from inside FreeRDP's callbacks: right after them. */
		if (!peer->pace_armed) {
			peer->pace_armed = true;
			wl_event_source_timer_update(peer->pace_timer, 1);
		}
		return;
	}
	if (!peer->pace_armed) {
		try_send(peer);
	}
}

void rdp_display_acknowledged(struct rdp_peer *peer, uint32_t frame_id) {
	if (peer->sent_us[frame_id % 4] && peer->frame_id - frame_id < 4) {
		peer->stat_ack_us += monotonic_us() - peer->sent_us[frame_id % 4];
		peer->stat_acks++;
	}
}

static BOOL handle_frame_acknowledge(rdpContext *context, UINT32 frame_id) {
	struct rdp_peer *peer = context->peer->ContextExtra;
	if (peer->prelogon) {
		return TRUE; /* a guest's thread: no frames yet */
	}
	peer->acked_id = frame_id;
	rdp_display_acknowledged(peer, frame_id);
	rdp_display_schedule(peer);
	return TRUE;
}

static void damage_all(struct rdp_peer *peer) {
	pixman_region32_union_rect(&peer->damage, &peer->damage, 0, 0,
		peer->rdp->width, peer->rdp->height);
}

static BOOL handle_suppress_output(rdpContext *context, BYTE allow, const RECTANGLE_16 *area) {
	struct rdp_peer *peer = context->peer->ContextExtra;
	if (peer->prelogon) {
		return TRUE; /* a guest's thread: no frames yet */
	}
	peer->output_enabled = allow != 0;
	if (peer->output_enabled) {
		damage_all(peer);
		rdp_display_schedule(peer);
	}
	return TRUE;
}

static BOOL handle_refresh_rect(rdpContext *context, BYTE count, const RECTANGLE_16 *areas) {
	struct rdp_peer *peer = context->peer->ContextExtra;
	if (peer->prelogon) {
		return TRUE; /* a guest's thread: no frames yet */
	}
	for (BYTE i = 0; i < count; i++) {
		pixman_region32_union_rect(&peer->damage, &peer->damage, areas[i].left,
			areas[i].top, areas[i].right - areas[i].left + 1u,
			areas[i].bottom - areas[i].top + 1u);
	}
	rdp_display_schedule(peer);
	return TRUE;
}

bool rdp_display_init_peer(struct rdp_peer *peer) {
	pixman_region32_init(&peer->damage);
	peer->encoder = rdp_encoder_create();
	peer->pace_timer = wl_event_loop_add_timer(peer->rdp->server->loop, handle_pace, peer);
	rdpUpdate *update = peer->client->update;
	update->SurfaceFrameAcknowledge = handle_frame_acknowledge;
	update->SuppressOutput = handle_suppress_output;
	update->RefreshRect = handle_refresh_rect;
	return peer->encoder && peer->pace_timer;
}

void rdp_display_finish_peer(struct rdp_peer *peer) {
	if (peer->pace_timer) {
		wl_event_source_remove(peer->pace_timer);
		peer->pace_timer = NULL;
	}
	if (peer->writable) {
		wl_event_source_remove(peer->writable);
		peer->writable = NULL;
	}
	rdp_encoder_destroy(peer->encoder);
	peer->encoder = NULL;
	pixman_region32_fini(&peer->damage);
}

void rdp_display_activated(struct rdp_peer *peer) {
	peer->activated = true;
	peer->output_enabled = true;
	peer->acked_id = peer->frame_id;
	damage_all(peer);
	rdp_cursor_send(peer);
	rdp_display_schedule(peer);
}

void rdp_display_refresh(struct rdp_peer *peer) {
	damage_all(peer);
	rdp_display_schedule(peer);
}

void rdp_display_damage(struct rdp_server *rdp, const pixman_region32_t *damage) {
	struct rdp_peer *peer, *tmp;
	wl_list_for_each_safe(peer, tmp, &rdp->peers, link) {
		if (peer->state != RDP_PEER_SESSION) {
			continue;
		}
		if (!peer->pending_since_us && pixman_region32_not_empty(damage)) {
			peer->pending_since_us = monotonic_us();
		}
		pixman_region32_union(&peer->damage, &peer->damage, damage);
		rdp_display_schedule(peer);
	}
}

void rdp_display_resized(struct rdp_server *rdp) {
	struct rdp_peer *peer, *tmp;
	wl_list_for_each_safe(peer, tmp, &rdp->peers, link) {
		if (peer->state != RDP_PEER_SESSION) {
			continue;
		}
		pixman_region32_clear(&peer->damage);
		damage_all(peer);
		rdp_display_schedule(peer);
	}
}
