/* SPDX-License-Identifier: MIT */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <wlr/util/log.h>
#include "remote/peer_owner.h"
#include "remote/preauth_evict.h"
#include "remote/preauth_limits.h"
#include "remote/vnc/vnc_http_request.h"
#include "remote/vnc/vnc_private.h"
#include "compositor/options.h"
#include "compositor/server.h"
#include "common/peer_address.h"
#include "common/util.h"

/*
 * Connections before authentication ("guests"). Each has a deadline for
 * its whole handshake, and they count against caps of their own, per
 * address and in total (preauth_limits.h), never against the viewers'.
 *
 * A new connection first shows what it is: a browser sends an HTTP
 * request at once (a WebSocket upgrade goes to libvncserver, a plain GET
 * to our file server, so noVNC loads from the VNC port), a TLS hello
 * means https or wss (oriel's TLS, then the same two ways), and a VNC
 * viewer sends nothing, since RFB servers speak first: oriel runs the RFB
 * handshake with it (vnc_handshake.c).
 */

/*
 * How long a silent connection may take before it counts as a VNC viewer.
 * A browser opens connections ahead of its requests and may leave them
 * silent for a while, and once oriel sent an RFB greeting it cannot use
 * them for HTTP; closed untouched, it just opens others. So an address
 * that sent HTTP lately gets longer.
 */
#define SILENT_MS 200
#define BROWSER_SILENT_MS 3000
/*
 * A browser loading noVNC opens several connections at once (six per host
 * in Chromium and Firefox), some ahead of their requests: an address that
 * sent HTTP lately may have this many guests before the oldest gives way.
 */
#define BROWSER_PENDING 16
/* Requests arriving in pieces are re-checked at this interval. */
#define RECHECK_MS 10
/* A whole TLS record (the ClientHello) fits: 5 header bytes + 2^14. */
#define PEEK_BYTES (5 + 16384)

static void guest_free(struct vnc_guest *guest, bool close_fd) {
	vnc_handshake_destroy(guest->handshake);
	if (guest->source) {
		wl_event_source_remove(guest->source);
	}
	wl_event_source_remove(guest->recheck);
	wl_event_source_remove(guest->deadline);
	wl_list_remove(&guest->link);
	guest->vnc->n_guests--;
	if (close_fd) {
		close(guest->fd);
	}
	free(guest);
}

void vnc_guest_drop(struct vnc_guest *guest, const char *why) {
	if (why) {
		wlr_log(WLR_INFO, "VNC: closing the connection from %s: %s", guest->host, why);
	}
	guest_free(guest, true);
}

void vnc_guest_admit(struct vnc_guest *guest, struct tls_stream *tls,
		const struct vnc_admission *admission) {
	struct vnc_server *vnc = guest->vnc;
	if (vnc->n_clients >= vnc->options->max_clients) {
		tls_stream_destroy(tls);
		char why[96];
		snprintf(why, sizeof(why), "already %d viewers (--vnc-max-clients)",
			vnc->n_clients);
		vnc_guest_drop(guest, why);
		return;
	}
	int fd = guest->fd;
	guest_free(guest, false);
	vnc_client_open(vnc, fd, tls, admission);
}

void vnc_guest_admit_http(struct vnc_guest *guest) {
	guest_free(guest, false);
}

bool vnc_guest_libvncserver_may_serve(struct vnc_guest *guest, bool tls) {
	struct vnc_server *vnc = guest->vnc;
	const char *why = NULL;
	if (vnc->passwords) {
		if (!tls && !guest->local && !vnc->options->insecure) {
			why = "WebSocket viewers beyond loopback need wss (TLS)";
		}
	} else if (!vnc->accounts && !guest->local) {
		why = "no password for WebSocket viewers beyond loopback";
	}
	if (why) {
		vnc_guest_drop(guest, why);
		return false;
	}
	return true;
}

