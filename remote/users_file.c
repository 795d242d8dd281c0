/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "remote/users_file.h"
#include "common/util.h"

/* crypt(3) hashes look like $ID$...; only these characters appear in them. */
static bool is_crypt_hash(const char *hash) {
	if (hash[0] != '$' || strlen(hash) < 4) {
		return false;
	}
	for (const char *p = hash; *p; p++) {
		if (!(*p >= 'a' && *p <= 'z') && !(*p >= 'A' && *p <= 'Z') &&
				!(*p >= '0' && *p <= '9') && !strchr("$./=,-", *p)) {
			return false;
		}
	}
	return true;
}

static bool valid_name(const char *name) {
	size_t len = strlen(name);
	if (len == 0 || len > USERS_FILE_MAX_NAME) {
		return false;
	}
	for (const char *p = name; *p; p++) {
		if ((unsigned char)*p < 0x21 || *p == 0x7f) {
			return false;
		}
	}
	return true;
}

/* One line, NUL-terminated and without its newline; false with a problem. */
static bool parse_line(struct users_file *file, char *line, const char **problem) {
	size_t len = strlen(line);
	if (len > 0 && line[len - 1] == '\r') {
		line[--len] = '\0';
	}
	if (len == 0 || line[0] == '#') {
		return true;
	}
	char *name = line;
	char *hash = strchr(line, ':');
	if (!hash) {
		*problem = "expected NAME:HASH[:view-only]";
		return false;
	}
	*hash++ = '\0';
	char *flag = strchr(hash, ':');
	if (flag) {
		*flag++ = '\0';
	}
	if (!valid_name(name)) {
		*problem = "the user name is empty, too long or has spaces or control characters";
		return false;
	}
	if (!is_crypt_hash(hash)) {
		*problem = "not a crypt(3) hash: make one with mkpasswd (package whois)";
		return false;
	}
	if (flag && strcmp(flag, "view-only") != 0) {
		*problem = "the only flag after the hash is view-only";
		return false;
	}
	if (users_file_find(file, name)) {
		*problem = "this user name appears twice";
		return false;
	}
	struct users_file_entry *entries = realloc(file->entries,
		(size_t)(file->n_entries + 1) * sizeof(*entries));
	if (!entries) {
		abort();
	}
	file->entries = entries;
	entries[file->n_entries++] = (struct users_file_entry){
		.name = xstrdup(name), .hash = xstrdup(hash), .view_only = flag != NULL,
	};
	return true;
}

bool users_file_parse(struct users_file *file, const char *text, size_t len,
		char *error, size_t error_size) {
	memset(file, 0, sizeof(*file));
	if (len > USERS_FILE_MAX_BYTES) {
		snprintf(error, error_size, "1: the file is larger than %d bytes",
			USERS_FILE_MAX_BYTES);
		return false;
	}
	char line[USERS_FILE_MAX_LINE + 1];
	size_t at = 0;
	int line_no = 0;
	while (at < len) {
		line_no++;
		const char *end = memchr(text + at, '\n', len - at);
		size_t line_len = end ? (size_t)(end - (text + at)) : len - at;
		const char *problem = NULL;
		if (line_len > USERS_FILE_MAX_LINE) {
			problem = "the line is too long";
		} else if (memchr(text + at, '\0', line_len)) {
			problem = "a NUL byte";
		} else {
			memcpy(line, text + at, line_len);
			line[line_len] = '\0';
			parse_line(file, line, &problem);
		}
		if (problem) {
			snprintf(error, error_size, "%d: %s", line_no, problem);
			users_file_finish(file);
			return false;
		}
		at += line_len + (end ? 1 : 0);
	}
	return true;
}

const struct users_file_entry *users_file_find(const struct users_file *file,
		const char *name) {
	for (int i = 0; i < file->n_entries; i++) {
		if (strcmp(file->entries[i].name, name) == 0) {
			return &file->entries[i];
		}
	}
	return NULL;
}

void users_file_finish(struct users_file *file) {
	for (int i = 0; i < file->n_entries; i++) {
		free(file->entries[i].name);
		free(file->entries[i].hash);
	}
	free(file->entries);
	file->entries = NULL;
	file->n_entries = 0;
}

bool users_file_load(struct users_file *file, const char *path, char *error,
		size_t error_size) {
	*file = (struct users_file){0};
	FILE *f = fopen(path, "r");
	if (!f) {
		snprintf(error, error_size, "cannot open the users file %s: %s", path,
			strerror(errno));
		return false;
	}
	char *text = malloc(USERS_FILE_MAX_BYTES + 1);
	size_t len = text ? fread(text, 1, USERS_FILE_MAX_BYTES + 1, f) : 0;
	fclose(f);
	if (!text) {
		snprintf(error, error_size, "out of memory reading %s", path);
		return false;
	}
	char why[192];
	bool ok = users_file_parse(file, text, len, why, sizeof(why));
	free(text);
	if (!ok) {
		snprintf(error, error_size, "%s:%s", path, why);
		return false;
	}
	if (file->n_entries == 0) {
		snprintf(error, error_size, "the users file %s has no user", path);
		return false;
	}
	return true;
}
