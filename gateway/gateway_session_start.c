/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "remote/handover.h"
#include "common/util.h"
#include "gateway/gateway_config.h"
#include "gateway/gateway_log.h"
#include "gateway/gateway_runtime_dir.h"
#include "gateway/gateway_session_monitor.h"
#include "gateway/gateway_session_start.h"

/* The fd the monitor finds its status pipe on. */
#define MONITOR_STATUS_FD 3

/*
 * Between fork and exec only async-signal-safe calls: the gateway's other
 * threads may hold any lock at the fork. The monitor is a fresh exec, so
 * PAM and NSS run in a single-threaded process of their own.
 */
static void exec_monitor(const char *monitor, char *const argv[], int devnull,
		int status_fd) {
	if (setsid() < 0) {
		_exit(127);
	}
	pid_t pid = fork();
	if (pid != 0) {
		_exit(pid < 0 ? 127 : 0); /* the monitor is orphaned: nobody's child */
	}
	/* Its stderr stays the gateway's log; nothing else of the caller's is kept open. */
	dup2(devnull, STDIN_FILENO);
	dup2(devnull, STDOUT_FILENO);
	if (status_fd == MONITOR_STATUS_FD) {
		fcntl(status_fd, F_SETFD, 0);
	} else if (dup2(status_fd, MONITOR_STATUS_FD) < 0) {
		_exit(127);
	}
	close_range(MONITOR_STATUS_FD + 1, ~0u, 0);
	/* The gateway blocks its signals for sigwait; the monitor starts clean. */
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGPIPE, SIG_DFL);
	char *const envp[] = { "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
		NULL };
	execve(monitor, argv, envp);
	static const char message[] = "cannot start the session's monitor";
	ssize_t unused = write(MONITOR_STATUS_FD, message, sizeof(message) - 1);
	(void)unused;
	_exit(127);
}

/*
 * The monitor next to the gateway's own executable (a build tree), else
 * where it is installed.
 */
static void find_monitor(char *path, size_t size) {
	char exe[PATH_MAX];
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (len > 0) {
		exe[len] = '\0';
		char *slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			snprintf(path, size, "%s/%s", exe, GATEWAY_MONITOR_NAME);
			if (access(path, X_OK) == 0) {
				return;
			}
		}
	}
	snprintf(path, size, "%s/%s", ORIEL_LIBEXECDIR, GATEWAY_MONITOR_NAME);
}

static bool spawn_monitor(char *const argv[], int status_fd, char *error,
		size_t error_size) {
	char monitor[PATH_MAX + 64];
	find_monitor(monitor, sizeof(monitor));
	int devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (devnull < 0) {
		snprintf(error, error_size, "/dev/null: %s", strerror(errno));
		return false;
	}
	pid_t pid = fork();
	if (pid == 0) {
		exec_monitor(monitor, argv, devnull, status_fd);
	}
	close(devnull);
	if (pid < 0) {
		snprintf(error, error_size, "fork: %s", strerror(errno));
		return false;
	}
	int status;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
	}
	return true;
}

/* True once the session's socket takes a STATUS request from us. */
static bool session_answers(const char *socket_path, uid_t uid) {
	pid_t pid;
	int sock = handover_connect(socket_path, uid, &pid);
	if (sock < 0) {
		return false;
	}
	struct handover_reply reply;
	bool ok = handover_status(sock, 1000, &reply);
	close(sock);
	return ok;
}

/*
 * Waits for the socket to answer, the monitor to say why it failed, or
 * the deadline. The dir's inotify events wake us when oriel makes the
 * socket; the short poll covers a socket bound but not yet listening.
 */
