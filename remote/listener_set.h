/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_REMOTE_LISTENER_SET_H
#define ORIEL_REMOTE_LISTENER_SET_H

/*
 * A remote-access server's listening sockets: opened from the options or
 * the control API, stopped by the address they were asked for, each
 * connection accepted here and handed to the server. The security rule
 * lives here too: without accounts, only loopback (and Unix sockets).
 */

#include <stdbool.h>
#include <stddef.h>
#include <wayland-server-core.h>

struct listener_set_impl {
	const char *name;    /* "VNC": in the log and in the errors */
	const char *option;  /* "vnc": a refusal names --vnc-users FILE and --vnc-pam */
	const char *clients; /* "viewers": who stay connected when a listener stops */
	bool unix_sockets;   /* a /PATH listens on a Unix socket */
	/* A new connection, non-blocking; local: it came through a Unix socket. */
	void (*accept)(void *data, int fd, bool local);
	/* Whether clients may log in from beyond loopback (its accounts). */
	bool (*beyond_loopback)(void *data);
	/* What "listening on ADDR:PORT" adds in the log; NULL for nothing. */
	const char *(*tcp_note)(void *data);
};

struct listener_set {
	struct wl_event_loop *loop;
	const struct listener_set_impl *impl;
	void *data;
	struct wl_list listeners; /* listener.link */
};

void listener_set_init(struct listener_set *set, struct wl_event_loop *loop,
	const struct listener_set_impl *impl, void *data);
/* Closes every listener (and unlinks its Unix socket); connections stay. */
void listener_set_finish(struct listener_set *set);

/* Listens on spec ([ADDR:]PORT or /PATH), as the options ask; false, logged, when it cannot. */
bool listener_set_open(struct listener_set *set, const char *spec);

/*
 * The control API's: listens on spec. 0, or -EINVAL (a bad address),
 * -EEXIST (listening there already), -EPERM (beyond loopback without
 * accounts) or -EADDRNOTAVAIL, with a sentence in error.
 */
int listener_set_start(struct listener_set *set, const char *spec, char *error,
	size_t error_size);

/* Stops listening on spec (connections stay): 0, -EINVAL or -ENOENT. */
int listener_set_stop(struct listener_set *set, const char *spec);

#endif
