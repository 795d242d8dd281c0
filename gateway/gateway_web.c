/* SPDX-License-Identifier: MIT */
#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <unistd.h>
#include <gnutls/gnutls.h>
#include "remote/handover.h"
#include "remote/tls_record.h"
#include "remote/vnc/rfb_security.h"
#include "remote/vnc/vnc_browser_hosts.h"
#include "remote/vnc/vnc_http_origin.h"
#include "remote/vnc/vnc_http_request.h"
#include "remote/vnc/vnc_http_response.h"
#include "common/util.h"
#include "gateway/gateway_config.h"
#include "gateway/gateway_guests.h"
#include "gateway/gateway_log.h"
#include "gateway/gateway_web.h"
#include "gateway/gateway_websocket.h"

/*
 * A browser's connection, on its guest's thread (gateway_web.h). Every
 * wait on the client ends at the guest's deadline, or when another guest
 * takes its place, as for a VNC viewer's login.
 */

/*
 * How long a silent connection may take before it counts as a VNC
 * viewer and gets the RFB greeting (after which it cannot be https).
 * Browsers open connections ahead of their requests, so an address that
 * asked for a page lately gets longer; as a session does.
 */
#define SILENT_MS 200
#define BROWSER_SILENT_MS 3000
#define BROWSER_MEMORY_MS 60000
/*
 * A browser loading noVNC opens several connections at once (six per
 * host in Chromium and Firefox), some ahead of their requests: an address
 * that asked for a page lately may have this many guests before the
 * oldest gives way, as at a session.
 */
#define BROWSER_PENDING 16
#define BROWSERS 64
#define REQUEST_MAX 8192
/* The handshake's messages are a few bytes; noVNC sends each in a frame of its own. */
#define FRAME_MAX 1024
#define MAX_LOCAL_HOSTS 64

struct gateway_web {
	struct gateway_web_files *files; /* NULL: no pages */
	/* Names this gateway is reached by, normal form: "localhost", its own, web-hosts. */
	char *hosts[3 + GATEWAY_MAX_ALLOWED];
	size_t n_hosts;
	/* This machine's addresses when the worker started (it cannot ask in its sandbox). */
	char *local[MAX_LOCAL_HOSTS];
	size_t n_local;
	pthread_mutex_t lock; /* browsers */
	struct vnc_browser_host browsers[BROWSERS];
};

static bool add_host(struct gateway_web *web, const char *text, char *error,
		size_t error_size) {
	char host[VNC_HTTP_HOST_MAX];
	if (!vnc_http_normalise_host(text, host)) {
		snprintf(error, error_size, "web-host %s: not a host name or address "
			"(e.g. gw.example.org or 192.0.2.7)", text);
		return false;
	}
	web->hosts[web->n_hosts++] = xstrdup(host);
	return true;
}

struct gateway_web *gateway_web_create(const struct gateway_config *config, char *error,
		size_t error_size) {
	struct gateway_web *web = calloc(1, sizeof(*web));
	if (!web) {
		snprintf(error, error_size, "out of memory");
		return NULL;
	}
	pthread_mutex_init(&web->lock, NULL);
	web->hosts[web->n_hosts++] = xstrdup("localhost");
	char name[VNC_HTTP_HOST_MAX + 1] = "", host[VNC_HTTP_HOST_MAX];
	if (gethostname(name, sizeof(name) - 1) == 0 && vnc_http_normalise_host(name, host)) {
		web->hosts[web->n_hosts++] = xstrdup(host);
	}
	for (int i = 0; i < config->n_web_hosts; i++) {
		if (!add_host(web, config->web_hosts[i], error, error_size)) {
			gateway_web_destroy(web);
			return NULL;
		}
	}
	struct ifaddrs *list;
	if (getifaddrs(&list) == 0) {
		for (struct ifaddrs *ifa = list; ifa && web->n_local < MAX_LOCAL_HOSTS;
				ifa = ifa->ifa_next) {
			if (ifa->ifa_addr && vnc_http_address_host(ifa->ifa_addr, host)) {
				web->local[web->n_local++] = xstrdup(host);
			}
		}
		freeifaddrs(list);
	}
	if (config->web_dir) {
		char why[512];
		web->files = gateway_web_files_load(config->web_dir, why, sizeof(why));
		if (!web->files) {
			/* noVNC is a suggestion of the package: viewers go on without it. */
			gateway_log("VNC: no pages for browsers (install novnc, or set web): %s", why);
		}
	}
	return web;
}

