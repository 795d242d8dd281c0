/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
#include <wlr/util/log.h>
#include "remote/listener_set.h"
#include "remote/tcp_listen.h"
#include "common/address_spec.h"
#include "common/util.h"

/*
 * oriel listens and accepts itself, on every address; the server makes
 * each connection a guest until it has logged in.
 */

struct listener {
	struct listener_set *set;
	int fd;
	char *unix_path; /* unlinked on destroy */
	struct address_spec address; /* TCP: as asked for, to stop it by */
	struct wl_event_source *source;
	struct wl_list link;
};

static int handle_listen_fd(int fd, uint32_t mask, void *data) {
	struct listener *listener = data;
	struct listener_set *set = listener->set;
	int conn = accept4(fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
	if (conn < 0) {
		if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
			wlr_log_errno(WLR_ERROR, "%s: accept", set->impl->name);
		}
		return 0;
	}
	set->impl->accept(set->data, conn, listener->unix_path != NULL);
	return 0;
}

static void add_listener(struct listener_set *set, int fd, const char *unix_path,
		const struct address_spec *address) {
	struct listener *listener = zalloc(sizeof(*listener));
	listener->set = set;
	listener->fd = fd;
	listener->unix_path = unix_path ? xstrdup(unix_path) : NULL;
	if (address) {
		listener->address = *address;
	}
	listener->source = wl_event_loop_add_fd(set->loop, fd, WL_EVENT_READABLE,
		handle_listen_fd, listener);
	wl_list_insert(set->listeners.prev, &listener->link);
}

static void listener_destroy(struct listener *listener) {
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

static bool listener_matches(const struct listener *listener, const char *spec,
		const struct address_spec *address) {
	if (spec[0] == '/') {
		return listener->unix_path && strcmp(listener->unix_path, spec) == 0;
	}
	return !listener->unix_path && listener->address.port == address->port &&
		strcmp(listener->address.host, address->host) == 0;
}

static bool may_listen_on(struct listener_set *set, const struct address_spec *address) {
	return address_spec_is_loopback(address) || set->impl->beyond_loopback(set->data);
}

static bool listen_tcp(struct listener_set *set, const char *spec) {
	const char *name = set->impl->name;
	struct address_spec address;
	if (!address_spec_parse(spec, &address)) {
		wlr_log(WLR_ERROR, "%s: bad listen address %s", name, spec);
		return false;
	}
	if (!may_listen_on(set, &address)) {
		wlr_log(WLR_ERROR, "%s: refusing %s without accounts (not loopback)", name, spec);
		return false;
	}
	int fds[8];
	char error[256] = "";
	int n = remote_listen_tcp(spec, fds, 8, error, sizeof(error));
	if (error[0]) {
		wlr_log(WLR_ERROR, "%s: %s", name, error);
	}
	for (int i = 0; i < n; i++) {
		add_listener(set, fds[i], NULL, &address);
	}
	if (n == 0) {
		return false;
	}
	const char *note = set->impl->tcp_note ? set->impl->tcp_note(set->data) : "";
	wlr_log(WLR_INFO, "%s: listening on %s:%d%s", name, address.host, address.port, note);
	return true;
}

static bool listen_unix(struct listener_set *set, const char *path) {
	const char *name = set->impl->name;
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	if (strlen(path) >= sizeof(addr.sun_path)) {
		wlr_log(WLR_ERROR, "%s: Unix socket path too long: %s", name, path);
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
	/* Only our user may connect; clients still log in as on loopback. */
	mode_t old_umask = umask(0077);
	bool ok = bind(fd, (struct sockaddr *)&addr, sizeof(addr)) == 0 && listen(fd, SOMAXCONN) == 0;
	umask(old_umask);
	if (!ok) {
		wlr_log_errno(WLR_ERROR, "%s: cannot listen on %s", name, path);
		close(fd);
		return false;
	}
	add_listener(set, fd, path, NULL);
	wlr_log(WLR_INFO, "%s: listening on Unix socket %s", name, path);
	return true;
}

void listener_set_init(struct listener_set *set, struct wl_event_loop *loop,
		const struct listener_set_impl *impl, void *data) {
	*set = (struct listener_set){ .loop = loop, .impl = impl, .data = data };
	wl_list_init(&set->listeners);
}

bool listener_set_open(struct listener_set *set, const char *spec) {
	if (set->impl->unix_sockets && spec[0] == '/') {
		return listen_unix(set, spec);
	}
	return listen_tcp(set, spec);
}

int listener_set_start(struct listener_set *set, const char *spec, char *error,
		size_t error_size) {
	const struct listener_set_impl *impl = set->impl;
	struct address_spec address = {0};
	bool is_unix = impl->unix_sockets && spec[0] == '/';
	if (!is_unix && !address_spec_parse(spec, &address)) {
		snprintf(error, error_size, "bad %s address (want [ADDR:]PORT%s)", impl->name,
			impl->unix_sockets ? " or /PATH" : "");
		return -EINVAL;
	}
	struct listener *listener;
	wl_list_for_each(listener, &set->listeners, link) {
		if (listener_matches(listener, spec, &address)) {
			snprintf(error, error_size, "already listening there");
			return -EEXIST;
		}
	}
	/* The security model, as for the command line (options.c). */
	if (!is_unix && !may_listen_on(set, &address)) {
		snprintf(error, error_size, "refusing to serve %s on %s without accounts: it is "
			"not a loopback address; start oriel with --%s-users FILE or --%s-pam",
			impl->name, address.host, impl->option, impl->option);
		return -EPERM;
	}
	if (!listener_set_open(set, spec)) {
		snprintf(error, error_size, "cannot listen there (oriel's log says why)");
		return -EADDRNOTAVAIL;
	}
	return 0;
}

int listener_set_stop(struct listener_set *set, const char *spec) {
	struct address_spec address = {0};
	bool is_unix = set->impl->unix_sockets && spec[0] == '/';
	if (!is_unix && !address_spec_parse(spec, &address)) {
		return -EINVAL;
	}
	int n = 0;
	struct listener *listener, *tmp;
	wl_list_for_each_safe(listener, tmp, &set->listeners, link) {
		if (listener_matches(listener, spec, &address)) {
			listener_destroy(listener);
			n++;
		}
	}
	if (n == 0) {
		return -ENOENT;
	}
	wlr_log(WLR_INFO, "%s: stopped listening on %s (%s stay connected)", set->impl->name,
		spec, set->impl->clients);
	return 0;
}

void listener_set_finish(struct listener_set *set) {
	struct listener *listener, *tmp;
	wl_list_for_each_safe(listener, tmp, &set->listeners, link) {
		listener_destroy(listener);
	}
}
