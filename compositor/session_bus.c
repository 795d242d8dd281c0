/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <wlr/util/log.h>
#include "compositor/session_bus.h"
#include "compositor/startup_error.h"

static bool have_session_bus(void) {
	const char *address = getenv("DBUS_SESSION_BUS_ADDRESS");
	return address && address[0];
}

/*
 * dbus-daemon removes its socket only when SIGTERM finds it past its
 * start, and it makes $XDG_RUNTIME_DIR/dbus-1/services and leaves it.
 * Once it is gone, the runtime dir is left as oriel found it.
 */
static void remove_daemon_files(struct session_bus *bus) {
	if (bus->socket_path[0]) {
		unlink(bus->socket_path);
		bus->socket_path[0] = '\0';
	}
	if (bus->services_dir[0]) {
		char services[sizeof(bus->services_dir) + 16];
		snprintf(services, sizeof(services), "%s/services", bus->services_dir);
		rmdir(services);
		rmdir(bus->services_dir);
		bus->services_dir[0] = '\0';
	}
}

/* "unix:path=/run/.../dbus-XYZ,guid=..." */
static void remember_socket_path(struct session_bus *bus, const char *address) {
	const char *path = strstr(address, "unix:path=");
	if (!path) {
		return;
	}
	path += strlen("unix:path=");
	size_t len = strcspn(path, ",;");
	if (len < sizeof(bus->socket_path)) {
		memcpy(bus->socket_path, path, len);
		bus->socket_path[len] = '\0';
	}
}

/* dbus-daemon prints its address on a pipe once it listens. */
static bool spawn_daemon(struct session_bus *bus) {
	int fds[2];
	if (pipe(fds) < 0) {
		return false;
	}
	const char *runtime = getenv("XDG_RUNTIME_DIR");
	if (runtime && runtime[0]) {
		snprintf(bus->services_dir, sizeof(bus->services_dir), "%s/dbus-1", runtime);
		struct stat st;
		if (stat(bus->services_dir, &st) == 0) {
			bus->services_dir[0] = '\0'; /* not ours to remove */
		}
	}
	char address_arg[4096];
	snprintf(address_arg, sizeof(address_arg), "--address=unix:dir=%s",
		runtime && runtime[0] ? runtime : "/tmp");
	char fd_arg[32];
	snprintf(fd_arg, sizeof(fd_arg), "--print-address=%d", fds[1]);

	pid_t pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return false;
	}
	if (pid == 0) {
		close(fds[0]);
		setsid();
		/* The bus is the session's: it must not outlive a crashed oriel. */
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		execlp("dbus-daemon", "dbus-daemon", "--session", "--nofork", address_arg,
			fd_arg, (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	char address[1024];
	size_t len = 0;
	ssize_t n;
	while (len < sizeof(address) - 1 &&
			(n = read(fds[0], address + len, sizeof(address) - 1 - len)) != 0) {
		if (n < 0) {
			if (errno == EINTR) {
				continue;
			}
			break;
		}
		len += n;
		if (memchr(address, '\n', len)) {
			break;
		}
	}
	close(fds[0]);
	address[len] = '\0';
	char *newline = strchr(address, '\n');
	if (!newline) {
		wlr_log(WLR_ERROR, "dbus-daemon did not start");
		kill(pid, SIGTERM);
		waitpid(pid, NULL, 0);
		remove_daemon_files(bus);
		return false;
	}
	*newline = '\0';
	bus->daemon_pid = pid;
	remember_socket_path(bus, address);
	setenv("DBUS_SESSION_BUS_ADDRESS", address, 1);
	wlr_log(WLR_INFO, "Started a session bus at %s", address);
	return true;
}

bool session_bus_init(struct session_bus *bus, enum options_dbus mode) {
	bus->available = false;
	bus->daemon_pid = 0;
	bus->services_dir[0] = '\0';
	bus->socket_path[0] = '\0';
	switch (mode) {
	case DBUS_OFF:
		return true;
	case DBUS_SESSION:
		if (!have_session_bus()) {
			startup_error("no session bus for --dbus session (DBUS_SESSION_BUS_ADDRESS "
				"is not set); start one or use --dbus spawn");
			return false;
		}
		bus->available = true;
		return true;
	case DBUS_AUTO:
		if (have_session_bus()) {
			bus->available = true;
			return true;
		}
		/* fall through */
	case DBUS_SPAWN:
		bus->available = spawn_daemon(bus);
		if (!bus->available && mode == DBUS_SPAWN) {
			startup_error("cannot start dbus-daemon for --dbus spawn; "
				"install the dbus package or use --dbus off");
		}
		return bus->available || mode == DBUS_AUTO;
	}
	return false;
}

void session_bus_finish(struct session_bus *bus) {
	if (bus->daemon_pid > 0) {
		kill(bus->daemon_pid, SIGTERM);
		waitpid(bus->daemon_pid, NULL, 0);
		bus->daemon_pid = 0;
		remove_daemon_files(bus);
	}
}
