/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>
#include <freerdp/channels/wtsvc.h>
#include <freerdp/server/cliprdr.h>
#include <winpr/synch.h>
#include <winpr/user.h>
#include <wlr/util/log.h>
#include "remote/rdp/rdp_clipboard_text.h"
#include "remote/rdp/rdp_private.h"
#include "remote/clipboard_bridge.h"
#include "compositor/server.h"
#include "common/util.h"

/*
 * The clipboard virtual channel (cliprdr) of one client, in oriel's loop:
 * FreeRDP's cliprdr server parses and builds the PDUs, without its thread.
 * Unicode text both ways, through capture/remote's clipboard bridge:
 * - the session's new clipboard text is announced to the client as
 *   CF_UNICODETEXT and sent when the client pastes it;
 * - text the client copies (its format list has CF_UNICODETEXT) becomes
 *   the session's clipboard as a promise, asked for when an app first
 *   pastes it (delayed rendering, as the protocol intends). Asking at
 *   once breaks xfreerdp: on a new X owner it announces every format it
 *   knows and asks the owner for TARGETS; our request's conversion then
 *   writes to the same property of its window, and when the owner
 *   answers both before xfreerdp reads it, xfreerdp announces 0 formats
 *   and the copy never arrives.
 * The channel's data goes out through the client's virtual channel
 * manager (rdp_channels.c), which sends what it queued.
 */

/* The most clipboard text taken from or given to a client, in UTF-8. */
#define MAX_TEXT_BYTES (1024 * 1024)
/* CF_UNICODETEXT data that long at most (UTF-16, CRLF, NUL). */
#define MAX_UNICODE_BYTES (4 * MAX_TEXT_BYTES + 2)

struct rdp_clipboard {
	struct rdp_peer *peer;
	CliprdrServerContext *cliprdr;
	struct wl_event_source *channel_source;
	struct clipboard_bridge *bridge;
	bool ready;           /* the client sent its capabilities */
	unsigned asked;       /* data requests whose responses are still to come */
	unsigned stale;       /* of those, the ones made for an earlier format list */
	char *text;           /* the session's text, offered to the client */
	size_t text_len;
};

static struct rdp_clipboard *clipboard_of(CliprdrServerContext *cliprdr) {
	return cliprdr->custom;
}

static int handle_channel(int fd, uint32_t mask, void *data) {
	struct rdp_clipboard *clip = data;
	struct rdp_peer *peer = clip->peer;
	if (!rdp_peer_alive(peer)) {
		return 0;
	}
	rdp_peer_enter_freerdp(peer);
	UINT error = clip->cliprdr->CheckEventHandle(clip->cliprdr);
	rdp_peer_leave_freerdp(peer);
	if (!rdp_peer_alive(peer)) {
		return 0;
	}
	if (error != CHANNEL_RC_OK) {
		rdp_peer_drop(peer, "a malformed clipboard message");
	}
	return 0;
}

static void offer_text(struct rdp_clipboard *clip) {
	CLIPRDR_FORMAT format = { .formatId = CF_UNICODETEXT };
	CLIPRDR_FORMAT_LIST list = {
		.msgType = CB_FORMAT_LIST,
		.numFormats = 1,
		.formats = &format,
	};
	clip->cliprdr->ServerFormatList(clip->cliprdr, &list);
}

static UINT handle_client_capabilities(CliprdrServerContext *cliprdr,
		const CLIPRDR_CAPABILITIES *capabilities) {
	struct rdp_clipboard *clip = clipboard_of(cliprdr);
	clip->ready = true;
	if (clip->text) {
		offer_text(clip);
	}
	return CHANNEL_RC_OK;
}

static UINT handle_temp_directory(CliprdrServerContext *cliprdr,
		const CLIPRDR_TEMP_DIRECTORY *directory) {
	return CHANNEL_RC_OK; /* files are not passed */
}

static UINT handle_client_format_list(CliprdrServerContext *cliprdr,
		const CLIPRDR_FORMAT_LIST *list) {
	struct rdp_clipboard *clip = clipboard_of(cliprdr);
	CLIPRDR_FORMAT_LIST_RESPONSE response = {
		.msgType = CB_FORMAT_LIST_RESPONSE,
		.msgFlags = CB_RESPONSE_OK,
	};
	UINT error = cliprdr->ServerFormatListResponse(cliprdr, &response);
	if (error != CHANNEL_RC_OK) {
		return error;
	}
	bool text = false;
	for (UINT32 i = 0; i < list->numFormats && list->formats; i++) {
		text = text || list->formats[i].formatId == CF_UNICODETEXT;
	}
	wlr_log(WLR_DEBUG, "RDP: %s copied %u formats%s", clip->peer->host, list->numFormats,
		text ? ", text among them" : "");
	if (text && !clip->peer->view_only) {
		/* Responses come in order: those still due answer older lists. */
		clip->stale = clip->asked;
		clipboard_bridge_promise_text(clip->bridge);
	}
	return CHANNEL_RC_OK;
}