void vnc_guest_websocket_admission(struct vnc_guest *guest, bool tls,
		struct vnc_admission *admission) {
	struct vnc_server *vnc = guest->vnc;
	if (!vnc->accounts) {
		return; /* VncAuth or None: libvncserver's own handshake */
	}
	struct rfb_security_offer *offer = &admission->ws_offer;
	memset(offer, 0, sizeof(*offer));
	admission->ws_login = true;
	/*
	 * Plain sends the password as it is: only inside wss, or to the
	 * session's own user on loopback, whom nobody else can overhear.
	 */
	uid_t uid;
	char why[160];
	if (tls || (guest->local && peer_owner_is_self(guest->fd, &uid, why, sizeof(why)))) {
		offer->subtypes[offer->n_subtypes++] = VENCRYPT_PLAIN;
	}
	offer->vnc_auth = vnc->passwords && (tls || guest->local || vnc->options->insecure);
	if (guest->must_wait) {
		/* noVNC shows this as the reason its connection was rejected. */
		offer->n_subtypes = 0;
		offer->vnc_auth = false;
		offer->refusal = VNC_MUST_WAIT_REFUSAL;
	} else if (offer->n_subtypes == 0 && !offer->vnc_auth) {
		offer->refusal = "accounts log in over WebSocket only with wss (https)";
		wlr_log(WLR_INFO, "VNC: %s asks for a login over plain WebSocket: accounts "
			"need wss (TLS), which sends the password encrypted", guest->host);
	}
}

static int handle_deadline(void *data) {
	struct vnc_guest *guest = data;
	char why[96];
	snprintf(why, sizeof(why), "no login within %d s (--vnc-handshake-timeout)",
		guest->vnc->options->handshake_timeout);
	vnc_guest_drop(guest, why);
	return 0;
}

/* Looks again later: the bytes so far are not a whole request. */
static bool wait_more(struct vnc_guest *guest) {
	/* Level-triggered: stop watching until the next look. */
	wl_event_source_fd_update(guest->source, 0);
	wl_event_source_timer_update(guest->recheck, RECHECK_MS);
	guest->waited_ms += RECHECK_MS;
	return true;
}

bool vnc_guest_is_http(const char *buf, size_t n) {
	return (n >= 4 && memcmp(buf, "GET ", 4) == 0) || (n >= 5 && memcmp(buf, "HEAD ", 5) == 0);
}

static void start_handshake(struct vnc_guest *guest, bool tls_first) {
	wl_event_source_remove(guest->source);
	guest->source = NULL;
	wl_event_source_timer_update(guest->recheck, 0);
	vnc_handshake_start(guest, tls_first);
}

/*
 * A browser the session does not serve: 403 with the reason, whatever it
 * asked for (a WebSocket upgrade, or noVNC's files).
 */
static void refuse_http(struct vnc_guest *guest) {
	char body[300], response[512];
	int body_len = snprintf(body, sizeof(body), "%s\n", guest->refusal);
	int len = snprintf(response, sizeof(response), "HTTP/1.1 403 Forbidden\r\n"
		"Content-Type: text/plain; charset=utf-8\r\nContent-Length: %d\r\n"
		"Connection: close\r\n\r\n%s", body_len, body);
	/* Closing on unread bytes would reset the connection, and the answer with it. */
	char request[PEEK_BYTES];
	while (recv(guest->fd, request, sizeof(request), MSG_DONTWAIT) > 0) {
	}
	/* A fresh socket's buffer takes it whole; a viewer that will not read loses it. */
	if (send(guest->fd, response, (size_t)len, MSG_NOSIGNAL | MSG_DONTWAIT) < 0) {
		wlr_log_errno(WLR_DEBUG, "VNC: cannot tell %s why it is refused", guest->host);
	}
	vnc_guest_drop(guest, NULL);
}

