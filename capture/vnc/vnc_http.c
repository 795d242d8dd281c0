/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>
#include <wlr/util/log.h>
#include "capture/vnc/vnc_http_request.h"
#include "capture/vnc/vnc_private.h"
#include "compositor/server.h"
#include "compositor/util.h"

/*
 * A small static file server for noVNC on the VNC port. libvncserver's own
 * httpd needs a separate port and serves one connection at a time (it
 * closes the previous one on accept), which breaks a browser loading
 * noVNC's ~50 ES modules in parallel. This one is non-blocking, serves
 * GET/HEAD of regular files under the directory, and closes after each
 * response.
 */

#define HTTP_MAX_CONNS 32
#define HTTP_MAX_REQUEST 8192
#define HTTP_MAX_FILE (32 * 1024 * 1024)
#define HTTP_TIMEOUT_MS 10000

struct vnc_http_conn {
	struct vnc_server *vnc;
	int fd;
	struct wl_event_source *source;
	struct wl_event_source *timer;
	char request[HTTP_MAX_REQUEST + 1];
	size_t request_len;
	char *out;
	size_t out_len, out_pos;
	struct wl_list link;
};

static void conn_destroy(struct vnc_http_conn *conn) {
	wl_event_source_remove(conn->source);
	wl_event_source_remove(conn->timer);
	close(conn->fd);
	wl_list_remove(&conn->link);
	free(conn->out);
	free(conn);
}

static const char *content_type(const char *path) {
	static const struct { const char *ext, *type; } types[] = {
		{ ".html", "text/html; charset=utf-8" },
		{ ".js", "text/javascript; charset=utf-8" },
		{ ".css", "text/css; charset=utf-8" },
		{ ".json", "application/json" },
		{ ".svg", "image/svg+xml" },
		{ ".png", "image/png" },
		{ ".ico", "image/x-icon" },
		{ ".woff", "font/woff" },
		{ ".woff2", "font/woff2" },
		{ ".ttf", "font/ttf" },
		{ ".oga", "audio/ogg" },
		{ ".mp3", "audio/mpeg" },
		{ ".txt", "text/plain; charset=utf-8" },
	};
	const char *dot = strrchr(path, '.');
	for (size_t i = 0; dot && i < ARRAY_LEN(types); i++) {
		if (strcasecmp(dot, types[i].ext) == 0) {
			return types[i].type;
		}
	}
	return "application/octet-stream";
}

static void respond(struct vnc_http_conn *conn, int status, const char *reason,
		const char *type, const char *body, size_t body_len, bool head) {
	char header[512];
	int n = snprintf(header, sizeof(header),
		"HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n"
		"Cache-Control: no-cache\r\nX-Content-Type-Options: nosniff\r\n"
		"Connection: close\r\n\r\n", status, reason, type, body_len);
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
	respond(conn, 200, "OK", content_type(path), data, len, head);
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
		ssize_t n = send(fd, conn->out + conn->out_pos, conn->out_len - conn->out_pos,
			MSG_NOSIGNAL | MSG_DONTWAIT);
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

void vnc_http_start(struct vnc_server *vnc, int fd) {
	if (wl_list_length(&vnc->http_conns) >= HTTP_MAX_CONNS) {
		close(fd);
		return;
	}
	struct vnc_http_conn *conn = zalloc(sizeof(*conn));
	conn->vnc = vnc;
	conn->fd = fd;
	conn->source = wl_event_loop_add_fd(vnc->server->loop, fd, WL_EVENT_READABLE,
		handle_conn_fd, conn);
	conn->timer = wl_event_loop_add_timer(vnc->server->loop, handle_conn_timer, conn);
	wl_event_source_timer_update(conn->timer, HTTP_TIMEOUT_MS);
	wl_list_insert(&vnc->http_conns, &conn->link);
}

void vnc_http_finish(struct vnc_server *vnc) {
	struct vnc_http_conn *conn, *tmp;
	wl_list_for_each_safe(conn, tmp, &vnc->http_conns, link) {
		conn_destroy(conn);
	}
}
