/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <wlr/util/log.h>
#include "compositor/sound_server.h"
#include "common/util.h"

/* PipeWire makes its socket within this; WirePlumber needs it. */
#define SOCKET_WAIT_MS 3000
/* Each daemon gets this long to end on SIGTERM before SIGKILL. */
#define STOP_WAIT_MS 2000

/* $PIPEWIRE_REMOTE when it is a path, else $XDG_RUNTIME_DIR/pipewire-0. */
static bool socket_path(char *path, size_t size) {
	const char *remote = getenv("PIPEWIRE_REMOTE");
	if (remote && remote[0] == '/') {
		return (size_t)snprintf(path, size, "%s", remote) < size;
	}
	const char *runtime = getenv("XDG_RUNTIME_DIR");
	if (!runtime || !runtime[0]) {
		return false;
	}
	return (size_t)snprintf(path, size, "%s/%s", runtime,
		remote && remote[0] ? remote : "pipewire-0") < size;
}

/* Whether a PipeWire daemon answers on the session's socket. */
static bool pipewire_answers(void) {
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	if (!socket_path(addr.sun_path, sizeof(addr.sun_path))) {
		return false;
	}
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		return false;
	}
	bool ok = connect(fd, (struct sockaddr *)&addr, sizeof(addr)) == 0;
	close(fd);
	return ok;
}

static pid_t spawn(const char *program) {
	pid_t pid = fork();
	if (pid != 0) {
		if (pid < 0) {
			wlr_log_errno(WLR_ERROR, "Sound: cannot start %s", program);
			return 0;
		}
		return pid;
	}
	/* The session's: it must not outlive a crashed oriel. */
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (null >= 0) {
		dup2(null, STDIN_FILENO);
	}
	execlp(program, program, (char *)NULL);
	fprintf(stderr, "oriel: cannot run %s: %s\n", program, strerror(errno));
	_exit(127);
}

/* Waits for pid to end, up to ms; true when it has (and is reaped). */
static bool reap_within(pid_t pid, int ms) {
	int64_t deadline = monotonic_ms() + ms;
	for (;;) {
		pid_t r = waitpid(pid, NULL, WNOHANG);
		if (r == pid || (r < 0 && errno != EINTR)) {
			return true;
		}
		if (monotonic_ms() >= deadline) {
			return false;
		}
		nanosleep(&(struct timespec){ .tv_nsec = 10 * 1000 * 1000 }, NULL);
	}
}

static void stop(pid_t *pid, const char *name) {
	if (*pid <= 0) {
		return;
	}
	kill(*pid, SIGTERM);
	if (!reap_within(*pid, STOP_WAIT_MS)) {
		wlr_log(WLR_ERROR, "Sound: %s did not end on SIGTERM; killing it", name);
		kill(*pid, SIGKILL);
		waitpid(*pid, NULL, 0);
	}
	*pid = 0;
}

bool sound_server_start(struct sound_server *sound) {
	*sound = (struct sound_server){0};
	if (pipewire_answers()) {
		wlr_log(WLR_INFO, "Sound: the session's PipeWire runs already; oriel uses it");
		return true;
	}
	char path[4096];
	if (!socket_path(path, sizeof(path))) {
		wlr_log(WLR_ERROR, "Sound: no XDG_RUNTIME_DIR: the session has no sound");
		return false;
	}
	sound->pipewire = spawn("pipewire");
	if (!sound->pipewire) {
		return false;
	}
	int64_t deadline = monotonic_ms() + SOCKET_WAIT_MS;
	while (!pipewire_answers()) {
		bool exited = reap_within(sound->pipewire, 0);
		if (exited || monotonic_ms() >= deadline) {
			wlr_log(WLR_ERROR, "Sound: PipeWire did not start: the session has no sound");
			if (exited) {
				sound->pipewire = 0;
			}
			sound_server_stop(sound);
			return false;
		}
		nanosleep(&(struct timespec){ .tv_nsec = 5 * 1000 * 1000 }, NULL);
	}
	sound->wireplumber = spawn("wireplumber");
	const char *runtime = getenv("XDG_RUNTIME_DIR");
	struct stat st;
	if (runtime && (size_t)snprintf(sound->pulse_dir, sizeof(sound->pulse_dir), "%s/pulse",
			runtime) < sizeof(sound->pulse_dir) && stat(sound->pulse_dir, &st) == 0) {
		sound->pulse_dir[0] = '\0'; /* not ours to remove */
	}
	sound->pulse = spawn("pipewire-pulse");
	wlr_log(WLR_INFO, "Sound: started PipeWire (%d), WirePlumber (%d) and pipewire-pulse "
		"(%d) for the session at %s", (int)sound->pipewire, (int)sound->wireplumber,
		(int)sound->pulse, path);
	return true;
}

/*
 * pipewire-pulse leaves its pid file and folder behind; once it is gone,
 * the runtime dir is left as oriel found it.
 */
static void remove_pulse_files(struct sound_server *sound) {
	if (!sound->pulse_dir[0]) {
		return;
	}
	char pid[sizeof(sound->pulse_dir) + 8];
	snprintf(pid, sizeof(pid), "%s/pid", sound->pulse_dir);
	unlink(pid);
	rmdir(sound->pulse_dir); /* only if nothing else is in it */
	sound->pulse_dir[0] = '\0';
}

void sound_server_stop(struct sound_server *sound) {
	stop(&sound->pulse, "pipewire-pulse");
	remove_pulse_files(sound);
	stop(&sound->wireplumber, "WirePlumber");
	stop(&sound->pipewire, "PipeWire");
}
