/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_GATEWAY_FRONT_H
#define ORIEL_GATEWAY_FRONT_H

/*
 * The gateway's network fronts, VNC and RDP, in its unprivileged worker
 * (gateway_worker.h): each takes the connections of its listeners, runs
 * each one's handshake and login (VNC: VeNCrypt X509Plain; RDP: TLS and
 * the Client Info PDU, then a Server Redirection back to the gateway),
 * has the login checked by the broker (gateway_broker.h), and hands the
 * logged-in client, with its TLS state, to the user's session on the
 * socket the broker gave (remote/handover.h). Connections still
 * logging in are guests with a deadline and per-address and total caps.
 * Each guest runs on a thread of its own, so a slow PAM or a session
 * that is starting never holds the others.
 */

#include <stdbool.h>
#include <stddef.h>

struct gateway_config;
struct gateway_front;

enum gateway_protocol {
	GATEWAY_VNC,
	GATEWAY_RDP,
};

/*
 * The broker binds config's vnc_listen or rdp_listen: up to max
 * listening sockets into fds. Their number, or 0 with a sentence in error.
 */
int gateway_front_listen(const struct gateway_config *config,
	enum gateway_protocol protocol, int *fds, int max, char *error, size_t error_size);

/*
 * The worker's front on n_listen listeners (taken), with its certificate
 * and key loaded, asking broker_fd for what needs root. It reads no file
 * once made. config must stay. NULL, with a sentence in error.
 */
struct gateway_front *gateway_front_create(const struct gateway_config *config,
	enum gateway_protocol protocol, const int *listen_fds, int n_listen, int broker_fd,
	char *error, size_t error_size);
/* Starts accepting, until gateway_front_stop. False with a sentence in error. */
bool gateway_front_run(struct gateway_front *front, char *error, size_t error_size);
/* Closes the listeners and every guest; sessions and their clients go on. NULL: no-op. */
void gateway_front_stop(struct gateway_front *front);

#endif
