/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <pthread.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "capture/remote/handover.h"
#include "compositor/util.h"
#include "gateway/gateway_config.h"
#include "gateway/gateway_log.h"
#include "gateway/gateway_login_policy.h"
#include "gateway/gateway_registry.h"
#include "gateway/gateway_session_start.h"
#include "gateway/gateway_sessions.h"

#define MAX_STARTING 256

struct gateway_sessions {
	const struct gateway_config *config;
	pthread_mutex_t lock;
	pthread_cond_t started; /* a start finished: look at starting again */
	char *starting[MAX_STARTING]; /* users whose session is being started */
};

struct gateway_sessions *gateway_sessions_create(const struct gateway_config *config) {
	struct gateway_sessions *sessions = zalloc(sizeof(*sessions));
	sessions->config = config;
	pthread_mutex_init(&sessions->lock, NULL);
	pthread_cond_init(&sessions->started, NULL);
	return sessions;
}

void gateway_sessions_destroy(struct gateway_sessions *sessions) {
	if (!sessions) {
		return;
	}
	pthread_cond_destroy(&sessions->started);
	pthread_mutex_destroy(&sessions->lock);
	free(sessions);
}

bool gateway_sessions_allowed(struct gateway_sessions *sessions, const char *user,
		char *error, size_t error_size) {
	char reason[256];
	if (!gateway_login_policy_check(sessions->config, user, reason, sizeof(reason))) {
		snprintf(error, error_size, "%s may not log in: %s", user, reason);
		return false;
	}
	return true;
}

static int starting_slot(struct gateway_sessions *sessions, const char *user) {
	for (int i = 0; i < MAX_STARTING; i++) {
		if (sessions->starting[i] && strcmp(sessions->starting[i], user) == 0) {
			return i;
		}
	}
	return -1;
}

/* Connects to the socket at path, served by uid. */
static int connect_session(const char *path, const char *user, char *error,
		size_t error_size) {
	char buf[4096];
	struct passwd pw, *found = NULL;
	if (getpwnam_r(user, &pw, buf, sizeof(buf), &found) != 0 || !found) {
		snprintf(error, error_size, "%s has no account here", user);
		return -1;
	}
	pid_t pid;
	int sock = handover_connect(path, pw.pw_uid, &pid);
	if (sock < 0) {
		snprintf(error, error_size, "cannot reach %s's session at %s: %s", user, path,
			strerror(errno));
	}
	return sock;
}

/* The newest running session of user, or -1. */
static int connect_running(struct gateway_sessions *sessions, const char *user,
		char *error, size_t error_size) {
	struct gateway_session_info *found;
	int n = gateway_registry_scan(sessions->config->runtime_dir, user, &found);
	int sock = -1;
	for (int i = 0; i < n && sock < 0; i++) {
		sock = connect_session(found[i].socket, user, error, error_size);
	}
	free(found);
	return sock;
}

int gateway_sessions_connect(struct gateway_sessions *sessions, const char *user,
		uint16_t *handover_flags, char *error, size_t error_size) {
	if (!gateway_sessions_allowed(sessions, user, error, error_size)) {
		return -1;
	}
	enum gateway_reconnect policy = sessions->config->reconnect;
	if (policy == GATEWAY_RECONNECT_TAKE_OVER) {
		*handover_flags |= HANDOVER_TAKE_OVER;
	}

	/* One start per user at a time: her second login waits for the first's session. */
	pthread_mutex_lock(&sessions->lock);
	int slot;
	while (policy != GATEWAY_RECONNECT_NEW && starting_slot(sessions, user) >= 0) {
		pthread_cond_wait(&sessions->started, &sessions->lock);
	}
	int sock = policy == GATEWAY_RECONNECT_NEW ? -1 :
		connect_running(sessions, user, error, error_size);
	if (sock >= 0) {
		pthread_mutex_unlock(&sessions->lock);
		return sock;
	}
	for (slot = 0; slot < MAX_STARTING && sessions->starting[slot]; slot++) {
	}
	if (slot == MAX_STARTING) {
		pthread_mutex_unlock(&sessions->lock);
		snprintf(error, error_size, "too many sessions are starting at once");
		return -1;
	}
	sessions->starting[slot] = xstrdup(user);
	pthread_mutex_unlock(&sessions->lock);

	char path[4200];
	if (gateway_session_start(sessions->config, user, path, sizeof(path), error,
			error_size)) {
		sock = connect_session(path, user, error, error_size);
	} else {
		gateway_log("cannot start %s's session: %s", user, error);
	}

	pthread_mutex_lock(&sessions->lock);
	free(sessions->starting[slot]);
	sessions->starting[slot] = NULL;
	pthread_cond_broadcast(&sessions->started);
	pthread_mutex_unlock(&sessions->lock);
	return sock;
}