void gateway_web_destroy(struct gateway_web *web) {
	if (!web) {
		return;
	}
	gateway_web_files_destroy(web->files);
	for (size_t i = 0; i < web->n_hosts; i++) {
		free(web->hosts[i]);
	}
	for (size_t i = 0; i < web->n_local; i++) {
		free(web->local[i]);
	}
	pthread_mutex_destroy(&web->lock);
	free(web);
}

static bool is_browser(struct gateway_web *web, const char *host);

static void remember_browser(struct gateway_web *web, const char *host) {
	pthread_mutex_lock(&web->lock);
	vnc_browser_hosts_remember(web->browsers, BROWSERS, host);
	pthread_mutex_unlock(&web->lock);
}

int gateway_web_pending_per_address(struct gateway_web *web, const char *host,
		int per_address) {
	return web && per_address < BROWSER_PENDING && is_browser(web, host) ?
		BROWSER_PENDING : per_address;
}

static bool is_browser(struct gateway_web *web, const char *host) {
	pthread_mutex_lock(&web->lock);
	bool found = vnc_browser_hosts_has(web->browsers, BROWSERS, host, BROWSER_MEMORY_MS);
	pthread_mutex_unlock(&web->lock);
	return found;
}

static bool is_local_address(const char *host, void *data) {
	const struct gateway_web *web = data;
	for (size_t i = 0; i < web->n_local; i++) {
		if (strcmp(web->local[i], host) == 0) {
			return true;
		}
	}
	return false;
}

/* One browser connection over TLS. */
struct web_conn {
	struct gateway_web *web;
	struct gateway_guest *guest;
	gnutls_session_t tls;
	char request[REQUEST_MAX + 1];
	size_t request_len;
	/* Bytes read past the request: the first of its WebSocket frames. */
	uint8_t extra[REQUEST_MAX];
	size_t extra_len, extra_pos;
	/* WebSocket payload read and not yet taken by the handshake. */
	uint8_t plain[FRAME_MAX];
	size_t plain_len, plain_pos;
	struct rfb_security sec;
};

static bool tls_send_all(struct web_conn *conn, const void *data, size_t len) {
	return gateway_guest_tls_send(conn->guest, conn->tls, data, len);
}

/* Up to len bytes of plaintext: what came past the request first. */
static ssize_t tls_recv(struct web_conn *conn, void *buf, size_t len) {
	if (conn->extra_pos < conn->extra_len) {
		size_t n = conn->extra_len - conn->extra_pos;
		n = n < len ? n : len;
		memcpy(buf, conn->extra + conn->extra_pos, n);
		conn->extra_pos += n;
		return (ssize_t)n;
	}
	for (;;) {
		ssize_t n = gnutls_record_recv(conn->tls, buf, len);
		if (n != GNUTLS_E_AGAIN && n != GNUTLS_E_INTERRUPTED) {
			return n > 0 ? n : -1;
		}
		if (!gateway_guest_wait(conn->guest, POLLIN)) {
			return -1;
		}
	}
}

/* Exactly len bytes: never more, so nothing after the handshake is read here. */
static bool tls_read_exact(struct web_conn *conn, uint8_t *buf, size_t len) {
	for (size_t got = 0; got < len;) {
		ssize_t n = tls_recv(conn, buf + got, len - got);
		if (n <= 0) {
			return false;
		}
		got += (size_t)n;
	}
	return true;
}