/* The connection's first bytes decide where it goes; from_timer: a due look. */
static void sniff(struct vnc_guest *guest, bool from_timer) {
	struct vnc_server *vnc = guest->vnc;
	int silent_ms = vnc_browsers_has(vnc, guest->host) ? BROWSER_SILENT_MS : SILENT_MS;
	bool silent_long_enough = from_timer && guest->waited_ms >= silent_ms;
	char buf[PEEK_BYTES + 1];
	ssize_t n = recv(guest->fd, buf, PEEK_BYTES, MSG_PEEK | MSG_DONTWAIT);
	if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)) {
		vnc_guest_drop(guest, NULL);
		return;
	}
	if (n < 0) {
		n = 0;
	}
	buf[n] = '\0';
	if (vnc_guest_is_http(buf, (size_t)n)) {
		bool complete = strstr(buf, "\r\n\r\n") || strstr(buf, "\n\n");
		if (!complete && n < PEEK_BYTES) {
			wait_more(guest);
			return;
		}
		vnc_browsers_remember(vnc, guest->host);
		if (guest->refusal[0]) {
			refuse_http(guest);
			return;
		}
		if (vnc->http_dir && vnc_http_is_plain_get(buf, (size_t)n)) {
			int fd = guest->fd;
			guest_free(guest, false);
			vnc_http_start(vnc, fd);
			return;
		}
		/*
		 * A WebSocket upgrade: libvncserver speaks WebSocket. It gets the
		 * request with the socket, so that it need not wait for the relay.
		 */
		if (!vnc_guest_libvncserver_may_serve(guest, false)) {
			return;
		}
		char *end = strstr(buf, "\r\n\r\n");
		size_t len = end ? (size_t)(end + 4 - buf) : (size_t)n;
		if (recv(guest->fd, buf, len, MSG_DONTWAIT) != (ssize_t)len ||
				strlen(buf) < len) {
			vnc_guest_drop(guest, "a broken WebSocket request");
			return;
		}
		buf[len] = '\0';
		char why[384];
		if (!vnc_http_upgrade_allowed(vnc, guest->fd, NULL, buf, why, sizeof(why))) {
			vnc_guest_drop(guest, why);
			return;
		}
		struct vnc_admission admission = { .request = buf };
		vnc_guest_websocket_admission(guest, false, &admission);
		vnc_guest_admit(guest, NULL, &admission);
		return;
	}
	if (n >= 1 && ((unsigned char)buf[0] == 0x16 || (unsigned char)buf[0] == 0x80)) {
		if (guest->refusal[0]) {
			/* wss: no TLS for someone the session does not serve (logged at accept). */
			vnc_guest_drop(guest, NULL);
			return;
		}
		start_handshake(guest, true);
		return;
	}
	if (n == 0 && !silent_long_enough) {
		if (from_timer) {
			/* A browser's address: look again when its time is up. */
			wl_event_source_timer_update(guest->recheck, silent_ms - guest->waited_ms);
			guest->waited_ms = silent_ms;
		}
		return;
	}
	if (n > 0 && n < 4 && !silent_long_enough) {
		wait_more(guest); /* perhaps the start of "GET " */
		return;
	}
	start_handshake(guest, false);
}

static int handle_guest_fd(int fd, uint32_t mask, void *data) {
	vnc_guest_heard(data);
	sniff(data, false);
	return 0;
}

static int handle_recheck(void *data) {
	struct vnc_guest *guest = data;
	if (guest->handshake) {
		return 0; /* decided already */
	}
	/* Watch the fd again (a recheck may have stopped that). */
	wl_event_source_fd_update(guest->source, WL_EVENT_READABLE);
	sniff(guest, true);
	return 0;
}

/* Lets every guest whose first bytes arrived go where they send it. */
static void look_at_waiting(struct vnc_server *vnc) {
	struct vnc_guest *guest, *tmp;
	wl_list_for_each_safe(guest, tmp, &vnc->guests, link) {
		char byte;
		if (!guest->handshake && guest->source &&
				recv(guest->fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT) == 1) {
			sniff(guest, false);
		}
	}
}

