/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>
#include "remote/handover.h"

static bool terminated(const char *s, size_t size) {
	return memchr(s, '\0', size) != NULL;
}

bool handover_message_check(const struct handover_message *message, size_t size,
		bool with_fd, char *error, size_t error_size) {
	const char *why = NULL;
	if (size != sizeof(*message)) {
		why = "a message of the wrong size";
	} else if (message->magic != HANDOVER_MAGIC || message->version != HANDOVER_VERSION) {
		why = "not a hand-over message of this version";
	} else if (message->request == HANDOVER_STATUS) {
		why = with_fd ? "a status request with a socket" : NULL;
	} else if (message->request != HANDOVER_CONNECTION) {
		why = "an unknown request";
	} else if (!with_fd) {
		why = "a connection without its socket";
	} else if (message->protocol != HANDOVER_VNC && message->protocol != HANDOVER_RDP) {
		why = "a protocol this session does not take over";
	} else if (!terminated(message->user, sizeof(message->user)) ||
			!terminated(message->peer, sizeof(message->peer)) ||
			!terminated(message->cookie, sizeof(message->cookie))) {
		why = "an unterminated name";
	} else if (message->n_pending > HANDOVER_PENDING_MAX) {
		why = "too much pending plaintext";
	} else if (message->protocol == HANDOVER_RDP && strlen(message->cookie) < 16) {
		why = "an RDP connection without its password cookie";
	} else if (message->tls.key_size > HANDOVER_KEY_MAX ||
			message->tls.iv_size > HANDOVER_IV_MAX) {
		why = "a TLS key or IV too long";
	}
	if (why) {
		snprintf(error, error_size, "%s", why);
		return false;
	}
	return true;
}

static int64_t now_ms(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Waits for events on sock until deadline_ms; false with ETIMEDOUT then. */
static bool wait_until(int sock, short events, int64_t deadline_ms) {
	struct pollfd p = { .fd = sock, .events = events };
	int rc;
	do {
		int64_t left = deadline_ms - now_ms();
		rc = poll(&p, 1, left > 0 ? (int)left : 0);
	} while (rc < 0 && errno == EINTR);
	if (rc == 0) {
		errno = ETIMEDOUT;
	}
	return rc == 1;
}

bool handover_send(int sock, const struct handover_message *message, int fd,
		int timeout_ms, struct handover_reply *reply) {
	int64_t deadline = now_ms() + timeout_ms;
	struct iovec iov = { (void *)message, sizeof(*message) };
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} control;
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
	if (fd >= 0) {
		memset(&control, 0, sizeof(control));
		msg.msg_control = control.buf;
		msg.msg_controllen = sizeof(control.buf);
		struct cmsghdr *cmsg = CMSG_FIRSTHDR(&msg);
		cmsg->cmsg_level = SOL_SOCKET;
		cmsg->cmsg_type = SCM_RIGHTS;
		cmsg->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(cmsg), &fd, sizeof(int));
	}
	/* A session that takes nothing must not hold us: never block past the deadline. */
	ssize_t n;
	while ((n = sendmsg(sock, &msg, MSG_NOSIGNAL | MSG_DONTWAIT)) < 0) {
		if (errno == EINTR) {
			continue;
		}
		if (errno != EAGAIN || !wait_until(sock, POLLOUT, deadline)) {
			return false;
		}
	}
	if (n != (ssize_t)sizeof(*message)) {
		errno = EPROTO;
		return false;
	}
	if (!wait_until(sock, POLLIN, deadline)) {
		return false;
	}
	memset(reply, 0, sizeof(*reply));
	n = recv(sock, reply, sizeof(*reply), MSG_DONTWAIT);
	if (n != (ssize_t)sizeof(*reply) || reply->magic != HANDOVER_MAGIC ||
			reply->version != HANDOVER_VERSION ||
			!terminated(reply->error, sizeof(reply->error))) {
		errno = n < 0 ? errno : EPROTO;
		return false;
	}
	return true;
}

