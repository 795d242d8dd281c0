/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wlr/types/wlr_data_device.h>
#include <wlr/types/wlr_seat.h>
#include <wlr/util/log.h>
#include "remote/clipboard_bridge.h"
#include "compositor/seat.h"
#include "compositor/server.h"
#include "common/util.h"

/* Pastes being written at once; more are refused (the pasting app gets EOF). */
#define MAX_WRITES 16
/* How long pastes wait for a remote client's promised text. */
#define FETCH_MS 5000

/* The order in which the session's offers are taken, and what ours offer. */
static const char *const text_mime_types[] = {
	"text/plain;charset=utf-8", "UTF8_STRING", "text/plain", "TEXT", "STRING",
};

/* Text shared by our data source and the pastes being written from it. */
struct shared_text {
	int refs;
	size_t len;
	char bytes[];
};

struct bridge_source {
	struct wlr_data_source base;
	struct clipboard_bridge *bridge; /* NULL once the bridge is gone */
	struct shared_text *text;        /* NULL while a promise is not fetched */
};

/* A paste of our text: written as the pasting app reads. */
struct bridge_write {
	struct clipboard_bridge *bridge;
	struct shared_text *text;        /* NULL while it waits for a promise */
	struct bridge_source *waits_for; /* that promise */
	size_t done;
	int fd;
	struct wl_event_source *source;  /* NULL while it waits */
	struct wl_list link;
};

/* A selection of the session being read. */
struct bridge_read {
	struct clipboard_bridge *bridge;
	int fd;
	struct wl_event_source *source;
	char *data;
	size_t len;
};

struct clipboard_bridge {
	struct server *server;
	size_t max_bytes;
	const struct clipboard_bridge_impl *impl;
	void *data;
	struct bridge_source *own; /* the seat selection while it is ours */
	struct bridge_read *read;  /* at most one: a newer selection wins */
	/* The session's last own text: what a promise the client breaks falls back to. */
	struct shared_text *session_text;
	/* A promise made while the session's text was being read: it waits for the read. */
	bool promise_after_read;
	struct wl_list writes;     /* bridge_write.link, waiting ones too */
	int n_writes;
	bool fetching;             /* impl->fetch was called for own's text */
	struct wl_event_source *fetch_timer;
	struct wl_listener set_selection;
};

static void text_unref(struct shared_text *text) {
	if (text && --text->refs == 0) {
		free(text);
	}
}

static void write_destroy(struct bridge_write *paste) {
	if (paste->source) {
		wl_event_source_remove(paste->source);
	}
	close(paste->fd);
	text_unref(paste->text);
	wl_list_remove(&paste->link);
	paste->bridge->n_writes--;
	free(paste);
}

/* Writes what the pipe takes; false when done or failed (then destroyed). */
static bool write_some(struct bridge_write *paste) {
	while (paste->done < paste->text->len) {
		ssize_t n = write(paste->fd, paste->text->bytes + paste->done,
			paste->text->len - paste->done);
		if (n < 0 && errno == EINTR) {
			continue;
		}
		if (n < 0 && errno == EAGAIN) {
			return true;
		}
		if (n <= 0) {
			break; /* the app closed its end: it has what it wanted */
		}
		paste->done += (size_t)n;
	}
	write_destroy(paste);
	return false;
}

static int handle_writable(int fd, uint32_t mask, void *data) {
	write_some(data);
	return 0;
}

static void paste_start(struct bridge_write *paste, struct shared_text *text) {
	paste->waits_for = NULL;
	paste->text = text;
	text->refs++;
	paste->source = wl_event_loop_add_fd(paste->bridge->server->loop, paste->fd,
		WL_EVENT_WRITABLE, handle_writable, paste);
	if (!paste->source) {
		write_destroy(paste);
		return;
	}
	write_some(paste);
}

static void fetch(struct clipboard_bridge *bridge) {
	if (bridge->fetching) {
		return; /* one question for all the pastes that wait */
	}
	bridge->fetching = true;
	wl_event_source_timer_update(bridge->fetch_timer, FETCH_MS);
	bridge->impl->fetch(bridge->data); /* may answer at once */
}

static bool set_nonblocking(int fd) {
	int flags = fcntl(fd, F_GETFL);
	return flags >= 0 && fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0;
}

static void source_send(struct wlr_data_source *wlr_source, const char *mime_type,
		int32_t fd) {
	struct bridge_source *source = (struct bridge_source *)wlr_source;
	struct clipboard_bridge *bridge = source->bridge;
	if (!bridge || bridge->n_writes >= MAX_WRITES || !set_nonblocking(fd) ||
			(!source->text && source != bridge->own)) {
		close(fd);
		return;
	}
	struct bridge_write *paste = zalloc(sizeof(*paste));
	paste->bridge = bridge;
	paste->fd = fd;
	wl_list_insert(&bridge->writes, &paste->link);
	bridge->n_writes++;
	if (source->text) {
		paste_start(paste, source->text);
		return;
	}
	paste->waits_for = source;
	fetch(bridge);
}