/* The request's headers, whole; false when it hung up, stalled or sent too much. */
static bool read_request(struct web_conn *conn) {
	for (;;) {
		char *end = strstr(conn->request, "\r\n\r\n");
		if (end) {
			size_t head = (size_t)(end + 4 - conn->request);
			conn->extra_len = conn->request_len - head;
			memcpy(conn->extra, conn->request + head, conn->extra_len);
			conn->request[head] = '\0';
			conn->request_len = head;
			/* A whole message: it is moving (its pieces alone do not count). */
			gateway_guest_progressed(conn->guest);
			return true;
		}
		if (conn->request_len == REQUEST_MAX) {
			return false;
		}
		ssize_t n = tls_recv(conn, conn->request + conn->request_len,
			REQUEST_MAX - conn->request_len);
		if (n <= 0) {
			return false;
		}
		conn->request_len += (size_t)n;
		conn->request[conn->request_len] = '\0';
		if (strlen(conn->request) != conn->request_len) {
			return false; /* a NUL byte */
		}
	}
}

/* One answer, and the connection ends (as a session's file server does). */
static void respond(struct web_conn *conn, int status, const char *type, const char *body,
		size_t body_len, bool head) {
	char header[512];
	int n = vnc_http_format_header(header, sizeof(header), status,
		vnc_http_status_reason(status), type, body_len);
	if (n > 0 && tls_send_all(conn, header, (size_t)n) && !head && body_len > 0) {
		tls_send_all(conn, body, body_len);
	}
	gnutls_bye(conn->tls, GNUTLS_SHUT_WR);
}

static void respond_text(struct web_conn *conn, int status, const char *why) {
	char body[512];
	int n = snprintf(body, sizeof(body), "%d %s%s%s\n", status, vnc_http_status_reason(status),
		why ? ": " : "", why ? why : "");
	respond(conn, status, "text/plain; charset=utf-8", body,
		(size_t)n < sizeof(body) ? (size_t)n : sizeof(body) - 1, false);
}

/* Host and Origin, as a session checks them: 0, or the status to refuse with. */
static int check_request(struct web_conn *conn, bool upgrade, char *why, size_t why_size) {
	struct gateway_web *web = conn->web;
	const char *hosts[4 + GATEWAY_MAX_ALLOWED];
	size_t n = 0;
	for (size_t i = 0; i < web->n_hosts; i++) {
		hosts[n++] = web->hosts[i];
	}
	char listener[VNC_HTTP_HOST_MAX];
	struct sockaddr_storage addr;
	socklen_t len = sizeof(addr);
	if (getsockname(conn->guest->fd, (struct sockaddr *)&addr, &len) == 0 &&
			vnc_http_address_host((struct sockaddr *)&addr, listener)) {
		hosts[n++] = listener;
	}
	struct vnc_http_site site = {
		.tls = true,
		.upgrade = upgrade,
		.hosts = hosts,
		.n_hosts = n,
		.is_local_address = is_local_address,
		.data = web,
	};
	int status = vnc_http_check(conn->request, &site, why, why_size);
	/* The session's options that the sentence names are not the gateway's. */
	char *hint = status ? strstr(why, "; --vnc-allow-") : NULL;
	if (status && hint) {
		snprintf(hint, why_size - (size_t)(hint - why), "%s",
			strstr(hint, "-host") ? "; the gateway's web-host allows a name" : "");
	}
	return status;
}

static void serve_page(struct web_conn *conn) {
	char why[384] = "";
	int status = check_request(conn, false, why, sizeof(why));
	if (status) {
		gateway_log("VNC: refusing a page to %s: %s", conn->guest->host, why);
		respond_text(conn, status, why);
		return;
	}
	/* A browser that named this host: its next connections come at once. */
	remember_browser(conn->web, conn->guest->host);
	bool head;
	char path[VNC_HTTP_PATH_MAX];
	status = vnc_http_parse_request(conn->request, &head, path);
	size_t len = 0;
	const char *data = status ? NULL : gateway_web_files_find(conn->web->files, path, &len);
	if (!data) {
		respond_text(conn, status ? status : 404, NULL);
		return;
	}
	respond(conn, 200, vnc_http_content_type(path), data, len, head);
}

static bool header_has_token(const char *request, const char *name, const char *token) {
	const char *value;
	size_t len;
	if (vnc_http_header(request, name, &value, &len) != 1) {
		return false;
	}
	size_t token_len = strlen(token);
	for (size_t i = 0; i < len;) {
		i += strspn(value + i, " \t,");
		size_t word = strcspn(value + i, " \t,");
		if (word > len - i) {
			word = len - i;
		}
		if (word == token_len && strncasecmp(value + i, token, word) == 0) {
			return true;
		}
		i += word;
	}
	return false;
}

