/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "remote/tcp_listen.h"
#include "common/address_spec.h"

int remote_listen_tcp(const char *spec, int *fds, int max, char *error, size_t error_size) {
	struct address_spec address;
	if (error_size > 0) {
		error[0] = '\0';
	}
	if (!address_spec_parse(spec, &address)) {
		snprintf(error, error_size, "bad listen address %s (want [ADDR:]PORT)", spec);
		return 0;
	}
	char port[16];
	snprintf(port, sizeof(port), "%d", address.port);
	struct addrinfo hints = {
		.ai_family = AF_UNSPEC,
		.ai_socktype = SOCK_STREAM,
		.ai_flags = AI_PASSIVE | AI_NUMERICSERV,
	};
	struct addrinfo *result;
	int err = getaddrinfo(address.host, port, &hints, &result);
	if (err != 0) {
		snprintf(error, error_size, "cannot resolve %s: %s", address.host,
			gai_strerror(err));
		return 0;
	}
	int n = 0;
	for (struct addrinfo *ai = result; ai && n < max; ai = ai->ai_next) {
		int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK,
			ai->ai_protocol);
		if (fd < 0) {
			snprintf(error, error_size, "socket for %s: %s", spec, strerror(errno));
			continue;
		}
		int one = 1;
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (ai->ai_family == AF_INET6) {
			setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
		}
		if (bind(fd, ai->ai_addr, ai->ai_addrlen) < 0 || listen(fd, SOMAXCONN) < 0) {
			snprintf(error, error_size, "cannot listen on %s: %s", spec, strerror(errno));
			close(fd);
			continue;
		}
		fds[n++] = fd;
	}
	freeaddrinfo(result);
	return n;
}
