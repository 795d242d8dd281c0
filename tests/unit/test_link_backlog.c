/* SPDX-License-Identifier: MIT */
/* Unit tests for a socket's backlog (common/link_backlog.c), on real sockets. */

#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "common/link_backlog.h"
#include "tests/unit/expect.h"

int main(void) {
	char bytes[1000];
	memset(bytes, 'x', sizeof(bytes));

	/* A socketpair: what the other end has not read waits; once read, nothing. */
	int pair[2];
	EXPECT(socketpair(AF_UNIX, SOCK_STREAM, 0, pair) == 0, "socketpair");
	struct link_backlog backlog = { 0 };
	EXPECT(link_backlog_add(pair[0], &backlog) && backlog.waiting == 0,
		"an idle socketpair has %zu bytes waiting", backlog.waiting);
	EXPECT(write(pair[0], bytes, sizeof(bytes)) == (ssize_t)sizeof(bytes), "write");
	EXPECT(link_backlog_add(pair[0], &backlog) && backlog.waiting >= sizeof(bytes),
		"%zu bytes unread: %zu waiting", sizeof(bytes), backlog.waiting);
	EXPECT(read(pair[1], bytes, sizeof(bytes)) == (ssize_t)sizeof(bytes), "read");
	backlog = (struct link_backlog){ 0 };
	EXPECT(link_backlog_add(pair[0], &backlog) && backlog.waiting == 0,
		"all read: %zu bytes waiting", backlog.waiting);

	/* TCP on loopback: what the peer has not read is sent, not waiting. */
	int server = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in addr = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(addr);
	EXPECT(bind(server, (struct sockaddr *)&addr, sizeof(addr)) == 0 && listen(server, 1) == 0 &&
		getsockname(server, (struct sockaddr *)&addr, &len) == 0, "listen");
	int client = socket(AF_INET, SOCK_STREAM, 0);
	EXPECT(connect(client, (struct sockaddr *)&addr, sizeof(addr)) == 0, "connect");
	int peer = accept(server, NULL, NULL);
	EXPECT(write(client, bytes, sizeof(bytes)) == (ssize_t)sizeof(bytes), "write");
	backlog = (struct link_backlog){ 0 };
	EXPECT(link_backlog_add(client, &backlog), "TCP says nothing");
	EXPECT(backlog.waiting == 0, "loopback TCP: %zu bytes waiting to be sent", backlog.waiting);
	EXPECT(backlog.delay_us < 33333, "loopback TCP: round trips %u us over the fastest",
		backlog.delay_us);

	/* Not a socket: nothing said, nothing added. */
	backlog = (struct link_backlog){ 0 };
	EXPECT(!link_backlog_add(-1, &backlog) && backlog.waiting == 0, "a closed fd said something");

	close(peer);
	close(client);
	close(server);
	close(pair[0]);
	close(pair[1]);
	return expect_report();
}
