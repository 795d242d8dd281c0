/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wlr/types/wlr_data_device.h>
#include <wlr/types/wlr_seat.h>
#include <wlr/util/log.h>
#include "capture/latin1.h"
#include "capture/vnc/vnc_private.h"
#include "compositor/options.h"
#include "compositor/seat.h"
#include "compositor/server.h"
#include "compositor/util.h"

/*
 * Clipboard both ways. Viewer cut text (UTF-8 through ExtendedClipboard
 * when the viewer has it, else Latin-1) becomes the seat selection, which
 * Xwayland's selection bridge hands to X apps too. A new seat selection
 * from the session is read (text only, up to --vnc-max-cut-text) and sent
 * to every viewer as UTF-8 with a Latin-1 fallback.
 */

static const char *const text_mime_types[] = {
	"text/plain;charset=utf-8", "UTF8_STRING", "text/plain", "TEXT", "STRING",
};

struct vnc_data_source {
	struct wlr_data_source base;
	char *utf8;
	size_t len;
};

struct vnc_selection_read {
	struct vnc_server *vnc;
	int fd;
	struct wl_event_source *source;
	char *data;
	size_t len;
	struct wl_list link;
};

static void source_send(struct wlr_data_source *wlr_source, const char *mime_type,
		int32_t fd) {
	struct vnc_data_source *source = (struct vnc_data_source *)wlr_source;
	/* Small texts: a blocking write of up to max-cut-text bytes to a pipe. */
	int flags = fcntl(fd, F_GETFL);
	if (flags >= 0) {
		fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
	}
	size_t done = 0;
	while (done < source->len) {
		ssize_t n = write(fd, source->utf8 + done, source->len - done);
		if (n <= 0) {
			if (n < 0 && errno == EINTR) {
				continue;
			}
			break;
		}
		done += (size_t)n;
	}
	close(fd);
}

static void source_destroy(struct wlr_data_source *wlr_source) {
	struct vnc_data_source *source = (struct vnc_data_source *)wlr_source;
	free(source->utf8);
	free(source);
}

static const struct wlr_data_source_impl source_impl = {
	.send = source_send,
	.destroy = source_destroy,
};

static void set_selection(struct vnc_server *vnc, char *utf8, size_t len) {
	struct vnc_data_source *source = zalloc(sizeof(*source));
	wlr_data_source_init(&source->base, &source_impl);
	source->utf8 = utf8;
	source->len = len;
	for (size_t i = 0; i < ARRAY_LEN(text_mime_types); i++) {
		char **p = wl_array_add(&source->base.mime_types, sizeof(*p));
		if (p) {
			*p = xstrdup(text_mime_types[i]);
		}
	}
	struct wlr_seat *seat = vnc->server->seat->wlr_seat;
	vnc->own_selection = &source->base;
	wlr_seat_set_selection(seat, &source->base,
		wl_display_next_serial(vnc->server->display));
}

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
	set_selection(vnc, utf8, strnlen(utf8, (size_t)len));
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
	set_selection(vnc, utf8, o);
}

static void read_destroy(struct vnc_selection_read *read) {
	wl_event_source_remove(read->source);
	close(read->fd);
	wl_list_remove(&read->link);
	free(read->data);
	free(read);
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

static int handle_read_fd(int fd, uint32_t mask, void *data) {
	struct vnc_selection_read *read_state = data;
	struct vnc_server *vnc = read_state->vnc;
	size_t cap = (size_t)vnc->options->max_cut_text;
	char buf[4096];
	ssize_t n = read(fd, buf, sizeof(buf));
	if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
		return 0;
	}
	if (n > 0) {
		if (read_state->len + (size_t)n > cap) {
			wlr_log(WLR_INFO, "VNC: the selection is larger than %zu bytes; "
				"not sent to viewers", cap);
			read_destroy(read_state);
			return 0;
		}
		char *grown = realloc(read_state->data, read_state->len + (size_t)n);
		if (!grown) {
			read_destroy(read_state);
			return 0;
		}
		read_state->data = grown;
		memcpy(read_state->data + read_state->len, buf, (size_t)n);
		read_state->len += (size_t)n;
		return 0;
	}
	if (read_state->len > 0) {
		send_cut_text(vnc, read_state->data, read_state->len);
	}
	read_destroy(read_state);
	return 0;
}

static void handle_selection(struct wl_listener *listener, void *data) {
	struct vnc_server *vnc = wl_container_of(listener, vnc, selection);
	struct wlr_seat *seat = vnc->server->seat->wlr_seat;
	struct wlr_data_source *source = seat->selection_source;
	if (!source || source == vnc->own_selection) {
		if (!source) {
			vnc->own_selection = NULL;
		}
		return;
	}
	vnc->own_selection = NULL;
	if (vnc->n_clients == 0) {
		return;
	}
	const char *mime = NULL;
	for (size_t i = 0; i < ARRAY_LEN(text_mime_types) && !mime; i++) {
		char **p;
		wl_array_for_each(p, &source->mime_types) {
			if (strcmp(*p, text_mime_types[i]) == 0) {
				mime = text_mime_types[i];
				break;
			}
		}
	}
	if (!mime) {
		return;
	}
	int fds[2];
	if (pipe2(fds, O_CLOEXEC | O_NONBLOCK) < 0) {
		return;
	}
	struct vnc_selection_read *read_state = zalloc(sizeof(*read_state));
	read_state->vnc = vnc;
	read_state->fd = fds[0];
	read_state->source = wl_event_loop_add_fd(vnc->server->loop, fds[0],
		WL_EVENT_READABLE, handle_read_fd, read_state);
	wl_list_insert(&vnc->selection_reads, &read_state->link);
	wlr_data_source_send(source, mime, fds[1]);
}

void vnc_clipboard_init(struct vnc_server *vnc) {
	vnc->screen->setXCutText = handle_cut_text_latin1;
	vnc->screen->setXCutTextUTF8 = handle_cut_text_utf8;
	vnc->selection.notify = handle_selection;
	wl_signal_add(&vnc->server->seat->wlr_seat->events.set_selection, &vnc->selection);
}

void vnc_clipboard_finish(struct vnc_server *vnc) {
	wl_list_remove(&vnc->selection.link);
	struct vnc_selection_read *read_state, *tmp;
	wl_list_for_each_safe(read_state, tmp, &vnc->selection_reads, link) {
		read_destroy(read_state);
	}
	vnc->own_selection = NULL;
}
