/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <pthread.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "remote/handover.h"
#include "common/util.h"
#include "gateway/gateway_config.h"
#include "gateway/gateway_log.h"
#include "gateway/gateway_login_policy.h"
#include "gateway/gateway_registry.h"
#include "gateway/gateway_session_start.h"
#include "gateway/gateway_sessions.h"

#define MAX_BUSY 256

/*
 * The lock guards only the list of users whose session is being looked
 * up or started: nobody holds it while connecting to a session or
 * starting one, so a session that does not answer holds up only its own
 * user's logins.
 */
struct gateway_sessions {
	const struct gateway_config *config;
	pthread_mutex_t lock;
	pthread_cond_t done; /* a look-up or start finished: look at busy again */
	char *busy[MAX_BUSY]; /* users whose session is being looked up or started */
};

struct gateway_sessions *gateway_sessions_create(const struct gateway_config *config) {
	struct gateway_sessions *sessions = zalloc(sizeof(*sessions));
	sessions->config = config;
	pthread_mutex_init(&sessions->lock, NULL);
	pthread_cond_init(&sessions->done, NULL);
	return sessions;
}

void gateway_sessions_destroy(struct gateway_sessions *sessions) {
	if (!sessions) {
		return;
	}
	pthread_cond_destroy(&sessions->done);
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

/* Under the lock: whether user's session is being looked up or started. */
static bool is_busy(struct gateway_sessions *sessions, const char *user) {
	for (int i = 0; i < MAX_BUSY; i++) {
		if (sessions->busy[i] && strcmp(sessions->busy[i], user) == 0) {
			return true;
		}
	}
	return false;
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
		int saved = errno;
		snprintf(error, error_size, "cannot reach %s's session at %s: %s", user, path,
			saved == ETIMEDOUT ? "it does not answer" : strerror(saved));
		errno = saved;
	}
	return sock;
}

/*
 * The newest running session of user that answers, or -1. *silent: she
 * has one, but none answers (errno ETIMEDOUT).
 */
static int connect_running(struct gateway_sessions *sessions, const char *user,
		bool *silent, char *error, size_t error_size) {
	struct gateway_session_info *found;
	int n = gateway_registry_scan(sessions->config->runtime_dir, user, &found);
	int sock = -1;
	*silent = false;
	for (int i = 0; i < n && sock < 0; i++) {
		if (!found[i].answers) {
			*silent = true;
			snprintf(error, error_size, "%s's session at %s does not answer", user,
				found[i].socket);
			continue;
		}
		sock = connect_session(found[i].socket, user, error, error_size);
		*silent = *silent || (sock < 0 && errno == ETIMEDOUT);
	}
	free(found);
	if (sock < 0 && *silent) {
		errno = ETIMEDOUT;
	}
	return sock;
}

/* Under the lock: marks user busy; false when there is no room. */
static bool mark_busy(struct gateway_sessions *sessions, const char *user) {
	for (int i = 0; i < MAX_BUSY; i++) {
		if (!sessions->busy[i]) {
			sessions->busy[i] = xstrdup(user);
			return true;
		}
	}
	return false;
}

static void unmark_busy(struct gateway_sessions *sessions, const char *user) {
	pthread_mutex_lock(&sessions->lock);
	for (int i = 0; i < MAX_BUSY; i++) {
		if (sessions->busy[i] && strcmp(sessions->busy[i], user) == 0) {
			free(sessions->busy[i]);
			sessions->busy[i] = NULL;
			break;
		}
	}
	pthread_cond_broadcast(&sessions->done);
	pthread_mutex_unlock(&sessions->lock);
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

	/*
	 * One look-up or start per user at a time: her second login waits
	 * for the first's session (unless each login gets a new one).
	 */
	pthread_mutex_lock(&sessions->lock);
	while (policy != GATEWAY_RECONNECT_NEW && is_busy(sessions, user)) {
		pthread_cond_wait(&sessions->done, &sessions->lock);
	}
	bool room = mark_busy(sessions, user);
	pthread_mutex_unlock(&sessions->lock);
	if (!room) {
		snprintf(error, error_size, "too many sessions are starting at once");
		return -1;
	}

	bool silent = false;
	int sock = policy == GATEWAY_RECONNECT_NEW ? -1 :
		connect_running(sessions, user, &silent, error, error_size);
	if (sock < 0 && !silent) {
		/* Her session never answering is hers to fix: no second one behind its back. */
		char path[4200];
		if (gateway_session_start(sessions->config, user, path, sizeof(path), error,
				error_size)) {
			sock = connect_session(path, user, error, error_size);
		} else {
			gateway_log("cannot start %s's session: %s", user, error);
		}
	}
	int saved = errno;
	unmark_busy(sessions, user);
	errno = sock < 0 ? saved : 0;
	return sock;
}
