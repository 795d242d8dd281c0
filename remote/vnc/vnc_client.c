/* SPDX-License-Identifier: MIT */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wlr/util/log.h>
#include <sys/socket.h>
#include "remote/vnc/vnc_private.h"
#include "remote/vnc/vnc_relay.h"
#include "compositor/options.h"
#include "compositor/server.h"
#include "common/util.h"

/*
 * A viewer's life in libvncserver. oriel watches its socket (libvncserver's
 * end of the relay) in the event loop and calls rfbProcessClientMessage
 * when it is readable; libvncserver only parses and writes.
 *
 * A viewer that oriel authenticated itself (vnc_handshake.c) starts at
 * ClientInit. rfbNewClient first peeks at 4 bytes to tell WebSocket from
 * RFB, waiting 100 ms for them, and would take ClientInit's single byte
 * for a WebSocket request: the relay puts "RFB " first, which rfbNewClient
 * reads as RFB at once and our new-client hook takes out again. The relay
 * also drops the protocol version that rfbNewClient sends.
 */

/* libvncserver's protocol version greeting, "RFB 003.008\n". */
#define GREETING_LEN 12
#define RFB_MARK "RFB "

/*
 * A browser the gateway logged in: libvncserver must still do its
 * WebSocket upgrade to frame what it sends and read, so it gets this
 * request, made here with a fixed key. Its answer then has a known size:
 * the 101 without a sub-protocol (binary frames, as the gateway agreed
 * on), with a 28-character Sec-WebSocket-Accept. The relay drops that
 * answer and the greeting's frame (2 header bytes), which the gateway
 * sent already in its own words.
 */
#define WS_REPLAY_REQUEST "GET /websockify HTTP/1.1\r\nHost: localhost\r\n" \
	"Origin: https://localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" \
	"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
#define WS_REPLAY_ANSWER_LEN (sizeof("HTTP/1.1 101 Switching Protocols\r\n" \
	"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: \r\n\r\n") - 1 + 28)
#define WS_GREETING_LEN (2 + GREETING_LEN)

static struct wl_event_loop *loop_of(struct vnc_server *vnc) {
	return vnc->server->loop;
}

static void handle_client_gone(rfbClientPtr cl) {
	struct vnc_client *client = cl->clientData;
	if (!client) {
		return;
	}
	wlr_log(WLR_INFO, "VNC: viewer %s disconnected", cl->host && cl->host[0] ? cl->host : "unix");
	vnc_input_client_gone(client);
	vnc_backlog_client_gone(client);
	wl_event_source_remove(client->source);
	wl_event_source_remove(client->timer);
	vnc_refine_finish(client);
	if (client->idle_timer) {
		wl_event_source_remove(client->idle_timer);
	}
	if (client->login_deadline) {
		wl_event_source_remove(client->login_deadline);
	}
	vnc_ws_login_destroy(client->ws_login);
	wl_list_remove(&client->link);
	if (client->logged_in) {
		client->vnc->n_clients--;
		vnc_unviewed_update(client->vnc);
	} else {
		client->vnc->n_logging_in--;
	}
	cl->clientData = NULL;
	free(client);
}

bool vnc_client_check_gone(struct vnc_client *client) {
	rfbClientPtr cl = client->cl;
	if (cl->sock != RFB_INVALID_SOCKET) {
		return false;
	}
	/* Calls handle_client_gone, then frees cl. */
	rfbClientConnectionGone(cl);
	return true;
}

static const char *host_of(struct vnc_client *client) {
	const char *host = client->cl->host;
	return host && host[0] ? host : "unix";
}

void vnc_client_drop(struct vnc_client *client, const char *why) {
	wlr_log(WLR_INFO, "VNC: disconnecting viewer %" PRIu64 " (%s): %s", client->id,
		host_of(client), why);
	rfbCloseClient(client->cl);
	vnc_client_check_gone(client);
}

/* libvncserver finished its handshake: a viewer, counted as one. */
static void logged_in(struct vnc_client *client) {
	struct vnc_server *vnc = client->vnc;
	client->logged_in = true;
	wl_event_source_remove(client->login_deadline);
	client->login_deadline = NULL;
	vnc->n_logging_in--;
	vnc->n_clients++;
	vnc_unviewed_update(vnc);
	if (vnc->n_clients > vnc->options->max_clients) {
		char why[96];
		snprintf(why, sizeof(why), "already %d viewers (--vnc-max-clients)",
			vnc->n_clients - 1);
		vnc_client_drop(client, why);
		return;
	}
	wlr_log(WLR_INFO, "VNC: viewer %s logged in over WebSocket (%d now)", host_of(client),
		vnc->n_clients);
}

