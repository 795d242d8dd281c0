/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <freerdp/error.h>
#include <freerdp/freerdp.h>
#include <freerdp/peer.h>
#include <winpr/ssl.h>
#include <winpr/synch.h>
#include <winpr/wlog.h>
#include "remote/handover.h"
#include "remote/tls_bridge.h"
#include "remote/tls_record.h"
#include "remote/tls_stream.h"
#include "remote/x224.h"
#include "gateway/gateway_guests.h"
#include "gateway/gateway_config.h"
#include "gateway/gateway_log.h"
#include "gateway/gateway_rdp_logon.h"
#include "gateway/gateway_rdp_relay.h"
#include "gateway/gateway_rdp_tickets.h"

/*
 * One RDP connection, on its own thread. Its first bytes, an X.224
 * Connection Request, tell which of two it is:
 *
 * - A first connection: the gateway answers the Connection Request and
 *   does the TLS handshake (its certificate, no NLA); then FreeRDP's
 *   server runs it through a bridge up to the Client Info PDU, whose user
 *   name and password are checked through PAM; her session is found or
 *   started, and the client gets a Server Redirection back to the
 *   gateway, with a routing token and a password cookie
 *   (gateway_rdp_tickets.h).
 * - A redirected one, bringing its routing token: the gateway answers the
 *   Connection Request itself, selecting TLS, does the TLS handshake with
 *   the same certificate, and hands the socket with the TLS state, the
 *   Connection Request and the cookie to her session, which serves the
 *   client from there (remote/rdp/rdp_handover.c). The client sees the
 *   gateway's certificate both times; the gateway copies no pixels.
 *
 * A client that logged in but cannot follow a redirection (no
 * REDIRECTION_SUPPORTED in its cluster data, or rdesktop, which says it
 * can and crashes on it; [login] rdp-handover) stays
 * on its first connection instead, relayed to her session
 * (gateway_rdp_relay.h).
 *
 * A client that sends no password (and can follow a redirection) gets a
 * logon screen instead (gateway_rdp_logon.h): FreeRDP goes on to
 * activate it, the screen goes as bitmaps, its keys fill the fields, and
 * Return has the login checked as any other; then the same redirection
 * follows.
 */

/* MS-RDPBCGR 2.2.1.2.1 RDP_NEG_RSP flags: what oriel's own RDP server says. */
#define EXTENDED_CLIENT_DATA_SUPPORTED 0x01
#define DYNVC_GFX_PROTOCOL_SUPPORTED 0x02
/* After the redirection, the bridge has this long to pass it on. */
#define BRIDGE_DRAIN_MS 5000
/* A person at the logon screen has this long to log in. */
#define LOGON_SCREEN_MS 120000
/* The logon screen's tiles, and the largest desktop it is drawn for (4K). */
#define TILE 64
#define LOGON_SCREEN_MAX_PIXELS (3840 * 2400)

struct first_leg {
	struct gateway_guest *guest;
	psPeerLicenseCallback library_license;
	char user[64];
	char token[GATEWAY_TOKEN_LEN + 1];  /* a ticket was issued: */
	char cookie[GATEWAY_COOKIE_LEN + 1];
	bool redirected;
	char why[160];
	struct tls_bridge *bridge;
	struct tls_bridge_tap *tap; /* NULL: it is redirected, whatever it says */
	bool relayed;               /* logged in, and relayed from here: */
	struct tls_stream *client;  /* its TLS and socket, back from the bridge */
	int client_fd;
	bool on_screen;             /* it logs in on the logon screen: */
	struct logon_screen *screen; /* once activated */
	bool relay_after_screen;    /* then relayed, from what it sent up to its Client Info: */
	struct gateway_rdp_replay replay;
};

/*
 * The front's own: the certificate and key for FreeRDP, and the logon
 * screen's glyphs and host name, made before the sandbox.
 */
struct rdp_front {
	char *cert_pem, *key_pem;
	struct logon_font font;
	bool have_font;
	struct logon_layouts layouts;
	char host[64];
};

