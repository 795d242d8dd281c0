/* SPDX-License-Identifier: MIT */
/*
 * Unit tests for the viewers' relay (remote/vnc/vnc_relay.c): a socketpair
 * plays the viewer, and the test writes to the relay's local socket as
 * libvncserver would.
 */

#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>
#include "remote/vnc/vnc_relay.h"
#include "expect.h"


/* Generous: each wait ends as soon as its condition holds. */
#define DEADLINE_MS 10000

static int64_t now_ms(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static bool wait_fd(int fd, short events, int64_t deadline) {
	struct pollfd p = { .fd = fd, .events = events };
	int left = (int)(deadline - now_ms());
	return left > 0 && poll(&p, 1, left) == 1;
}

static uint8_t pattern(size_t i) {
	return (uint8_t)(i * 131 + (i >> 12));
}

/* Pattern bytes [from, from + n), in new memory. */
static uint8_t *pattern_bytes(size_t from, size_t n) {
	uint8_t *bytes = malloc(n);
	if (!bytes) {
		exit(1);
	}
	for (size_t i = 0; i < n; i++) {
		bytes[i] = pattern(from + i);
	}
	return bytes;
}

/* Writes pattern bytes [from, from + n) to fd as a non-blocking writer would; how many went. */
static size_t write_from(int fd, size_t from, size_t n) {
	int64_t deadline = now_ms() + DEADLINE_MS;
	uint8_t chunk[65536];
	size_t done = 0;
	while (done < n) {
		size_t len = n - done < sizeof(chunk) ? n - done : sizeof(chunk);
		for (size_t i = 0; i < len; i++) {
			chunk[i] = pattern(from + done + i);
		}
		ssize_t w = send(fd, chunk, len, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (w > 0) {
			done += (size_t)w;
		} else if (w < 0 && errno == EAGAIN) {
			if (!wait_fd(fd, POLLOUT, deadline)) {
				break;
			}
		} else {
			break;
		}
	}
	return done;
}

static size_t write_all(int fd, size_t n) {
	return write_from(fd, 0, n);
}

/* Reads until EOF or n bytes, checking they are pattern bytes from `from` on; the count. */
static size_t read_from(int fd, size_t from, size_t n, bool *eof) {
	int64_t deadline = now_ms() + DEADLINE_MS;
	uint8_t chunk[65536];
	size_t done = 0;
	*eof = false;
	while (done < n || n == SIZE_MAX) {
		size_t want = n == SIZE_MAX || n - done > sizeof(chunk) ? sizeof(chunk) : n - done;
		if (!wait_fd(fd, POLLIN, deadline)) {
			break;
		}
		ssize_t r = recv(fd, chunk, want, MSG_DONTWAIT);
		if (r == 0 || (r < 0 && errno != EAGAIN)) {
			*eof = true;
			break;
		}
		for (ssize_t i = 0; i < r; i++) {
			if (chunk[i] != pattern(from + done + (size_t)i)) {
				EXPECT(false, "byte %zu differs", from + done + (size_t)i);
				return done;
			}
		}
		done += r > 0 ? (size_t)r : 0;
	}
	return done;
}

static size_t read_all(int fd, size_t n, bool *eof) {
	return read_from(fd, 0, n, eof);
}

static struct vnc_relay *open_relay(struct vnc_relays *relays, size_t max_queued,
		int *viewer, int *local) {
	int pair[2];
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) < 0) {
		perror("socketpair");
		exit(1);
	}
	*viewer = pair[0];
	struct vnc_relay *relay = vnc_relay_open(relays, pair[1], NULL, max_queued, local);
	if (!relay) {
		perror("vnc_relay_open");
		exit(1);
	}
	return relay;
}

/* The viewer hangs up, libvncserver closes its socket, the caller lets go. */
static void close_relay(struct vnc_relay *relay, int viewer, int local) {
	close(viewer);
	close(local);
	vnc_relay_release(relay);
}

/* Like open_relay, with the viewer on a loopback TCP connection (splice's other case). */
static struct vnc_relay *open_tcp_relay(struct vnc_relays *relays, size_t max_queued,
		int *viewer, int *local) {
	struct sockaddr_in addr = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(addr);
	int listener = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	*viewer = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (listener < 0 || *viewer < 0 || bind(listener, (struct sockaddr *)&addr, len) < 0 ||
			listen(listener, 1) < 0 ||
			getsockname(listener, (struct sockaddr *)&addr, &len) < 0 ||
			connect(*viewer, (struct sockaddr *)&addr, len) < 0) {
		perror("loopback connection");
		exit(1);
	}
	int peer = accept4(listener, NULL, NULL, SOCK_CLOEXEC);
	close(listener);
	struct vnc_relay *relay = peer >= 0 ? vnc_relay_open(relays, peer, NULL, max_queued, local) : NULL;
	if (!relay) {
		perror("vnc_relay_open");
		exit(1);
	}
	return relay;
}