static int handle_login_deadline(void *data) {
	struct vnc_client *client = data;
	char why[96];
	snprintf(why, sizeof(why), "no login within %d s (--vnc-handshake-timeout)",
		client->vnc->options->handshake_timeout);
	vnc_client_drop(client, why);
	return 0;
}

int vnc_clients_logging_in(struct vnc_server *vnc, const char *host,
		struct vnc_client **oldest) {
	int n = 0;
	*oldest = NULL;
	struct vnc_client *client;
	wl_list_for_each(client, &vnc->clients, link) {
		if (!client->logged_in && (!host || strcmp(host_of(client), host) == 0)) {
			n++;
			*oldest = client; /* newest first: the last one found is the oldest */
		}
	}
	return n;
}

static int handle_client_fd(int fd, uint32_t mask, void *data) {
	struct vnc_client *client = data;
	rfbClientPtr cl = client->cl;
	if (client->ws_login) {
		if (!(mask & WL_EVENT_READABLE)) {
			vnc_client_drop(client, "it hung up during the handshake");
			return 0;
		}
		if (!vnc_ws_login_readable(client->ws_login) || client->ws_login ||
				!webSocketsHasDataInBuffer(cl)) {
			return 0;
		}
		/* In, and its ClientInit came along: libvncserver goes on. */
	}
	if (mask & WL_EVENT_READABLE) {
		do {
			rfbProcessClientMessage(cl);
		} while (cl->sock != RFB_INVALID_SOCKET && webSocketsHasDataInBuffer(cl));
	} else if (mask & (WL_EVENT_HANGUP | WL_EVENT_ERROR)) {
		rfbCloseClient(cl);
	}
	if (vnc_client_check_gone(client)) {
		return 0;
	}
	if (!client->logged_in && cl->state == RFB_NORMAL) {
		logged_in(client);
		if (vnc_client_check_gone(client)) {
			return 0;
		}
	}
	vnc_client_schedule_update(client);
	return 0;
}

static int handle_client_timer(void *data) {
	struct vnc_client *client = data;
	client->timer_armed = false;
	vnc_client_schedule_update(client);
	return 0;
}

static int handle_idle_timer(void *data) {
	struct vnc_client *client = data;
	char why[96];
	snprintf(why, sizeof(why), "no input for %d s (--vnc-idle-timeout)",
		client->vnc->options->idle_timeout);
	vnc_client_drop(client, why);
	return 0;
}

void vnc_client_active(struct vnc_client *client) {
	if (client->idle_timer) {
		wl_event_source_timer_update(client->idle_timer,
			client->vnc->options->idle_timeout * 1000);
	}
}

/* After oriel's own handshake, libvncserver goes on from ClientInit. */
static bool skip_handshake(rfbClientPtr cl, const struct vnc_admission *admission) {
	char mark[sizeof(RFB_MARK) - 1];
	/* rfbNewClient peeked at it, so it is there (a browser's upgrade it took itself). */
	if (admission->websocket) {
		if (!cl->wsctx) {
			return false;
		}
	} else if (recv(cl->sock, mark, sizeof(mark), MSG_DONTWAIT) != (ssize_t)sizeof(mark) ||
			memcmp(mark, RFB_MARK, sizeof(mark)) != 0) {
		return false;
	}
	cl->state = RFB_INITIALISATION;
	cl->protocolMajorVersion = 3;
	cl->protocolMinorVersion = admission->minor;
	return true;
}

