/* SPDX-License-Identifier: MIT */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "xwm/xwayland_process.h"

/*
 * wlroots starts Xwayland through a double fork and keeps no pid, and the
 * Wayland connection is a socketpair whose credentials are oriel's own. The
 * process is found by what wlroots runs: "Xwayland :N ...", as our user.
 * oriel holds the lock of display :N, so no other X server of that number
 * can run.
 */
static bool is_xwayland_for(long pid, const char *display_name) {
	char path[64];
	snprintf(path, sizeof(path), "/proc/%ld/cmdline", pid);
	FILE *f = fopen(path, "re");
	if (!f) {
		return false;
	}
	char cmdline[256];
	size_t len = fread(cmdline, 1, sizeof(cmdline) - 1, f);
	fclose(f);
	cmdline[len] = '\0';
	/* argv[0] ends in "Xwayland"; argv[1] is the display name. */
	const char *argv0 = strrchr(cmdline, '/') ? strrchr(cmdline, '/') + 1 : cmdline;
	size_t argv0_len = strlen(cmdline);
	if (strcmp(argv0, "Xwayland") != 0 || argv0_len + 1 >= len) {
		return false;
	}
	return strcmp(cmdline + argv0_len + 1, display_name) == 0;
}

pid_t xwayland_process_find(const char *display_name) {
	DIR *proc = opendir("/proc");
	if (!proc) {
		return 0;
	}
	pid_t found = 0;
	struct dirent *entry;
	while ((entry = readdir(proc)) && !found) {
		char *end;
		long pid = strtol(entry->d_name, &end, 10);
		if (*end != '\0' || pid <= 0 || pid == getpid()) {
			continue;
		}
		char path[64];
		struct stat st;
		snprintf(path, sizeof(path), "/proc/%ld", pid);
		if (stat(path, &st) != 0 || st.st_uid != getuid()) {
			continue;
		}
		if (is_xwayland_for(pid, display_name)) {
			found = (pid_t)pid;
		}
	}
	closedir(proc);
	return found;
}
