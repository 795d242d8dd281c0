/* SPDX-License-Identifier: MIT */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <wlr/util/log.h>
#include "capture/latin1.h"
#include "remote/clipboard_bridge.h"
#include "remote/vnc/vnc_private.h"
#include "compositor/options.h"

/*
 * Clipboard both ways, through capture/remote's clipboard bridge. Viewer
 * cut text (UTF-8 through ExtendedClipboard when the viewer has it, else
 * Latin-1) becomes the session's clipboard, which X apps get too. The
 * session's new clipboard text (up to --vnc-max-cut-text) goes to every
 * viewer as UTF-8 with a Latin-1 fallback.
 */

/* The viewer that sent len bytes of cut text, if it may set the clipboard. */
static struct vnc_server *cut_text_allowed(rfbClientPtr cl, int len) {
	struct vnc_client *client = cl->clientData;
	if (!client || cl->viewOnly || len < 0) {
		return NULL;
	}
	struct vnc_server *vnc = client->vnc;
	if (len > vnc->options->max_cut_text) {
		wlr_log(WLR_INFO, "VNC: ignoring %d bytes of cut text from %s (limit %d)",
			len, cl->host, vnc->options->max_cut_text);
		return NULL;
	}
	return vnc;
}

static void handle_cut_text_utf8(char *str, int len, rfbClientPtr cl) {
	struct vnc_server *vnc = cut_text_allowed(cl, len);
	if (!vnc) {
		return;
	}
	char *utf8 = malloc((size_t)len + 1);
	if (!utf8) {
		return;
	}
	memcpy(utf8, str, (size_t)len);
	utf8[len] = '\0';
	clipboard_bridge_set_text(vnc->clipboard, utf8, strnlen(utf8, (size_t)len));
	free(utf8);
}

static void handle_cut_text_latin1(char *str, int len, rfbClientPtr cl) {
	struct vnc_server *vnc = cut_text_allowed(cl, len);
	if (!vnc) {
		return;
	}
	char *utf8 = malloc((size_t)len * 2 + 1);
	if (!utf8) {
		return;
	}
	size_t o = latin1_to_utf8(str, (size_t)len, utf8);
	clipboard_bridge_set_text(vnc->clipboard, utf8, o);
	free(utf8);
}

/* Latin-1 to one viewer that lacks ExtendedClipboard. */
static void send_latin1(rfbClientPtr cl, const char *text, size_t len) {
	rfbServerCutTextMsg message = {
		.type = rfbServerCutText,
		.length = Swap32IfLE((uint32_t)len),
	};
	if (rfbWriteExact(cl, (char *)&message, sz_rfbServerCutTextMsg) < 0 ||
			rfbWriteExact(cl, (char *)text, (int)len) < 0) {
		rfbLogPerror("oriel: cannot send cut text");
		rfbCloseClient(cl);
	}
}

/*
 * UTF-8 to ExtendedClipboard viewers, Latin-1 to the others.
 *
 * libvncserver 0.9.14's rfbSendServerCutTextUTF8 has two bugs we steer
 * around: its Latin-1 fallback announces the UTF-8 length but sends the
 * Latin-1 bytes, which corrupts the stream, so the fallback is sent here;
 * and with no fallback it locks each plain viewer's sendMutex and never
 * unlocks it, so the next cut text (or anything else that takes that lock)
 * blocks oriel's event loop for good. So it is called only when some viewer
 * has ExtendedClipboard, and the locks it leaves on the plain viewers are
 * released right after (all of this runs on the one event-loop thread).
 */
static void send_cut_text(struct vnc_server *vnc, const char *utf8, size_t len) {
	size_t n_plain = 0, n_extended = 0;
	rfbClientIteratorPtr iterator = rfbGetClientIterator(vnc->screen);
	rfbClientPtr cl;
	while ((cl = rfbClientIteratorNext(iterator))) {
		if (cl->sock == RFB_INVALID_SOCKET) {
			continue;
		}
		if (cl->enableExtendedClipboard) {
			n_extended++;
		} else {
			n_plain++;
		}
	}
	rfbReleaseClientIterator(iterator);

	if (n_extended > 0) {
		rfbClientPtr *plain = n_plain ? calloc(n_plain, sizeof(*plain)) : NULL;
		if (n_plain && !plain) {
			return;
		}
		size_t i = 0;
		iterator = rfbGetClientIterator(vnc->screen);
		while ((cl = rfbClientIteratorNext(iterator)) && i < n_plain) {
			if (cl->sock != RFB_INVALID_SOCKET && !cl->enableExtendedClipboard) {
				plain[i++] = cl;
			}
		}
		rfbReleaseClientIterator(iterator);
		rfbSendServerCutTextUTF8(vnc->screen, (char *)utf8, (int)len, NULL, 0);
#ifdef LIBVNCSERVER_HAVE_LIBPTHREAD
		for (size_t j = 0; j < i; j++) {
			pthread_mutex_unlock(&plain[j]->sendMutex);
		}
#endif
		free(plain);
	}
	if (n_plain == 0) {
		return;
	}
	char *latin1 = malloc(len);
	if (!latin1) {
		return;
	}
	size_t latin1_len = latin1_from_utf8(utf8, len, latin1);
	iterator = rfbGetClientIterator(vnc->screen);
	while ((cl = rfbClientIteratorNext(iterator))) {
		if (!cl->enableExtendedClipboard && cl->sock != RFB_INVALID_SOCKET) {
			send_latin1(cl, latin1, latin1_len);
		}
	}
	rfbReleaseClientIterator(iterator);
	free(latin1);
}

static bool bridge_wanted(void *data) {
	struct vnc_server *vnc = data;
	return vnc->n_clients > 0;
}

static void bridge_text(void *data, const char *utf8, size_t len) {
	send_cut_text(data, utf8, len);
}

static const struct clipboard_bridge_impl bridge_impl = {
	.wanted = bridge_wanted,
	.text = bridge_text,
};

void vnc_clipboard_init(struct vnc_server *vnc) {
	vnc->screen->setXCutText = handle_cut_text_latin1;
	vnc->screen->setXCutTextUTF8 = handle_cut_text_utf8;
	vnc->clipboard = clipboard_bridge_create(vnc->server,
		(size_t)vnc->options->max_cut_text, &bridge_impl, vnc);
}

void vnc_clipboard_finish(struct vnc_server *vnc) {
	clipboard_bridge_destroy(vnc->clipboard);
	vnc->clipboard = NULL;
}
