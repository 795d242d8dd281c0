/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
#include "xwm/x_display.h"

#define SOCKET_DIR "/tmp/.X11-unix"
#define LISTEN_BACKLOG 64

static void lock_path(int n, char *path, size_t size) {
	snprintf(path, size, "/tmp/.X%d-lock", n);
}

static void socket_path(int n, char *path, size_t size) {
	snprintf(path, size, SOCKET_DIR "/X%d", n);
}

/* A lock whose pid is gone is stale; an unreadable one is somebody's. */
static bool lock_is_stale(const char *path) {
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0) {
		return errno == ENOENT;
	}
	char text[16] = {0};
	ssize_t len = read(fd, text, sizeof(text) - 1);
	close(fd);
	if (len <= 0) {
		return false;
	}
	char *end;
	long pid = strtol(text, &end, 10);
	if (pid <= 0 || (*end != '\n' && *end != '\0')) {
		return false;
	}
	return kill((pid_t)pid, 0) < 0 && errno == ESRCH;
}

/* Creates the lock with our pid in X's format; false if it is taken. */
static bool take_lock(int n) {
	char path[64];
	lock_path(n, path, sizeof(path));
	for (int attempt = 0; attempt < 2; attempt++) {
		int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0444);
		if (fd >= 0) {
			char pid[16];
			int len = snprintf(pid, sizeof(pid), "%10d\n", (int)getpid());
			bool written = write(fd, pid, (size_t)len) == len;
			close(fd);
			if (!written) {
				unlink(path);
			}
			return written;
		}
		if (errno != EEXIST || !lock_is_stale(path) || unlink(path) < 0) {
			return false;
		}
	}
	return false;
}

/* The socket dir must not let another user replace our socket. */
static bool socket_dir_ok(char *why, int why_size) {
	if (mkdir(SOCKET_DIR, 01777) == 0) {
		chmod(SOCKET_DIR, 01777); /* past the umask: it is every X server's */
	}
	struct stat st;
	if (lstat(SOCKET_DIR, &st) < 0 || !S_ISDIR(st.st_mode)) {
		snprintf(why, why_size, "%s is not a directory", SOCKET_DIR);
		return false;
	}
	if (st.st_uid != 0 && st.st_uid != getuid()) {
		snprintf(why, why_size, "%s belongs to another user", SOCKET_DIR);
		return false;
	}
	if (!(st.st_mode & S_ISVTX) && (st.st_mode & (S_IWGRP | S_IWOTH))) {
		snprintf(why, why_size, "%s is writable by others without the sticky bit",
			SOCKET_DIR);
		return false;
	}
	return true;
}

static int listen_on(const char *name, bool abstract) {
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	size_t len = strlen(name);
	size_t offset = abstract ? 1 : 0;
	if (offset + len >= sizeof(addr.sun_path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(addr.sun_path + offset, name, len);
	socklen_t size = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + offset + len +
		(abstract ? 0 : 1));
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		return -1;
	}
	if (bind(fd, (struct sockaddr *)&addr, size) < 0 || listen(fd, LISTEN_BACKLOG) < 0) {
		int err = errno;
		close(fd);
		errno = err;
		return -1;
	}
	return fd;
}

/* The lock of n is ours: its sockets. False if another server listens. */
static bool open_sockets(struct x_display *display, int n) {
	char path[64];
	socket_path(n, path, sizeof(path));
	display->fds[0] = listen_on(path, true);
	if (display->fds[0] < 0) {
		return false; /* EADDRINUSE: an X server of this network namespace */
	}
	unlink(path); /* left by a server that is gone: we hold its lock */
	display->fds[1] = listen_on(path, false);
	if (display->fds[1] < 0) {
		close(display->fds[0]);
		display->fds[0] = -1;
		return false;
	}
	display->number = n;
	return true;
}

bool x_display_open(struct x_display *display, int first, char *why, int why_size) {
	*display = (struct x_display){ .number = -1, .fds = { -1, -1 } };
	if (first < 0 || first > X_DISPLAY_MAX) {
		snprintf(why, why_size, "display :%d is out of range (0-%d)", first,
			X_DISPLAY_MAX);
		return false;
	}
	if (!socket_dir_ok(why, why_size)) {
		return false;
	}
	int last = first + X_DISPLAY_SEARCH - 1;
	last = last < X_DISPLAY_MAX ? last : X_DISPLAY_MAX;
	for (int n = first; n <= last; n++) {
		if (!take_lock(n)) {
			continue;
		}
		if (open_sockets(display, n)) {
			return true;
		}
		char path[64];
		lock_path(n, path, sizeof(path));
		unlink(path);
	}
	snprintf(why, why_size, "no free X display among :%d-:%d", first, last);
	return false;
}

void x_display_unlink(int n) {
	char path[64];
	socket_path(n, path, sizeof(path));
	unlink(path);
	lock_path(n, path, sizeof(path));
	unlink(path);
}

void x_display_close(struct x_display *display) {
	if (display->number < 0) {
		return;
	}
	for (int i = 0; i < 2; i++) {
		if (display->fds[i] >= 0) {
			close(display->fds[i]);
			display->fds[i] = -1;
		}
	}
	x_display_unlink(display->number);
	display->number = -1;
}
