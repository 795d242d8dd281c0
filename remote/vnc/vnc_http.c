/* SPDX-License-Identifier: MIT */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>
#include <wlr/util/log.h>
#include "remote/vnc/vnc_http_origin.h"
#include "remote/vnc/vnc_http_request.h"
#include "remote/vnc/vnc_http_response.h"
#include "remote/vnc/vnc_private.h"
#include "compositor/options.h"
#include "compositor/server.h"
#include "compositor/startup_error.h"
#include "common/util.h"

/*
 * A small static file server for noVNC on the VNC port. libvncserver's own
 * httpd needs a separate port and serves one connection at a time (it
 * closes the previous one on accept), which breaks a browser loading
 * noVNC's ~50 ES modules in parallel. This one is non-blocking, serves
 * GET/HEAD of regular files under the directory, and closes after each
 * response.
 *
 * It answers only requests whose Host names this server, and WebSocket
 * upgrades from its own pages (vnc_http_origin.h): a web page elsewhere
 * must not drive the session through the user's browser.
 */

#define HTTP_MAX_CONNS 32
#define HTTP_MAX_REQUEST 8192
#define HTTP_MAX_FILE (32 * 1024 * 1024)
#define HTTP_TIMEOUT_MS 10000

struct vnc_http_conn {
	struct vnc_server *vnc;
	int fd;
	struct tls_stream *tls; /* https; NULL: http */
	struct wl_event_source *source;
	struct wl_event_source *timer;
	char request[HTTP_MAX_REQUEST + 1];
	size_t request_len;
	char *out;
	size_t out_len, out_pos;
	struct wl_list link;
};

/* One of this machine's addresses, any interface (the site's last resort). */
static bool is_local_address(const char *host, void *data) {
	struct ifaddrs *list;
	if (getifaddrs(&list) < 0) {
		return false;
	}
	bool found = false;
	for (struct ifaddrs *ifa = list; ifa && !found; ifa = ifa->ifa_next) {
		char name[VNC_HTTP_HOST_MAX];
		found = ifa->ifa_addr && vnc_http_address_host(ifa->ifa_addr, name) &&
			strcmp(name, host) == 0;
	}
	freeifaddrs(list);
	return found;
}

/*
 * Checks a request that came on fd: 0, or the status to refuse it with
 * and why. The names it may give are "localhost", the address it came to,
 * this host's name, --vnc-allow-host's, then every local address.
 */
static int check_request(struct vnc_server *vnc, int fd, bool tls, bool upgrade,
		const char *request, char *why, size_t why_size) {
	char listener[VNC_HTTP_HOST_MAX], hostname[VNC_HTTP_HOST_MAX + 1] = {0};
	const char *hosts[3 + CONFIG_MAX_VNC_ALLOW_WEB];
	size_t n = 0;
	hosts[n++] = "localhost";
	struct sockaddr_storage addr;
	socklen_t len = sizeof(addr);
	if (getsockname(fd, (struct sockaddr *)&addr, &len) == 0 &&
			vnc_http_address_host((struct sockaddr *)&addr, listener)) {
		hosts[n++] = listener;
	}
	char host_name[VNC_HTTP_HOST_MAX];
	if (gethostname(hostname, sizeof(hostname) - 1) == 0 &&
			vnc_http_normalise_host(hostname, host_name)) {
		hosts[n++] = host_name;
	}
	for (size_t i = 0; i < vnc->n_http_hosts; i++) {
		hosts[n++] = vnc->http_hosts[i];
	}
	struct vnc_http_site site = {
		.tls = tls,
		.upgrade = upgrade,
		.hosts = hosts,
		.n_hosts = n,
		.origins = (const char *const *)vnc->http_origins,
		.n_origins = vnc->n_http_origins,
		.is_local_address = is_local_address,
	};
	return vnc_http_check(request, &site, why, why_size);
}

/* The whole answer to a refused request, with why in its body. */
static size_t format_refusal(int status, const char *why, char *out, size_t size) {
	char body[512];
	int body_len = snprintf(body, sizeof(body), "%d %s: %s\n", status,
		vnc_http_status_reason(status), why);
	if (body_len < 0 || (size_t)body_len >= sizeof(body)) {
		body_len = (int)strlen(body);
	}
	int n = snprintf(out, size, "HTTP/1.1 %d %s\r\nContent-Type: text/plain; "
		"charset=utf-8\r\nContent-Length: %d\r\nCache-Control: no-cache\r\n"
		"Connection: close\r\n\r\n%s", status, vnc_http_status_reason(status), body_len, body);
	return n < 0 ? 0 : (size_t)n < size ? (size_t)n : size - 1;
}

