/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "gateway/gateway_log.h"
#include "gateway/gateway_config.h"
#include "gateway/gateway_registry.h"
#include "gateway/gateway_session_start.h"
#include "gateway/gateway_sessions.h"

/* How long --terminate waits for the sessions' cleanup. */
#define TERMINATE_TIMEOUT_MS 20000

#include "gateway/gateway_front.h"

static int list_sessions(const struct gateway_config *config) {
	struct gateway_session_info *sessions;
	int n = gateway_registry_scan(config->runtime_dir, NULL, &sessions);
	if (n < 0) {
		gateway_log("%s: %s", config->runtime_dir, strerror(errno));
		return 1;
	}
	for (int i = 0; i < n; i++) {
		gateway_registry_measure(&sessions[i]);
	}
	gateway_registry_print(stdout, sessions, n);
	free(sessions);
	return 0;
}

static int terminate_sessions(const struct gateway_config *config, const char *user) {
	int n = gateway_registry_terminate(config->runtime_dir, user, TERMINATE_TIMEOUT_MS);
	if (n == 0) {
		gateway_log("%s has no session", user);
		return 1;
	}
	if (n < 0) {
		gateway_log("%s's sessions did not end within %d s", user,
			TERMINATE_TIMEOUT_MS / 1000);
		return 1;
	}
	printf("ended %d session%s of %s\n", n, n == 1 ? "" : "s", user);
	return 0;
}

/* --start: what a login does, without the login. */
static int start_session(const struct gateway_config *config, const char *user) {
	struct gateway_sessions *sessions = gateway_sessions_create(config);
	char error[512] = "";
	uint16_t flags = 0;
	int sock = gateway_sessions_connect(sessions, user, &flags, error, sizeof(error));
	gateway_sessions_destroy(sessions);
	if (sock < 0) {
		gateway_log("%s", error);
		return 1;
	}
	struct ucred cred;
	socklen_t len = sizeof(cred);
	if (getsockopt(sock, SOL_SOCKET, SO_PEERCRED, &cred, &len) == 0) {
		printf("%s's session: pid %d\n", user, (int)cred.pid);
	}
	close(sock);
	return 0;
}

static int serve(const struct gateway_config *config) {
	/* Signals are taken by sigwait below; every thread inherits the mask. */
	sigset_t signals;
	sigemptyset(&signals);
	sigaddset(&signals, SIGTERM);
	sigaddset(&signals, SIGINT);
	sigaddset(&signals, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &signals, NULL);
	signal(SIGPIPE, SIG_IGN);

	struct gateway_sessions *sessions = gateway_sessions_create(config);
	char error[512] = "";
	struct gateway_front *vnc = NULL, *rdp = NULL;
	if (config->n_vnc_listen > 0 && !(vnc = gateway_front_start(config, sessions,
			GATEWAY_VNC, error, sizeof(error)))) {
		gateway_log("VNC: %s", error);
		gateway_sessions_destroy(sessions);
		return 1;
	}
	if (config->n_rdp_listen > 0 && !(rdp = gateway_front_start(config, sessions,
			GATEWAY_RDP, error, sizeof(error)))) {
		gateway_log("RDP: %s", error);
		gateway_front_stop(vnc);
		gateway_sessions_destroy(sessions);
		return 1;
	}
	if (vnc) {
		gateway_log("VNC certificate SHA-256 %s", gateway_front_fingerprint(vnc));
	}
	if (rdp) {
		gateway_log("RDP certificate SHA-256 %s", gateway_front_fingerprint(rdp));
	}
	gateway_log("serving; sessions live in %s", config->runtime_dir);
	int sig = 0;
	while (sigwait(&signals, &sig) != 0 || sig == SIGHUP) {
		/* SIGHUP: nothing to reload yet; the sessions go on either way. */
	}
	gateway_log("signal %d: stopping; the sessions go on", sig);
	gateway_front_stop(vnc);
	gateway_front_stop(rdp);
	gateway_sessions_destroy(sessions);
	return 0;
}

int main(int argc, char *argv[]) {
	struct gateway_config config;
	struct gateway_command command;
	char error[512] = "";
	gateway_config_init(&config);
	if (!gateway_config_parse_args(&config, &command, argc, argv, error, sizeof(error))) {
		gateway_log("%s", error);
		gateway_config_finish(&config);
		return 2;
	}
	gateway_log_set_debug(command.debug);
	int status = 0;
	if (command.action != GATEWAY_HELP && command.action != GATEWAY_VERSION &&
			geteuid() != 0) {
		gateway_log("runs as root: it logs people in and starts "
			"their sessions");
		status = 1;
	} else {
		switch (command.action) {
		case GATEWAY_HELP:
			fputs(gateway_usage, stdout);
			break;
		case GATEWAY_VERSION:
			printf("oriel-gateway %s\n", ORIEL_VERSION);
			break;
		case GATEWAY_LIST:
			status = list_sessions(&config);
			break;
		case GATEWAY_START:
			status = start_session(&config, command.user);
			break;
		case GATEWAY_TERMINATE:
			status = terminate_sessions(&config, command.user);
			break;
		case GATEWAY_SERVE:
			status = serve(&config);
			break;
		}
	}
	gateway_config_finish(&config);
	return status;
}
