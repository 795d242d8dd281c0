/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the --vnc-password-file format. Besides memory
 * errors it checks that every secret kept is a whole line of the file
 * (after "view-only:" for the view-only ones): a cut or merged line
 * would be a password nobody wrote, perhaps with more access.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "remote/vnc/vnc_password_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok, const char *what) {
	if (!ok) {
		fprintf(stderr, "fuzz-vnc-password-file: invariant broken: %s\n", what);
		abort();
	}
}

/* Whether a line of data starts with prefix then secret, and ends there. */
static bool is_line(const uint8_t *data, size_t size, const char *prefix,
		const char *secret) {
	size_t np = strlen(prefix), ns = strlen(secret);
	for (size_t start = 0; start < size; ) {
		const uint8_t *nl = memchr(data + start, '\n', size - start);
		size_t end = nl ? (size_t)(nl - data) : size;
		if (end - start >= np + ns && memcmp(data + start, prefix, np) == 0 &&
				memcmp(data + start + np, secret, ns) == 0) {
			size_t after = start + np + ns;
			if (after == end || data[after] == '\r' || data[after] == '\0') {
				return true;
			}
		}
		start = end + 1;
	}
	return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
	if (size == 0) {
		return 0; /* fmemopen needs a buffer */
	}
	FILE *f = fmemopen((void *)data, size, "r");
	if (!f) {
		return 0;
	}
	struct vnc_password_file file;
	vnc_password_file_parse(&file, f);
	fclose(f);

	check(file.n_full >= 0 && file.n_view >= 0 &&
		file.n_full + file.n_view <= VNC_PASSWORDS_MAX, "count bound");
	check(file.n_too_long >= 0, "too-long count");
	check((file.passwords != NULL) == (file.n_full + file.n_view > 0),
		"a list exactly when there is a password");
	bool long_password = false;
	for (int i = 0; i < file.n_full + file.n_view; i++) {
		const char *secret = file.passwords[i];
		check(secret && secret[0], "secret not empty");
		check(strlen(secret) <= VNC_PASSWORD_LINE_MAX, "secret length");
		check(!strpbrk(secret, "\r\n"), "secret is one line");
		long_password |= strlen(secret) > 8;
		if (i < file.n_full) {
			check(secret[0] != '#', "comments are no secrets");
			check(strncmp(secret, "view-only:", 10) != 0, "full access is not view-only");
			check(is_line(data, size, "", secret), "full secret is a whole line");
		} else {
			check(is_line(data, size, "view-only:", secret),
				"view-only secret is a whole line");
		}
	}
	if (file.passwords) {
		check(file.passwords[file.n_full + file.n_view] == NULL, "list terminated");
	}
	check(file.long_password == long_password, "long password flag");
	vnc_passwords_free(file.passwords);
	return 0;
}