/*
 * A TCP viewer that falls behind by more than the sockets and the pipe hold,
 * then catches up, again and again: bytes go by the pipe and by the queue,
 * and the viewer gets them all, in order.
 */
static void test_tcp_viewer_lags(struct vnc_relays *relays) {
	int viewer, local;
	struct vnc_relay *relay = open_tcp_relay(relays, 256u << 20, &viewer, &local);
	size_t written = 0, taken = 0;
	bool eof = false;
	for (size_t round = 1; round <= 6 && !failures; round++) {
		size_t n = round << 20;
		EXPECT(write_from(local, written, n) == n, "round %zu: %zu bytes taken", round, n);
		written += n;
		size_t half = (written - taken) / 2;
		EXPECT(read_from(viewer, taken, half, &eof) == half && !eof,
			"round %zu: the viewer reads %zu bytes in order", round, half);
		taken += half;
	}
	size_t rest = written - taken;
	EXPECT(read_from(viewer, taken, rest, &eof) == rest && !eof, "the last %zu bytes", rest);
	/* The relay may count its last send a moment after the viewer read it. */
	bool idle = vnc_relay_idle(relay) ||
		wait_fd(vnc_relay_drained_fd(relay), POLLIN, now_ms() + DEADLINE_MS);
	vnc_relay_ack_drained(relay);
	EXPECT(idle && vnc_relay_idle(relay), "idle once the viewer took everything");
	close_relay(relay, viewer, local);
}

/* The writer never waits on a viewer that reads nothing; the queue drains later. */
static void test_stalled_viewer(struct vnc_relays *relays) {
	int viewer, local;
	struct vnc_relay *relay = open_relay(relays, 64u << 20, &viewer, &local);
	const size_t n = 16u << 20; /* far more than the sockets hold */

	EXPECT(send(viewer, "RFB", 3, 0) == 3, "viewer send");
	char in[3];
	bool got = wait_fd(local, POLLIN, now_ms() + DEADLINE_MS) &&
		recv(local, in, sizeof(in), MSG_WAITALL) == 3 && memcmp(in, "RFB", 3) == 0;
	EXPECT(got, "the viewer's bytes reach the local socket");

	EXPECT(write_all(local, n) == n, "all %zu bytes taken while the viewer reads nothing", n);
	EXPECT(!vnc_relay_idle(relay), "idle with 16 MiB queued");
	bool eof;
	EXPECT(read_all(viewer, n, &eof) == n && !eof, "the viewer gets every byte in order");
	EXPECT(wait_fd(vnc_relay_drained_fd(relay), POLLIN, now_ms() + DEADLINE_MS),
		"the drained fd wakes the caller");
	vnc_relay_ack_drained(relay);
	EXPECT(vnc_relay_idle(relay), "idle once the viewer took everything");

	/* The viewer hangs up: the local socket reads EOF. */
	close(viewer);
	char byte;
	EXPECT(wait_fd(local, POLLIN, now_ms() + DEADLINE_MS) &&
		recv(local, &byte, 1, 0) == 0, "EOF on the local socket after a hangup");
	close(local);
	vnc_relay_release(relay);
}

/* A viewer that takes far less than it is sent is cut off. */
static void test_over_limit(struct vnc_relays *relays) {
	int viewer, local;
	struct vnc_relay *relay = open_relay(relays, 1u << 20, &viewer, &local);
	size_t sent = write_all(local, 8u << 20);
	EXPECT(sent < (8u << 20), "writes fail once the limit is passed (%zu went)", sent);
	bool eof;
	size_t got = read_all(viewer, SIZE_MAX, &eof);
	EXPECT(eof && got <= sent, "the viewer is disconnected (%zu bytes, eof %d)", got, eof);
	close_relay(relay, viewer, local);
}

/* What was written before the local socket closed still reaches the viewer. */
static void test_close_flushes(struct vnc_relays *relays) {
	int viewer, local;
	struct vnc_relay *relay = open_relay(relays, 64u << 20, &viewer, &local);
	const size_t n = 4u << 20;
	EXPECT(write_all(local, n) == n, "written");
	close(local);
	vnc_relay_release(relay);
	bool eof;
	EXPECT(read_all(viewer, SIZE_MAX, &eof) == n && eof, "all bytes, then EOF");
	close(viewer);
}

