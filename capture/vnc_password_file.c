#include <stdlib.h>
#include <string.h>
#include "capture/vnc_password_file.h"
#include "compositor/util.h"

void vnc_password_file_parse(struct vnc_password_file *file, FILE *f) {
	*file = (struct vnc_password_file){0};
	char *full[VNC_PASSWORDS_MAX], *view[VNC_PASSWORDS_MAX];
	int n_full = 0, n_view = 0;
	/* One more than a line can hold, to tell a long line from a full one. */
	char line[VNC_PASSWORD_LINE_MAX + 2];
	size_t total = 0;
	bool in_long_line = false;
	while (total < VNC_PASSWORD_FILE_MAX && fgets(line, sizeof(line), f)) {
		size_t len = strlen(line);
		total += len;
		bool ends = len > 0 && line[len - 1] == '\n';
		if (in_long_line) {
			/* The rest of a line that was too long. */
			in_long_line = !ends;
			continue;
		}
		if (!ends && len == sizeof(line) - 1) {
			file->n_too_long++;
			in_long_line = true;
			continue;
		}
		line[strcspn(line, "\r\n")] = '\0';
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