/* Pastes waiting for source (any source when NULL) get EOF. */
static void fail_waiting(struct clipboard_bridge *bridge, struct bridge_source *source) {
	struct bridge_write *paste, *tmp;
	wl_list_for_each_safe(paste, tmp, &bridge->writes, link) {
		if (paste->waits_for && (!source || paste->waits_for == source)) {
			write_destroy(paste);
		}
	}
}

static void source_destroy(struct wlr_data_source *wlr_source) {
	struct bridge_source *source = (struct bridge_source *)wlr_source;
	if (source->bridge) {
		fail_waiting(source->bridge, source);
	}
	if (source->bridge && source->bridge->own == source) {
		source->bridge->own = NULL;
	}
	text_unref(source->text);
	free(source);
}

static const struct wlr_data_source_impl source_impl = {
	.send = source_send,
	.destroy = source_destroy,
};

static struct shared_text *text_create(const char *utf8, size_t len) {
	struct shared_text *text = malloc(sizeof(*text) + len);
	if (text) {
		text->refs = 1;
		text->len = len;
		memcpy(text->bytes, utf8, len);
	}
	return text;
}

/* Makes a source of ours, with text or (NULL) as a promise, the selection. */
static void own_selection(struct clipboard_bridge *bridge, struct shared_text *text) {
	struct bridge_source *source = zalloc(sizeof(*source));
	wlr_data_source_init(&source->base, &source_impl);
	source->bridge = bridge;
	source->text = text;
	for (size_t i = 0; i < ARRAY_LEN(text_mime_types); i++) {
		char **p = wl_array_add(&source->base.mime_types, sizeof(*p));
		if (p) {
			*p = xstrdup(text_mime_types[i]);
		}
	}
	/* An answer still to come was for the replaced selection. */
	bridge->fetching = false;
	wl_event_source_timer_update(bridge->fetch_timer, 0);
	/* Set first: the selection signal then knows the source as ours. */
	bridge->own = source;
	wlr_seat_set_selection(bridge->server->seat->wlr_seat, &source->base,
		wl_display_next_serial(bridge->server->display));
}

bool clipboard_bridge_set_text(struct clipboard_bridge *bridge, const char *utf8,
		size_t len) {
	if (!bridge || len > bridge->max_bytes) {
		return false;
	}
	struct shared_text *text = text_create(utf8, len);
	if (!text) {
		return false;
	}
	bridge->promise_after_read = false; /* this text is newer */
	own_selection(bridge, text);
	return true;
}

void clipboard_bridge_promise_text(struct clipboard_bridge *bridge) {
	if (!bridge || !bridge->impl->fetch) {
		return;
	}
	/* Taking the selection now would cut the session's text off mid-read. */
	if (bridge->read) {
		bridge->promise_after_read = true;
		return;
	}
	own_selection(bridge, NULL);
}

void clipboard_bridge_fetched(struct clipboard_bridge *bridge, const char *utf8,
		size_t len) {
	if (!bridge || !bridge->fetching) {
		return;
	}
	bridge->fetching = false;
	wl_event_source_timer_update(bridge->fetch_timer, 0);
	struct bridge_source *own = bridge->own;
	if (own && !own->text && (!utf8 || len > bridge->max_bytes)) {
		/*
		 * The client announced text it did not give (xfreerdp announces
		 * formats when it connects, whatever it holds): the session keeps
		 * the text it had, rather than losing it to a broken promise.
		 */
		own->text = bridge->session_text;
		if (own->text) {
			own->text->refs++;
		}
	} else if (own && !own->text) {
		own->text = text_create(utf8, len);
	}
	if (!own || !own->text) {
		fail_waiting(bridge, NULL); /* a later paste asks again */
		return;
	}
	struct bridge_write *paste, *tmp;
	wl_list_for_each_safe(paste, tmp, &bridge->writes, link) {
		if (paste->waits_for == own) {
			paste_start(paste, own->text);
		}
	}
}

static int handle_fetch_timeout(void *data) {
	struct clipboard_bridge *bridge = data;
	wlr_log(WLR_INFO, "Remote clipboard: the client did not send its text in %d ms",
		FETCH_MS);
	clipboard_bridge_fetched(bridge, NULL, 0);
	return 0;
}

static void read_destroy(struct bridge_read *read) {
	if (!read) {
		return;
	}
	if (read->bridge->read == read) {
		read->bridge->read = NULL;
	}
	wl_event_source_remove(read->source);
	close(read->fd);
	free(read->data);
	free(read);
}