bool vnc_http_init(struct vnc_server *vnc) {
	const struct options_vnc *options = vnc->options;
	vnc->http_hosts = zalloc(sizeof(char *) * (options->n_allow_hosts + 1));
	vnc->http_origins = zalloc(sizeof(char *) * (options->n_allow_origins + 1));
	for (int i = 0; i < options->n_allow_hosts; i++) {
		char host[VNC_HTTP_HOST_MAX];
		if (!vnc_http_normalise_host(options->allow_hosts[i], host)) {
			startup_error("--vnc-allow-host %s: not a host name or address "
				"(e.g. vnc.example.org or 192.0.2.7)", options->allow_hosts[i]);
			return false;
		}
		vnc->http_hosts[vnc->n_http_hosts++] = xstrdup(host);
	}
	for (int i = 0; i < options->n_allow_origins; i++) {
		char origin[VNC_HTTP_ORIGIN_MAX];
		if (!vnc_http_normalise_origin(options->allow_origins[i], origin)) {
			startup_error("--vnc-allow-origin %s: not an origin "
				"(http:// or https://, a host and perhaps a port, no path)",
				options->allow_origins[i]);
			return false;
		}
		vnc->http_origins[vnc->n_http_origins++] = xstrdup(origin);
	}
	return true;
}

bool vnc_http_upgrade_allowed(struct vnc_server *vnc, int fd, gnutls_session_t tls,
		const char *request, char *why, size_t why_size) {
	int status = check_request(vnc, fd, tls != NULL, true, request, why, why_size);
	if (status == 0) {
		return true;
	}
	char answer[1024];
	size_t len = format_refusal(status, why, answer, sizeof(answer));
	/* Small, on a fresh socket: it fits in the send buffer at once. */
	if (tls) {
		gnutls_record_send(tls, answer, len);
		gnutls_bye(tls, GNUTLS_SHUT_WR);
	} else {
		send(fd, answer, len, MSG_NOSIGNAL | MSG_DONTWAIT);
		shutdown(fd, SHUT_WR);
	}
	/* Unread bytes would make close() reset the connection, answer and all. */
	char drain[4096];
	for (int i = 0; i < 16 && recv(fd, drain, sizeof(drain), MSG_DONTWAIT) > 0; i++) {
	}
	return false;
}

static void conn_destroy(struct vnc_http_conn *conn) {
	wl_event_source_remove(conn->source);
	wl_event_source_remove(conn->timer);
	tls_stream_destroy(conn->tls);
	close(conn->fd);
	wl_list_remove(&conn->link);
	free(conn->out);
	free(conn);
}

static void respond(struct vnc_http_conn *conn, int status, const char *reason,
		const char *type, const char *body, size_t body_len, bool head) {
	char header[512];
	int n = vnc_http_format_header(header, sizeof(header), status, reason, type, body_len);
	if (n < 0) {
		conn->out_len = 0;
		return;
	}
	size_t total = (size_t)n + (head ? 0 : body_len);
	conn->out = malloc(total);
	if (!conn->out) {
		conn->out_len = 0;
		return;
	}
	memcpy(conn->out, header, (size_t)n);
	if (!head && body_len) {
		memcpy(conn->out + n, body, body_len);
	}
	conn->out_len = total;
}

static void respond_error(struct vnc_http_conn *conn, int status, const char *reason) {
	char body[128];
	int n = snprintf(body, sizeof(body), "%d %s\n", status, reason);
	respond(conn, status, reason, "text/plain; charset=utf-8", body, (size_t)n, false);
}

static char *read_file(const char *path, size_t *len) {
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		return NULL;
	}
	struct stat st;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size > HTTP_MAX_FILE) {
		close(fd);
		return NULL;
	}
	char *data = malloc(st.st_size ? (size_t)st.st_size : 1);
	size_t got = 0;
	while (data && got < (size_t)st.st_size) {
		ssize_t n = read(fd, data + got, (size_t)st.st_size - got);
		if (n <= 0) {
			free(data);
			data = NULL;
			break;
		}
		got += (size_t)n;
	}
	close(fd);
	*len = got;
	return data;
}

static void handle_request(struct vnc_http_conn *conn) {
	char why[384];
	int status = check_request(conn->vnc, conn->fd, conn->tls != NULL, false, conn->request,
		why, sizeof(why));
	if (status) {
		char peer[VNC_HTTP_HOST_MAX] = "unix";
		struct sockaddr_storage addr;
		socklen_t len = sizeof(addr);
		if (getpeername(conn->fd, (struct sockaddr *)&addr, &len) == 0 &&
				addr.ss_family != AF_UNIX && !vnc_http_address_host((struct sockaddr *)&addr, peer)) {
			snprintf(peer, sizeof(peer), "?");
		}
		wlr_log(WLR_INFO, "VNC: refusing a page to %s: %s", peer, why);
		char answer[1024];
		size_t n = format_refusal(status, why, answer, sizeof(answer));
		conn->out = xstrdup(answer);
		conn->out_len = n;
		return;
	}
	bool head;
	char path[VNC_HTTP_PATH_MAX];
	switch (vnc_http_parse_request(conn->request, &head, path)) {
	case 0:
		break;
	case 405:
		respond_error(conn, 405, "Method Not Allowed");
		return;
	case 400:
		respond_error(conn, 400, "Bad Request");
		return;
	default:
		respond_error(conn, 404, "Not Found");
		return;
	}
	char full[2048];
	snprintf(full, sizeof(full), "%s%s", conn->vnc->http_dir, path);
	size_t len = 0;
	char *data = read_file(full, &len);
	if (!data) {
		respond_error(conn, 404, "Not Found");
		return;
	}
	respond(conn, 200, "OK", vnc_http_content_type(path), data, len, head);
	free(data);
}