bool handover_status(int sock, int timeout_ms, struct handover_reply *reply) {
	struct handover_message *message = calloc(1, sizeof(*message));
	if (!message) {
		return false;
	}
	message->magic = HANDOVER_MAGIC;
	message->version = HANDOVER_VERSION;
	message->request = HANDOVER_STATUS;
	bool ok = handover_send(sock, message, -1, timeout_ms, reply) && reply->ok;
	free(message);
	return ok;
}

ssize_t handover_receive(int sock, struct handover_message *message, int *fd) {
	*fd = -1;
	struct iovec iov = { message, sizeof(*message) };
	union {
		char buf[CMSG_SPACE(sizeof(int) * 4)];
		struct cmsghdr align;
	} control;
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = control.buf, .msg_controllen = sizeof(control.buf),
	};
	ssize_t n;
	do {
		n = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC | MSG_DONTWAIT);
	} while (n < 0 && errno == EINTR);
	if (n < 0) {
		return -1;
	}
	/* Keep one socket; any other passed along is closed, never leaked. */
	for (struct cmsghdr *cmsg = CMSG_FIRSTHDR(&msg); cmsg; cmsg = CMSG_NXTHDR(&msg, cmsg)) {
		if (cmsg->cmsg_level != SOL_SOCKET || cmsg->cmsg_type != SCM_RIGHTS) {
			continue;
		}
		size_t count = (cmsg->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		for (size_t i = 0; i < count; i++) {
			int passed;
			memcpy(&passed, CMSG_DATA(cmsg) + i * sizeof(int), sizeof(int));
			if (*fd < 0) {
				*fd = passed;
			} else {
				close(passed);
			}
		}
	}
	if (msg.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) {
		if (*fd >= 0) {
			close(*fd);
			*fd = -1;
		}
		errno = EMSGSIZE;
		return -1;
	}
	return n;
}

/*
 * connect() without blocking, by deadline_ms. A Unix listener whose
 * backlog is full answers EAGAIN and queues nothing, so that is tried
 * again, a little later each time.
 */
static bool connect_by(int sock, const struct sockaddr_un *addr, int64_t deadline_ms) {
	int pause_ms = 5;
	for (;;) {
		if (connect(sock, (const struct sockaddr *)addr, sizeof(*addr)) == 0) {
			return true;
		}
		if (errno == EINTR) {
			continue;
		}
		if (errno == EINPROGRESS) {
			int error = 0;
			socklen_t len = sizeof(error);
			if (!wait_until(sock, POLLOUT, deadline_ms) ||
					getsockopt(sock, SOL_SOCKET, SO_ERROR, &error, &len) < 0) {
				return false;
			}
			errno = error;
			return error == 0;
		}
		int64_t left = deadline_ms - now_ms();
		if (errno != EAGAIN) {
			return false;
		}
		if (left <= 0) {
			errno = ETIMEDOUT;
			return false;
		}
		poll(NULL, 0, pause_ms < left ? pause_ms : (int)left);
		pause_ms = pause_ms < 100 ? pause_ms * 2 : 100;
	}
}

int handover_connect(const char *path, uid_t uid, pid_t *pid) {
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	if (strlen(path) >= sizeof(addr.sun_path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	strcpy(addr.sun_path, path);
	int sock = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (sock < 0) {
		return -1;
	}
	struct ucred cred;
	socklen_t len = sizeof(cred);
	if (!connect_by(sock, &addr, now_ms() + HANDOVER_CONNECT_MS) ||
			getsockopt(sock, SOL_SOCKET, SO_PEERCRED, &cred, &len) < 0) {
		int saved = errno;
		close(sock);
		errno = saved;
		return -1;
	}
	/* The path may lead elsewhere (a link the user made): who answers counts. */
	if (cred.uid != uid) {
		close(sock);
		errno = EPERM;
		return -1;
	}
	if (pid) {
		*pid = cred.pid;
	}
	return sock;
}