/* The guests of one address. */
static int count_from(struct vnc_server *vnc, const char *host) {
	int n = 0;
	struct vnc_guest *guest;
	wl_list_for_each(guest, &vnc->guests, link) {
		n += strcmp(guest->host, host) == 0;
	}
	return n;
}

/* Who gives way to a newcomer (preauth_evict.h): one whose account is being checked never does. */
static struct vnc_guest *guest_to_give_way(struct vnc_server *vnc, const char *host) {
	struct preauth_list list;
	if (!preauth_list_init(&list, vnc->n_guests, monotonic_ms())) {
		return NULL;
	}
	struct vnc_guest *guest;
	wl_list_for_each(guest, &vnc->guests, link) {
		struct preauth_guest *s = preauth_list_add(&list, guest);
		if (!s) {
			break;
		}
		*s = (struct preauth_guest){
			.host = guest->host,
			.may_give_way = !guest->handshake || !vnc_handshake_checking(guest->handshake),
			.stage = (int)guest->stage, .started_ms = guest->started_ms,
			.progress_ms = guest->progress_ms, .heard_ms = guest->heard_ms,
			.partial = guest->partial,
		};
		if (guest->stage < VNC_GUEST_TLS_DONE) {
			preauth_list_peek(&list, s, guest->fd);
		}
	}
	return preauth_list_choose(&list, host);
}

void vnc_guest_progressed(struct vnc_guest *guest, enum vnc_guest_stage stage) {
	guest->progress_ms = monotonic_ms();
	guest->stage = stage > guest->stage ? stage : guest->stage;
	guest->woke = false;
	guest->partial = false;
}

void vnc_guest_heard(struct vnc_guest *guest) {
	guest->heard_ms = monotonic_ms();
	guest->woke = true;
}

void vnc_guest_waits(struct vnc_guest *guest) {
	guest->partial = guest->partial || guest->woke;
}

/* The guest gives way, or else the WebSocket viewer still logging in. */
static void give_way(struct vnc_server *vnc, struct vnc_guest *guest,
		struct vnc_client *client, const char *why) {
	if (guest) {
		vnc_guest_drop(guest, why);
	} else if (client) {
		vnc_client_drop(client, why);
	}
}

static bool is_loopback_peer(int fd) {
	struct sockaddr_storage addr;
	socklen_t len = sizeof(addr);
	if (getsockname(fd, (struct sockaddr *)&addr, &len) < 0) {
		return false;
	}
	/* Where the connection arrived, which is loopback only for a loopback peer. */
	if (addr.ss_family == AF_INET) {
		const struct sockaddr_in *in = (const struct sockaddr_in *)&addr;
		return (ntohl(in->sin_addr.s_addr) >> 24) == 127;
	}
	if (addr.ss_family == AF_INET6) {
		const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)&addr;
		if (IN6_IS_ADDR_LOOPBACK(&in6->sin6_addr)) {
			return true;
		}
		return IN6_IS_ADDR_V4MAPPED(&in6->sin6_addr) && in6->sin6_addr.s6_addr[12] == 127;
	}
	return false;
}

static void peer_host(int fd, char *host, size_t size) {
	switch (peer_address(fd, host, size)) {
	case PEER_ADDRESS_NUMERIC:
		break;
	case PEER_ADDRESS_UNIX:
		snprintf(host, size, "unix");
		break;
	case PEER_ADDRESS_NONE:
		snprintf(host, size, "?");
		break;
	}
}

/*
 * Without accounts or passwords, nothing tells one person from another
 * but the uid at the other end: the session serves only its own user.
 * Decided here, before any byte of the connection is read; the viewer
 * learns why in the protocol it turns out to speak.
 */
static void check_owner(struct vnc_guest *guest) {
	uid_t uid;
	char why[160];
	if (peer_owner_is_self(guest->fd, &uid, why, sizeof(why))) {
		return;
	}
	snprintf(guest->refusal, sizeof(guest->refusal), "refused: %s; without accounts "
		"only that user may connect", why);
	wlr_log(WLR_INFO, "VNC: refused %s: %s; give accounts (--vnc-users, --vnc-pam) or "
		"a password (--vnc-password-file) to let others in",
		guest->is_unix ? "a connection on the Unix socket" : guest->host, why);
}

