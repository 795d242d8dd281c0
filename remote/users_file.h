/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_REMOTE_USERS_FILE_H
#define ORIEL_REMOTE_USERS_FILE_H

/*
 * The accounts file of remote viewers (--vnc-users): lines
 * NAME:HASH[:view-only], where HASH is a crypt(3) hash as mkpasswd writes
 * it (yescrypt "$y$...", SHA-512 "$6$..."), never a clear password.
 * Empty lines and lines starting with '#' are skipped. Pure: unit tests
 * and the fuzzer link it.
 */

#include <stdbool.h>
#include <stddef.h>

#define USERS_FILE_MAX_BYTES (1024 * 1024)
#define USERS_FILE_MAX_LINE 1024
#define USERS_FILE_MAX_NAME 255

struct users_file_entry {
	char *name;
	char *hash;
	bool view_only;
};

struct users_file {
	struct users_file_entry *entries;
	int n_entries;
};

/*
 * Parses text (len bytes, not NUL-terminated). On a bad line, returns
 * false with "LINE: problem" in error and leaves file empty.
 */
bool users_file_parse(struct users_file *file, const char *text, size_t len,
	char *error, size_t error_size);
/*
 * Reads and parses the file at path (at most USERS_FILE_MAX_BYTES). On
 * failure returns false with a sentence in error (naming the file) and
 * leaves file empty; a file without any account is a failure too.
 */
bool users_file_load(struct users_file *file, const char *path, char *error,
	size_t error_size);
const struct users_file_entry *users_file_find(const struct users_file *file,
	const char *name);
/* Frees the entries; the file is empty again. */
void users_file_finish(struct users_file *file);

#endif
