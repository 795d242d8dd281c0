/* SPDX-License-Identifier: MIT */
/*
 * Unit tests for the gateway's hand-over messages (remote/handover.c):
 * a request with a socket crosses a SOCK_SEQPACKET pair with the socket
 * still working on the other side, its reply comes back, malformed
 * requests are named, handover_connect holds the answering side to
 * the expected uid, and a session that never takes the connection or
 * never answers holds nobody past the deadlines.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>
#include "remote/handover.h"
#include "expect.h"

static struct handover_message message(void) {
	struct handover_message m = {
		.magic = HANDOVER_MAGIC, .version = HANDOVER_VERSION,
		.request = HANDOVER_CONNECTION, .protocol = HANDOVER_VNC,
		.n_pending = 1, .pending = { 1 },
	};
	strcpy(m.user, "alice");
	strcpy(m.peer, "192.0.2.7");
	return m;
}

static void malformed(void) {
	char error[128];
	struct handover_message m = message();
	EXPECT(handover_message_check(&m, sizeof(m), true, error, sizeof(error)), "%s", error);
	EXPECT(!handover_message_check(&m, sizeof(m) - 1, true, error, sizeof(error)) &&
		strstr(error, "size"), "short: %s", error);
	EXPECT(!handover_message_check(&m, sizeof(m), false, error, sizeof(error)) &&
		strstr(error, "socket"), "no socket: %s", error);
	m.user[sizeof(m.user) - 1] = 'x';
	memset(m.user, 'x', sizeof(m.user));
	EXPECT(!handover_message_check(&m, sizeof(m), true, error, sizeof(error)) &&
		strstr(error, "unterminated"), "name: %s", error);
	m = message();
	m.n_pending = HANDOVER_PENDING_MAX + 1;
	EXPECT(!handover_message_check(&m, sizeof(m), true, error, sizeof(error)) &&
		strstr(error, "pending"), "pending: %s", error);
	m = message();
	m.magic ^= 1;
	EXPECT(!handover_message_check(&m, sizeof(m), true, error, sizeof(error)),
		"magic: %s", error);
	m = message();
	m.tls.key_size = HANDOVER_KEY_MAX + 1;
	EXPECT(!handover_message_check(&m, sizeof(m), true, error, sizeof(error)),
		"key: %s", error);
	m = message();
	m.request = HANDOVER_STATUS;
	EXPECT(handover_message_check(&m, sizeof(m), false, error, sizeof(error)), "status");
	/* RDP: the password cookie comes along, terminated. */
	m = message();
	m.protocol = HANDOVER_RDP;
	EXPECT(!handover_message_check(&m, sizeof(m), true, error, sizeof(error)) &&
		strstr(error, "cookie"), "RDP without a cookie: %s", error);
	strcpy(m.cookie, "0123456789abcdef0123456789abcdef");
	EXPECT(handover_message_check(&m, sizeof(m), true, error, sizeof(error)), "RDP: %s",
		error);
	memset(m.cookie, 'a', sizeof(m.cookie));
	EXPECT(!handover_message_check(&m, sizeof(m), true, error, sizeof(error)) &&
		strstr(error, "unterminated"), "cookie: %s", error);
	m = message();
	m.protocol = 3;
	EXPECT(!handover_message_check(&m, sizeof(m), true, error, sizeof(error)) &&
		strstr(error, "protocol"), "protocol: %s", error);
}