/* The upgrade's answer; false with why when the request is no WebSocket this serves. */
static bool accept_upgrade(struct web_conn *conn, char *why, size_t why_size) {
	const char *key, *version;
	size_t key_len, version_len;
	char accept[GATEWAY_WS_ACCEPT_SIZE];
	if (!header_has_token(conn->request, "Upgrade", "websocket") ||
			vnc_http_header(conn->request, "Sec-WebSocket-Version", &version,
				&version_len) != 1 || version_len != 2 || strncmp(version, "13", 2) != 0 ||
			vnc_http_header(conn->request, "Sec-WebSocket-Key", &key, &key_len) != 1 ||
			!gateway_ws_accept(key, key_len, accept)) {
		snprintf(why, why_size, "not a WebSocket (version 13) upgrade");
		respond_text(conn, 400, why);
		return false;
	}
	/* Binary frames, whether it names the sub-protocol or none (noVNC names none). */
	bool binary = header_has_token(conn->request, "Sec-WebSocket-Protocol", "binary");
	char answer[256];
	int n = snprintf(answer, sizeof(answer), "HTTP/1.1 101 Switching Protocols\r\n"
		"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: %s\r\n%s\r\n",
		accept, binary ? "Sec-WebSocket-Protocol: binary\r\n" : "");
	if (!tls_send_all(conn, answer, (size_t)n)) {
		snprintf(why, why_size, "it hung up");
		return false;
	}
	return true;
}

/* The handshake's bytes toward the viewer, in one binary frame. */
static bool ws_send(struct web_conn *conn, const uint8_t *data, size_t len) {
	if (len == 0) {
		return true;
	}
	uint8_t frame[GATEWAY_WS_HEADER_MAX + RFB_SECURITY_OUT_MAX];
	size_t header = gateway_ws_write_header(GATEWAY_WS_BINARY, len, frame);
	if (header + len > sizeof(frame)) {
		return false;
	}
	memcpy(frame + header, data, len);
	return tls_send_all(conn, frame, header + len);
}

/* The next data frame's payload into plain; false when it closed or broke the rules. */
static bool ws_read_frame(struct web_conn *conn) {
	for (;;) {
		uint8_t header[GATEWAY_WS_HEADER_MAX];
		struct gateway_ws_frame frame;
		if (!tls_read_exact(conn, header, 2)) {
			return false;
		}
		size_t header_len = gateway_ws_header_len(header, 2);
		if (!tls_read_exact(conn, header + 2, header_len - 2) ||
				!gateway_ws_parse_header(header, header_len, &frame) || !frame.masked ||
				frame.length > sizeof(conn->plain) - conn->plain_len) {
			return false;
		}
		uint8_t *payload = conn->plain + conn->plain_len;
		if (!tls_read_exact(conn, payload, (size_t)frame.length)) {
			return false;
		}
		gateway_ws_unmask(&frame, payload, (size_t)frame.length, 0);
		switch (frame.opcode) {
		case GATEWAY_WS_BINARY:
		case GATEWAY_WS_CONTINUATION:
			conn->plain_len += (size_t)frame.length;
			return true;
		case GATEWAY_WS_PING:
		case GATEWAY_WS_PONG:
			memset(payload, 0, (size_t)frame.length);
			continue; /* a browser does not ping; nothing to answer while logging in */
		default:
			return false; /* close, or text (base64, which noVNC no longer speaks) */
		}
	}
}

/* Exactly len bytes of the RFB stream inside the frames. */
static bool ws_read_exact(struct web_conn *conn, uint8_t *buf, size_t len) {
	while (conn->plain_len - conn->plain_pos < len) {
		/* Keep the unread part at the front, and read the next frame after it. */
		memmove(conn->plain, conn->plain + conn->plain_pos, conn->plain_len - conn->plain_pos);
		conn->plain_len -= conn->plain_pos;
		conn->plain_pos = 0;
		if (!ws_read_frame(conn)) {
			return false;
		}
	}
	memcpy(buf, conn->plain + conn->plain_pos, len);
	memset(conn->plain + conn->plain_pos, 0, len);
	conn->plain_pos += len;
	return true;
}