static char *read_pem(const char *path) {
	gnutls_datum_t data = {0};
	if (gnutls_load_file(path, &data) < 0) {
		return NULL;
	}
	char *text = calloc(1, data.size + 1);
	if (text) {
		memcpy(text, data.data, data.size);
	}
	gnutls_memset(data.data, 0, data.size);
	gnutls_free(data.data);
	return text;
}

bool gateway_rdp_front_init(struct gateway_front *front) {
	winpr_InitializeSSL(WINPR_SSL_INIT_DEFAULT);
	if (!getenv("WLOG_LEVEL")) {
		/*
		 * FreeRDP logs every connection it does not finish as an error, and
		 * the gateway ends each one after the redirection: its own log says
		 * how each ended.
		 */
		WLog_SetLogLevel(WLog_GetRoot(), WLOG_FATAL);
	}
	struct rdp_front *rdp = calloc(1, sizeof(*rdp));
	if (!rdp) {
		return false;
	}
	front->data = rdp;
	rdp->cert_pem = read_pem(front->tls.cert_path);
	rdp->key_pem = read_pem(front->tls.key_path);
	rdp->have_font = logon_font_init(&rdp->font);
	if (!rdp->have_font) {
		gateway_log("RDP: no font for the logon screen: clients without a password "
			"are refused");
	}
	if (rdp->have_font && !logon_layouts_init(&rdp->layouts)) {
		gateway_log("RDP: no keyboard layouts for the logon screen: its keys are read "
			"at US positions");
	}
	if (gethostname(rdp->host, sizeof(rdp->host) - 1) < 0) {
		snprintf(rdp->host, sizeof(rdp->host), "this computer");
	}
	return rdp->cert_pem && rdp->key_pem;
}

void gateway_rdp_front_finish(struct gateway_front *front) {
	struct rdp_front *rdp = front->data;
	if (rdp) {
		free(rdp->cert_pem);
		logon_font_finish(&rdp->font);
		logon_layouts_finish(&rdp->layouts);
		if (rdp->key_pem) {
			explicit_bzero(rdp->key_pem, strlen(rdp->key_pem));
			free(rdp->key_pem);
		}
		free(rdp);
		front->data = NULL;
	}
}

/* Waits until the first TPKT is there whole, without taking it. Its length, or 0 with why. */
static size_t peek_request(struct gateway_guest *guest, uint8_t *buf, char *why,
		size_t why_size) {
	size_t wanted = 4;
	for (;;) {
		int lowat = (int)wanted;
		setsockopt(guest->fd, SOL_SOCKET, SO_RCVLOWAT, &lowat, sizeof(lowat));
		if (!gateway_guest_wait(guest, POLLIN)) {
			snprintf(why, why_size, "it sent no Connection Request in time");
			return 0;
		}
		ssize_t n = recv(guest->fd, buf, X224_REQUEST_MAX, MSG_PEEK);
		if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
			continue;
		}
		if (n <= 0) {
			snprintf(why, why_size, "it hung up");
			return 0;
		}
		if ((size_t)n < 4) {
			continue;
		}
		size_t length = x224_tpkt_length(buf, (size_t)n);
		if (length == 0) {
			snprintf(why, why_size, "it does not speak RDP");
			return 0;
		}
		if ((size_t)n >= length) {
			/* Its whole Connection Request: it is moving. */
			gateway_guest_progressed(guest);
			int one = 1;
			setsockopt(guest->fd, SOL_SOCKET, SO_RCVLOWAT, &one, sizeof(one));
			return length;
		}
		wanted = length;
	}
}

/*
 * Whether a client that logged in is relayed rather than redirected: in
 * auto, one that cannot follow a redirection, or is known to fail one.
 */
static bool wants_relay(struct gateway_guest *guest, struct tls_bridge_tap *tap) {
	if (guest->front->config->rdp_handover == GATEWAY_RDP_RELAY) {
		return true;
	}
	pthread_mutex_lock(&tap->lock);
	/* Its Connect Initial did not fit: too big to relay, redirected. */
	bool redirectable = tap->overflowed ||
		rdp_pdu_client_redirectable(tap->client, tap->len);
	/*
	 * rdesktop (1.9 at least) announces redirection support, then crashes
	 * on the Server Redirection. It is known by its malformed Erect Domain
	 * Request (remote/rdp_pdu.h): its own in every release, and it cannot
	 * be set or copied the way a client name or build number can.
	 */
	bool rdesktop = !tap->overflowed && rdp_pdu_client_is_rdesktop(tap->client, tap->len);
	pthread_mutex_unlock(&tap->lock);
	if (!redirectable) {
		gateway_log("RDP: %s does not say it can follow a redirection: it is relayed",
			guest->host);
	} else if (rdesktop) {
		gateway_log("RDP: %s is rdesktop (its Erect Domain Request), which fails a "
			"redirection: it is relayed", guest->host);
	}
	return !redirectable || rdesktop;
}

