/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include "capture/remote/account_check.h"
#include "capture/remote/tcp_listen.h"
#include "gateway/gateway_config.h"
#include "gateway/gateway_log.h"
#include "gateway/gateway_vnc_private.h"

/*
 * Listening, and the guests: every connection gets a thread that logs it
 * in (gateway_vnc_login.c). A full cap never refuses a newcomer: an older
 * guest gives way (preauth_limits.h), so silent connections can only
 * push each other out.
 */

int64_t gateway_now_ms(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void peer_host(int fd, char *host, size_t size) {
	struct sockaddr_storage addr;
	socklen_t len = sizeof(addr);
	if (getpeername(fd, (struct sockaddr *)&addr, &len) < 0 ||
			getnameinfo((struct sockaddr *)&addr, len, host, size, NULL, 0,
				NI_NUMERICHOST) != 0) {
		snprintf(host, size, "?");
	}
}

/* Under the lock: still logging in. */
static bool is_guest(const struct gateway_guest *guest) {
	return !guest->evicted && !guest->logged_in;
}

/* Under the lock: a guest that may give way to a newcomer. */
static bool may_give_way(const struct gateway_guest *guest) {
	return is_guest(guest) && !guest->checking;
}

/* Under the lock: how many guests of host may give way. */
static int waiting_of(struct gateway_vnc *vnc, const char *host) {
	int n = 0;
	for (struct gateway_guest *g = vnc->guests; g; g = g->next) {
		n += may_give_way(g) && strcmp(g->host, host) == 0;
	}
	return n;
}

/*
 * Under the lock: who gives way to a newcomer, from host or, when host is
 * NULL, from the addresses with the most guests. Of those, the one that
 * has been silent the longest goes: a handshake that stalled, never one
 * under way, and never one whose account is being checked. Among
 * addresses with as many guests each, all of them are candidates, so
 * that many addresses with one stalled connection each push out their
 * own, never a login from another address that is moving.
 */
static struct gateway_guest *oldest_guest(struct gateway_vnc *vnc, const char *host) {
	int most = 0;
	if (!host) {
		for (struct gateway_guest *g = vnc->guests; g; g = g->next) {
			int n = may_give_way(g) ? waiting_of(vnc, g->host) : 0;
			most = n > most ? n : most;
		}
	}
	struct gateway_guest *oldest = NULL;
	for (struct gateway_guest *g = vnc->guests; g; g = g->next) {
		if (!may_give_way(g) || (host ? strcmp(g->host, host) != 0 :
				waiting_of(vnc, g->host) < most)) {
			continue;
		}
		if (!oldest || g->heard_ms <= oldest->heard_ms) {
			oldest = g;
		}
	}
	return oldest;
}

/* Under the lock: makes room for a guest from host. */
static void make_room(struct gateway_vnc *vnc, const char *host) {
	int n_total = 0, n_same = 0;
	for (struct gateway_guest *g = vnc->guests; g; g = g->next) {
		if (is_guest(g)) {
			n_total++;
			n_same += strcmp(g->host, host) == 0;
		}
	}
	enum preauth_decision decision = preauth_decide(&vnc->limits, n_total, n_same);
	if (decision == PREAUTH_ADMIT) {
		return;
	}
	struct gateway_guest *victim = oldest_guest(vnc,
		decision == PREAUTH_EVICT_SAME_ADDRESS ? host : NULL);
	if (victim) {
		gateway_log("VNC: %s gives way to a newer connection "
			"(too many still logging in)", victim->host);
		victim->evicted = true;
		/* Its thread wakes from any wait on the socket, and ends. */
		shutdown(victim->fd, SHUT_RDWR);
	}
}

void gateway_guest_heard(struct gateway_guest *guest) {
	struct gateway_vnc *vnc = guest->vnc;
	pthread_mutex_lock(&vnc->lock);
	guest->heard_ms = gateway_now_ms();
	pthread_mutex_unlock(&vnc->lock);
}

void gateway_guest_checking(struct gateway_guest *guest, bool checking) {
	struct gateway_vnc *vnc = guest->vnc;
	pthread_mutex_lock(&vnc->lock);
	guest->checking = checking;
	pthread_mutex_unlock(&vnc->lock);
}

bool gateway_guest_logged_in(struct gateway_guest *guest) {
	struct gateway_vnc *vnc = guest->vnc;
	pthread_mutex_lock(&vnc->lock);
	bool in = !guest->evicted;
	guest->logged_in = in;
	pthread_mutex_unlock(&vnc->lock);
	return in;
}

void gateway_guest_done(struct gateway_guest *guest) {
	struct gateway_vnc *vnc = guest->vnc;
	pthread_mutex_lock(&vnc->lock);
	for (struct gateway_guest **p = &vnc->guests; *p; p = &(*p)->next) {
		if (*p == guest) {
			*p = guest->next;
			break;
		}
	}
	vnc->n_guests--;
	pthread_cond_broadcast(&vnc->guests_gone);
	pthread_mutex_unlock(&vnc->lock);
	/* Only now: while listed, its number may be shut down by others. */
	close(guest->fd);
	free(guest);
}

static void *guest_thread(void *data) {
	gateway_vnc_login(data);
	return NULL;
}

static void admit(struct gateway_vnc *vnc, int fd) {
	struct gateway_guest *guest = calloc(1, sizeof(*guest));
	if (!guest) {
		close(fd);
		return;
	}
	guest->vnc = vnc;
	guest->fd = fd;
	peer_host(fd, guest->host, sizeof(guest->host));
	gateway_log_debug("VNC: a connection from %s", guest->host);
	guest->started_ms = gateway_now_ms();
	guest->heard_ms = guest->started_ms;
	guest->deadline_ms = guest->started_ms + vnc->config->handshake_timeout * 1000;

	pthread_mutex_lock(&vnc->lock);
	make_room(vnc, guest->host);
	guest->next = vnc->guests;
	vnc->guests = guest;
	vnc->n_guests++;
	pthread_mutex_unlock(&vnc->lock);

	pthread_attr_t attr;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	pthread_t thread;
	int err = pthread_create(&thread, &attr, guest_thread, guest);
	pthread_attr_destroy(&attr);
	if (err != 0) {
		gateway_log("VNC: no thread for %s: %s", guest->host,
			strerror(err));
		gateway_guest_done(guest);
	}
}

static void *accept_thread(void *data) {
	struct gateway_vnc *vnc = data;
	struct pollfd fds[GATEWAY_VNC_MAX_LISTEN + 1];
	for (int i = 0; i < vnc->n_listen; i++) {
		fds[i] = (struct pollfd){ .fd = vnc->listen_fds[i], .events = POLLIN };
	}
	fds[vnc->n_listen] = (struct pollfd){ .fd = vnc->stop_fd, .events = POLLIN };
	for (;;) {
		if (poll(fds, (nfds_t)vnc->n_listen + 1, -1) < 0 && errno != EINTR) {
			break;
		}
		if (fds[vnc->n_listen].revents) {
			break;
		}
		for (int i = 0; i < vnc->n_listen; i++) {
			if (!fds[i].revents) {
				continue;
			}
			int fd = accept4(fds[i].fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
			if (fd >= 0) {
				admit(vnc, fd);
			} else if (errno == EMFILE || errno == ENFILE) {
				/* Out of descriptors: guests end by their deadlines. */
				struct timespec pause = { 0, 100 * 1000 * 1000 };
				nanosleep(&pause, NULL);
			}
		}
	}
	return NULL;
}

struct gateway_vnc *gateway_vnc_start(const struct gateway_config *config,
		struct gateway_sessions *sessions, char *error, size_t error_size) {
	struct gateway_vnc *vnc = calloc(1, sizeof(*vnc));
	if (!vnc) {
		snprintf(error, error_size, "out of memory");
		return NULL;
	}
	vnc->config = config;
	vnc->limits = (struct preauth_limits){
		.per_address = config->max_pending_per_address, .total = config->max_pending,
	};
	vnc->sessions = sessions;
	vnc->stop_fd = -1;
	pthread_mutex_init(&vnc->lock, NULL);
	pthread_cond_init(&vnc->guests_gone, NULL);
	if (!tls_identity_init(&vnc->tls, config->tls_cert, config->tls_key, error,
			error_size)) {
		goto fail_tls;
	}
	struct account_checker_config checks = {
		.pam_service = config->pam_service, .pam_anyone = true,
	};
	vnc->checker = account_checker_create(&checks);
	if (!vnc->checker) {
		snprintf(error, error_size, "cannot check accounts: %s", strerror(errno));
		goto fail;
	}
	for (int i = 0; i < config->n_vnc_listen; i++) {
		int room = GATEWAY_VNC_MAX_LISTEN - vnc->n_listen;
		int n = room > 0 ? remote_listen_tcp(config->vnc_listen[i],
			vnc->listen_fds + vnc->n_listen, room, error, error_size) : 0;
		if (n == 0) {
			if (room == 0) {
				snprintf(error, error_size, "too many listening addresses");
			}
			goto fail;
		}
		vnc->n_listen += n;
	}
	vnc->stop_fd = eventfd(0, EFD_CLOEXEC);
	/* Signals stay with the main thread. */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	int err = vnc->stop_fd < 0 ? errno :
		pthread_create(&vnc->accept_thread, NULL, accept_thread, vnc);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err != 0) {
		snprintf(error, error_size, "cannot start accepting: %s", strerror(err));
		goto fail;
	}
	return vnc;

fail:
	tls_identity_finish(&vnc->tls);
fail_tls:
	account_checker_destroy(vnc->checker);
	for (int i = 0; i < vnc->n_listen; i++) {
		close(vnc->listen_fds[i]);
	}
	if (vnc->stop_fd >= 0) {
		close(vnc->stop_fd);
	}
	pthread_mutex_destroy(&vnc->lock);
	pthread_cond_destroy(&vnc->guests_gone);
	free(vnc);
	return NULL;
}

const char *gateway_vnc_fingerprint(const struct gateway_vnc *vnc) {
	return vnc->tls.fingerprint;
}

void gateway_vnc_stop(struct gateway_vnc *vnc) {
	if (!vnc) {
		return;
	}
	uint64_t one = 1;
	if (write(vnc->stop_fd, &one, sizeof(one)) < 0) {
		/* A fresh eventfd takes it. */
	}
	pthread_join(vnc->accept_thread, NULL);
	for (int i = 0; i < vnc->n_listen; i++) {
		close(vnc->listen_fds[i]);
	}
	/* Every guest stops; a hand-over already under way finishes first. */
	pthread_mutex_lock(&vnc->lock);
	vnc->stopping = true;
	for (struct gateway_guest *g = vnc->guests; g; g = g->next) {
		if (!g->logged_in) {
			g->evicted = true;
			shutdown(g->fd, SHUT_RDWR);
		}
	}
	while (vnc->n_guests > 0) {
		pthread_cond_wait(&vnc->guests_gone, &vnc->lock);
	}
	pthread_mutex_unlock(&vnc->lock);
	account_checker_destroy(vnc->checker);
	tls_identity_finish(&vnc->tls);
	close(vnc->stop_fd);
	pthread_mutex_destroy(&vnc->lock);
	pthread_cond_destroy(&vnc->guests_gone);
	free(vnc);
}
