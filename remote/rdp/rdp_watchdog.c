/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>
#include <wlr/util/log.h>
#include "remote/rdp/rdp_private.h"
#include "common/util.h"

/*
 * FreeRDP's server waits for its client inside some calls: the TLS
 * handshake polls until the client answers, and a write waits until the
 * socket takes it all. oriel calls FreeRDP from its event loop, so a
 * client that stalls there would stall the compositor. Around each call
 * the peer's socket is armed here; if the call has not returned in time,
 * this thread shuts the socket down, the call fails, and only that client
 * is dropped. It sleeps on a condition variable: no wakeups while idle.
 */

struct rdp_watchdog {
	pthread_t thread;
	pthread_mutex_t mutex;
	pthread_cond_t cond;
	bool quit;
	int fd; /* armed: >= 0 */
	struct timespec deadline;
};

static void *run(void *data) {
	struct rdp_watchdog *wd = data;
	pthread_mutex_lock(&wd->mutex);
	while (!wd->quit) {
		if (wd->fd < 0) {
			pthread_cond_wait(&wd->cond, &wd->mutex);
			continue;
		}
		int rc = pthread_cond_timedwait(&wd->cond, &wd->mutex, &wd->deadline);
		if (rc == ETIMEDOUT && wd->fd >= 0) {
			shutdown(wd->fd, SHUT_RDWR);
			wd->fd = -1;
		}
	}
	pthread_mutex_unlock(&wd->mutex);
	return NULL;
}

struct rdp_watchdog *rdp_watchdog_create(void) {
	struct rdp_watchdog *wd = zalloc(sizeof(*wd));
	wd->fd = -1;
	pthread_mutex_init(&wd->mutex, NULL);
	pthread_condattr_t attr;
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&wd->cond, &attr);
	pthread_condattr_destroy(&attr);
	/* Signals are the event loop's (signalfd): never this thread's. */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	int rc = pthread_create(&wd->thread, NULL, run, wd);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc != 0) {
		wlr_log(WLR_ERROR, "RDP: cannot start the watchdog thread");
		pthread_cond_destroy(&wd->cond);
		pthread_mutex_destroy(&wd->mutex);
		free(wd);
		return NULL;
	}
	return wd;
}

void rdp_watchdog_destroy(struct rdp_watchdog *wd) {
	if (!wd) {
		return;
	}
	pthread_mutex_lock(&wd->mutex);
	wd->quit = true;
	pthread_cond_signal(&wd->cond);
	pthread_mutex_unlock(&wd->mutex);
	pthread_join(wd->thread, NULL);
	pthread_cond_destroy(&wd->cond);
	pthread_mutex_destroy(&wd->mutex);
	free(wd);
}

void rdp_watchdog_arm(struct rdp_watchdog *wd, int fd, int timeout_ms) {
	pthread_mutex_lock(&wd->mutex);
	clock_gettime(CLOCK_MONOTONIC, &wd->deadline);
	wd->deadline.tv_sec += timeout_ms / 1000;
	wd->deadline.tv_nsec += (long)(timeout_ms % 1000) * 1000000;
	if (wd->deadline.tv_nsec >= 1000000000) {
		wd->deadline.tv_sec++;
		wd->deadline.tv_nsec -= 1000000000;
	}
	wd->fd = fd;
	pthread_cond_signal(&wd->cond);
	pthread_mutex_unlock(&wd->mutex);
}

void rdp_watchdog_disarm(struct rdp_watchdog *wd) {
	pthread_mutex_lock(&wd->mutex);
	wd->fd = -1;
	pthread_mutex_unlock(&wd->mutex);
}
