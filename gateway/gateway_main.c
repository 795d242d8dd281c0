/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "oriel-config.h"
#include "remote/tls_identity.h"
#include "common/util.h"
#include "gateway/gateway_log.h"
#include "gateway/gateway_config.h"
#include "gateway/gateway_registry.h"
#include "gateway/gateway_session_start.h"
#include "gateway/gateway_sessions.h"

/* How long --terminate waits for the sessions' cleanup. */
#define TERMINATE_TIMEOUT_MS 20000

#include "gateway/gateway_broker.h"
#include "gateway/gateway_front.h"
#include "gateway/gateway_guests.h" /* GATEWAY_FRONT_MAX_LISTEN */
#include "gateway/gateway_worker.h"

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

/* Starts of the network worker: at most one a second. */
#define WORKER_RESTART_MS 1000

/* The broker's keeping of its worker: one at a time, a new one when it ends. */
struct supervisor {
	const struct gateway_config *config;
	char **argv;
	struct gateway_broker *broker;
	int listen_fds[2 * GATEWAY_FRONT_MAX_LISTEN];
	int n_vnc, n_rdp;
	const char *test_hook; /* the first worker's */
	pthread_t thread;
	pthread_mutex_t lock; /* what follows */
	bool stopping;
	pid_t worker;
};

static void log_worker_end(pid_t pid, int status) {
	if (WIFSIGNALED(status)) {
		const char *name = sigabbrev_np(WTERMSIG(status));
		gateway_log("the network worker (pid %d) was killed by SIG%s; starting "
			"another", (int)pid, name ? name : "?");
	} else {
		gateway_log("the network worker (pid %d) exited with status %d; starting "
			"another", (int)pid, WEXITSTATUS(status));
	}
}

static void *supervise(void *data) {
	struct supervisor *s = data;
	int64_t started_ms = monotonic_ms() - WORKER_RESTART_MS;
	const char *test_hook = s->test_hook;
	for (;;) {
		int64_t wait = started_ms + WORKER_RESTART_MS - monotonic_ms();
		if (wait > 0) {
			struct timespec pause = { wait / 1000, (wait % 1000) * 1000000 };
			nanosleep(&pause, NULL);
		}
		int pair[2] = { -1, -1 };
		pthread_mutex_lock(&s->lock);
		if (s->stopping) {
			pthread_mutex_unlock(&s->lock);
			break;
		}
		pid_t pid = -1;
		if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, pair) == 0) {
			pid = gateway_worker_spawn(s->argv, pair[1], s->listen_fds, s->n_vnc,
				s->n_rdp, test_hook);
			close(pair[1]);
		}
		s->worker = pid;
		pthread_mutex_unlock(&s->lock);
		started_ms = monotonic_ms();
		test_hook = NULL;
		if (pid < 0) {
			gateway_log("cannot start the network worker: %s", strerror(errno));
			if (pair[0] >= 0) {
				close(pair[0]);
			}
			continue;
		}
		/* Until the worker ends: its end of the socketpair closes with it. */
		gateway_broker_serve(s->broker, pair[0]);
		close(pair[0]);
		int status = 0;
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
		}
		pthread_mutex_lock(&s->lock);
		s->worker = -1;
		bool stopping = s->stopping;
		pthread_mutex_unlock(&s->lock);
		if (stopping) {
			break;
		}
		log_worker_end(pid, status);
	}
	return NULL;
}

/* The certificate, made here on first use (the worker loads it again), for the log. */
static bool log_certificate(const struct gateway_config *config, const char *front) {
	struct tls_identity tls = {0};
	char error[512] = "";
	if (!tls_identity_init(&tls, config->tls_cert, config->tls_key, error,
			sizeof(error))) {
		gateway_log("%s: %s", front, error);
		return false;
	}
	gateway_log("%s certificate SHA-256 %s", front, tls.fingerprint);
	tls_identity_finish(&tls);
	return true;
}

static int serve(const struct gateway_config *config, char **argv) {
	/* Signals are taken by sigwait below; every thread inherits the mask. */
	sigset_t signals;
	sigemptyset(&signals);
	sigaddset(&signals, SIGTERM);
	sigaddset(&signals, SIGINT);
	sigaddset(&signals, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &signals, NULL);
	signal(SIGPIPE, SIG_IGN);

	struct supervisor s = { .config = config, .argv = argv, .worker = -1 };
	pthread_mutex_init(&s.lock, NULL);
	struct gateway_sessions *sessions = gateway_sessions_create(config);
	char error[512] = "";
	int status = 1;
	s.broker = gateway_broker_create(config, sessions, error, sizeof(error));
	if (!s.broker) {
		gateway_log("%s", error);
		goto out;
	}
	if (config->n_vnc_listen > 0 && (s.n_vnc = gateway_front_listen(config, GATEWAY_VNC,
			s.listen_fds, GATEWAY_FRONT_MAX_LISTEN, error, sizeof(error))) == 0) {
		gateway_log("VNC: %s", error);
		goto out;
	}
	if (config->n_rdp_listen > 0 && (s.n_rdp = gateway_front_listen(config, GATEWAY_RDP,
			s.listen_fds + s.n_vnc, GATEWAY_FRONT_MAX_LISTEN, error,
			sizeof(error))) == 0) {
		gateway_log("RDP: %s", error);
		goto out;
	}
#if !HAVE_RDP
	if (s.n_rdp > 0) {
		gateway_log("RDP: oriel-gateway was built without RDP");
		goto out;
	}
#endif
	if ((s.n_vnc > 0 && !log_certificate(config, "VNC")) ||
			(s.n_rdp > 0 && !log_certificate(config, "RDP"))) {
		goto out;
	}
#if GATEWAY_TEST_HOOKS
	s.test_hook = getenv("ORIEL_GATEWAY_TEST_WORKER");
#endif
	int err = pthread_create(&s.thread, NULL, supervise, &s);
	if (err != 0) {
		gateway_log("cannot start the network worker: %s", strerror(err));
		goto out;
	}
	gateway_log("serving; sessions live in %s", config->runtime_dir);
	int sig = 0;
	while (sigwait(&signals, &sig) != 0 || sig == SIGHUP) {
		/* SIGHUP: nothing to reload yet; the sessions go on either way. */
	}
	gateway_log("signal %d: stopping; the sessions go on", sig);
	pthread_mutex_lock(&s.lock);
	s.stopping = true;
	if (s.worker > 0) {
		kill(s.worker, SIGTERM);
	}
	pthread_mutex_unlock(&s.lock);
	pthread_join(s.thread, NULL);
	status = 0;
out:
	for (int i = 0; i < s.n_vnc + s.n_rdp; i++) {
		close(s.listen_fds[i]);
	}
	gateway_broker_destroy(s.broker);
	gateway_sessions_destroy(sessions);
	pthread_mutex_destroy(&s.lock);
	return status;
}

int main(int argc, char *argv[]) {
	struct gateway_config config;
	struct gateway_command command;
	char error[512] = "";
	gateway_config_init(&config);
	/* The network worker, run by the broker: --worker=SPEC, then the gateway's arguments. */
	const char *worker = NULL;
	if (argc > 1 && strncmp(argv[1], "--worker=", 9) == 0) {
		worker = argv[1] + 9;
		argv[1] = argv[0];
		argc--;
		argv++;
	}
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
			status = worker ? gateway_worker_main(&config, worker) : serve(&config, argv);
			break;
		}
	}
	gateway_config_finish(&config);
	return status;
}
