/* SPDX-License-Identifier: MIT */
#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "remote/handover.h"
#include "gateway/gateway_procs.h"
#include "gateway/gateway_registry.h"

#define MAX_SESSION_PROCS 1024

/* Its client count, -1 when the session does not answer. */
static int session_clients(int sock) {
	struct handover_reply reply;
	return handover_status(sock, 2000, &reply) ? (int)reply.clients : -1;
}

/* Fills session from ROOT/NAME when it is a live session; false otherwise. */
static bool probe(const char *root, const char *name, const char *user,
		struct gateway_session_info *session) {
	memset(session, 0, sizeof(*session));
	snprintf(session->dir, sizeof(session->dir), "%s/%s", root, name);
	struct stat st;
	if (lstat(session->dir, &st) < 0 || !S_ISDIR(st.st_mode) || st.st_uid == 0) {
		return false;
	}
	char buf[4096];
	struct passwd pw, *found = NULL;
	getpwuid_r(st.st_uid, &pw, buf, sizeof(buf), &found);
	if (!found || (user && strcmp(found->pw_name, user) != 0)) {
		return false;
	}
	snprintf(session->user, sizeof(session->user), "%s", found->pw_name);
	session->uid = st.st_uid;
	snprintf(session->socket, sizeof(session->socket), "%s/handover", session->dir);
	/* The socket must be served by a process of the dir's owner. */
	int sock = handover_connect(session->socket, session->uid, &session->pid);
	if (sock < 0) {
		/* A listener that never takes the connection: there, but not answering. */
		session->clients = -1;
		session->pss_kib = -1;
		return errno == ETIMEDOUT;
	}
	session->clients = session_clients(sock);
	session->answers = session->clients >= 0;
	close(sock);
	session->started = session->pid > 0 ? gateway_procs_start_time(session->pid) : 0;
	session->pss_kib = -1;
	return true;
}

static int newest_first(const void *a, const void *b) {
	const struct gateway_session_info *x = a, *y = b;
	return (x->started < y->started) - (x->started > y->started);
}

int gateway_registry_scan(const char *runtime_dir, const char *user,
		struct gateway_session_info **sessions) {
	*sessions = NULL;
	DIR *dir = opendir(runtime_dir);
	if (!dir) {
		return errno == ENOENT ? 0 : -1;
	}
	int n = 0, capacity = 0;
	struct dirent *d;
	while ((d = readdir(dir))) {
		if (d->d_name[0] == '.') {
			continue;
		}
		if (n == capacity) {
			capacity = capacity ? capacity * 2 : 8;
			struct gateway_session_info *grown =
				realloc(*sessions, (size_t)capacity * sizeof(**sessions));
			if (!grown) {
				abort();
			}
			*sessions = grown;
		}
		if (probe(runtime_dir, d->d_name, user, &(*sessions)[n])) {
			n++;
		}
	}
	closedir(dir);
	if (n > 1) {
		qsort(*sessions, (size_t)n, sizeof(**sessions), newest_first);
	}
	return n;
}

void gateway_registry_measure(struct gateway_session_info *session) {
	static pid_t pids[MAX_SESSION_PROCS];
	if (session->pid <= 0) {
		return; /* it did not take the connection: nobody to measure */
	}
	pid_t sid = getsid(session->pid);
	int n = gateway_procs_find(session->uid, sid > 0 ? sid : 0, session->dir, pids,
		MAX_SESSION_PROCS);
	n = n < MAX_SESSION_PROCS ? n : MAX_SESSION_PROCS;
	long total = 0;
	for (int i = 0; i < n; i++) {
		long pss = gateway_procs_pss_kib(pids[i]);
		total += pss > 0 ? pss : 0;
	}
	session->pss_kib = total;
}

void gateway_registry_print(FILE *out, const struct gateway_session_info *sessions, int n) {
	fprintf(out, "%-16s %8s %-19s %9s %10s  %s\n", "USER", "PID", "STARTED", "CLIENTS",
		"PSS", "RUNTIME DIR");
	for (int i = 0; i < n; i++) {
		const struct gateway_session_info *s = &sessions[i];
		char started[32] = "-";
		struct tm tm;
		if (s->started && localtime_r(&s->started, &tm)) {
			strftime(started, sizeof(started), "%Y-%m-%d %H:%M:%S", &tm);
		}
		char clients[16] = "-";
		if (!s->answers) {
			snprintf(clients, sizeof(clients), "no-answer");
		} else if (s->clients >= 0) {
			snprintf(clients, sizeof(clients), "%d", s->clients);
		}
		char pid[16] = "-";
		if (s->pid > 0) {
			snprintf(pid, sizeof(pid), "%d", (int)s->pid);
		}
		char pss[32] = "-";
		if (s->pss_kib >= 0) {
			snprintf(pss, sizeof(pss), "%.1f MiB", s->pss_kib / 1024.0);
		}
		fprintf(out, "%-16s %8s %-19s %9s %10s  %s\n", s->user, pid, started,
			clients, pss, s->dir);
	}
}

static bool any_exists(const struct gateway_session_info *sessions, int n) {
	struct stat st;
	for (int i = 0; i < n; i++) {
		if (lstat(sessions[i].dir, &st) == 0) {
			return true;
		}
	}
	return false;
}

int gateway_registry_terminate(const char *runtime_dir, const char *user, int timeout_ms) {
	struct gateway_session_info *sessions;
	int found = gateway_registry_scan(runtime_dir, user, &sessions);
	/* One that did not take the connection has no pid to signal (kill(0) is ours). */
	int n = 0;
	for (int i = 0; i < found; i++) {
		if (sessions[i].pid > 0) {
			sessions[n++] = sessions[i];
		}
	}
	if (n <= 0) {
		free(sessions);
		return found < 0 ? found : 0;
	}
	/* Watched before the signals, so that no removal goes unseen. */
	int inotify = inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
	if (inotify >= 0) {
		inotify_add_watch(inotify, runtime_dir, IN_DELETE);
	}
	for (int i = 0; i < n; i++) {
		kill(sessions[i].pid, SIGTERM);
	}
	/* The monitors remove the dirs last, after the PAM session closed. */
	struct timespec start, now;
	clock_gettime(CLOCK_MONOTONIC, &start);
	long waited = 0;
	while (any_exists(sessions, n) && waited < timeout_ms) {
		struct pollfd p = { .fd = inotify, .events = POLLIN };
		poll(&p, inotify >= 0 ? 1 : 0, 100);
		char events[4096];
		while (inotify >= 0 && read(inotify, events, sizeof(events)) > 0) {
		}
		clock_gettime(CLOCK_MONOTONIC, &now);
		waited = (now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000;
	}
	bool all_gone = !any_exists(sessions, n);
	if (inotify >= 0) {
		close(inotify);
	}
	free(sessions);
	return all_gone ? n : -1;
}