/* Whether a client that sent no password gets the logon screen. */
static bool may_show_logon_screen(struct gateway_guest *guest) {
	const struct rdp_front *rdp = guest->front->data;
	return rdp->have_font;
}

/*
 * What a relay walks the session's FreeRDP through: what the client sent
 * up to its Client Info, and how many PDUs it had in answer, noted now,
 * at its Client Info. False when it did not fit.
 */
static bool keep_replay(struct first_leg *leg, bool hold_client) {
	struct tls_bridge_tap *tap = leg->tap;
	pthread_mutex_lock(&tap->lock);
	bool fits = !tap->overflowed;
	leg->replay = (struct gateway_rdp_replay){ .client = tap->client, .len = tap->len,
		.answers = tap->to_client.whole, .hold_client = hold_client };
	/* From here, the tap takes no more: the copy ends at the Client Info. */
	tap->capacity = tap->len;
	pthread_mutex_unlock(&tap->lock);
	return fits;
}

/*
 * The client's login came (Client Info PDU): checked; then FreeRDP
 * licenses the client, or it is refused.
 */
static LicenseCallbackResult handle_license(freerdp_peer *client, wStream *s) {
	struct first_leg *leg = client->ContextExtra;
	struct gateway_guest *guest = leg->guest;
	rdpSettings *settings = client->settings;
	const char *user = settings->Username ? settings->Username : "";
	char none[1] = "";
	char *password = settings->Password ? settings->Password : none;
	const char *reason = NULL;
	if (!password[0] && may_show_logon_screen(guest)) {
		leg->on_screen = true;
		/*
		 * No bulk compression (its Client Info asked for it): its history is
		 * the connection's, and a client relayed after the screen goes on
		 * with the session's.
		 */
		settings->CompressionEnabled = FALSE;
		leg->relay_after_screen = leg->tap && wants_relay(guest, leg->tap);
		if (leg->relay_after_screen && !keep_replay(leg, false)) {
			snprintf(leg->why, sizeof(leg->why), "its login cannot be passed on");
			return LICENSE_CB_ABORT;
		}
		gateway_guest_extend(guest, LOGON_SCREEN_MS);
		gateway_log("RDP: %s sent no password: it gets the logon screen", guest->host);
		return leg->library_license(client, s);
	}
	if (!gateway_guest_check_rdp_login(guest, user, password, leg->token, leg->cookie,
			&reason)) {
		leg->token[0] = '\0';
		/* The client shows why (and does not reconnect on its own). */
		freerdp_set_error_info(client->context->rdp, ERRINFO_SERVER_INSUFFICIENT_PRIVILEGES);
		freerdp_send_error_info(client->context->rdp);
		snprintf(leg->why, sizeof(leg->why), "%s", reason);
		return LICENSE_CB_ABORT;
	}
	snprintf(leg->user, sizeof(leg->user), "%s", user); /* checked: it fits */
	if (leg->tap && wants_relay(guest, leg->tap)) {
		/* Before FreeRDP answers: the session's FreeRDP goes on from the Client Info. */
		if (keep_replay(leg, false)) {
			leg->relayed = tls_bridge_detach(leg->bridge, &leg->client, &leg->client_fd);
			leg->bridge = NULL;
		}
		if (!leg->relayed) {
			snprintf(leg->why, sizeof(leg->why), "its connection cannot be relayed");
		}
		return LICENSE_CB_ABORT;
	}
	return leg->library_license(client, s);
}

/*
 * A Server Redirection back to this address. The token routes it, the
 * cookie is its password there. This connection is done either way.
 */
