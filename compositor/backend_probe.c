/* SPDX-License-Identifier: MIT */
#include <glob.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include "compositor/backend_probe.h"

static bool have_glob(const char *pattern) {
	glob_t found;
	bool any = glob(pattern, 0, NULL, &found) == 0 && found.gl_pathc > 0;
	globfree(&found);
	return any;
}

/* path with a leading '@' is abstract. */
static bool unix_connects(const char *path) {
	struct sockaddr_un addr = {.sun_family = AF_UNIX};
	size_t len = strlen(path);
	if (len == 0 || len >= sizeof(addr.sun_path)) {
		return false;
	}
	memcpy(addr.sun_path, path, len);
	socklen_t size = offsetof(struct sockaddr_un, sun_path) + len;
	if (path[0] == '@') {
		addr.sun_path[0] = '\0';
	} else {
		size++;
	}
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		return false;
	}
	bool ok = connect(fd, (struct sockaddr *)&addr, size) == 0;
	close(fd);
	return ok;
}

static bool tcp_connects(const char *host, int port) {
	char service[16];
	snprintf(service, sizeof(service), "%d", port);
	struct addrinfo hints = {.ai_socktype = SOCK_STREAM}, *list;
	if (getaddrinfo(host, service, &hints, &list) != 0) {
		return false;
	}
	bool ok = false;
	for (struct addrinfo *ai = list; ai && !ok; ai = ai->ai_next) {
		int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
		if (fd >= 0) {
			ok = connect(fd, ai->ai_addr, ai->ai_addrlen) == 0;
			close(fd);
		}
	}
	freeaddrinfo(list);
	return ok;
}

bool backend_probe_wayland(void) {
	const char *fd = getenv("WAYLAND_SOCKET");
	if (fd && fd[0]) {
		return true;
	}
	const char *name = getenv("WAYLAND_DISPLAY");
	if (!name || !name[0]) {
		name = "wayland-0";
	}
	if (name[0] == '/') {
		return unix_connects(name);
	}
	const char *runtime = getenv("XDG_RUNTIME_DIR");
	if (!runtime || !runtime[0]) {
		return false;
	}
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", runtime, name);
	return unix_connects(path);
}

/* DISPLAY is [host][/unix]:N[.S]; an empty host or "unix" is local. */
bool backend_probe_x11(void) {
	const char *display = getenv("DISPLAY");
	if (!display || !display[0]) {
		return false;
	}
	const char *colon = strrchr(display, ':');
	if (!colon || colon[1] < '0' || colon[1] > '9') {
		return false;
	}
	int number = atoi(colon + 1);
	char host[256];
	size_t host_len = (size_t)(colon - display);
	if (host_len >= sizeof(host)) {
		return false;
	}
	memcpy(host, display, host_len);
	host[host_len] = '\0';
	if (host_len > 0 && strcmp(host, "unix") != 0) {
		return tcp_connects(host, 6000 + number);
	}
	char path[64];
	snprintf(path, sizeof(path), "@/tmp/.X11-unix/X%d", number);
	return unix_connects(path) || unix_connects(path + 1);
}

bool backend_probe_kms(void) {
	return have_glob("/dev/dri/card[0-9]*");
}

bool backend_probe_gpu(void) {
	return have_glob("/dev/dri/renderD[0-9]*") || backend_probe_kms();
}
