/* SPDX-License-Identifier: MIT */
/*
 * Unit tests for common/peer_address.c: the numeric address of a TCP
 * peer over IPv4 and IPv6 loopback, a Unix socket told apart, and none
 * for a socket with no peer or a buffer too small.
 */

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "common/peer_address.h"
#include "tests/unit/expect.h"

/* A connection to a loopback listener of family; the accepted end, or -1. */
static int accepted_from(int family, int *client) {
	struct sockaddr_storage addr = { .ss_family = (sa_family_t)family };
	socklen_t len = family == AF_INET ? sizeof(struct sockaddr_in) :
		sizeof(struct sockaddr_in6);
	if (family == AF_INET) {
		((struct sockaddr_in *)&addr)->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	} else {
		((struct sockaddr_in6 *)&addr)->sin6_addr = in6addr_loopback;
	}
	int listener = socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	*client = socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	int conn = -1;
	if (listener >= 0 && *client >= 0 &&
			bind(listener, (struct sockaddr *)&addr, len) == 0 &&
			listen(listener, 1) == 0 &&
			getsockname(listener, (struct sockaddr *)&addr, &len) == 0 &&
			connect(*client, (struct sockaddr *)&addr, len) == 0) {
		conn = accept(listener, NULL, NULL);
	}
	if (listener >= 0) {
		close(listener);
	}
	return conn;
}

static void test_tcp(int family, const char *expected) {
	int client = -1;
	int conn = accepted_from(family, &client);
	if (conn < 0) {
		/* A host without IPv6 on loopback: nothing to test there. */
		EXPECT(family == AF_INET6, "no loopback connection: %s", strerror(errno));
		if (client >= 0) {
			close(client);
		}
		return;
	}
	char host[64] = "unchanged";
	EXPECT(peer_address(conn, host, sizeof(host)) == PEER_ADDRESS_NUMERIC, "%s", expected);
	EXPECT(strcmp(host, expected) == 0, "the peer is %s, not %s", expected, host);
	/* The client's side sees the listener's address the same way. */
	EXPECT(peer_address(client, host, sizeof(host)) == PEER_ADDRESS_NUMERIC, "%s", expected);
	EXPECT(strcmp(host, expected) == 0, "the peer is %s, not %s", expected, host);
	char tiny[3];
	EXPECT(peer_address(conn, tiny, sizeof(tiny)) == PEER_ADDRESS_NONE,
		"%s does not fit in 3 bytes", expected);
	close(conn);
	close(client);
}

static void test_unix(void) {
	int fds[2];
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) < 0) {
		EXPECT(false, "socketpair: %s", strerror(errno));
		return;
	}
	char host[64] = "unchanged";
	EXPECT(peer_address(fds[0], host, sizeof(host)) == PEER_ADDRESS_UNIX, "a Unix socket");
	EXPECT(strcmp(host, "unchanged") == 0, "host is left alone, not %s", host);
	close(fds[0]);
	close(fds[1]);
}

static void test_no_peer(void) {
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	char host[64];
	EXPECT(peer_address(fd, host, sizeof(host)) == PEER_ADDRESS_NONE,
		"an unconnected socket has no peer");
	close(fd);
	EXPECT(peer_address(-1, host, sizeof(host)) == PEER_ADDRESS_NONE, "nor has no socket");
}

int main(void) {
	test_tcp(AF_INET, "127.0.0.1");
	test_tcp(AF_INET6, "::1");
	test_unix();
	test_no_peer();
	return failures != 0;
}