static UINT handle_client_format_list_response(CliprdrServerContext *cliprdr,
		const CLIPRDR_FORMAT_LIST_RESPONSE *response) {
	return CHANNEL_RC_OK;
}

static UINT handle_client_format_data_request(CliprdrServerContext *cliprdr,
		const CLIPRDR_FORMAT_DATA_REQUEST *request) {
	struct rdp_clipboard *clip = clipboard_of(cliprdr);
	CLIPRDR_FORMAT_DATA_RESPONSE response = {
		.msgType = CB_FORMAT_DATA_RESPONSE,
		.msgFlags = CB_RESPONSE_FAIL,
	};
	uint8_t *data = NULL;
	size_t len = 0;
	if (request->requestedFormatId == CF_UNICODETEXT && clip->text &&
			rdp_clipboard_text_to_unicode(clip->text, clip->text_len, &data, &len)) {
		response.msgFlags = CB_RESPONSE_OK;
		response.dataLen = (UINT32)len;
		response.requestedFormatData = data;
	}
	UINT error = cliprdr->ServerFormatDataResponse(cliprdr, &response);
	free(data);
	return error;
}

/* The client's text for the waiting pastes; NULL when it has none. */
static void fetched(struct rdp_clipboard *clip, const CLIPRDR_FORMAT_DATA_RESPONSE *response) {
	if (!(response->msgFlags & CB_RESPONSE_OK) || !response->requestedFormatData) {
		wlr_log(WLR_DEBUG, "RDP: %s sent no clipboard text", clip->peer->host);
		clipboard_bridge_fetched(clip->bridge, NULL, 0);
		return;
	}
	if (response->dataLen > MAX_UNICODE_BYTES) {
		wlr_log(WLR_INFO, "RDP: ignoring %u bytes of clipboard text from %s",
			response->dataLen, clip->peer->host);
		clipboard_bridge_fetched(clip->bridge, NULL, 0);
		return;
	}
	char *text;
	size_t len;
	if (!rdp_clipboard_text_from_unicode(response->requestedFormatData,
			response->dataLen, &text, &len)) {
		clipboard_bridge_fetched(clip->bridge, NULL, 0);
		return;
	}
	wlr_log(WLR_DEBUG, "RDP: %s sent %zu bytes of clipboard text", clip->peer->host, len);
	clipboard_bridge_fetched(clip->bridge, text, len);
	free(text);
}

static UINT handle_client_format_data_response(CliprdrServerContext *cliprdr,
		const CLIPRDR_FORMAT_DATA_RESPONSE *response) {
	struct rdp_clipboard *clip = clipboard_of(cliprdr);
	if (clip->asked == 0) {
		return CHANNEL_RC_OK; /* not asked for */
	}
	clip->asked--;
	if (clip->stale > 0) {
		clip->stale--; /* for a copy the client has replaced since */
		return CHANNEL_RC_OK;
	}
	fetched(clip, response);
	return CHANNEL_RC_OK;
}

/* An app in the session pastes the client's promised text: asked for now. */
static void bridge_fetch(void *data) {
	struct rdp_clipboard *clip = data;
	CLIPRDR_FORMAT_DATA_REQUEST request = {
		.msgType = CB_FORMAT_DATA_REQUEST,
		.dataLen = 4,
		.requestedFormatId = CF_UNICODETEXT,
	};
	if (clip->cliprdr->ServerFormatDataRequest(clip->cliprdr, &request) != CHANNEL_RC_OK) {
		clipboard_bridge_fetched(clip->bridge, NULL, 0);
		return;
	}
	clip->asked++; /* queued: sent when the loop sees the queue */
}

static bool bridge_wanted(void *data) {
	return true;
}

/* The session's new clipboard text: announced to the client. */
static void bridge_text(void *data, const char *utf8, size_t len) {
	struct rdp_clipboard *clip = data;
	char *copy = malloc(len);
	if (!copy) {
		return;
	}
	memcpy(copy, utf8, len);
	free(clip->text);
	clip->text = copy;
	clip->text_len = len;
	if (clip->ready) {
		offer_text(clip); /* queued: sent when the loop sees the queue */
	}
}

