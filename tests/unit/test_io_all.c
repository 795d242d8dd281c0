/* SPDX-License-Identifier: MIT */
/*
 * Unit tests for common/io_all.c over a non-blocking socketpair: a
 * buffer larger than the socket holds goes whole and in order, the wait
 * being called each time the socket is full or empty; a wait that gives
 * up, a closed peer and an early end of stream fail; a receive takes
 * exactly what it was asked for.
 */

#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "common/io_all.h"
#include "tests/unit/expect.h"

#define BIG (4 * 1024 * 1024)

/* The other end: what it drained (or what it feeds), and how the waits went. */
struct other_end {
	int fd;
	uint8_t *buf;
	size_t len, done;
	int waits;
	short last_events;
	bool give_up;
};

/* Drains the other end while the sender waits for room. */
static bool drain(void *data, int fd, short events) {
	struct other_end *end = data;
	end->waits++;
	end->last_events = events;
	if (end->give_up) {
		return false;
	}
	ssize_t n = recv(end->fd, end->buf + end->done, end->len - end->done, MSG_DONTWAIT);
	if (n > 0) {
		end->done += (size_t)n;
	}
	return true;
}

/* Feeds the other end a piece at a time while the receiver waits for bytes. */
static bool feed(void *data, int fd, short events) {
	struct other_end *end = data;
	end->waits++;
	end->last_events = events;
	if (end->give_up || end->done == end->len) {
		return false;
	}
	size_t piece = end->len - end->done < 1000 ? end->len - end->done : 1000;
	ssize_t n = send(end->fd, end->buf + end->done, piece, MSG_DONTWAIT);
	if (n > 0) {
		end->done += (size_t)n;
	}
	return true;
}

static bool pair(int fds[2]) {
	bool ok = socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, fds) == 0;
	EXPECT(ok, "socketpair: %s", strerror(errno));
	return ok;
}

static void test_send_full_buffer(void) {
	int fds[2];
	if (!pair(fds)) {
		return;
	}
	uint8_t *out = malloc(BIG), *in = malloc(BIG);
	for (size_t i = 0; i < BIG; i++) {
		out[i] = (uint8_t)(i * 7 + i / 251);
	}
	struct other_end end = { .fd = fds[1], .buf = in, .len = BIG };
	EXPECT(io_send_all(fds[0], out, BIG, drain, &end), "4 MiB sent");
	/* What the last waits left in the socket. */
	while (end.done < BIG) {
		ssize_t n = recv(fds[1], in + end.done, BIG - end.done, MSG_DONTWAIT);
		if (n <= 0) {
			break;
		}
		end.done += (size_t)n;
	}
	EXPECT(end.waits > 0, "the socket filled up, so the sender waited");
	EXPECT(end.last_events == POLLOUT, "it waited for POLLOUT, not %d", end.last_events);
	EXPECT(end.done == BIG, "%zu of %d bytes arrived", end.done, BIG);
	EXPECT(memcmp(in, out, BIG) == 0, "every byte arrived in order");
	free(out);
	free(in);
	close(fds[0]);
	close(fds[1]);
}

static void test_send_gives_up(void) {
	int fds[2];
	if (!pair(fds)) {
		return;
	}
	uint8_t *out = calloc(1, BIG);
	struct other_end end = { .fd = fds[1], .give_up = true };
	EXPECT(!io_send_all(fds[0], out, BIG, drain, &end), "a wait that gives up ends the send");
	EXPECT(end.waits == 1, "it was asked once, not %d times", end.waits);
	close(fds[1]);
	end.give_up = false;
	/* No SIGPIPE: the test would die here. */
	EXPECT(!io_send_all(fds[0], out, BIG, drain, &end), "a closed peer fails the send");
	free(out);
	close(fds[0]);
}

static void test_recv_exact(void) {
	int fds[2];
	if (!pair(fds)) {
		return;
	}
	uint8_t message[5000], got[4000];
	for (size_t i = 0; i < sizeof(message); i++) {
		message[i] = (uint8_t)(i % 253);
	}
	struct other_end end = { .fd = fds[1], .buf = message, .len = sizeof(message) };
	EXPECT(io_recv_all(fds[0], got, sizeof(got), feed, &end), "4000 bytes received");
	EXPECT(memcmp(got, message, sizeof(got)) == 0, "in order");
	EXPECT(end.last_events == POLLIN, "it waited for POLLIN, not %d", end.last_events);
	EXPECT(end.waits == 4, "one wait per piece of 1000 bytes, not %d", end.waits);
	/* Exactly what was asked for: what comes after stays in the socket. */
	send(fds[1], message + 4000, 1000, 0);
	end.give_up = true;
	EXPECT(io_recv_all(fds[0], got, 500, feed, &end), "500 of the 1000 bytes waiting");
	EXPECT(memcmp(got, message + 4000, 500) == 0, "the next piece starts where the first ended");
	uint8_t rest[sizeof(message)];
	ssize_t n = recv(fds[0], rest, sizeof(rest), MSG_DONTWAIT);
	EXPECT(n == 500, "500 bytes left unread, not %zd", n);

	/* An end of stream before len bytes fails. */
	send(fds[1], "abc", 3, 0);
	close(fds[1]);
	EXPECT(!io_recv_all(fds[0], got, 4, feed, &end), "3 bytes and the end are not 4 bytes");
	close(fds[0]);
}

static void test_recv_gives_up(void) {
	int fds[2];
	if (!pair(fds)) {
		return;
	}
	uint8_t got[8];
	struct other_end end = { .fd = fds[1], .give_up = true };
	EXPECT(!io_recv_all(fds[0], got, sizeof(got), feed, &end), "a wait that gives up ends it");
	EXPECT(end.waits == 1, "it was asked once, not %d times", end.waits);
	EXPECT(io_recv_all(fds[0], got, 0, feed, &end), "nothing asked: done at once");
	EXPECT(io_send_all(fds[0], got, 0, drain, &end), "nothing to send: done at once");
	EXPECT(end.waits == 1, "and no wait for it");
	close(fds[0]);
	close(fds[1]);
}

int main(void) {
	test_send_full_buffer();
	test_send_gives_up();
	test_recv_exact();
	test_recv_gives_up();
	return failures != 0;
}
