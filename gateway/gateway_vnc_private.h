/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_GATEWAY_VNC_PRIVATE_H
#define ORIEL_GATEWAY_VNC_PRIVATE_H

#include <pthread.h>
#include <stdint.h>
#include "capture/remote/auth_throttle.h"
#include "capture/remote/preauth_limits.h"
#include "capture/remote/tls_identity.h"
#include "gateway/gateway_vnc.h"

#define GATEWAY_VNC_MAX_LISTEN 16

/* A connection that has not logged in yet, on a thread of its own. */
struct gateway_guest {
	struct gateway_vnc *vnc;
	int fd;
	char host[64];
	int64_t started_ms;
	int64_t deadline_ms;
	/* Under the gateway's lock: */
	int64_t heard_ms; /* when its last bytes arrived (or it connected) */
	bool checking;  /* its account is being checked: it gives way to nobody */
	bool evicted;   /* another guest took its place: its socket is shut down */
	bool logged_in; /* handing over: no longer a guest, and never shut down */
	struct gateway_guest *next;
};

struct gateway_vnc {
	const struct gateway_config *config;
	struct preauth_limits limits;
	struct gateway_sessions *sessions;
	struct tls_identity tls;
	struct account_checker *checker;
	int listen_fds[GATEWAY_VNC_MAX_LISTEN];
	int n_listen;
	int stop_fd; /* eventfd: the accepting thread ends */
	pthread_t accept_thread;

	pthread_mutex_t lock; /* what follows */
	pthread_cond_t guests_gone;
	struct gateway_guest *guests;
	int n_guests;
	bool stopping;
	struct auth_throttle throttle;
};

int64_t gateway_now_ms(void);

/* gateway_vnc_login.c: one guest's handshake, login and hand-over. */
void gateway_vnc_login(struct gateway_guest *guest);

/* gateway_vnc.c */
/* The guest logged in: it stops being one. False when it was evicted before. */
bool gateway_guest_logged_in(struct gateway_guest *guest);
/* Bytes from the guest arrived: it is not idle. */
void gateway_guest_heard(struct gateway_guest *guest);
/* Its credentials are being checked (true), or no longer (false). */
void gateway_guest_checking(struct gateway_guest *guest, bool checking);
/* The guest's thread is done with it: closes its socket (the gateway's copy) and frees it. */
void gateway_guest_done(struct gateway_guest *guest);

#endif
