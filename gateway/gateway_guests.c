/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include "common/peer_address.h"
#include "common/util.h"
#include "oriel-config.h"
#include "remote/preauth_evict.h"
#include "remote/tcp_listen.h"
#include "gateway/gateway_config.h"
#include "gateway/gateway_log.h"
#include "gateway/gateway_guests.h"
#include "gateway/gateway_web.h"
#include "gateway/gateway_worker.h"

/*
 * Listening, and the guests: every connection gets a thread that logs it
 * in (gateway_vnc_login.c, gateway_rdp_login.c). A full cap never refuses
 * a newcomer: an older guest gives way (preauth_limits.h), one that has
 * stalled before one whose handshake is moving, so silent connections
 * can only push each other out. The accepting thread also
 * shuts down the sockets of guests past their deadline, which ends any
 * wait on them, also one inside a library (FreeRDP's).
 */


static void peer_host(int fd, char *host, size_t size) {
	if (peer_address(fd, host, size) != PEER_ADDRESS_NUMERIC) {
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

/* Under the lock: who gives way to a newcomer (preauth_evict.h); see may_give_way. */
static struct gateway_guest *guest_to_give_way(struct gateway_front *front, const char *host) {
	struct preauth_list list;
	if (!preauth_list_init(&list, front->n_guests, monotonic_ms())) {
		return NULL;
	}
	for (struct gateway_guest *g = front->guests; g; g = g->next) {
		struct preauth_guest *s = preauth_list_add(&list, g);
		if (!s) {
			break;
		}
		*s = (struct preauth_guest){
			.host = g->host, .may_give_way = may_give_way(g), .stage = g->stage,
			.started_ms = g->started_ms, .progress_ms = g->progress_ms,
			.heard_ms = g->heard_ms, .partial = g->partial,
		};
		if (g->stage < GUEST_TLS_DONE) {
			preauth_list_peek(&list, s, g->fd);
		}
	}
	return preauth_list_choose(&list, host);
}

/* Under the lock: makes room for a guest from host. */
static void make_room(struct gateway_front *front, const char *host) {
	int n_total = 0, n_same = 0;
	for (struct gateway_guest *g = front->guests; g; g = g->next) {
		if (is_guest(g)) {
			n_total++;
			n_same += strcmp(g->host, host) == 0;
		}
	}
	struct preauth_limits limits = front->limits;
	if (front->protocol == GATEWAY_VNC) {
		limits.per_address = gateway_web_pending_per_address(front->data, host,
			limits.per_address);
	}
	enum preauth_decision decision = preauth_decide(&limits, n_total, n_same);
	if (decision == PREAUTH_ADMIT) {
		return;
	}
	struct gateway_guest *victim = guest_to_give_way(front,
		decision == PREAUTH_EVICT_SAME_ADDRESS ? host : NULL);
	if (victim) {
		gateway_log("%s: %s gives way to a newer connection "
			"(too many still logging in)", front->name, victim->host);
		victim->evicted = true;
		/* Its thread wakes from any wait on the socket, and ends. */
		shutdown(victim->fd, SHUT_RDWR);
	}
}

void gateway_guest_heard(struct gateway_guest *guest) {
	struct gateway_front *front = guest->front;
	pthread_mutex_lock(&front->lock);
	guest->heard_ms = monotonic_ms();
	pthread_mutex_unlock(&front->lock);
	guest->woke = true;
}

void gateway_guest_waits(struct gateway_guest *guest) {
	/*
	 * Only a TLS handshake is judged so: its client writes each flight
	 * whole, where plaintext steps may come a byte at a time (and after
	 * TLS, FreeRDP's steps are not seen here); those are judged by time.
	 */
	if (!guest->woke || !guest->handshaking) {
		return;
	}
	struct gateway_front *front = guest->front;
	pthread_mutex_lock(&front->lock);
	guest->partial = true;
	pthread_mutex_unlock(&front->lock);
}

void gateway_guest_reached(struct gateway_guest *guest, enum gateway_guest_stage stage) {
	struct gateway_front *front = guest->front;
	pthread_mutex_lock(&front->lock);
	if ((int)stage > guest->stage) {
		guest->stage = (int)stage;
		guest->progress_ms = monotonic_ms();
		guest->partial = false;
		guest->woke = false;
	}
	pthread_mutex_unlock(&front->lock);
}

void gateway_guest_progressed(struct gateway_guest *guest) {
	struct gateway_front *front = guest->front;
	pthread_mutex_lock(&front->lock);
	guest->progress_ms = monotonic_ms();
	guest->partial = false;
	pthread_mutex_unlock(&front->lock);
	guest->woke = false;
}

void gateway_guest_checking(struct gateway_guest *guest, bool checking) {
	struct gateway_front *front = guest->front;
	pthread_mutex_lock(&front->lock);
	guest->checking = checking;
	pthread_mutex_unlock(&front->lock);
}

void gateway_guest_extend(struct gateway_guest *guest, int ms) {
	struct gateway_front *front = guest->front;
	pthread_mutex_lock(&front->lock);
	guest->deadline_ms = monotonic_ms() + ms;
	pthread_mutex_unlock(&front->lock);
}

bool gateway_guest_logged_in(struct gateway_guest *guest) {
	struct gateway_front *front = guest->front;
	pthread_mutex_lock(&front->lock);
	bool in = !guest->evicted;
	guest->logged_in = in;
	pthread_mutex_unlock(&front->lock);
	return in;
}

void gateway_guest_relaying(struct gateway_guest *guest) {
	struct gateway_front *front = guest->front;
	pthread_mutex_lock(&front->lock);
	guest->relaying = true;
	/* A stop that came meanwhile did not see it relaying. */
	if (front->stopping) {
		shutdown(guest->fd, SHUT_RDWR);
	}
	pthread_mutex_unlock(&front->lock);
}

void gateway_guest_done(struct gateway_guest *guest) {
	struct gateway_front *front = guest->front;
	pthread_mutex_lock(&front->lock);
	for (struct gateway_guest **p = &front->guests; *p; p = &(*p)->next) {
		if (*p == guest) {
			*p = guest->next;
			break;
		}
	}
	front->n_guests--;
	pthread_cond_broadcast(&front->guests_gone);
	pthread_mutex_unlock(&front->lock);
	/* Only now: while listed, its number may be shut down by others. */
	close(guest->fd);
	free(guest);
}

static void *guest_thread(void *data) {
	struct gateway_guest *guest = data;
	guest->front->login(guest);
	return NULL;
}

static void admit(struct gateway_front *front, int fd) {
	struct gateway_guest *guest = calloc(1, sizeof(*guest));
	if (!guest) {
		close(fd);
		return;
	}
	guest->front = front;
	guest->fd = fd;
	gateway_worker_connection();
	peer_host(fd, guest->host, sizeof(guest->host));
	gateway_log_debug("%s: a connection from %s", front->name, guest->host);
	guest->started_ms = monotonic_ms();
	guest->heard_ms = guest->started_ms;
	guest->deadline_ms = guest->started_ms + front->config->handshake_timeout * 1000;

	pthread_mutex_lock(&front->lock);
	make_room(front, guest->host);
	guest->next = front->guests;
	front->guests = guest;
	front->n_guests++;
	pthread_mutex_unlock(&front->lock);

	pthread_attr_t attr;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	pthread_t thread;
	int err = pthread_create(&thread, &attr, guest_thread, guest);
	pthread_attr_destroy(&attr);
	if (err != 0) {
		gateway_log("%s: no thread for %s: %s", front->name, guest->host,
			strerror(err));
		gateway_guest_done(guest);
	}
}

/*
 * Shuts down the sockets of guests past their deadline (not one whose
 * account is being checked); returns the ms until the next deadline, or -1.
 */
static int expire_guests(struct gateway_front *front) {
	int64_t now = monotonic_ms(), next = -1;
	pthread_mutex_lock(&front->lock);
	for (struct gateway_guest *g = front->guests; g; g = g->next) {
		if (!may_give_way(g)) {
			continue;
		}
		if (g->deadline_ms <= now) {
			g->evicted = true;
			shutdown(g->fd, SHUT_RDWR);
		} else if (next < 0 || g->deadline_ms - now < next) {
			next = g->deadline_ms - now;
		}
	}
	pthread_mutex_unlock(&front->lock);
	/* A guest checking now may be back at its wait later: look again then. */
	return next < 0 || next > 1000 ? 1000 : (int)next;
}

/* Connections taken in one go from a listener, before the deadlines are looked at again. */
#define ACCEPT_BATCH 64

static void *accept_thread(void *data) {
	struct gateway_front *front = data;
	struct pollfd fds[GATEWAY_FRONT_MAX_LISTEN + 1];
	for (int i = 0; i < front->n_listen; i++) {
		fds[i] = (struct pollfd){ .fd = front->listen_fds[i], .events = POLLIN };
	}
	fds[front->n_listen] = (struct pollfd){ .fd = front->stop_fd, .events = POLLIN };
	int64_t next_expiry = 0;
	for (;;) {
		/* The VNC logins wait on nothing but the guest's socket, each by its deadline. */
		int timeout = -1;
		if (front->protocol == GATEWAY_RDP) {
			int64_t now = monotonic_ms();
			if (now >= next_expiry) {
				next_expiry = now + expire_guests(front);
			}
			timeout = (int)(next_expiry - now);
		}
		if (poll(fds, (nfds_t)front->n_listen + 1, timeout) < 0 && errno != EINTR) {
			break;
		}
		if (fds[front->n_listen].revents) {
			break;
		}
		for (int i = 0; i < front->n_listen; i++) {
			for (int n = 0; fds[i].revents && n < ACCEPT_BATCH; n++) {
				int fd = accept4(fds[i].fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
				if (fd >= 0) {
					admit(front, fd);
					continue;
				}
				if (errno == EMFILE || errno == ENFILE) {
					/* Out of descriptors: guests end by their deadlines. */
					struct timespec pause = { 0, 100 * 1000 * 1000 };
					nanosleep(&pause, NULL);
				}
				break;
			}
		}
	}
	return NULL;
}

static void front_free(struct gateway_front *front) {
#if HAVE_RDP
	if (front->protocol == GATEWAY_RDP) {
		gateway_rdp_front_finish(front);
	}
#endif
	if (front->protocol == GATEWAY_VNC) {
		gateway_web_destroy(front->data);
	}
	tls_identity_finish(&front->tls);
	for (int i = 0; i < front->n_listen; i++) {
		close(front->listen_fds[i]);
	}
	if (front->stop_fd >= 0) {
		close(front->stop_fd);
	}
	pthread_mutex_destroy(&front->lock);
	pthread_cond_destroy(&front->guests_gone);
	free(front);
}

int gateway_front_listen(const struct gateway_config *config,
		enum gateway_protocol protocol, int *fds, int max, char *error,
		size_t error_size) {
	char *const *listen = protocol == GATEWAY_RDP ? config->rdp_listen : config->vnc_listen;
	int n_listen = protocol == GATEWAY_RDP ? config->n_rdp_listen : config->n_vnc_listen;
	int n_fds = 0;
	for (int i = 0; i < n_listen; i++) {
		int room = (max < GATEWAY_FRONT_MAX_LISTEN ? max : GATEWAY_FRONT_MAX_LISTEN) - n_fds;
		int n = room > 0 ? remote_listen_tcp(listen[i], fds + n_fds, room, error,
			error_size) : 0;
		if (n == 0) {
			if (room <= 0) {
				snprintf(error, error_size, "too many listening addresses");
			}
			for (int j = 0; j < n_fds; j++) {
				close(fds[j]);
			}
			return 0;
		}
		n_fds += n;
	}
	return n_fds;
}

struct gateway_front *gateway_front_create(const struct gateway_config *config,
		enum gateway_protocol protocol, const int *listen_fds, int n_listen, int broker_fd,
		char *error, size_t error_size) {
	struct gateway_front *front = calloc(1, sizeof(*front));
	if (!front) {
		snprintf(error, error_size, "out of memory");
		return NULL;
	}
	front->config = config;
	front->protocol = protocol;
	front->name = protocol == GATEWAY_RDP ? "RDP" : "VNC";
	front->login = gateway_vnc_login;
	front->limits = (struct preauth_limits){
		.per_address = config->max_pending_per_address, .total = config->max_pending,
	};
	front->broker_fd = broker_fd;
	front->stop_fd = -1;
	pthread_mutex_init(&front->lock, NULL);
	pthread_cond_init(&front->guests_gone, NULL);
	for (int i = 0; i < n_listen && i < GATEWAY_FRONT_MAX_LISTEN; i++) {
		front->listen_fds[front->n_listen++] = listen_fds[i];
	}
	if (!tls_identity_init(&front->tls, config->tls_cert, config->tls_key, error,
			error_size)) {
		goto fail;
	}
	if (protocol == GATEWAY_VNC &&
			!(front->data = gateway_web_create(config, error, error_size))) {
		goto fail;
	}
#if HAVE_RDP
	if (protocol == GATEWAY_RDP) {
		front->login = gateway_rdp_login;
		if (!gateway_rdp_front_init(front)) {
			snprintf(error, error_size, "cannot set RDP up");
			goto fail;
		}
	}
#else
	if (protocol == GATEWAY_RDP) {
		snprintf(error, error_size, "oriel-gateway was built without RDP");
		goto fail;
	}
#endif
	front->stop_fd = eventfd(0, EFD_CLOEXEC);
	if (front->stop_fd < 0) {
		snprintf(error, error_size, "no eventfd: %s", strerror(errno));
		goto fail;
	}
	return front;

fail:
	front_free(front);
	return NULL;
}

bool gateway_front_run(struct gateway_front *front, char *error, size_t error_size) {
	/* Signals stay with the main thread. */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	int err = pthread_create(&front->accept_thread, NULL, accept_thread, front);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err != 0) {
		snprintf(error, error_size, "cannot start accepting: %s", strerror(err));
		return false;
	}
	front->running = true;
	return true;
}

void gateway_front_stop(struct gateway_front *front) {
	if (!front) {
		return;
	}
	uint64_t one = 1;
	if (front->running) {
		if (write(front->stop_fd, &one, sizeof(one)) < 0) {
			/* A fresh eventfd takes it. */
		}
		pthread_join(front->accept_thread, NULL);
	}
	/* Every guest stops, and every relay; a hand-over already under way finishes first. */
	pthread_mutex_lock(&front->lock);
	front->stopping = true;
	for (struct gateway_guest *g = front->guests; g; g = g->next) {
		if (!g->logged_in || g->relaying) {
			g->evicted = true;
			shutdown(g->fd, SHUT_RDWR);
		}
	}
	while (front->n_guests > 0) {
		pthread_cond_wait(&front->guests_gone, &front->lock);
	}
	pthread_mutex_unlock(&front->lock);
	front_free(front);
}