static BOOL redirect(freerdp_peer *client, struct first_leg *leg) {
	if (leg->token[0]) {
		leg->redirected = client->SendServerRedirection(client, 0, NULL, leg->token,
			leg->user, NULL, leg->cookie, NULL, NULL, 0, NULL, 0, NULL);
		if (!leg->redirected) {
			snprintf(leg->why, sizeof(leg->why), "cannot send it the redirection");
		}
	}
	explicit_bzero(leg->cookie, sizeof(leg->cookie));
	return FALSE;
}

/*
 * Licensed, the client waits for Demand Active: the redirection comes
 * instead, unless the client is to log in on the logon screen.
 */
static BOOL handle_capabilities(freerdp_peer *client) {
	struct first_leg *leg = client->ContextExtra;
	if (leg->on_screen) {
		return TRUE; /* activated, for the logon screen */
	}
	return redirect(client, leg);
}

/* What is at x, y, w, h on the logon screen, as uncompressed bitmaps at the client's depth. */
static bool send_screen(freerdp_peer *client, const struct logon_screen *screen, int x, int y,
		int w, int h) {
	UINT32 depth = client->settings->ColorDepth;
	int bpp = depth >= 24 ? 24 : depth == 16 || depth == 15 ? (int)depth : 0;
	int bytes_pp = (bpp + 7) / 8;
	if (bpp == 0) {
		return false;
	}
	/* One tile's buffer, padded rows included, for every tile. */
	uint8_t *data = malloc((size_t)TILE * TILE * (size_t)bytes_pp);
	if (!data) {
		return false;
	}
	for (int ty = y; ty < y + h; ty += TILE) {
		for (int tx = x; tx < x + w; tx += TILE) {
			int tw = x + w - tx < TILE ? x + w - tx : TILE;
			int th = y + h - ty < TILE ? y + h - ty : TILE;
			int padded = (tw + 3) & ~3; /* rows of a multiple of 4 bytes */
			size_t row = (size_t)padded * (size_t)bytes_pp, size = row * (size_t)th;
			memset(data, 0, size);
			for (int r = 0; r < th; r++) {
				/* Bottom-up. */
				int sy = ty + th - 1 - r;
				uint8_t *dst = data + (size_t)r * row;
				for (int c = 0; c < tw; c++) {
					uint32_t p = logon_screen_pixel(screen, tx + c, sy);
					uint32_t red = (p >> 16) & 0xff, green = (p >> 8) & 0xff, blue = p & 0xff;
					if (bpp == 24) {
						dst[c * 3] = (uint8_t)blue;
						dst[c * 3 + 1] = (uint8_t)green;
						dst[c * 3 + 2] = (uint8_t)red;
					} else {
						uint16_t v = bpp == 16 ?
							(uint16_t)((red >> 3) << 11 | (green >> 2) << 5 | blue >> 3) :
							(uint16_t)((red >> 3) << 10 | (green >> 3) << 5 | blue >> 3);
						dst[c * 2] = (uint8_t)v;
						dst[c * 2 + 1] = (uint8_t)(v >> 8);
					}
				}
			}
			BITMAP_DATA tile = {
				.destLeft = (UINT32)tx, .destTop = (UINT32)ty,
				.destRight = (UINT32)(tx + tw - 1), .destBottom = (UINT32)(ty + th - 1),
				.width = (UINT32)padded, .height = (UINT32)th,
				.bitsPerPixel = (UINT32)bpp, .bitmapLength = (UINT32)size,
				.bitmapDataStream = data, .compressed = FALSE,
				.cbScanWidth = (UINT32)row, .cbUncompressedSize = (UINT32)size,
			};
			BITMAP_UPDATE update = { .count = 1, .number = 1, .rectangles = &tile };
			/* FreeRDP copies the tile into its stream; the buffer stays ours. */
			if (!client->update->BitmapUpdate(client->context, &update)) {
				free(data);
				return false;
			}
		}
	}
	free(data);
	return true;
}

