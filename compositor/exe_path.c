/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "compositor/exe_path.h"

bool exe_path_of_pid(pid_t pid, char exe[EXE_PATH_MAX], const char **why) {
	if (pid <= 0) {
		*why = "its pid is unknown";
		return false;
	}
	char proc_path[64];
	snprintf(proc_path, sizeof(proc_path), "/proc/%d/exe", (int)pid);
	ssize_t len = readlink(proc_path, exe, EXE_PATH_MAX - 1);
	if (len < 0) {
		*why = strerror(errno);
		return false;
	}
	if ((size_t)len >= EXE_PATH_MAX - 1) {
		*why = "its executable path is too long";
		return false;
	}
	exe[len] = '\0';
	return true;
}

static bool is_deleted(const char *exe) {
	size_t len = strlen(exe);
	size_t suffix_len = strlen(EXE_PATH_DELETED_SUFFIX);
	return len >= suffix_len &&
		strcmp(exe + len - suffix_len, EXE_PATH_DELETED_SUFFIX) == 0;
}

bool exe_path_is(const char *exe, const char *path) {
	if (!exe || !path || path[0] != '/' || is_deleted(exe)) {
		return false;
	}
	if (strcmp(exe, path) == 0) {
		return true;
	}
	/* The kernel shows the canonical path; the allowlist may hold symlinks. */
	char resolved[PATH_MAX];
	return realpath(path, resolved) && strcmp(exe, resolved) == 0;
}
