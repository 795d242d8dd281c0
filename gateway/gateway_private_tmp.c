/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>
#include "gateway/gateway_private_tmp.h"

#define MAX_KEPT 8

struct kept_entry {
	char name[NAME_MAX + 1];
	int fd;                   /* O_PATH, in the host's /tmp; -1 for a link */
	bool is_dir;
	char target[PATH_MAX];    /* a link's */
};

/* The first component of path after "/tmp/", or false when it is not under /tmp. */
static bool top_entry(const char *path, char *name, size_t size) {
	if (!path || strncmp(path, "/tmp/", 5) != 0) {
		return false;
	}
	const char *start = path + 5;
	while (*start == '/') {
		start++;
	}
	size_t len = strcspn(start, "/");
	if (len == 0 || len >= size || (len <= 2 && strncmp(start, "..", len) == 0)) {
		return false;
	}
	memcpy(name, start, len);
	name[len] = '\0';
	return true;
}

/* Opens what is kept while the host's /tmp is still in view, below the new one. */
static int open_kept(const char *const keep[], struct kept_entry *kept) {
	int n = 0;
	for (int i = 0; keep[i] && n < MAX_KEPT; i++) {
		char name[NAME_MAX + 1];
		if (!top_entry(keep[i], name, sizeof(name))) {
			continue;
		}
		bool seen = false;
		for (int j = 0; j < n; j++) {
			seen = seen || strcmp(kept[j].name, name) == 0;
		}
		if (seen) {
			continue;
		}
		struct kept_entry *e = &kept[n];
		snprintf(e->name, sizeof(e->name), "%s", name);
		e->target[0] = '\0';
		char path[PATH_MAX];
		snprintf(path, sizeof(path), "/tmp/%.*s", NAME_MAX, name);
		e->fd = open(path, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		struct stat st;
		if (e->fd < 0) {
			continue; /* missing: nothing to keep */
		}
		if (fstat(e->fd, &st) < 0) {
			close(e->fd);
			continue;
		}
		if (S_ISLNK(st.st_mode)) {
			/* The link itself, as opened: an empty path reads it. */
			ssize_t len = readlinkat(e->fd, "", e->target, sizeof(e->target) - 1);
			close(e->fd);
			e->fd = -1;
			if (len <= 0) {
				continue;
			}
			e->target[len] = '\0';
		} else if (S_ISDIR(st.st_mode) || S_ISREG(st.st_mode)) {
			e->is_dir = S_ISDIR(st.st_mode);
		} else {
			close(e->fd);
			continue;
		}
		n++;
	}
	return n;
}

static bool bind_kept(const struct kept_entry *e, char *error, size_t error_size) {
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "/tmp/%.*s", NAME_MAX, e->name);
	if (e->fd < 0) {
		if (symlink(e->target, path) == 0) {
			return true;
		}
		snprintf(error, error_size, "cannot keep the link %s: %s", path, strerror(errno));
		return false;
	}
	char source[64];
	snprintf(source, sizeof(source), "/proc/self/fd/%d", e->fd);
	int made = e->is_dir ? mkdir(path, 0700) :
		open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (made > 0) {
		close(made);
	}
	if (made < 0 || mount(source, path, NULL, MS_BIND | MS_REC, NULL) < 0) {
		snprintf(error, error_size, "cannot keep %s in the session's /tmp: %s", path,
			strerror(errno));
		return false;
	}
	return true;
}

bool gateway_private_tmp_enter(const char *const keep[], char *error, size_t error_size) {
	if (unshare(CLONE_NEWNS) < 0) {
		snprintf(error, error_size, "no mount namespace for the session's /tmp: %s",
			strerror(errno));
		return false;
	}
	/* Nothing mounted from here on reaches the host, nor the host's mounts us. */
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0) {
		snprintf(error, error_size, "cannot make the session's mounts private: %s",
			strerror(errno));
		return false;
	}
	/* Opened in this namespace's copy of the host's /tmp: a bind takes only its own mounts. */
	struct kept_entry kept[MAX_KEPT];
	int n = open_kept(keep, kept);
	bool ok = false;
	if (mount("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777") < 0) {
		snprintf(error, error_size, "cannot mount the session's /tmp: %s", strerror(errno));
		goto out;
	}
	/* As systemd-tmpfiles makes it: root's, so that X servers trust it. */
	if (mkdir("/tmp/.X11-unix", 01777) < 0 || chmod("/tmp/.X11-unix", 01777) < 0) {
		snprintf(error, error_size, "cannot make the session's /tmp/.X11-unix: %s",
			strerror(errno));
		goto out;
	}
	ok = true;
	for (int i = 0; i < n && ok; i++) {
		ok = bind_kept(&kept[i], error, error_size);
	}
out:
	for (int i = 0; i < n; i++) {
		if (kept[i].fd >= 0) {
			close(kept[i].fd);
		}
	}
	return ok;
}
