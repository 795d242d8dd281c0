/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "remote/account_check.h"
#include "common/util.h"
#include "gateway/gateway_broker.h"
#include "gateway/gateway_broker_msg.h"
#include "gateway/gateway_config.h"
#include "gateway/gateway_guests.h" /* GATEWAY_REFUSED, GATEWAY_MUST_WAIT */
#include "gateway/gateway_log.h"

/*
 * Requests from the worker: read on one thread, each answered on a
 * thread of its own, on the reply socket that came with it. What the
 * worker sends is not trusted: a request that is not one whole, known
 * message with exactly one reply socket is dropped, and the number of
 * answers under way is capped, so a worker cannot make the broker spawn
 * threads without end.
 */

#define ANSWERING_MAX 128

_Static_assert(GATEWAY_BROKER_TOKEN_MAX == GATEWAY_TOKEN_LEN + 1, "a routing token fits");
_Static_assert(GATEWAY_BROKER_COOKIE_MAX == GATEWAY_COOKIE_LEN + 1, "a cookie fits");
_Static_assert(GATEWAY_BROKER_USER_MAX == sizeof(((struct gateway_ticket *)0)->user),
	"a ticket's user fits");

struct answer {
	struct gateway_broker *broker;
	struct gateway_broker_request request;
	int reply_fd;
};

struct gateway_broker *gateway_broker_create(const struct gateway_config *config,
		struct gateway_sessions *sessions, char *error, size_t error_size) {
	struct gateway_broker *broker = calloc(1, sizeof(*broker));
	if (!broker) {
		snprintf(error, error_size, "out of memory");
		return NULL;
	}
	pthread_mutex_init(&broker->lock, NULL);
	pthread_cond_init(&broker->idle, NULL);
	gateway_tickets_init(&broker->tickets);
	struct account_checker_config checks = {
		.pam_service = config->pam_service, .pam_anyone = true,
	};
	const char *names[] = { "VNC", "RDP" };
	for (int i = 0; i < 2; i++) {
		struct gateway_broker_front *front = &broker->fronts[i];
		front->name = names[i];
		front->config = config;
		front->sessions = sessions;
		pthread_mutex_init(&front->lock, NULL);
		front->checker = account_checker_create(&checks, error, error_size);
		if (!front->checker) {
			gateway_broker_destroy(broker);
			return NULL;
		}
	}
	return broker;
}

void gateway_broker_destroy(struct gateway_broker *broker) {
	if (!broker) {
		return;
	}
	pthread_mutex_lock(&broker->lock);
	while (broker->n_answering > 0) {
		pthread_cond_wait(&broker->idle, &broker->lock);
	}
	pthread_mutex_unlock(&broker->lock);
	for (int i = 0; i < 2; i++) {
		account_checker_destroy(broker->fronts[i].checker);
		auth_throttle_finish(&broker->fronts[i].throttle);
		pthread_mutex_destroy(&broker->fronts[i].lock);
	}
	gateway_tickets_finish(&broker->tickets);
	pthread_mutex_destroy(&broker->lock);
	pthread_cond_destroy(&broker->idle);
	free(broker);
}

/* The reply, with fd (-1: none); never waits on the worker. */
static void send_reply(int reply_fd, const struct gateway_broker_reply *reply, int fd) {
	uint8_t buf[GATEWAY_BROKER_REPLY_SIZE];
	if (!gateway_broker_reply_encode(reply, buf)) {
		return;
	}
	struct iovec iov = { .iov_base = buf, .iov_len = sizeof(buf) };
	union {
		struct cmsghdr header;
		char space[CMSG_SPACE(sizeof(int))];
	} control;
	memset(&control, 0, sizeof(control));
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
	if (fd >= 0) {
		msg.msg_control = control.space;
		msg.msg_controllen = sizeof(control.space);
		struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &fd, sizeof(int));
	}
	if (sendmsg(reply_fd, &msg, MSG_NOSIGNAL | MSG_DONTWAIT) < 0) {
		gateway_log_debug("the worker took no reply: %s", strerror(errno));
	}
	explicit_bzero(buf, sizeof(buf));
}

/* LOGIN: at VNC the session's socket; at RDP a ticket that holds it. */
static int answer_login(struct gateway_broker *broker, struct gateway_broker_request *request,
		struct gateway_broker_reply *reply) {
	struct gateway_broker_front *front = &broker->fronts[request->front];
	const char *reason = NULL;
	int sock = gateway_broker_check_login(front, request->host, request->user,
		request->password, &reply->flags, &reason);
	if (sock < 0) {
		snprintf(reply->reason, sizeof(reply->reason), "%s", reason);
		return -1;
	}
	reply->ok = true;
	if (request->front == GATEWAY_BROKER_VNC) {
		return sock;
	}
	if (!gateway_tickets_issue(&broker->tickets, request->user, sock, reply->flags,
			monotonic_ms(), reply->token, reply->cookie)) {
		reply->ok = false;
		snprintf(reply->reason, sizeof(reply->reason), "no ticket for its redirection");
	}
	return -1;
}

/*
 * REDEEM: the ticket's session socket, user, flags and cookie. A guessed
 * token is a guessed password: it counts, and waits, the same, at the
 * RDP front's throttle. A redirected client comes right after its login
 * cleared its address: one that must wait is guessing, and each guess
 * makes it wait longer.
 */