void vnc_guest_create(struct vnc_server *vnc, int fd, bool is_unix) {
	const struct options_vnc *options = vnc->options;
	char host[64];
	peer_host(fd, host, sizeof(host));
	/*
	 * With accounts (oriel runs the WebSocket login), a browser's address
	 * is let in, to be told why inside its WebSocket; others are closed.
	 */
	bool must_wait = !vnc_auth_allowed(vnc, host);
	if (must_wait) {
		if (vnc_auth_log_note(vnc, "tries while it must wait", host)) {
			wlr_log(WLR_INFO, "VNC: refusing %s for now: too many failed logins", host);
		}
		if (!vnc->accounts || !vnc_browsers_has(vnc, host)) {
			close(fd);
			return;
		}
	}
	struct preauth_limits limits = {
		.per_address = options->max_pending_per_address,
		.total = options->max_pending,
	};
	if (vnc_browsers_has(vnc, host) && limits.per_address < BROWSER_PENDING) {
		limits.per_address = BROWSER_PENDING;
	}
	struct vnc_client *oldest_client;
	/* WebSocket viewers in libvncserver's handshake are guests too. */
	int n_same = count_from(vnc, host) + vnc_clients_logging_in(vnc, host, &oldest_client);
	int n_total = vnc->n_guests + vnc->n_logging_in;
	if (preauth_decide(&limits, n_total, n_same) != PREAUTH_ADMIT) {
		/* Those whose first bytes wait go first: a burst of requests is no flood. */
		look_at_waiting(vnc);
		n_same = count_from(vnc, host) + vnc_clients_logging_in(vnc, host, &oldest_client);
		n_total = vnc->n_guests + vnc->n_logging_in;
	}
	switch (preauth_decide(&limits, n_total, n_same)) {
	case PREAUTH_EVICT_SAME_ADDRESS:
		give_way(vnc, guest_to_give_way(vnc, host), oldest_client, "it gives way to a "
			"newer connection from the same address (--vnc-max-pending-per-address)");
		break;
	case PREAUTH_EVICT_BUSIEST:
		vnc_clients_logging_in(vnc, NULL, &oldest_client);
		give_way(vnc, guest_to_give_way(vnc, NULL), oldest_client, "it gives way to a "
			"newer connection (--vnc-max-pending)");
		break;
	case PREAUTH_ADMIT:
		break;
	}

	struct vnc_guest *guest = zalloc(sizeof(*guest));
	guest->vnc = vnc;
	guest->fd = fd;
	snprintf(guest->host, sizeof(guest->host), "%s", host);
	guest->is_unix = is_unix;
	guest->must_wait = must_wait;
	guest->local = is_unix || is_loopback_peer(fd);
	if (!vnc->accounts && !vnc->passwords) {
		check_owner(guest);
	}
	struct wl_event_loop *loop = vnc->server->loop;
	guest->source = wl_event_loop_add_fd(loop, fd, WL_EVENT_READABLE, handle_guest_fd, guest);
	guest->recheck = wl_event_loop_add_timer(loop, handle_recheck, guest);
	guest->deadline = wl_event_loop_add_timer(loop, handle_deadline, guest);
	guest->started_ms = monotonic_ms();
	guest->heard_ms = guest->started_ms;
	wl_list_insert(&vnc->guests, &guest->link);
	vnc->n_guests++;
	wl_event_source_timer_update(guest->recheck, SILENT_MS);
	guest->waited_ms = SILENT_MS;
	wl_event_source_timer_update(guest->deadline, options->handshake_timeout * 1000);
}

void vnc_guests_finish(struct vnc_server *vnc) {
	struct vnc_guest *guest, *tmp;
	wl_list_for_each_safe(guest, tmp, &vnc->guests, link) {
		guest_free(guest, true);
	}
}