enum rfbNewClientAction vnc_client_new_hook(rfbClientPtr cl) {
	struct vnc_server *vnc = cl->screen->screenData;
	struct vnc_client *client = zalloc(sizeof(*client));
	client->vnc = vnc;
	client->cl = cl;
	client->source = wl_event_loop_add_fd(loop_of(vnc), cl->sock, WL_EVENT_READABLE,
		handle_client_fd, client);
	client->timer = wl_event_loop_add_timer(loop_of(vnc), handle_client_timer, client);
	if (vnc->options->idle_timeout > 0) {
		client->idle_timer = wl_event_loop_add_timer(loop_of(vnc), handle_idle_timer, client);
	}
	const struct vnc_admission *admission = &vnc->handoff_admission;
	if (!admission->authenticated) {
		client->login_deadline = wl_event_loop_add_timer(loop_of(vnc),
			handle_login_deadline, client);
	}
	bool refine = vnc_refine_init(client);
	if (!client->source || !client->timer || !refine ||
			(!admission->authenticated && !client->login_deadline) ||
			(admission->authenticated && !skip_handshake(cl, admission)) ||
			!vnc_backlog_adopt(client)) {
		if (client->source) {
			wl_event_source_remove(client->source);
		}
		if (client->timer) {
			wl_event_source_remove(client->timer);
		}
		vnc_refine_finish(client);
		if (client->idle_timer) {
			wl_event_source_remove(client->idle_timer);
		}
		if (client->login_deadline) {
			wl_event_source_remove(client->login_deadline);
		}
		free(client);
		return RFB_CLIENT_REFUSE;
	}
	client->id = ++vnc->last_client_id;
	cl->clientData = client;
	cl->clientGoneHook = handle_client_gone;
	cl->viewOnly = vnc->options->view_only || admission->view_only;
	vnc_client_active(client);
	wl_list_insert(&vnc->clients, &client->link);
	client->logged_in = admission->authenticated;
	const char *host = cl->host && cl->host[0] ? cl->host : "a Unix socket";
	if (!client->logged_in) {
		/* libvncserver's handshake (WebSocket): a guest until it is done. */
		vnc->n_logging_in++;
		wl_event_source_timer_update(client->login_deadline,
			vnc->options->handshake_timeout * 1000);
		wlr_log(WLR_DEBUG, "VNC: %s logs in over WebSocket", host);
		if (admission->ws_login) {
			vnc_ws_login_start(client, &admission->ws_offer);
		}
		return RFB_CLIENT_ACCEPT;
	}
	vnc->n_clients++;
	vnc_unviewed_update(vnc);
	if (admission->user[0]) {
		wlr_log(WLR_INFO, "VNC: viewer %s logged in as \"%s\" (%s%s; %d now)", host,
			admission->user, admission->method, cl->viewOnly ? ", view-only" : "",
			vnc->n_clients);
	} else {
		wlr_log(WLR_INFO, "VNC: viewer %s connected (%s%s; %d now)", host,
			admission->method, cl->viewOnly ? ", view-only" : "", vnc->n_clients);
	}
	return RFB_CLIENT_ACCEPT;
}

bool vnc_client_open(struct vnc_server *vnc, int fd, struct tls_stream *tls,
		const struct vnc_admission *admission) {
	/* The mark (or the wss request), then what the viewer sent already. */
	const char *head = admission->websocket ? WS_REPLAY_REQUEST :
		admission->authenticated ? RFB_MARK : admission->request;
	size_t head_len = head ? strlen(head) : 0;
	uint8_t *prefix = zalloc(head_len + admission->n_pending + 1);
	if (head_len > 0) {
		memcpy(prefix, head, head_len);
	}
	if (admission->n_pending > 0) {
		memcpy(prefix + head_len, admission->pending, admission->n_pending);
	}
	struct vnc_relay_start start = {
		.tls = tls,
		.skip_outbound = admission->websocket ? WS_REPLAY_ANSWER_LEN + WS_GREETING_LEN :
			admission->authenticated ? GREETING_LEN : 0,
		.inbound_prefix = prefix,
		.inbound_prefix_len = head_len + admission->n_pending,
	};
	int local_fd = vnc_backlog_open(vnc, fd, &start);
	free(prefix);
	if (local_fd < 0) {
		return false;
	}
	vnc->handoff_admission = *admission;
	rfbClientPtr cl = rfbNewClient(vnc->screen, local_fd);
	memset(&vnc->handoff_admission, 0, sizeof(vnc->handoff_admission));
	vnc_backlog_abandon(vnc);
	if (!cl) {
		return false; /* libvncserver closed fd and logged why */
	}
	struct vnc_client *client = cl->clientData;
	return !(client && vnc_client_check_gone(client));
}