static bool flush(struct web_conn *conn) {
	bool ok = ws_send(conn, conn->sec.out, conn->sec.out_len);
	rfb_security_sent(&conn->sec);
	return ok;
}

/*
 * What the session's libvncserver reads first after the hand-over, still
 * framed as the client sent it: RFB bytes left over from the frames read
 * here (framed again, with a zero mask), then what came after them.
 */
static bool pending_frames(void *data, struct handover_message *message,
		char *why, size_t why_size) {
	struct web_conn *conn = data;
	size_t left = conn->plain_len - conn->plain_pos;
	size_t n = 0;
	if (left > 0) {
		static const uint8_t zero_mask[4];
		uint8_t header[GATEWAY_WS_HEADER_MAX];
		size_t header_len = gateway_ws_write_masked_header(GATEWAY_WS_BINARY, left,
			zero_mask, header);
		memcpy(message->pending, header, header_len);
		memcpy(message->pending + header_len, conn->plain + conn->plain_pos, left);
		n = header_len + left;
	}
	size_t extra = conn->extra_len - conn->extra_pos;
	if (n + extra > HANDOVER_PENDING_MAX) {
		snprintf(why, why_size, "it sent too much before its session took it");
		return false;
	}
	memcpy(message->pending + n, conn->extra + conn->extra_pos, extra);
	n += extra;
	/* What GnuTLS decrypted already: the session cannot read it again. */
	while (gnutls_record_check_pending(conn->tls) > 0) {
		if (n == HANDOVER_PENDING_MAX) {
			snprintf(why, why_size, "it sent too much before its session took it");
			return false;
		}
		ssize_t got = gnutls_record_recv(conn->tls, message->pending + n,
			HANDOVER_PENDING_MAX - n);
		if (got <= 0) {
			snprintf(why, why_size, "it hung up");
			return false;
		}
		n += (size_t)got;
	}
	message->n_pending = (uint32_t)n;
	return true;
}


/* The RFB handshake inside the WebSocket: VeNCrypt Plain, since the channel is TLS. */
static bool rfb_login(struct web_conn *conn, char *why, size_t why_size) {
	struct rfb_security_offer offer = {
		.subtypes = { VENCRYPT_PLAIN }, .n_subtypes = 1,
	};
	uint8_t challenge[16];
	if (getrandom(challenge, sizeof(challenge), 0) != sizeof(challenge)) {
		snprintf(why, why_size, "no random bytes");
		return false;
	}
	rfb_security_init(&conn->sec, &offer, challenge);
	uint8_t in[2 * RFB_SECURITY_MAX_CREDENTIAL + 16];
	enum rfb_security_step step = RFB_SECURITY_STEP_READ;
	int sock = -1;
	uint16_t flags = 0;
	bool ok = false;
	for (;;) {
		if (!flush(conn)) {
			snprintf(why, why_size, "it hung up, or did not log in in time");
			break;
		}
		if (step == RFB_SECURITY_STEP_READ) {
			size_t wants = rfb_security_wants(&conn->sec);
			if (wants > sizeof(in) || !ws_read_exact(conn, in, wants)) {
				snprintf(why, why_size, "it hung up, or did not log in in time");
				break;
			}
			gateway_guest_progressed(conn->guest);
			step = rfb_security_feed(&conn->sec, in, wants);
			memset(in, 0, wants);
		} else if (step == RFB_SECURITY_STEP_CHECK_PLAIN) {
			const char *reason = NULL;
			conn->sec.user[sizeof(conn->sec.user) - 1] = '\0';
			sock = gateway_guest_check_login(conn->guest, conn->sec.user,
				conn->sec.password, &flags, &reason);
			gnutls_memset(conn->sec.password, 0, sizeof(conn->sec.password));
			step = rfb_security_checked(&conn->sec, sock >= 0, reason);
		} else if (step == RFB_SECURITY_STEP_DONE) {
			/* SecurityResult is out: the WebSocket goes to the session too. */
			ok = gateway_vnc_hand_over(conn->guest, conn->tls, &conn->sec, sock,
				flags | HANDOVER_WEBSOCKET, pending_frames, conn, why, why_size);
			break;
		} else if (step == RFB_SECURITY_STEP_FAILED) {
			flush(conn);
			snprintf(why, why_size, "%s", conn->sec.error);
			break;
		} else {
			/* TLS inside TLS, or VncAuth: never offered. */
			step = rfb_security_checked(&conn->sec, false, "not offered");
		}
	}
	if (sock >= 0) {
		close(sock);
	}
	rfb_security_finish(&conn->sec);
	return ok;
}

