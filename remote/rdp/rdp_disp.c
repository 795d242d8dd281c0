/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>
#include <freerdp/channels/wtsvc.h>
#include <freerdp/server/disp.h>
#include <wlr/util/log.h>
#include "remote/rdp/rdp_private.h"
#include "remote/monitor_layout.h"
#include "compositor/server.h"
#include "common/util.h"

/*
 * Display Control (MS-RDPEDISP): the client asks for a new monitor
 * layout, e.g. when its window is resized (xfreerdp /dynamic-resolution),
 * and the outputs follow it (rdp_layout.c). FreeRDP 2 reads this
 * channel in a thread of its own, which only hands the latest layout to
 * oriel's loop through an eventfd; everything else happens in the loop.
 */

/* Monitors a layout may have (FreeRDP checks the count against it). */
#define MAX_MONITORS REMOTE_MONITORS_MAX
/* Largest monitor area, as factors of the width and height. */
#define MAX_AREA_FACTOR 8192

struct rdp_disp {
	struct rdp_peer *peer;
	DispServerContext *context;
	int wakeup_fd;
	struct wl_event_source *source;
	pthread_mutex_t lock; /* guards the layout below, written by FreeRDP's thread */
	bool pending;
	struct remote_monitor monitors[MAX_MONITORS];
	int count;
	UINT32 channel_id; /* FreeRDP's, once assigned */
	bool has_channel_id;
};

/* FreeRDP's channel thread: keep the wish, wake the loop. */
static UINT handle_monitor_layout(DispServerContext *context,
		const DISPLAY_CONTROL_MONITOR_LAYOUT_PDU *layout) {
	struct rdp_disp *disp = context->custom;
	if (layout->NumMonitors == 0 || layout->NumMonitors > MAX_MONITORS) {
		return CHANNEL_RC_OK; /* FreeRDP refuses more */
	}
	pthread_mutex_lock(&disp->lock);
	disp->pending = true;
	disp->count = (int)layout->NumMonitors;
	for (UINT32 i = 0; i < layout->NumMonitors; i++) {
		const DISPLAY_CONTROL_MONITOR_LAYOUT *m = &layout->Monitors[i];
		/* Sizes beyond INT_MAX become negative: refused as such. */
		disp->monitors[i] = (struct remote_monitor){ .x = m->Left, .y = m->Top,
			.width = (int)m->Width, .height = (int)m->Height,
			.primary = (m->Flags & DISPLAY_CONTROL_MONITOR_PRIMARY) != 0 };
	}
	pthread_mutex_unlock(&disp->lock);
	uint64_t one = 1;
	if (write(disp->wakeup_fd, &one, sizeof(one)) < 0 && errno != EAGAIN) {
		return ERROR_INTERNAL_ERROR;
	}
	return CHANNEL_RC_OK;
}

static int handle_wakeup(int fd, uint32_t mask, void *data) {
	struct rdp_disp *disp = data;
	uint64_t wakeups;
	if (read(fd, &wakeups, sizeof(wakeups)) < 0 && errno != EAGAIN) {
		return 0;
	}
	if (!rdp_peer_alive(disp->peer)) {
		return 0;
	}
	struct remote_monitor monitors[MAX_MONITORS];
	pthread_mutex_lock(&disp->lock);
	bool pending = disp->pending;
	int count = disp->count;
	memcpy(monitors, disp->monitors, sizeof(monitors));
	disp->pending = false;
	pthread_mutex_unlock(&disp->lock);
	if (pending) {
		rdp_layout_requested(disp->peer, monitors, count);
	}
	return 0;
}

static BOOL handle_channel_id(DispServerContext *context, UINT32 channel_id) {
	struct rdp_disp *disp = context->custom;
	disp->channel_id = channel_id;
	disp->has_channel_id = true;
	return TRUE;
}

/*
 * The capabilities go once the client accepted the channel: a client
 * without display control (xfreerdp without /dynamic-resolution)
 * refuses it, and data sent on it anyway made it log "ChannelId N not
 * found!" at every connection. FreeRDP reads the client's answer in the
 * peer's dispatch, in the loop. (The connection's only DVC creation
 * callback: no other channel of oriel's needs one.)
 */
static BOOL handle_creation_status(void *data, UINT32 channel_id, INT32 status) {
	struct rdp_disp *disp = data;
	if (!disp->has_channel_id || channel_id != disp->channel_id) {
		return TRUE;
	}
	if (status < 0) {
		wlr_log(WLR_DEBUG, "RDP: %s has no display control", disp->peer->host);
		return TRUE;
	}
	if (disp->context->DisplayControlCaps(disp->context) != CHANNEL_RC_OK) {
		wlr_log(WLR_ERROR, "RDP: cannot send display control's capabilities to %s",
			disp->peer->host);
	}
	return TRUE;
}

bool rdp_disp_open(struct rdp_peer *peer) {
	struct rdp_disp *disp = zalloc(sizeof(*disp));
	disp->peer = peer;
	disp->wakeup_fd = -1;
	pthread_mutex_init(&disp->lock, NULL);
	peer->disp = disp;
	disp->wakeup_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (disp->wakeup_fd < 0) {
		return false;
	}
	disp->source = wl_event_loop_add_fd(peer->rdp->server->loop, disp->wakeup_fd,
		WL_EVENT_READABLE, handle_wakeup, disp);
	DispServerContext *context = disp_server_context_new(peer->vcm);
	if (!disp->source || !context) {
		disp_server_context_free(context);
		return false;
	}
	disp->context = context;
	context->custom = disp;
	context->rdpcontext = peer->client->context;
	context->MaxNumMonitors = MAX_MONITORS;
	context->MaxMonitorAreaFactorA = MAX_AREA_FACTOR;
	context->MaxMonitorAreaFactorB = MAX_AREA_FACTOR;
	context->DispMonitorLayout = handle_monitor_layout;
	context->ChannelIdAssigned = handle_channel_id;
	WTSVirtualChannelManagerSetDVCCreationCallback(peer->vcm, handle_creation_status, disp);
	return context->Open(context) == CHANNEL_RC_OK;
}

void rdp_disp_close(struct rdp_peer *peer) {
	struct rdp_disp *disp = peer->disp;
	if (!disp) {
		return;
	}
	WTSVirtualChannelManagerSetDVCCreationCallback(peer->vcm, NULL, NULL);
	/* Stops FreeRDP's thread first: no callback comes after. */
	disp_server_context_free(disp->context);
	if (disp->source) {
		wl_event_source_remove(disp->source);
	}
	if (disp->wakeup_fd >= 0) {
		close(disp->wakeup_fd);
	}
	pthread_mutex_destroy(&disp->lock);
	free(disp);
	peer->disp = NULL;
}
