/* SPDX-License-Identifier: MIT */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "gateway/gateway_runtime_dir.h"

static bool make_root_dir(const char *path, char *error, size_t error_size) {
	if (mkdir(path, 0755) < 0 && errno != EEXIST) {
		snprintf(error, error_size, "cannot make %s: %s", path, strerror(errno));
		return false;
	}
	struct stat st;
	if (lstat(path, &st) < 0) {
		snprintf(error, error_size, "%s: %s", path, strerror(errno));
		return false;
	}
	if (!S_ISDIR(st.st_mode) || st.st_uid != 0 || (st.st_mode & 022)) {
		snprintf(error, error_size, "%s must be a directory that only root can write",
			path);
		return false;
	}
	return true;
}

bool gateway_runtime_root_prepare(const char *root, char *error, size_t error_size) {
	char parent[4096];
	snprintf(parent, sizeof(parent), "%s", root);
	return make_root_dir(dirname(parent), error, error_size) &&
		make_root_dir(root, error, error_size);
}

bool gateway_runtime_dir_create(const char *root, const char *user, uid_t uid, gid_t gid,
		char *path, size_t path_size, char *error, size_t error_size) {
	for (int n = 1; n < 10000; n++) {
		int len = snprintf(path, path_size, "%s/%s.%d", root, user, n);
		if (len < 0 || (size_t)len >= path_size) {
			snprintf(error, error_size, "the runtime dir's path is too long");
			return false;
		}
		if (mkdir(path, 0700) < 0) {
			if (errno == EEXIST) {
				continue;
			}
			snprintf(error, error_size, "cannot make %s: %s", path, strerror(errno));
			return false;
		}
		/* root made it in a dir only root writes: it is ours until chowned. */
		int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0 || fchown(fd, uid, gid) < 0 || fchmod(fd, 0700) < 0) {
			snprintf(error, error_size, "cannot give %s to %s: %s", path, user,
				strerror(errno));
			if (fd >= 0) {
				close(fd);
			}
			rmdir(path);
			return false;
		}
		close(fd);
		return true;
	}
	snprintf(error, error_size, "%s has too many sessions", user);
	return false;
}

/* Empties the dir open as dirfd; every step is relative to an fd, nothing follows a link. */
static bool empty_dir(int dirfd, int depth) {
	DIR *dir = fdopendir(dirfd);
	if (!dir) {
		close(dirfd);
		return false;
	}
	bool ok = true;
	struct dirent *d;
	while ((d = readdir(dir))) {
		if (strcmp(d->d_name, ".") == 0 || strcmp(d->d_name, "..") == 0) {
			continue;
		}
		if (unlinkat(dirfd, d->d_name, 0) == 0 || errno == ENOENT) {
			continue;
		}
		if (errno != EISDIR || depth > 64) {
			ok = false;
			continue;
		}
		int sub = openat(dirfd, d->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sub < 0 || !empty_dir(sub, depth + 1) ||
				unlinkat(dirfd, d->d_name, AT_REMOVEDIR) < 0) {
			ok = false;
		}
	}
	closedir(dir);
	return ok;
}

bool gateway_runtime_dir_remove(const char *path) {
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		return errno == ENOENT;
	}
	bool ok = empty_dir(fd, 0);
	return rmdir(path) == 0 && ok;
}