static int answer_redeem(struct gateway_broker *broker, struct gateway_broker_request *request,
		struct gateway_broker_reply *reply) {
	struct gateway_broker_front *front = &broker->fronts[GATEWAY_BROKER_RDP];
	if (!gateway_broker_may_try(front, request->host)) {
		gateway_broker_count_failure(front, request->host);
		snprintf(reply->reason, sizeof(reply->reason), "%s", GATEWAY_MUST_WAIT);
		return -1;
	}
	struct gateway_ticket ticket;
	if (request->front != GATEWAY_BROKER_RDP || !gateway_tickets_redeem(&broker->tickets,
			request->token, monotonic_ms(), &ticket)) {
		gateway_broker_failed(front, request->host,
			"%s brought an unknown, used or expired routing token", request->host);
		snprintf(reply->reason, sizeof(reply->reason), "%s", GATEWAY_REFUSED);
		return -1;
	}
	reply->ok = true;
	reply->flags = ticket.flags;
	memcpy(reply->user, ticket.user, sizeof(reply->user));
	memcpy(reply->cookie, ticket.cookie, sizeof(reply->cookie));
	int sock = ticket.sock;
	explicit_bzero(&ticket, sizeof(ticket));
	return sock;
}

static void *answer_thread(void *data) {
	struct answer *answer = data;
	struct gateway_broker *broker = answer->broker;
	struct gateway_broker_reply reply = {0};
	int fd = answer->request.type == GATEWAY_BROKER_LOGIN ?
		answer_login(broker, &answer->request, &reply) :
		answer_redeem(broker, &answer->request, &reply);
	send_reply(answer->reply_fd, &reply, fd);
	if (fd >= 0) {
		close(fd);
	}
	close(answer->reply_fd);
	explicit_bzero(&reply, sizeof(reply));
	explicit_bzero(answer, sizeof(*answer));
	free(answer);
	pthread_mutex_lock(&broker->lock);
	if (--broker->n_answering == 0) {
		pthread_cond_broadcast(&broker->idle);
	}
	pthread_mutex_unlock(&broker->lock);
	return NULL;
}

/* A Unix SOCK_SEQPACKET socket: what a reply goes on. */
static bool is_reply_socket(int fd) {
	int type = 0, domain = 0;
	socklen_t len = sizeof(type);
	if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &len) < 0) {
		return false;
	}
	len = sizeof(domain);
	return getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &domain, &len) == 0 &&
		type == SOCK_SEQPACKET && domain == AF_UNIX;
}

/* Starts the answer's thread; false (answer untouched) when it cannot. */
static bool start_answer(struct gateway_broker *broker, struct answer *answer) {
	pthread_mutex_lock(&broker->lock);
	bool room = broker->n_answering < ANSWERING_MAX;
	broker->n_answering += room;
	pthread_mutex_unlock(&broker->lock);
	if (!room) {
		return false;
	}
	pthread_attr_t attr;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	/* Signals stay with the main thread. */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	pthread_t thread;
	int err = pthread_create(&thread, &attr, answer_thread, answer);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&attr);
	if (err != 0) {
		pthread_mutex_lock(&broker->lock);
		if (--broker->n_answering == 0) {
			pthread_cond_broadcast(&broker->idle);
		}
		pthread_mutex_unlock(&broker->lock);
		return false;
	}
	return true;
}

/*
 * One datagram from the worker: its request and the fds that came with
 * it (at most max; any past that are closed). Its size, 0 when the worker
 * is gone, -1 when nothing usable came.
 */
static ssize_t receive(int fd, uint8_t *buf, size_t size, int *fds, int max, int *n_fds,
		bool *cut) {
	struct iovec iov = { .iov_base = buf, .iov_len = size };
	union {
		struct cmsghdr header;
		char space[CMSG_SPACE(4 * sizeof(int))];
	} control;
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = control.space, .msg_controllen = sizeof(control.space),
	};
	*n_fds = 0;
	ssize_t n = recvmsg(fd, &msg, MSG_CMSG_CLOEXEC);
	if (n <= 0) {
		return n < 0 && errno == EINTR ? -1 : 0;
	}
	*cut = msg.msg_flags & (MSG_TRUNC | MSG_CTRUNC);
	for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) {
			continue;
		}
		size_t count = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		for (size_t i = 0; i < count; i++) {
			int got;
			memcpy(&got, CMSG_DATA(c) + i * sizeof(int), sizeof(int));
			if (*n_fds < max) {
				fds[(*n_fds)++] = got;
			} else {
				close(got);
			}
		}
	}
	return n;
}

void gateway_broker_serve(struct gateway_broker *broker, int fd) {
	uint8_t buf[GATEWAY_BROKER_REQUEST_SIZE + 1];
	for (;;) {
		int fds[4];
		int n_fds = 0;
		bool cut = false;
		ssize_t n = receive(fd, buf, sizeof(buf), fds, 4, &n_fds, &cut);
		if (n == 0) {
			return;
		}
		struct answer *answer = n > 0 ? calloc(1, sizeof(*answer)) : NULL;
		bool ok = answer && !cut && n_fds == 1 && is_reply_socket(fds[0]) &&
			gateway_broker_request_decode(buf, (size_t)n, &answer->request);
		explicit_bzero(buf, sizeof(buf));
		if (ok) {
			answer->broker = broker;
			answer->reply_fd = fds[0];
			if (start_answer(broker, answer)) {
				continue;
			}
			gateway_log("the network worker asks too much at once: a request dropped");
		} else if (n > 0) {
			gateway_log("a malformed request from the network worker: dropped");
		}
		for (int i = 0; i < n_fds; i++) {
			close(fds[i]);
		}
		if (answer) {
			explicit_bzero(answer, sizeof(*answer));
			free(answer);
		}
	}
}
