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
#include <time.h>
#include <unistd.h>
#include "common/x_display.h"
#include "common/x_display_lock.h"

#define SOCKET_DIR "/tmp/.X11-unix"
#define LISTEN_BACKLOG 64

static void lock_path(int n, char *path, size_t size) {
	snprintf(path, size, "/tmp/.X%d-lock", n);
}

static void socket_path(int n, char *path, size_t size) {
	snprintf(path, size, SOCKET_DIR "/X%d", n);
}

/*
 * The uid of live process pid (x_display_lock.h): the lock's owner (at
 * data) if it is any of the process's uids, else its real uid. From
 * status, which a process that is not dumpable does not hide.
 */
static long process_owner(pid_t pid, void *data) {
	const uid_t *lock_owner = data;
	if (kill(pid, 0) < 0 && errno == ESRCH) {
		return X_DISPLAY_LOCK_NO_PROCESS;
	}
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	FILE *f = fopen(path, "re");
	if (!f) {
		/* hidden (hidepid) or gone this instant: not ours to judge */
		return X_DISPLAY_LOCK_OWNER_UNKNOWN;
	}
	char line[256];
	long uids[4];
	int found = 0;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "Uid:", 4) == 0) {
			found = sscanf(line + 4, "%ld %ld %ld %ld", &uids[0], &uids[1], &uids[2],
				&uids[3]);
			break;
		}
	}
	fclose(f);
	if (found != 4) {
		return X_DISPLAY_LOCK_OWNER_UNKNOWN;
	}
	for (int i = 0; i < 4; i++) {
		if (uids[i] == (long)*lock_owner) {
			return uids[i];
		}
	}
	return uids[0];
}

/*
 * True if the lock at path is stale and is gone now (or was already).
 * A stale lock that cannot be removed (another user's, in sticky /tmp)
 * leaves its number unusable here.
 */
static bool remove_if_stale(const char *path) {
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0) {
		return errno == ENOENT;
	}
	char text[32];
	ssize_t len = read(fd, text, sizeof(text));
	struct stat st;
	bool known = len >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
	close(fd);
	if (!known) {
		return false;
	}
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	struct x_display_lock lock = {
		.text = text,
		.len = (size_t)len,
		.owner = st.st_uid,
		.age_ms = (int64_t)(now.tv_sec - st.st_mtim.tv_sec) * 1000 +
			(now.tv_nsec - st.st_mtim.tv_nsec) / 1000000,
	};
	if (!x_display_lock_is_stale(&lock, process_owner, &lock.owner)) {
		return false;
	}
	/* Still the file judged, not one a server just made in its place. */
	struct stat again;
	if (lstat(path, &again) < 0) {
		return errno == ENOENT;
	}
	if (again.st_ino != st.st_ino || again.st_dev != st.st_dev) {
		return false;
	}
	return unlink(path) == 0 || errno == ENOENT;
}

/*
 * Our lock's content, written once: each lock is a hard link to it, so
 * no lock of ours is ever seen empty or half written, as X servers do.
 */
static bool make_lock_source(char *source, size_t size) {
	snprintf(source, size, "/tmp/.oriel-X-lock.XXXXXX");
	int fd = mkstemp(source);
	if (fd < 0) {
		return false;
	}
	char pid[16];
	int len = snprintf(pid, sizeof(pid), "%10d\n", (int)getpid());
	bool ok = fchmod(fd, 0444) == 0 && write(fd, pid, (size_t)len) == len;
	close(fd);
	if (!ok) {
		unlink(source);
	}
	return ok;
}

/* Takes the lock of n; false if it is held, or stale and not ours to remove. */
static bool take_lock(const char *source, int n) {
	char path[64];
	lock_path(n, path, sizeof(path));
	for (int attempt = 0; attempt < 2; attempt++) {
		if (link(source, path) == 0) {
			return true;
		}
		if (errno != EEXIST || !remove_if_stale(path)) {
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
	char source[64];
	if (!make_lock_source(source, sizeof(source))) {
		snprintf(why, why_size, "cannot write a lock file in /tmp: %s", strerror(errno));
		return false;
	}
	/* Every number to the last: squatted ones cost a few syscalls each. */
	bool found = false;
	for (int n = first; n <= X_DISPLAY_MAX && !found; n++) {
		if (!take_lock(source, n)) {
			continue;
		}
		found = open_sockets(display, n);
		if (!found) {
			char path[64];
			lock_path(n, path, sizeof(path));
			unlink(path);
		}
	}
	unlink(source);
	if (!found) {
		snprintf(why, why_size, "no free X display among :%d-:%d", first, X_DISPLAY_MAX);
	}
	return found;
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