/* All of buf to the client, by the guest's deadline. */
static bool send_all(struct gateway_guest *guest, struct tls_stream *stream, int fd,
		const uint8_t *buf, size_t len) {
	size_t sent = 0;
	while (sent < len) {
		ssize_t n = tls_stream_send(stream, buf + sent, len - sent);
		if (n < 0 && errno == EAGAIN) {
			if (!gateway_guest_wait_on(guest, fd, POLLOUT)) {
				return false;
			}
			continue;
		}
		if (n < 0) {
			return false;
		}
		sent += (size_t)n;
	}
	return true;
}

/* FreeRDP's server goes on only when asked to. */
static BOOL handle_post_connect(freerdp_peer *client) {
	struct first_leg *leg = client->ContextExtra;
	return leg->on_screen;
}

/* Activated for the logon screen (again, after a reactivation): all of it. */
static BOOL handle_activate(freerdp_peer *client) {
	struct first_leg *leg = client->ContextExtra;
	if (!leg->on_screen) {
		return TRUE;
	}
	if (!leg->screen) {
		const struct rdp_front *rdp = leg->guest->front->data;
		rdpSettings *settings = client->settings;
		if ((uint64_t)settings->DesktopWidth * settings->DesktopHeight >
				LOGON_SCREEN_MAX_PIXELS) {
			snprintf(leg->why, sizeof(leg->why), "its desktop is too large for the "
				"logon screen");
			return FALSE;
		}
		leg->screen = calloc(1, sizeof(*leg->screen));
		if (!leg->screen || !logon_screen_init(leg->screen, &rdp->font, rdp->host,
				(int)settings->DesktopWidth, (int)settings->DesktopHeight,
				settings->Username ? settings->Username : "")) {
			snprintf(leg->why, sizeof(leg->why), "out of memory");
			return FALSE;
		}
		leg->screen->layout = logon_layouts_find(&rdp->layouts, settings->KeyboardLayout,
			settings->KeyboardType);
		logon_screen_draw(leg->screen);
	}
	if (!send_screen(client, leg->screen, 0, 0, leg->screen->width, leg->screen->height)) {
		snprintf(leg->why, sizeof(leg->why), "cannot draw the logon screen at %u bits "
			"per pixel", client->settings->ColorDepth);
		return FALSE;
	}
	return TRUE;
}

/*
 * Logged in on the logon screen, a client that cannot be redirected goes
 * on by relay: the bridge gives its TLS back, a Deactivate All has it
 * wait for the session's Demand Active, the session's FreeRDP is walked
 * through what it sent up to its Client Info, and its answers up to the
 * licence are dropped (the client had the gateway's). FALSE: this
 * FreeRDP is done.
 */
static BOOL relay_after_screen(struct first_leg *leg) {
	uint16_t user_id;
	uint8_t deactivate[RDP_PDU_DEACTIVATE_ALL_LEN];
	if (!rdp_pdu_client_user_id(leg->replay.client, leg->replay.len, &user_id)) {
		snprintf(leg->why, sizeof(leg->why), "its login cannot be passed on");
		return FALSE;
	}
	size_t len = rdp_pdu_deactivate_all(user_id, deactivate);
	leg->relayed = tls_bridge_detach(leg->bridge, &leg->client, &leg->client_fd);
	leg->bridge = NULL;
	if (!leg->relayed || !send_all(leg->guest, leg->client, leg->client_fd, deactivate,
			len)) {
		snprintf(leg->why, sizeof(leg->why), "its connection cannot be relayed");
		leg->relayed = false;
		return FALSE;
	}
	leg->replay.answers++; /* the session's licence */
	leg->replay.hold_client = true;
	return FALSE;
}

/* What a key did on the logon screen: drawn, or the login checked (then redirected). */
static BOOL logon_input(freerdp_peer *client, struct first_leg *leg, enum logon_input input) {
	struct logon_screen *screen = leg->screen;
	if (input == LOGON_UNCHANGED) {
		return TRUE;
	}
	/* A person typing is a guest that moves: it never gives way to stalled ones. */
	gateway_guest_progressed(leg->guest);
	if (input == LOGON_SUBMITTED) {
		const char *reason = NULL;
		/* The check wipes the password. */
		if (gateway_guest_check_rdp_login(leg->guest, screen->user, screen->password,
				leg->token, leg->cookie, &reason)) {
			snprintf(leg->user, sizeof(leg->user), "%s", screen->user);
			return leg->relay_after_screen ? relay_after_screen(leg) : redirect(client, leg);
		}
		leg->token[0] = '\0';
		logon_screen_refused(screen, reason);
	}
	logon_screen_draw(screen);
	return send_screen(client, screen, screen->panel_x, screen->panel_y, screen->panel_w,
		screen->panel_h);
}

