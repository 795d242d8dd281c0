/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_GATEWAY_SESSION_START_H
#define ORIEL_GATEWAY_SESSION_START_H

/*
 * Starting one user's session, as xrdp's sesman and TigerVNC's
 * vncsession do. The gateway makes the session's runtime dir
 * (RUNTIME_DIR/USER.N, mode 0700, the user's) and starts a monitor: a
 * root process of its own (double fork, setsid, an exec of
 * oriel-session-monitor) that outlives the gateway. The monitor opens a PAM
 * session, runs `oriel --dbus spawn --backend headless
 * --handover-socket DIR/handover ... -- SHELL -lc COMMAND` as the user,
 * and when that ends, ends what is left of the session, closes the PAM
 * session and removes the runtime dir.
 */

#include <stdbool.h>
#include <stddef.h>

struct gateway_config;

/* How long a session has to answer on its hand-over socket. */
#define GATEWAY_SESSION_START_TIMEOUT_MS 10000

/*
 * Starts user's session and waits until its hand-over socket answers.
 * True with the socket's path in socket_path; false with a sentence in
 * error. Safe to call from several threads.
 */
bool gateway_session_start(const struct gateway_config *config, const char *user,
	char *socket_path, size_t path_size, char *error, size_t error_size);

#endif
