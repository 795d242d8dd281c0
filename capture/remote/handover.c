/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include "capture/remote/handover.h"

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

static bool wait_readable(int sock, int timeout_ms) {
	struct pollfd p = { .fd = sock, .events = POLLIN };
	int rc;
	do {
		rc = poll(&p, 1, timeout_ms);
	} while (rc < 0 && errno == EINTR);
	if (rc == 0) {
		errno = ETIMEDOUT;
	}
	return rc == 1;
}

bool handover_send(int sock, const struct handover_message *message, int fd,
		int timeout_ms, struct handover_reply *reply) {
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
	ssize_t n;
	do {
		n = sendmsg(sock, &msg, MSG_NOSIGNAL);
	} while (n < 0 && errno == EINTR);
	if (n != (ssize_t)sizeof(*message)) {
		return false;
	}
	if (!wait_readable(sock, timeout_ms)) {
		return false;
	}
	memset(reply, 0, sizeof(*reply));
	n = recv(sock, reply, sizeof(*reply), 0);
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

int handover_connect(const char *path, uid_t uid, pid_t *pid) {
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	if (strlen(path) >= sizeof(addr.sun_path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	strcpy(addr.sun_path, path);
	int sock = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (sock < 0) {
		return -1;
	}
	struct ucred cred;
	socklen_t len = sizeof(cred);
	if (connect(sock, (struct sockaddr *)&addr, sizeof(addr)) < 0 ||
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