static BOOL handle_key(rdpInput *input, UINT16 flags, UINT16 code) {
	freerdp_peer *client = input->context->peer;
	struct first_leg *leg = client->ContextExtra;
	return !leg->screen || logon_input(client, leg, logon_screen_key(leg->screen, flags, code));
}

static BOOL handle_unicode(rdpInput *input, UINT16 flags, UINT16 code) {
	freerdp_peer *client = input->context->peer;
	struct first_leg *leg = client->ContextExtra;
	return !leg->screen ||
		logon_input(client, leg, logon_screen_unicode(leg->screen, flags, code));
}

static BOOL ignore_synchronize(rdpInput *input, UINT32 flags) {
	return TRUE;
}

static BOOL ignore_mouse(rdpInput *input, UINT16 flags, UINT16 x, UINT16 y) {
	return TRUE;
}

/*
 * The gateway's own answer to a Connection Request, selecting TLS, and
 * the TLS handshake; with the plaintext read after it into pending (up to
 * TLS_RECORD_PLAINTEXT_MAX). NULL, with a sentence in why, on failure.
 */
static gnutls_session_t answer_and_start_tls(struct gateway_guest *guest,
		const struct x224_request *request, uint8_t *pending, size_t *n_pending,
		char *why, size_t why_size) {
	uint8_t confirm[X224_CONFIRM_LEN];
	size_t n = x224_write_confirm(confirm,
		EXTENDED_CLIENT_DATA_SUPPORTED | DYNVC_GFX_PROTOCOL_SUPPORTED, X224_PROTOCOL_SSL);
	if (request->has_negotiation && !(request->requested_protocols & X224_PROTOCOL_SSL)) {
		snprintf(why, why_size, "it does not offer TLS");
		return NULL;
	}
	if (!gateway_guest_send(guest, confirm, n)) {
		snprintf(why, why_size, "it hung up");
		return NULL;
	}
	gnutls_session_t tls = gateway_guest_start_tls(guest, why, why_size);
	*n_pending = 0;
	ssize_t got = 1;
	while (tls && gnutls_record_check_pending(tls) > 0 && got > 0 &&
			*n_pending < TLS_RECORD_PLAINTEXT_MAX) {
		got = gnutls_record_recv(tls, pending + *n_pending,
			TLS_RECORD_PLAINTEXT_MAX - *n_pending);
		*n_pending += got > 0 ? (size_t)got : 0;
	}
	if (tls && gnutls_record_check_pending(tls) > 0) {
		snprintf(why, why_size, "it sent too much at once");
		gnutls_deinit(tls);
		return NULL;
	}
	return tls;
}

/* The tap's copy holds the client's password until the relay wiped it. */
static void forget_tap(struct tls_bridge_tap *tap) {
	if (tap) {
		explicit_bzero(tap->client, tap->capacity);
		free(tap->client);
		pthread_mutex_destroy(&tap->lock);
		free(tap);
	}
}

/*
 * A first connection: the gateway answers its Connection Request and does
 * the TLS handshake itself (cheap, and with the guest's stages, as at the
 * VNC port), so that FreeRDP's server, costly to set up, only ever runs
 * for clients that finished a TLS handshake. It runs behind a bridge
 * (remote/tls_bridge.h), up to the Client Info PDU.
 */
