/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
#include <wlr/util/log.h>
#include "remote/tcp_listen.h"
#include "remote/vnc/vnc_private.h"
#include "compositor/options.h"
#include "compositor/server.h"
#include "common/util.h"

/*
 * Listeners: oriel listens and accepts on every address itself; each new
 * connection becomes a guest (vnc_guest.c) until it has logged in.
 */

struct vnc_listener {
	struct vnc_server *vnc;
	int fd;
	char *unix_path; /* unlinked on finish */
	struct config_vnc_address address; /* TCP: as asked for, to stop it by */
	struct wl_event_source *source;
	struct wl_list link;
};

static struct wl_event_loop *loop_of(struct vnc_server *vnc) {
	return vnc->server->loop;
}

static int handle_listen_fd(int fd, uint32_t mask, void *data) {
	struct vnc_listener *listener = data;
	int conn = accept4(fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
	if (conn < 0) {
		if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
			wlr_log_errno(WLR_ERROR, "VNC: accept");
		}
		return 0;
	}
	vnc_guest_create(listener->vnc, conn, listener->unix_path != NULL);
	return 0;
}

/* Listening */

static bool add_listener(struct vnc_server *vnc, int fd, const char *unix_path,
		const struct config_vnc_address *address) {
	struct vnc_listener *listener = zalloc(sizeof(*listener));
	listener->vnc = vnc;
	listener->fd = fd;
	listener->unix_path = unix_path ? xstrdup(unix_path) : NULL;
	if (address) {
		listener->address = *address;
	}
	listener->source = wl_event_loop_add_fd(loop_of(vnc), fd, WL_EVENT_READABLE,
		handle_listen_fd, listener);
	wl_list_insert(vnc->listeners.prev, &listener->link);
	return listener->source != NULL;
}

static bool listen_tcp(struct vnc_server *vnc, const char *spec) {
	struct config_vnc_address address;
	if (!config_parse_vnc_address(spec, &address)) {
		wlr_log(WLR_ERROR, "VNC: bad listen address %s", spec);
		return false;
	}
	int fds[8];
	char error[256] = "";
	int n = remote_listen_tcp(spec, fds, 8, error, sizeof(error));
	if (error[0]) {
		wlr_log(WLR_ERROR, "VNC: %s", error);
	}
	for (int i = 0; i < n; i++) {
		add_listener(vnc, fds[i], NULL, &address);
	}
	if (n == 0) {
		return false;
	}
	wlr_log(WLR_INFO, "VNC: listening on %s:%d%s", address.host, address.port,
		vnc->http_dir ? " (RFB, WebSocket and HTTP)" : " (RFB and WebSocket)");
	return true;
}

static bool listen_unix(struct vnc_server *vnc, const char *path) {
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	if (strlen(path) >= sizeof(addr.sun_path)) {
		wlr_log(WLR_ERROR, "VNC: Unix socket path too long: %s", path);
		return false;
	}
	strcpy(addr.sun_path, path);
	struct stat st;
	if (lstat(path, &st) == 0 && S_ISSOCK(st.st_mode)) {
		unlink(path); /* a stale socket from an earlier run */
	}
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0) {
		return false;
	}
	/* Only our user may connect; viewers still log in as on loopback. */
	mode_t old_umask = umask(0077);
	bool ok = bind(fd, (struct sockaddr *)&addr, sizeof(addr)) == 0 && listen(fd, SOMAXCONN) == 0;
	umask(old_umask);
	if (!ok) {
		wlr_log_errno(WLR_ERROR, "VNC: cannot listen on %s", path);
		close(fd);
		return false;
	}
	add_listener(vnc, fd, path, NULL);
	wlr_log(WLR_INFO, "VNC: listening on Unix socket %s", path);
	return true;
}

static void listener_destroy(struct vnc_listener *listener) {
	if (listener->source) {
		wl_event_source_remove(listener->source);
	}
	close(listener->fd);
	if (listener->unix_path) {
		unlink(listener->unix_path);
		free(listener->unix_path);
	}
	wl_list_remove(&listener->link);
	free(listener);
}

static bool listener_matches(const struct vnc_listener *listener, const char *spec,
		const struct config_vnc_address *address) {
	if (spec[0] == '/') {
		return listener->unix_path && strcmp(listener->unix_path, spec) == 0;
	}
	return !listener->unix_path && listener->address.port == address->port &&
		strcmp(listener->address.host, address->host) == 0;
}

int vnc_listen_start(struct vnc_server *vnc, const char *spec, char *error,
		size_t error_size) {
	struct config_vnc_address address = {0};
	bool is_unix = spec[0] == '/';
	if (!is_unix && !config_parse_vnc_address(spec, &address)) {
		snprintf(error, error_size, "bad VNC address (want [ADDR:]PORT or /PATH)");
		return -EINVAL;
	}
	struct vnc_listener *listener;
	wl_list_for_each(listener, &vnc->listeners, link) {
		if (listener_matches(listener, spec, &address)) {
			snprintf(error, error_size, "already listening there");
			return -EEXIST;
		}
	}
	/* The security model, as for --vnc (options.c). */
	if (!is_unix && !config_vnc_address_is_loopback(&address) && !vnc->accounts &&
			!(vnc->options->insecure && vnc->passwords)) {
		snprintf(error, error_size, "refusing to serve VNC on %s without accounts: it is "
			"not a loopback address; start oriel with --vnc-users FILE or --vnc-pam",
			address.host);
		return -EPERM;
	}
	if (!(is_unix ? listen_unix(vnc, spec) : listen_tcp(vnc, spec))) {
		snprintf(error, error_size, "cannot listen there (oriel's log says why)");
		return -EADDRNOTAVAIL;
	}
	return 0;
}

int vnc_listen_stop(struct vnc_server *vnc, const char *spec) {
	struct config_vnc_address address = {0};
	if (spec[0] != '/' && !config_parse_vnc_address(spec, &address)) {
		return -EINVAL;
	}
	int n = 0;
	struct vnc_listener *listener, *tmp;
	wl_list_for_each_safe(listener, tmp, &vnc->listeners, link) {
		if (listener_matches(listener, spec, &address)) {
			listener_destroy(listener);
			n++;
		}
	}
	if (n == 0) {
		return -ENOENT;
	}
	wlr_log(WLR_INFO, "VNC: stopped listening on %s (viewers stay connected)", spec);
	return 0;
}

void vnc_listen_init_http(struct vnc_server *vnc) {
	const char *http = vnc->options->http;
	if (vnc->http_dir) {
		return;
	}
	if (!http) {
		struct stat st;
		if (stat("/usr/share/novnc/vnc.html", &st) == 0) {
			vnc->http_dir = xstrdup("/usr/share/novnc");
		}
	} else if (strcmp(http, "none") != 0) {
		vnc->http_dir = xstrdup(http);
	}
}

bool vnc_listen_init(struct vnc_server *vnc) {
	const struct options_vnc *options = vnc->options;
	vnc_listen_init_http(vnc);
	for (int i = 0; i < options->n_listen; i++) {
		if (!listen_tcp(vnc, options->listen[i])) {
			return false;
		}
	}
	for (int i = 0; i < options->n_unix; i++) {
		if (!listen_unix(vnc, options->unix_paths[i])) {
			return false;
		}
	}
	return true;
}

void vnc_listen_finish(struct vnc_server *vnc) {
	struct vnc_listener *listener, *tmp;
	wl_list_for_each_safe(listener, tmp, &vnc->listeners, link) {
		listener_destroy(listener);
	}
	vnc_guests_finish(vnc);
	free(vnc->http_dir);
	vnc->http_dir = NULL;
}
