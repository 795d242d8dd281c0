/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_GATEWAY_WORKER_H
#define ORIEL_GATEWAY_WORKER_H

/*
 * The gateway's network side: one process, this program run again with
 * --worker=, that takes every connection from accept() to the hand-over
 * (TLS, RFB and VeNCrypt, X.224, FreeRDP up to Client Info or through
 * the logon screen), and the RDP relay. It starts
 * as root only to load the certificate and key, then, before it reads a
 * byte from the network, runs as an unprivileged user with no
 * capabilities, no new privileges, an empty root and a seccomp filter
 * (gateway_sandbox.h). What needs root it asks of the broker
 * (gateway_broker.h) over a socketpair. The broker binds the ports, and
 * starts a new worker when one ends.
 */

#include <stdbool.h>
#include <sys/types.h>

struct gateway_config;
struct gateway_broker_request;
struct gateway_broker_reply;

/* The broker's end of the socketpair in the worker; its listeners follow. */
#define GATEWAY_WORKER_BROKER_FD 3

/*
 * Broker side: forks and runs this program as the worker, with argv (the
 * gateway's own arguments), control_fd (the worker's end of the
 * socketpair) and the listeners, n_vnc VNC ones then n_rdp RDP ones.
 * test_hook: NULL, or what the worker tries when a connection comes
 * (builds for tests only). The worker's pid, or -1.
 */
pid_t gateway_worker_spawn(char *const argv[], int control_fd, const int *listen_fds,
	int n_vnc, int n_rdp, const char *test_hook);

/* The worker's main: spec is what follows --worker=. Returns only on failure. */
int gateway_worker_main(const struct gateway_config *config, const char *spec);

/*
 * In the worker: sends request to the broker and waits up to timeout_ms
 * for its reply, and the socket that comes with it into *fd (else -1).
 * False when the broker did not answer.
 */
bool gateway_broker_call(int broker_fd, const struct gateway_broker_request *request,
	struct gateway_broker_reply *reply, int *fd, int timeout_ms);

/* A connection came: the test hook's moment (a no-op in packages). */
void gateway_worker_connection(void);

#endif