/* https: a page, or a WebSocket that logs in. */
static void serve_tls(struct gateway_web *web, struct gateway_guest *guest) {
	struct web_conn *conn = calloc(1, sizeof(*conn));
	char why[384] = "";
	bool logged_in = false;
	if (!conn) {
		snprintf(why, sizeof(why), "out of memory");
		goto out;
	}
	conn->web = web;
	conn->guest = guest;
	conn->tls = gateway_guest_start_tls(guest, why, sizeof(why));
	if (!conn->tls) {
		goto out;
	}
	if (!read_request(conn)) {
		snprintf(why, sizeof(why), "no whole HTTP request over TLS in time");
		goto out;
	}
	if (vnc_http_is_plain_get(conn->request, conn->request_len)) {
		serve_page(conn);
		goto out;
	}
	int status = check_request(conn, true, why, sizeof(why));
	if (status) {
		respond_text(conn, status, why);
		goto out;
	}
	remember_browser(web, guest->host);
	if (!accept_upgrade(conn, why, sizeof(why))) {
		goto out;
	}
	logged_in = rfb_login(conn, why, sizeof(why));
out:
	if (logged_in) {
		gateway_log_debug("VNC: %s went to its session over WebSocket", guest->host);
	} else if (why[0] && !gateway_guest_refusal_logged(why)) {
		gateway_log("VNC: closing the browser connection from %s: %s", guest->host, why);
	}
	if (conn) {
		if (conn->tls) {
			gnutls_deinit(conn->tls);
		}
		gnutls_memset(conn, 0, sizeof(*conn));
		free(conn);
	}
	gateway_guest_done(guest);
}

/* http://: pages and logins only over https. */
static void refuse_http(struct gateway_guest *guest) {
	static const char body[] = "400 Bad Request: this port serves browsers over https "
		"only: open https:// with the same address and port\n";
	char answer[512];
	int n = snprintf(answer, sizeof(answer), "HTTP/1.1 400 Bad Request\r\n"
		"Content-Type: text/plain; charset=utf-8\r\nContent-Length: %zu\r\n"
		"Connection: close\r\n\r\n%s", sizeof(body) - 1, body);
	gateway_guest_send(guest, (const uint8_t *)answer, (size_t)n);
	shutdown(guest->fd, SHUT_WR);
	/* Unread bytes would make close() reset the connection, answer and all. */
	char drain[4096];
	for (int i = 0; i < 4 && recv(guest->fd, drain, sizeof(drain), MSG_DONTWAIT) > 0; i++) {
	}
	gateway_log_debug("VNC: %s asked over plain HTTP: told to use https", guest->host);
	gateway_guest_done(guest);
}

bool gateway_web_takes(struct gateway_web *web, struct gateway_guest *guest) {
	if (!web) {
		return false;
	}
	int silent_ms = is_browser(web, guest->host) ? BROWSER_SILENT_MS : SILENT_MS;
	struct pollfd p = { .fd = guest->fd, .events = POLLIN };
	int rc;
	do {
		rc = poll(&p, 1, silent_ms);
	} while (rc < 0 && errno == EINTR);
	uint8_t first;
	if (rc <= 0 || recv(guest->fd, &first, 1, MSG_PEEK | MSG_DONTWAIT) != 1) {
		return false; /* silent: a VNC viewer (or gone, which its login finds) */
	}
	gateway_guest_heard(guest);
	if (first == 0x16) {
		serve_tls(web, guest);
		return true;
	}
	if (first == 'G' || first == 'H' || first == 'P' || first == 'O') {
		refuse_http(guest);
		return true;
	}
	return false;
}