static void first_leg(struct gateway_guest *guest, const struct x224_request *request,
		const uint8_t *cr, char *why, size_t why_size) {
	struct gateway_front *front = guest->front;
	uint8_t *pending = malloc(TLS_RECORD_PLAINTEXT_MAX);
	size_t n_pending = 0;
	gnutls_session_t tls = pending ? answer_and_start_tls(guest, request, pending,
		&n_pending, why, why_size) : NULL;
	if (!tls) {
		free(pending);
		return;
	}
	struct first_leg leg = { .guest = guest, .client_fd = -1 };
	if (front->config->rdp_handover != GATEWAY_RDP_REDIRECT) {
		/* What a relay needs: all the client sends up to its Client Info. */
		leg.tap = calloc(1, sizeof(*leg.tap));
		size_t capacity = HANDOVER_PENDING_MAX - request->length;
		uint8_t *copy = leg.tap ? malloc(capacity) : NULL;
		if (copy) {
			pthread_mutex_init(&leg.tap->lock, NULL);
			leg.tap->client = copy;
			leg.tap->capacity = capacity;
		} else {
			free(leg.tap);
			leg.tap = NULL;
		}
	}
	struct tls_stream *stream = tls_stream_from_session(tls);
	/* The bridge closes its own copy; the guest's stays for shutdown() until it is done. */
	int fd = stream ? dup(guest->fd) : -1;
	int local_fd = -1;
	if (fd >= 0) {
		leg.bridge = tls_bridge_start_tapped(stream, fd, cr, request->length, pending,
			n_pending, leg.tap, &local_fd);
	} else {
		tls_stream_destroy(stream);
	}
	explicit_bzero(pending, TLS_RECORD_PLAINTEXT_MAX);
	free(pending);
	freerdp_peer *client = leg.bridge ? freerdp_peer_new(local_fd) : NULL;
	if (!client) {
		if (local_fd >= 0) {
			close(local_fd);
		}
		tls_bridge_destroy(leg.bridge);
		forget_tap(leg.tap);
		snprintf(why, why_size, "cannot take the connection");
		return;
	}
	client->ContextExtra = &leg;
	bool ok = freerdp_peer_context_new(client);
	rdpSettings *settings = ok ? client->settings : NULL;
	if (ok) {
		/* The contents: the worker opens no file. */
		struct rdp_front *rdp = front->data;
		settings->CertificateContent = strdup(rdp->cert_pem);
		settings->PrivateKeyContent = strdup(rdp->key_pem);
		settings->RdpSecurity = FALSE;
		settings->TlsSecurity = TRUE;
		settings->NlaSecurity = FALSE;
		/* What a logon screen is drawn at, unless the client asks for less; its keys. */
		settings->ColorDepth = 32;
		settings->UnicodeInput = TRUE;
		ok = settings->CertificateContent && settings->PrivateKeyContent &&
			client->Initialize(client);
	}
	if (ok) {
		leg.library_license = client->LicenseCallback;
		client->LicenseCallback = handle_license;
		client->Capabilities = handle_capabilities;
		client->PostConnect = handle_post_connect;
		client->Activate = handle_activate;
		client->input->KeyboardEvent = handle_key;
		client->input->UnicodeKeyboardEvent = handle_unicode;
		client->input->SynchronizeEvent = ignore_synchronize;
		client->input->MouseEvent = ignore_mouse;
		client->input->ExtendedMouseEvent = ignore_mouse;
		/*
		 * FreeRDP's own events too: it stops reading after a while and
		 * signals one to be called again, with records already read.
		 */
		HANDLE handles[8];
		struct pollfd fds[8];
		int n = 0;
		DWORD count = client->GetEventHandles(client, handles, 8);
		for (DWORD i = 0; i < count; i++) {
			int handle_fd = GetEventFileDescriptor(handles[i]);
			if (handle_fd >= 0) {
				fds[n++] = (struct pollfd){ .fd = handle_fd, .events = POLLIN };
			}
		}
		for (;;) {
			if (!gateway_guest_poll(guest, fds, n)) {
				if (!leg.why[0]) {
					snprintf(leg.why, sizeof(leg.why), "it did not log in in time, "
						"or gave way to another connection");
				}
				break;
			}
			if (!client->CheckFileDescriptor(client)) {
				if (!leg.why[0]) {
					snprintf(leg.why, sizeof(leg.why), "it hung up, or its RDP "
						"connection failed before its login");
				}
				break;
			}
		}
	}
	if (leg.redirected || leg.relayed) {
		why[0] = '\0';
		if (leg.redirected) {
			gateway_log_debug("RDP: %s was redirected to its session", guest->host);
		}
	} else {
		snprintf(why, why_size, "%s", leg.why[0] ? leg.why :
			"it hung up, or did not log in in time");
	}
	if (settings && settings->Password) {
		explicit_bzero(settings->Password, strlen(settings->Password));
	}
	if (client->context) {
		client->Disconnect(client);
		freerdp_peer_context_free(client);
	}
	freerdp_peer_free(client);
	/* FreeRDP closed its end: what it sent last (the redirection) reaches the client. */
	tls_bridge_finish(leg.bridge, leg.redirected ? BRIDGE_DRAIN_MS : 0);
	explicit_bzero(leg.cookie, sizeof(leg.cookie));
	if (leg.relayed) {
		gateway_rdp_relay(guest, leg.client, leg.client_fd, cr, request->length,
			&leg.replay, leg.token, why, why_size);
	}
	forget_tap(leg.tap);
	if (leg.screen) {
		logon_screen_finish(leg.screen);
		free(leg.screen);
	}
	explicit_bzero(&leg, sizeof(leg));
}

