/* SPDX-License-Identifier: MIT */
/*
 * Unit tests for the RDP front's tickets (gateway/gateway_rdp_tickets.c):
 * a ticket is redeemed once, by its token only, and not after it expired;
 * tokens and cookies are fresh hex; a full table gives up the ticket that
 * expires first, and every ticket's socket is closed when it goes.
 */

#include <fcntl.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "expect.h"
#include "gateway/gateway_rdp_tickets.h"

static bool is_open(int fd) {
	return fcntl(fd, F_GETFD) >= 0;
}

static bool hex(const char *s, size_t len) {
	if (strlen(s) != len) {
		return false;
	}
	return strspn(s, "0123456789abcdef") == len;
}

int main(void) {
	struct gateway_tickets tickets;
	gateway_tickets_init(&tickets);
	int pair[2];
	socketpair(AF_UNIX, SOCK_SEQPACKET, 0, pair);
	char token[GATEWAY_TOKEN_LEN + 1], cookie[GATEWAY_COOKIE_LEN + 1];
	EXPECT(gateway_tickets_issue(&tickets, "alice", pair[0], 2, 1000, token, cookie),
		"issued");
	EXPECT(hex(token, GATEWAY_TOKEN_LEN) && hex(cookie, GATEWAY_COOKIE_LEN),
		"hex: %s %s", token, cookie);
	struct gateway_ticket t;
	char wrong[GATEWAY_TOKEN_LEN + 1];
	memcpy(wrong, token, sizeof(wrong));
	wrong[5] = wrong[5] == 'a' ? 'b' : 'a';
	EXPECT(!gateway_tickets_redeem(&tickets, wrong, 1001, &t), "another token");
	EXPECT(!gateway_tickets_redeem(&tickets, "abc", 1001, &t), "a short token");
	EXPECT(gateway_tickets_redeem(&tickets, token, 1001, &t), "redeemed");
	EXPECT(t.sock == pair[0] && t.flags == 2 && strcmp(t.user, "alice") == 0 &&
		strcmp(t.cookie, cookie) == 0, "the ticket's contents");
	EXPECT(!gateway_tickets_redeem(&tickets, token, 1002, &t), "redeemed twice");
	EXPECT(is_open(pair[0]), "the redeemed ticket's socket is the caller's");
	close(pair[0]);

	/* Expired: gone, its socket closed. */
	char token2[GATEWAY_TOKEN_LEN + 1];
	EXPECT(gateway_tickets_issue(&tickets, "bob", pair[1], 0, 1000, token2, cookie), "bob");
	EXPECT(strcmp(token2, token) != 0, "a fresh token");
	EXPECT(!gateway_tickets_redeem(&tickets, token2, 1000 + GATEWAY_TICKET_MS, &t),
		"expired");
	EXPECT(!is_open(pair[1]), "the expired ticket's socket is closed");

	/* Full: the one expiring first gives way. */
	char first[GATEWAY_TOKEN_LEN + 1], last[GATEWAY_TOKEN_LEN + 1];
	int first_fd = -1;
	for (int i = 0; i <= GATEWAY_TICKETS_MAX; i++) {
		int fds[2];
		socketpair(AF_UNIX, SOCK_SEQPACKET, 0, fds);
		close(fds[1]);
		first_fd = i == 0 ? fds[0] : first_fd;
		EXPECT(gateway_tickets_issue(&tickets, "carol", fds[0], 0, 5000 + i,
			i == 0 ? first : last, cookie), "issued %d", i);
	}
	EXPECT(!gateway_tickets_redeem(&tickets, first, 5100, &t), "the oldest gave way");
	EXPECT(gateway_tickets_redeem(&tickets, last, 5100, &t), "the newest is there");
	close(t.sock);
	char *long_user = "a-name-longer-than-sixty-three-bytes-is-no-account-of-this-host-at-all";
	int fds[2];
	socketpair(AF_UNIX, SOCK_SEQPACKET, 0, fds);
	close(fds[1]);
	EXPECT(!gateway_tickets_issue(&tickets, long_user, fds[0], 0, 6000, token, cookie) &&
		!is_open(fds[0]), "a name too long: refused, its socket closed");
	gateway_tickets_finish(&tickets);
	return failures != 0;
}