static const struct clipboard_bridge_impl bridge_impl = {
	.wanted = bridge_wanted,
	.text = bridge_text,
	.fetch = bridge_fetch,
};

static struct wl_event_source *watch(struct rdp_clipboard *clip, HANDLE handle,
		wl_event_loop_fd_func_t func) {
	int fd = handle ? GetEventFileDescriptor(handle) : -1;
	if (fd < 0) {
		return NULL;
	}
	return wl_event_loop_add_fd(clip->peer->rdp->server->loop, fd, WL_EVENT_READABLE,
		func, clip);
}

static bool clipboard_start(struct rdp_clipboard *clip) {
	HANDLE vcm = clip->peer->vcm;
	if (!vcm) {
		return false;
	}
	if (!WTSVirtualChannelManagerIsChannelJoined(vcm, CLIPRDR_SVC_CHANNEL_NAME)) {
		return true; /* no clipboard for this client */
	}
	CliprdrServerContext *cliprdr = cliprdr_server_context_new(vcm);
	if (!cliprdr) {
		return false;
	}
	clip->cliprdr = cliprdr;
	cliprdr->custom = clip;
	cliprdr->rdpcontext = clip->peer->client->context;
	cliprdr->useLongFormatNames = TRUE;
	cliprdr->ClientCapabilities = handle_client_capabilities;
	cliprdr->TempDirectory = handle_temp_directory;
	cliprdr->ClientFormatList = handle_client_format_list;
	cliprdr->ClientFormatListResponse = handle_client_format_list_response;
	cliprdr->ClientFormatDataRequest = handle_client_format_data_request;
	cliprdr->ClientFormatDataResponse = handle_client_format_data_response;
	if (cliprdr->Open(cliprdr) != CHANNEL_RC_OK) {
		return false;
	}
	clip->channel_source = watch(clip, cliprdr->GetEventHandle(cliprdr), handle_channel);
	if (!clip->channel_source) {
		return false;
	}
	/* What FreeRDP's channel thread would send first. */
	CLIPRDR_GENERAL_CAPABILITY_SET general = {
		.capabilitySetType = CB_CAPSTYPE_GENERAL,
		.capabilitySetLength = CB_CAPSTYPE_GENERAL_LEN,
		.version = CB_CAPS_VERSION_2,
		.generalFlags = CB_USE_LONG_FORMAT_NAMES,
	};
	CLIPRDR_CAPABILITIES capabilities = {
		.msgType = CB_CLIP_CAPS,
		.dataLen = 4 + CB_CAPSTYPE_GENERAL_LEN,
		.cCapabilitiesSets = 1,
		.capabilitySets = (CLIPRDR_CAPABILITY_SET *)&general,
	};
	CLIPRDR_MONITOR_READY monitor_ready = { .msgType = CB_MONITOR_READY };
	if (cliprdr->ServerCapabilities(cliprdr, &capabilities) != CHANNEL_RC_OK ||
			cliprdr->MonitorReady(cliprdr, &monitor_ready) != CHANNEL_RC_OK) {
		return false;
	}
	/* Text copied in the session before the client came is offered too. */
	clip->bridge = clipboard_bridge_create(clip->peer->rdp->server, MAX_TEXT_BYTES,
		&bridge_impl, clip);
	return clip->bridge != NULL;
}

static void clipboard_destroy(struct rdp_clipboard *clip) {
	clipboard_bridge_destroy(clip->bridge);
	if (clip->channel_source) {
		wl_event_source_remove(clip->channel_source);
	}
	if (clip->cliprdr) {
		clip->cliprdr->Close(clip->cliprdr);
		cliprdr_server_context_free(clip->cliprdr);
	}
	free(clip->text);
	free(clip);
}

void rdp_clipboard_activated(struct rdp_peer *peer) {
	if (peer->clipboard || peer->state != RDP_PEER_SESSION || peer->closing) {
		return; /* once per connection, after its logon */
	}
	struct rdp_clipboard *clip = zalloc(sizeof(*clip));
	clip->peer = peer;
	peer->clipboard = clip;
	if (!clipboard_start(clip)) {
		wlr_log(WLR_ERROR, "RDP: cannot open the clipboard channel of %s", peer->host);
		rdp_clipboard_peer_gone(peer);
	}
}

void rdp_clipboard_peer_gone(struct rdp_peer *peer) {
	if (peer->clipboard) {
		clipboard_destroy(peer->clipboard);
		peer->clipboard = NULL;
	}
}