/*
 * The caller's own writes (vnc_relay_write) to a TCP viewer that reads
 * nothing: the socket takes what it can, the relay keeps the rest and
 * sends it before what libvncserver writes afterwards; while it does, the
 * relay is not idle and a second direct write is refused.
 */
static void test_direct_write(struct vnc_relays *relays) {
	int viewer, local;
	struct vnc_relay *relay = open_tcp_relay(relays, 256u << 20, &viewer, &local);
	/* 16 MiB in 4 KiB pieces: more than a sendmsg takes at once, and than the socket holds. */
	const size_t piece = 4096, n_pieces = 4096, n = piece * n_pieces;
	uint8_t *bytes = pattern_bytes(0, n);
	struct iovec *iov = calloc(n_pieces, sizeof(*iov));
	if (!iov) {
		exit(1);
	}
	for (size_t i = 0; i < n_pieces; i++) {
		iov[i] = (struct iovec){ bytes + i * piece, piece };
	}
	EXPECT(vnc_relay_idle(relay), "a new relay is idle");
	EXPECT(vnc_relay_write(relay, iov, (int)n_pieces), "a direct write to an idle relay");
	memset(bytes, 0, n); /* the relay kept its own copy of what it could not send */
	EXPECT(!vnc_relay_idle(relay), "not idle while the viewer has not taken 16 MiB");
	EXPECT(!vnc_relay_write(relay, iov, 1), "a direct write refused while not idle");
	const size_t later = 1u << 20;
	EXPECT(write_from(local, n, later) == later, "libvncserver's bytes written after it");
	bool eof;
	EXPECT(read_all(viewer, n + later, &eof) == n + later && !eof,
		"the viewer gets the direct bytes, then libvncserver's, in order");
	bool drained = vnc_relay_idle(relay) ||
		wait_fd(vnc_relay_drained_fd(relay), POLLIN, now_ms() + DEADLINE_MS);
	vnc_relay_ack_drained(relay);
	EXPECT(drained && vnc_relay_idle(relay), "idle once the viewer took everything");

	/* Small enough to go at once: nothing is kept, the relay stays idle. */
	uint8_t *few = pattern_bytes(n + later, 1000);
	struct iovec small = { few, 1000 };
	EXPECT(vnc_relay_write(relay, &small, 1) && vnc_relay_idle(relay),
		"a small direct write leaves the relay idle");
	EXPECT(read_from(viewer, n + later, 1000, &eof) == 1000, "and reaches the viewer");
	free(few);
	free(iov);
	free(bytes);
	close_relay(relay, viewer, local);
}

/*
 * A viewer's socket sized for a 16 MiB update takes one at once, though
 * the viewer reads nothing yet, but not half as much again: a viewer that
 * reads slowly falls behind in the kernel by about one update at most.
 */
static void test_sized_peer_buffer(struct vnc_relays *relays) {
	int viewer, local;
	struct vnc_relay *relay = open_tcp_relay(relays, 256u << 20, &viewer, &local);
	const size_t n = 16u << 20;
	if (!vnc_relay_size_peer_buffer(relay, n)) {
		/* Needs CAP_NET_ADMIN, which the test suite runs with. */
		EXPECT(false, "cannot size the viewer's socket (not root?)");
	}
	uint8_t *bytes = pattern_bytes(0, n);
	struct iovec iov = { bytes, n };
	EXPECT(vnc_relay_write(relay, &iov, 1), "a direct write to an idle relay");
	EXPECT(vnc_relay_idle(relay), "16 MiB taken by the socket at once");
	struct iovec half = { bytes, n / 2 };
	EXPECT(vnc_relay_write(relay, &half, 1), "a second direct write");
	EXPECT(!vnc_relay_idle(relay), "part of a second 8 MiB waits in the relay");
	bool eof;
	EXPECT(read_all(viewer, n, &eof) == n && !eof, "the viewer gets the first in order");
	free(bytes);
	close_relay(relay, viewer, local);
}

int main(void) {
	struct vnc_relays *relays = vnc_relays_create();
	if (!relays) {
		perror("vnc_relays_create");
		return 1;
	}
	test_stalled_viewer(relays);
	test_tcp_viewer_lags(relays);
	test_direct_write(relays);
	test_sized_peer_buffer(relays);
	test_over_limit(relays);
	test_close_flushes(relays);

	/* One still open at the end: destroy closes it. */
	int viewer, local;
	struct vnc_relay *relay = open_relay(relays, 1u << 20, &viewer, &local);
	vnc_relays_destroy(relays);
	vnc_relay_release(relay);
	bool eof;
	read_all(viewer, SIZE_MAX, &eof);
	EXPECT(eof, "the viewer's socket is closed when the relays go");
	close(viewer);
	close(local);
	return failures ? 1 : 0;
}