static int handle_conn_fd(int fd, uint32_t mask, void *data) {
	struct vnc_http_conn *conn = data;
	if (mask & (WL_EVENT_HANGUP | WL_EVENT_ERROR) && !(mask & WL_EVENT_READABLE)) {
		conn_destroy(conn);
		return 0;
	}
	if (!conn->out) {
		ssize_t n = read(fd, conn->request + conn->request_len,
			HTTP_MAX_REQUEST - conn->request_len);
		if (n <= 0) {
			if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
				return 0;
			}
			conn_destroy(conn);
			return 0;
		}
		conn->request_len += (size_t)n;
		conn->request[conn->request_len] = '\0';
		if (!strstr(conn->request, "\r\n\r\n") && !strstr(conn->request, "\n\n")) {
			if (conn->request_len == HTTP_MAX_REQUEST) {
				conn_destroy(conn);
			}
			return 0;
		}
		handle_request(conn);
		if (!conn->out) {
			conn_destroy(conn);
			return 0;
		}
		/* The rest of the request (a body we ignore) is not read. */
		wl_event_source_fd_update(conn->source, WL_EVENT_WRITABLE);
		return 0;
	}
	while (conn->out_pos < conn->out_len) {
		const char *rest = conn->out + conn->out_pos;
		size_t rest_len = conn->out_len - conn->out_pos;
		/* A record the socket took only in part is sent again whole, as it was. */
		ssize_t n = conn->tls ? tls_stream_send(conn->tls, rest, rest_len) :
			send(fd, rest, rest_len, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR) {
				return 0;
			}
			conn_destroy(conn);
			return 0;
		}
		conn->out_pos += (size_t)n;
	}
	shutdown(fd, SHUT_WR);
	conn_destroy(conn);
	return 0;
}

static int handle_conn_timer(void *data) {
	conn_destroy(data);
	return 0;
}

static struct vnc_http_conn *conn_create(struct vnc_server *vnc, int fd, uint32_t mask) {
	if (wl_list_length(&vnc->http_conns) >= HTTP_MAX_CONNS) {
		return NULL;
	}
	struct vnc_http_conn *conn = zalloc(sizeof(*conn));
	conn->vnc = vnc;
	conn->fd = fd;
	conn->source = wl_event_loop_add_fd(vnc->server->loop, fd, mask, handle_conn_fd, conn);
	conn->timer = wl_event_loop_add_timer(vnc->server->loop, handle_conn_timer, conn);
	wl_event_source_timer_update(conn->timer, HTTP_TIMEOUT_MS);
	wl_list_insert(&vnc->http_conns, &conn->link);
	return conn;
}

void vnc_http_start(struct vnc_server *vnc, int fd) {
	if (!conn_create(vnc, fd, WL_EVENT_READABLE)) {
		close(fd);
	}
}

void vnc_http_start_tls(struct vnc_server *vnc, int fd, struct tls_stream *tls,
		const char *request) {
	struct vnc_http_conn *conn = conn_create(vnc, fd, WL_EVENT_WRITABLE);
	if (!conn) {
		tls_stream_destroy(tls);
		close(fd);
		return;
	}
	conn->tls = tls;
	snprintf(conn->request, sizeof(conn->request), "%s", request);
	conn->request_len = strlen(conn->request);
	handle_request(conn);
	if (!conn->out) {
		conn_destroy(conn);
	}
}

void vnc_http_finish(struct vnc_server *vnc) {
	struct vnc_http_conn *conn, *tmp;
	wl_list_for_each_safe(conn, tmp, &vnc->http_conns, link) {
		conn_destroy(conn);
	}
	for (size_t i = 0; i < vnc->n_http_hosts; i++) {
		free(vnc->http_hosts[i]);
	}
	for (size_t i = 0; i < vnc->n_http_origins; i++) {
		free(vnc->http_origins[i]);
	}
	free(vnc->http_hosts);
	free(vnc->http_origins);
	vnc->http_hosts = vnc->http_origins = NULL;
	vnc->n_http_hosts = vnc->n_http_origins = 0;
}