/* The session's selection was read (or could not be): a waiting promise goes on. */
static void read_ended(struct clipboard_bridge *bridge) {
	if (bridge->promise_after_read && !bridge->read) {
		bridge->promise_after_read = false;
		own_selection(bridge, NULL);
	}
}

static int handle_readable(int fd, uint32_t mask, void *data) {
	struct bridge_read *read_state = data;
	struct clipboard_bridge *bridge = read_state->bridge;
	char buf[4096];
	ssize_t n = read(fd, buf, sizeof(buf));
	if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
		return 0;
	}
	if (n > 0) {
		if ((size_t)n > bridge->max_bytes - read_state->len) {
			wlr_log(WLR_INFO, "Remote clipboard: the selection is larger than %zu "
				"bytes; not sent to remote clients", bridge->max_bytes);
			read_destroy(read_state);
			read_ended(bridge);
			return 0;
		}
		char *grown = realloc(read_state->data, read_state->len + (size_t)n);
		if (!grown) {
			read_destroy(read_state);
			read_ended(bridge);
			return 0;
		}
		read_state->data = grown;
		memcpy(read_state->data + read_state->len, buf, (size_t)n);
		read_state->len += (size_t)n;
		return 0;
	}
	/* End of the text (or an error: what came is all there is). */
	char *text = read_state->data;
	size_t len = read_state->len;
	read_state->data = NULL;
	read_destroy(read_state);
	if (len > 0) {
		text_unref(bridge->session_text);
		bridge->session_text = text_create(text, len);
		bridge->impl->text(bridge->data, text, len);
	}
	free(text);
	read_ended(bridge);
	return 0;
}

static const char *text_mime_type(struct wlr_data_source *source) {
	for (size_t i = 0; i < ARRAY_LEN(text_mime_types); i++) {
		char **p;
		wl_array_for_each(p, &source->mime_types) {
			if (strcmp(*p, text_mime_types[i]) == 0) {
				return text_mime_types[i];
			}
		}
	}
	return NULL;
}

/* Reads the session's selection, unless it is ours. */
static void read_selection(struct clipboard_bridge *bridge) {
	struct wlr_data_source *source = bridge->server->seat->wlr_seat->selection_source;
	if (!source || (bridge->own && source == &bridge->own->base)) {
		return;
	}
	read_destroy(bridge->read); /* a newer selection */
	const char *mime = text_mime_type(source);
	if (!mime || !bridge->impl->wanted(bridge->data)) {
		return;
	}
	int fds[2];
	if (pipe2(fds, O_CLOEXEC | O_NONBLOCK) < 0) {
		wlr_log_errno(WLR_ERROR, "Remote clipboard: pipe");
		return;
	}
	struct bridge_read *read_state = zalloc(sizeof(*read_state));
	read_state->bridge = bridge;
	read_state->fd = fds[0];
	read_state->source = wl_event_loop_add_fd(bridge->server->loop, fds[0],
		WL_EVENT_READABLE, handle_readable, read_state);
	if (!read_state->source) {
		close(fds[0]);
		close(fds[1]);
		free(read_state);
		return;
	}
	bridge->read = read_state;
	wlr_data_source_send(source, mime, fds[1]);
}

static void handle_set_selection(struct wl_listener *listener, void *data) {
	struct clipboard_bridge *bridge = wl_container_of(listener, bridge, set_selection);
	read_selection(bridge);
}

struct clipboard_bridge *clipboard_bridge_create(struct server *server, size_t max_bytes,
		const struct clipboard_bridge_impl *impl, void *data) {
	if (!server->seat || !server->seat->wlr_seat) {
		return NULL;
	}
	struct clipboard_bridge *bridge = zalloc(sizeof(*bridge));
	bridge->server = server;
	bridge->max_bytes = max_bytes;
	bridge->impl = impl;
	bridge->data = data;
	wl_list_init(&bridge->writes);
	bridge->fetch_timer = wl_event_loop_add_timer(server->loop, handle_fetch_timeout,
		bridge);
	if (!bridge->fetch_timer) {
		free(bridge);
		return NULL;
	}
	bridge->set_selection.notify = handle_set_selection;
	wl_signal_add(&server->seat->wlr_seat->events.set_selection, &bridge->set_selection);
	read_selection(bridge); /* what the session holds already */
	return bridge;
}

void clipboard_bridge_destroy(struct clipboard_bridge *bridge) {
	if (!bridge) {
		return;
	}
	wl_list_remove(&bridge->set_selection.link);
	wl_event_source_remove(bridge->fetch_timer);
	read_destroy(bridge->read);
	struct bridge_write *paste, *tmp;
	wl_list_for_each_safe(paste, tmp, &bridge->writes, link) {
		write_destroy(paste);
	}
	text_unref(bridge->session_text);
	if (bridge->own) {
		bridge->own->bridge = NULL; /* it stays the selection, and pastes get EOF */
	}
	free(bridge);
}
