/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_GATEWAY_REGISTRY_H
#define ORIEL_GATEWAY_REGISTRY_H

/*
 * The running sessions, found again from their hand-over sockets under
 * the runtime dir (RUNTIME_DIR/USER.N/handover), so that a restarted
 * gateway, --list and --terminate keep no state of their own. A session
 * counts when its socket answers as the dir's owner (SO_PEERCRED), or
 * when it is there but does not take the connection in time (listed as
 * not answering). Every wait has a deadline (handover.h).
 */

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <stdio.h>
#include <time.h>

struct gateway_session_info {
	char dir[4096];      /* RUNTIME_DIR/USER.N */
	char socket[4200];   /* its hand-over socket */
	char user[64];
	uid_t uid;
	pid_t pid;           /* the session's oriel */
	time_t started;      /* when that oriel started */
	int clients;         /* -1 when it did not say */
	/*
	 * It took the connection and answered a STATUS request in time;
	 * false: its socket is there but it does not answer (pid 0 when it
	 * did not even take the connection).
	 */
	bool answers;
	long pss_kib;        /* all its processes; filled by gateway_registry_measure */
};

/*
 * The sessions under runtime_dir, of user only when user is not NULL,
 * newest first. *sessions is malloc'd (free it); returns how many, or -1
 * with errno.
 */
int gateway_registry_scan(const char *runtime_dir, const char *user,
	struct gateway_session_info **sessions);
/* Sums the PSS of every process of the session. */
void gateway_registry_measure(struct gateway_session_info *session);

/* Prints the --list table. */
void gateway_registry_print(FILE *out, const struct gateway_session_info *sessions, int n);

/*
 * SIGTERMs user's sessions and waits up to timeout_ms for their runtime
 * dirs to go. Returns how many ended, or -1 when some did not in time.
 */
int gateway_registry_terminate(const char *runtime_dir, const char *user, int timeout_ms);

#endif
