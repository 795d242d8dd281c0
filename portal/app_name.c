/* SPDX-License-Identifier: MIT */
#include <dirent.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "portal/app_name.h"

#define MAX_DIRS 32

struct desktop_entry {
	char name[256];
	char exec[PATH_MAX];
	char try_exec[PATH_MAX];
	bool hidden;
};

/* dst gets as much of src as fits. */
static void copy_value(char *dst, size_t size, const char *src) {
	size_t len = strlen(src);
	if (len >= size) {
		len = size - 1;
	}
	memcpy(dst, src, len);
	dst[len] = '\0';
}

/* dir/name into out; false when it does not fit. */
static bool join_path(char *out, size_t size, const char *dir, const char *name,
		const char *suffix) {
	int n = snprintf(out, size, "%s/%s%s", dir, name, suffix);
	return n > 0 && (size_t)n < size;
}

static void trim_newline(char *s) {
	s[strcspn(s, "\r\n")] = '\0';
}

/* Reads the [Desktop Entry] group; false when the file has none. */
static bool read_entry(const char *path, struct desktop_entry *entry) {
	FILE *f = fopen(path, "re");
	if (!f) {
		return false;
	}
	*entry = (struct desktop_entry){0};
	char line[4096];
	bool in_group = false, found = false;
	while (fgets(line, sizeof(line), f)) {
		trim_newline(line);
		if (line[0] == '[') {
			in_group = strcmp(line, "[Desktop Entry]") == 0;
			found |= in_group;
			continue;
		}
		if (!in_group) {
			continue;
		}
		if (strncmp(line, "Name=", 5) == 0) {
			copy_value(entry->name, sizeof(entry->name), line + 5);
		} else if (strncmp(line, "Exec=", 5) == 0) {
			copy_value(entry->exec, sizeof(entry->exec), line + 5);
		} else if (strncmp(line, "TryExec=", 8) == 0) {
			copy_value(entry->try_exec, sizeof(entry->try_exec), line + 8);
		} else if (strcmp(line, "NoDisplay=true") == 0 || strcmp(line, "Hidden=true") == 0) {
			entry->hidden = true;
		}
	}
	fclose(f);
	return found && entry->name[0] && !entry->hidden;
}

/* The program of an Exec line: its first word, past "env VAR=VALUE ...". */
static void exec_program(const char *exec, char *out, size_t size) {
	out[0] = '\0';
	const char *p = exec;
	for (;;) {
		while (*p == ' ') {
			p++;
		}
		char quote = *p == '"' ? '"' : '\0';
		if (quote) {
			p++;
		}
		size_t len = 0;
		while (p[len] && (quote ? p[len] != quote : p[len] != ' ')) {
			len++;
		}
		if (len >= size) {
			return;
		}
		memcpy(out, p, len);
		out[len] = '\0';
		p += len + (quote && p[len] ? 1 : 0);
		bool env = strcmp(out, "env") == 0 || strcmp(out, "/usr/bin/env") == 0;
		if (!env && !strchr(out, '=')) {
			return;
		}
		if (!*p) {
			out[0] = '\0';
			return;
		}
	}
}

/* program resolved through $PATH and symlinks; false when not found. */
static bool resolve_program(const char *program, char *out) {
	if (!program[0]) {
		return false;
	}
	if (strchr(program, '/')) {
		return realpath(program, out) != NULL;
	}
	const char *path = getenv("PATH");
	if (!path) {
		path = "/usr/local/bin:/usr/bin:/bin";
	}
	while (*path) {
		size_t len = strcspn(path, ":");
		char candidate[PATH_MAX];
		if (snprintf(candidate, sizeof(candidate), "%.*s/%s", (int)len, path, program) <
				(int)sizeof(candidate) && access(candidate, X_OK) == 0 &&
				realpath(candidate, out)) {
			return true;
		}
		path += len + (path[len] == ':');
	}
	return false;
}

static const char *base_name(const char *path) {
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

/* Every applications folder, the user's first. Returns how many. */
static int application_dirs(char dirs[MAX_DIRS][PATH_MAX]) {
	int n = 0;
	const char *data_home = getenv("XDG_DATA_HOME");
	const char *home = getenv("HOME");
	if (data_home && data_home[0]) {
		snprintf(dirs[n++], PATH_MAX, "%s/applications", data_home);
	} else if (home && home[0]) {
		snprintf(dirs[n++], PATH_MAX, "%s/.local/share/applications", home);
	}
	const char *data_dirs = getenv("XDG_DATA_DIRS");
	if (!data_dirs || !data_dirs[0]) {
		data_dirs = "/usr/local/share:/usr/share";
	}
	while (*data_dirs && n < MAX_DIRS) {
		size_t len = strcspn(data_dirs, ":");
		if (len > 0) {
			snprintf(dirs[n++], PATH_MAX, "%.*s/applications", (int)len, data_dirs);
		}
		data_dirs += len + (data_dirs[len] == ':');
	}
	return n;
}

char *portal_app_name_for_id(const char *app_id) {
	if (!app_id || !app_id[0] || strchr(app_id, '/')) {
		return NULL;
	}
	char dirs[MAX_DIRS][PATH_MAX];
	int n = application_dirs(dirs);
	for (int i = 0; i < n; i++) {
		char path[PATH_MAX];
		struct desktop_entry entry;
		if (join_path(path, sizeof(path), dirs[i], app_id, ".desktop") &&
				read_entry(path, &entry)) {
			return strdup(entry.name);
		}
	}
	return NULL;
}

char *portal_app_name_for_exe(const char *exe) {
	char real_exe[PATH_MAX];
	if (!exe || !exe[0] || !realpath(exe, real_exe)) {
		return NULL;
	}
	char dirs[MAX_DIRS][PATH_MAX];
	int n = application_dirs(dirs);
	char *by_name = NULL;
	for (int i = 0; i < n; i++) {
		DIR *dir = opendir(dirs[i]);
		if (!dir) {
			continue;
		}
		struct dirent *d;
		while ((d = readdir(dir))) {
			size_t len = strlen(d->d_name);
			if (len < 9 || strcmp(d->d_name + len - 8, ".desktop") != 0) {
				continue;
			}
			char path[PATH_MAX];
			struct desktop_entry entry;
			if (!join_path(path, sizeof(path), dirs[i], d->d_name, "") ||
					!read_entry(path, &entry)) {
				continue;
			}
			char program[PATH_MAX], resolved[PATH_MAX];
			const char *lines[] = { entry.exec, entry.try_exec };
			for (int k = 0; k < 2; k++) {
				exec_program(lines[k], program, sizeof(program));
				if (resolve_program(program, resolved) &&
						strcmp(resolved, real_exe) == 0) {
					closedir(dir);
					free(by_name);
					return strdup(entry.name);
				}
				if (!by_name && program[0] &&
						strcmp(base_name(program), base_name(real_exe)) == 0) {
					by_name = strdup(entry.name);
				}
			}
		}
		closedir(dir);
	}
	return by_name;
}
