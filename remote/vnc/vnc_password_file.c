/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>
#include "remote/vnc/vnc_password_file.h"
#include "common/util.h"

/*
 * Reads one line without its '\n' into line (size bytes, NUL-terminated;
 * a NUL byte read ends the string early, like a C string would). Returns
 * -1 at the end of f, 1 for a line too long for line or cut by the file
 * limit (all of it consumed), else 0.
 */
static int read_line(FILE *f, char *line, size_t size, size_t *total) {
	size_t n = 0;
	bool any = false, too_long = false;
	int c;
	while (*total < VNC_PASSWORD_FILE_MAX && (c = getc(f)) != EOF) {
		any = true;
		(*total)++;
		if (c == '\n') {
			line[n] = '\0';
			return too_long;
		}
		if (n + 1 < size) {
			line[n++] = (char)c;
		} else {
			too_long = true;
		}
	}
	line[n] = '\0';
	if (!any) {
		return -1;
	}
	/* At the end of the file the last line may lack its '\n'. */
	return too_long || *total >= VNC_PASSWORD_FILE_MAX;
}

void vnc_password_file_parse(struct vnc_password_file *file, FILE *f) {
	*file = (struct vnc_password_file){0};
	char *full[VNC_PASSWORDS_MAX], *view[VNC_PASSWORDS_MAX];
	int n_full = 0, n_view = 0;
	char line[VNC_PASSWORD_LINE_MAX + 1];
	size_t total = 0;
	int r;
	while ((r = read_line(f, line, sizeof(line), &total)) >= 0) {
		if (r > 0) {
			file->n_too_long++;
			continue;
		}
		line[strcspn(line, "\r")] = '\0';
		if (line[0] == '\0' || line[0] == '#') {
			continue;
		}
		bool view_only = strncmp(line, "view-only:", 10) == 0;
		const char *secret = view_only ? line + 10 : line;
		if (!secret[0] || n_full + n_view >= VNC_PASSWORDS_MAX) {
			continue;
		}
		file->long_password |= strlen(secret) > 8;
		if (view_only) {
			view[n_view++] = xstrdup(secret);
		} else {
			full[n_full++] = xstrdup(secret);
		}
	}
	explicit_bzero(line, sizeof(line));
	if (n_full + n_view == 0) {
		return;
	}
	char **passwords = zalloc(sizeof(char *) * (size_t)(n_full + n_view + 1));
	memcpy(passwords, full, sizeof(char *) * (size_t)n_full);
	memcpy(passwords + n_full, view, sizeof(char *) * (size_t)n_view);
	file->passwords = passwords;
	file->n_full = n_full;
	file->n_view = n_view;
}

void vnc_passwords_free(char **passwords) {
	for (size_t i = 0; passwords && passwords[i]; i++) {
		explicit_bzero(passwords[i], strlen(passwords[i]));
		free(passwords[i]);
	}
	free(passwords);
}