static bool wait_until_ready(const char *dir, const char *socket_path, uid_t uid,
		int status_fd, char *error, size_t error_size) {
	int inotify = inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
	if (inotify >= 0) {
		inotify_add_watch(inotify, dir, IN_CREATE | IN_MOVED_TO);
	}
	int64_t deadline = monotonic_ms() + GATEWAY_SESSION_START_TIMEOUT_MS;
	bool ready = false;
	while (!(ready = session_answers(socket_path, uid))) {
		int64_t left = deadline - monotonic_ms();
		if (left <= 0) {
			snprintf(error, error_size, "the session did not answer on %s within %d s",
				socket_path, GATEWAY_SESSION_START_TIMEOUT_MS / 1000);
			break;
		}
		struct pollfd fds[2] = {
			{ .fd = status_fd, .events = POLLIN },
			{ .fd = inotify, .events = POLLIN },
		};
		int n = poll(fds, inotify >= 0 ? 2 : 1, left < 100 ? (int)left : 100);
		if (n > 0 && fds[0].revents) {
			char why[512];
			ssize_t got = read(status_fd, why, sizeof(why) - 1);
			if (got > 0) {
				why[got] = '\0';
				snprintf(error, error_size, "%s", why);
			} else {
				snprintf(error, error_size, "the session ended before it answered");
			}
			ready = session_answers(socket_path, uid); /* raced its own end? */
			break;
		}
		if (n > 0 && fds[1].revents) {
			char events[4096];
			while (read(inotify, events, sizeof(events)) > 0) {
			}
		}
	}
	if (inotify >= 0) {
		close(inotify);
	}
	return ready;
}

bool gateway_session_start(const struct gateway_config *config, const char *user,
		char *socket_path, size_t path_size, char *error, size_t error_size) {
	char buf[4096];
	struct passwd pw, *found = NULL;
	int err = getpwnam_r(user, &pw, buf, sizeof(buf), &found);
	if (!found) {
		snprintf(error, error_size, "no account %s%s%s", user, err ? ": " : "",
			err ? strerror(err) : "");
		return false;
	}
	if (pw.pw_uid == 0) {
		snprintf(error, error_size, "root gets no session");
		return false;
	}
	char dir[4096];
	if (!gateway_runtime_root_prepare(config->runtime_dir, error, error_size) ||
			!gateway_runtime_dir_create(config->runtime_dir, user, pw.pw_uid, pw.pw_gid,
				dir, sizeof(dir), error, error_size)) {
		return false;
	}
	int len = snprintf(socket_path, path_size, "%s/handover", dir);
	if (len < 0 || (size_t)len >= path_size || (size_t)len >= 108) {
		snprintf(error, error_size, "%s/handover is too long for a socket path", dir);
		gateway_runtime_dir_remove(dir);
		return false;
	}

	int status[2];
	if (pipe2(status, O_CLOEXEC) < 0) {
		snprintf(error, error_size, "pipe: %s", strerror(errno));
		gateway_runtime_dir_remove(dir);
		return false;
	}
	char status_fd[16], output[32], idle[16], x_display[16];
	snprintf(status_fd, sizeof(status_fd), "%d", MONITOR_STATUS_FD);
	int width = config->output_width < config->max_width ?
		config->output_width : config->max_width;
	int height = config->output_height < config->max_height ?
		config->output_height : config->max_height;
	snprintf(output, sizeof(output), "%dx%d", width, height);
	snprintf(idle, sizeof(idle), "%d", config->idle_timeout);
	snprintf(x_display, sizeof(x_display), "%d", config->x_display);
	char *argv[MONITOR_ARGC + 1] = {
		[0] = GATEWAY_MONITOR_NAME,
		[MONITOR_ARG_USER] = (char *)user,
		[MONITOR_ARG_DIR] = dir,
		[MONITOR_ARG_STATUS_FD] = status_fd,
		[MONITOR_ARG_PAM_SERVICE] = config->pam_service,
		[MONITOR_ARG_ORIEL] = config->oriel,
		[MONITOR_ARG_OUTPUT] = output,
		[MONITOR_ARG_IDLE_TIMEOUT] = idle,
		[MONITOR_ARG_X_DISPLAY] = x_display,
		[MONITOR_ARG_COMMAND] = config->session_command,
		[MONITOR_ARGC] = NULL,
	};
	bool spawned = spawn_monitor(argv, status[1], error, error_size);
	close(status[1]);
	if (!spawned) {
		close(status[0]);
		gateway_runtime_dir_remove(dir);
		return false;
	}
	/* From here the monitor owns the dir and removes it when the session ends. */
	bool ready = wait_until_ready(dir, socket_path, pw.pw_uid, status[0], error,
		error_size);
	close(status[0]);
	if (ready) {
		gateway_log("started %s's session in %s", user, dir);
	}
	return ready;
}