/* The redirected connection: its ticket, then TLS, then the hand-over. */
static void second_leg(struct gateway_guest *guest, const struct x224_request *request,
		const uint8_t *cr, char *why, size_t why_size) {
	struct gateway_ticket ticket;
	if (!gateway_guest_redeem(guest, request->token, &ticket, why, why_size)) {
		return;
	}
	struct handover_message *message = calloc(1, sizeof(*message));
	uint8_t *pending = malloc(TLS_RECORD_PLAINTEXT_MAX);
	size_t n_pending = 0;
	gnutls_session_t tls = NULL;
	if (!message || !pending) {
		snprintf(why, why_size, "out of memory");
	} else if ((tls = answer_and_start_tls(guest, request, pending, &n_pending, why,
			why_size))) {
		/* The session's FreeRDP reads the Connection Request, then what came after TLS. */
		if (request->length + n_pending > HANDOVER_PENDING_MAX) {
			snprintf(why, why_size, "it sent too much at once");
			goto out;
		}
		memcpy(message->pending, cr, request->length);
		memcpy(message->pending + request->length, pending, n_pending);
		message->n_pending = (uint32_t)(request->length + n_pending);
		message->protocol = HANDOVER_RDP;
		message->flags = ticket.flags;
		memcpy(message->user, ticket.user, sizeof(message->user));
		snprintf(message->cookie, sizeof(message->cookie), "%s", ticket.cookie);
		if (tls_record_export(tls, &message->tls, why, why_size) &&
				gateway_guest_hand_over(guest, ticket.sock, message, why, why_size)) {
			why[0] = '\0';
			char printable[128];
			gateway_printable(ticket.user, printable, sizeof(printable));
			gateway_log("RDP: \"%s\" from %s went to its session", printable,
				guest->host);
		}
	}
out:
	if (message) {
		explicit_bzero(message, sizeof(*message));
		free(message);
	}
	if (pending) {
		explicit_bzero(pending, TLS_RECORD_PLAINTEXT_MAX);
		free(pending);
	}
	if (tls) {
		gnutls_deinit(tls);
	}
	close(ticket.sock);
	explicit_bzero(&ticket, sizeof(ticket));
}

void gateway_rdp_login(struct gateway_guest *guest) {
	uint8_t cr[X224_REQUEST_MAX];
	char why[256] = "";
	struct x224_request request;
	size_t length = peek_request(guest, cr, why, sizeof(why));
	if (length == 0) {
		goto out;
	}
	if (!x224_parse_request(cr, length, &request, why, sizeof(why))) {
		goto out;
	}
	/* Taken now: the gateway answers it itself. */
	if (recv(guest->fd, cr, length, 0) != (ssize_t)length) {
		snprintf(why, sizeof(why), "it hung up");
		goto out;
	}
	if (request.has_token) {
		second_leg(guest, &request, cr, why, sizeof(why));
	} else {
		first_leg(guest, &request, cr, why, sizeof(why));
	}
out:
	if (why[0] && !gateway_guest_refusal_logged(why)) {
		gateway_log("RDP: closing the connection from %s: %s", guest->host, why);
	}
	gateway_guest_done(guest);
}