static void crosses(void) {
	int pair[2], client[2];
	EXPECT(socketpair(AF_UNIX, SOCK_SEQPACKET, 0, pair) == 0 &&
		socketpair(AF_UNIX, SOCK_STREAM, 0, client) == 0, "sockets");
	pid_t child = fork();
	if (child == 0) {
		/* The session: takes the socket, writes through it, answers. */
		struct handover_message m;
		int fd;
		ssize_t n;
		do {
			n = handover_receive(pair[1], &m, &fd);
		} while (n < 0 && errno == EAGAIN);
		char error[128];
		bool ok = n > 0 && handover_message_check(&m, (size_t)n, fd >= 0, error,
			sizeof(error)) && strcmp(m.user, "alice") == 0;
		if (ok) {
			ok = write(fd, "taken", 5) == 5;
		}
		struct handover_reply reply = {
			.magic = HANDOVER_MAGIC, .version = HANDOVER_VERSION, .ok = ok,
			.clients = 3, .pid = (uint32_t)getpid(),
		};
		_exit(send(pair[1], &reply, sizeof(reply), 0) == sizeof(reply) ? 0 : 1);
	}
	struct handover_message m = message();
	struct handover_reply reply;
	EXPECT(handover_send(pair[0], &m, client[1], 5000, &reply), "sent: %m");
	EXPECT(reply.ok && reply.clients == 3 && reply.pid == (uint32_t)child, "the reply");
	close(client[1]);
	char buf[8] = {0};
	EXPECT(read(client[0], buf, sizeof(buf)) == 5 && strcmp(buf, "taken") == 0,
		"the passed socket reaches the client");
	close(client[0]);
	close(pair[0]);
	close(pair[1]);
}

/* A hand-over listener in a new folder of /tmp, with this backlog. */
struct listener {
	char dir[32];
	struct sockaddr_un addr;
	int fd;
};

static void listener_open(struct listener *l, int backlog) {
	snprintf(l->dir, sizeof(l->dir), "/tmp/oriel-handover-XXXXXX");
	EXPECT(mkdtemp(l->dir) != NULL, "dir");
	l->addr = (struct sockaddr_un){ .sun_family = AF_UNIX };
	snprintf(l->addr.sun_path, sizeof(l->addr.sun_path), "%s/handover", l->dir);
	l->fd = socket(AF_UNIX, SOCK_SEQPACKET, 0);
	EXPECT(bind(l->fd, (struct sockaddr *)&l->addr, sizeof(l->addr)) == 0 &&
		listen(l->fd, backlog) == 0, "listening");
}

static void listener_close(struct listener *l) {
	close(l->fd);
	unlink(l->addr.sun_path);
	rmdir(l->dir);
}

static void holds_to_uid(void) {
	struct listener l;
	listener_open(&l, 4);
	const char *path = l.addr.sun_path;
	pid_t pid = 0;
	int sock = handover_connect(path, getuid(), &pid);
	EXPECT(sock >= 0 && pid == getpid(), "our own uid answers");
	close(sock);
	errno = 0;
	EXPECT(handover_connect(path, getuid() + 4242, NULL) < 0 && errno == EPERM,
		"another uid's socket is refused");
	listener_close(&l);
}

static double seconds(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A listener that never accepts: its backlog full, then not. */
static void never_accepts(void) {
	struct listener l;
	listener_open(&l, 0);
	const char *path = l.addr.sun_path;

	/* Room in the backlog: connected, but nobody answers the request. */
	int sock = handover_connect(path, getuid(), NULL);
	EXPECT(sock >= 0, "connected into the backlog: %s", strerror(errno));
	struct handover_reply reply;
	double start = seconds();
	errno = 0;
	EXPECT(!handover_status(sock, 300, &reply) && errno == ETIMEDOUT,
		"no answer: ETIMEDOUT (%s)", strerror(errno));
	EXPECT(seconds() - start < 5, "the status waited %.1f s", seconds() - start);

	/* The backlog full: no connection, by the deadline. */
	int filler[8];
	int n_filler = 0;
	for (; n_filler < 8; n_filler++) {
		filler[n_filler] = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_NONBLOCK, 0);
		if (connect(filler[n_filler], (struct sockaddr *)&l.addr, sizeof(l.addr)) < 0) {
			close(filler[n_filler]);
			break;
		}
	}
	EXPECT(n_filler < 8, "the backlog filled up");
	start = seconds();
	errno = 0;
	EXPECT(handover_connect(path, getuid(), NULL) < 0 && errno == ETIMEDOUT,
		"a full backlog: ETIMEDOUT (%s)", strerror(errno));
	double waited = seconds() - start;
	EXPECT(waited < HANDOVER_CONNECT_MS / 1000.0 + 3, "the connect waited %.1f s", waited);

	for (int i = 0; i < n_filler; i++) {
		close(filler[i]);
	}
	close(sock);
	listener_close(&l);
}

int main(void) {
	malformed();
	crosses();
	holds_to_uid();
	never_accepts();
	return failures != 0;
}
