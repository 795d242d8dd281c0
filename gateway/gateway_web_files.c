/* SPDX-License-Identifier: MIT */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/openat2.h>
#include "gateway/gateway_web.h"

/*
 * The pages the worker serves, read whole before it enters its sandbox,
 * where it opens no file. noVNC is about 1 MB in 120 files; the limits
 * keep a wrong directory (a whole /usr/share) from filling the memory.
 */

#define MAX_FILES 1024
#define MAX_TOTAL (16 * 1024 * 1024)
#define MAX_DEPTH 8

struct web_file {
	char *path; /* "/app/ui.js" */
	char *data;
	size_t len;
};

struct gateway_web_files {
	struct web_file *files;
	size_t n_files;
	size_t total;
};

static bool add_file(struct gateway_web_files *files, const char *path, int fd,
		const struct stat *st, char *error, size_t error_size) {
	if (files->n_files == MAX_FILES || files->total + (size_t)st->st_size > MAX_TOTAL) {
		snprintf(error, error_size, "more than %d files or %d MiB", MAX_FILES,
			MAX_TOTAL >> 20);
		return false;
	}
	char *data = malloc(st->st_size ? (size_t)st->st_size : 1);
	size_t got = 0;
	while (data && got < (size_t)st->st_size) {
		ssize_t n = read(fd, data + got, (size_t)st->st_size - got);
		if (n <= 0) {
			break;
		}
		got += (size_t)n;
	}
	if (!data || got != (size_t)st->st_size) {
		free(data);
		snprintf(error, error_size, "cannot read %.200s", path);
		return false;
	}
	if (files->n_files % 64 == 0) {
		struct web_file *more = realloc(files->files,
			(files->n_files + 64) * sizeof(*more));
		if (!more) {
			free(data);
			snprintf(error, error_size, "out of memory");
			return false;
		}
		files->files = more;
	}
	files->files[files->n_files++] = (struct web_file){
		.path = strdup(path), .data = data, .len = got,
	};
	files->total += got;
	return files->files[files->n_files - 1].path != NULL;
}

/* Regular files under dir_fd, whose path is prefix; hidden names left out. */
/* Root's own files only: what anyone else could write is not served before a login. */
static bool served_safely(const struct stat *st) {
	return st->st_uid == 0 && !(st->st_mode & (S_IWGRP | S_IWOTH));
}

static bool load_dir(struct gateway_web_files *files, int dir_fd, const char *prefix,
		int depth, char *error, size_t error_size) {
	DIR *dir = fdopendir(dir_fd);
	if (!dir) {
		close(dir_fd);
		snprintf(error, error_size, "cannot list %s: %s", prefix[0] ? prefix : "/",
			strerror(errno));
		return false;
	}
	bool ok = true;
	struct dirent *entry;
	while (ok && (entry = readdir(dir))) {
		if (entry->d_name[0] == '.') {
			continue;
		}
		char path[1024];
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", prefix, entry->d_name) >=
				sizeof(path)) {
			continue;
		}
		/*
		 * Links are followed, but only within their folder: Debian's
		 * noVNC has some (vnc_auto.html), and this runs as root, before
		 * the sandbox, so a link must not reach a file outside.
		 */
		struct open_how how = {
			.flags = O_RDONLY | O_CLOEXEC | O_NOCTTY,
			.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS,
		};
		int fd = (int)syscall(SYS_openat2, dirfd(dir), entry->d_name, &how, sizeof(how));
		struct stat st;
		if (fd < 0 || fstat(fd, &st) < 0 || !served_safely(&st)) {
			if (fd >= 0) {
				close(fd);
			}
			continue;
		}
		if (S_ISDIR(st.st_mode) && depth < MAX_DEPTH) {
			ok = load_dir(files, fd, path, depth + 1, error, error_size);
		} else {
			if (S_ISREG(st.st_mode)) {
				ok = add_file(files, path, fd, &st, error, error_size);
			}
			close(fd);
		}
	}
	closedir(dir);
	return ok;
}

static int compare_files(const void *a, const void *b) {
	return strcmp(((const struct web_file *)a)->path, ((const struct web_file *)b)->path);
}

struct gateway_web_files *gateway_web_files_load(const char *dir, char *error,
		size_t error_size) {
	struct gateway_web_files *files = calloc(1, sizeof(*files));
	if (!files) {
		snprintf(error, error_size, "out of memory");
		return NULL;
	}
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(error, error_size, "%s: %s", dir, strerror(errno));
		free(files);
		return NULL;
	}
	char why[512] = "";
	if (!load_dir(files, fd, "", 0, why, sizeof(why))) {
		snprintf(error, error_size, "%s: %s", dir, why);
		gateway_web_files_destroy(files);
		return NULL;
	}
	if (files->n_files > 0) {
		qsort(files->files, files->n_files, sizeof(*files->files), compare_files);
	}
	return files;
}

void gateway_web_files_destroy(struct gateway_web_files *files) {
	if (!files) {
		return;
	}
	for (size_t i = 0; i < files->n_files; i++) {
		free(files->files[i].path);
		free(files->files[i].data);
	}
	free(files->files);
	free(files);
}

const char *gateway_web_files_find(const struct gateway_web_files *files, const char *path,
		size_t *len) {
	if (!files || files->n_files == 0) {
		return NULL;
	}
	struct web_file key = { .path = (char *)path };
	const struct web_file *found = bsearch(&key, files->files, files->n_files,
		sizeof(*files->files), compare_files);
	if (!found) {
		return NULL;
	}
	*len = found->len;
	return found->data;
}
