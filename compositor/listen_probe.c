/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include "common/address_spec.h"
#include "compositor/config.h"
#include "compositor/listen_probe.h"
#include "compositor/startup_error.h"

int listen_probe_tcp(const char *host, int port) {
	char service[16];
	snprintf(service, sizeof(service), "%d", port);
	struct addrinfo hints = {
		.ai_socktype = SOCK_STREAM,
		.ai_flags = AI_PASSIVE | AI_NUMERICHOST | AI_NUMERICSERV,
	}, *list;
	if (getaddrinfo(host, service, &hints, &list) != 0) {
		hints.ai_flags &= ~AI_NUMERICHOST;
		if (getaddrinfo(host, service, &hints, &list) != 0) {
			return -EADDRNOTAVAIL;
		}
	}
	int result = 0;
	for (struct addrinfo *ai = list; ai && result == 0; ai = ai->ai_next) {
		int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
		if (fd < 0) {
			result = -errno;
			break;
		}
		int one = 1;
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (bind(fd, ai->ai_addr, ai->ai_addrlen) < 0) {
			result = -errno;
		}
		close(fd);
	}
	freeaddrinfo(list);
	return result;
}

int listen_probe_unix(const char *path) {
	struct sockaddr_un addr = {.sun_family = AF_UNIX};
	if (strlen(path) >= sizeof(addr.sun_path)) {
		return -ENAMETOOLONG;
	}
	strcpy(addr.sun_path, path);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		return -errno;
	}
	int result = connect(fd, (struct sockaddr *)&addr, sizeof(addr)) == 0 ?
		-EADDRINUSE : 0;
	close(fd);
	return result;
}

void listen_probe_explain_vnc(const struct options_vnc *vnc) {
	for (int i = 0; i < vnc->n_listen; i++) {
		struct address_spec address;
		if (!address_spec_parse(vnc->listen[i], &address)) {
			continue;
		}
		switch (-listen_probe_tcp(address.host, address.port)) {
		case 0:
			break;
		case EADDRINUSE:
			startup_error("port %d is in use; pick another --vnc port", address.port);
			return;
		case EADDRNOTAVAIL:
			startup_error("%s is not an address of this machine; "
				"pick another --vnc address", address.host);
			return;
		case EACCES:
			startup_error("port %d needs privileges; pick a --vnc port above 1023",
				address.port);
			return;
		default:
			startup_error("cannot listen on %s; pick another --vnc address",
				vnc->listen[i]);
			return;
		}
	}
	for (int i = 0; i < vnc->n_unix; i++) {
		if (listen_probe_unix(vnc->unix_paths[i]) == -EADDRINUSE) {
			startup_error("%s is in use by another server; "
				"pick another --vnc-unix path", vnc->unix_paths[i]);
			return;
		}
	}
	startup_error("cannot start the VNC server; see the messages above");
}
