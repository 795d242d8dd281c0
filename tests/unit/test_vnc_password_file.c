/* SPDX-License-Identifier: MIT */
/* Unit tests for the --vnc-password-file format (remote/vnc/vnc_password_file.c). */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "remote/vnc/vnc_password_file.h"
#include "expect.h"


static struct vnc_password_file parse(const char *text, size_t len) {
	struct vnc_password_file file;
	FILE *f = fmemopen((void *)text, len, "r");
	if (!f) {
		perror("fmemopen");
		exit(1);
	}
	vnc_password_file_parse(&file, f);
	fclose(f);
	return file;
}

static void test_lines(void) {
	const char *text = "# comment\n\nview-only:watch\r\nsecret\nview-only:\nlonger-than-8\n";
	struct vnc_password_file file = parse(text, strlen(text));
	EXPECT(file.n_full == 2 && file.n_view == 1, "full %d view %d", file.n_full,
		file.n_view);
	EXPECT(file.passwords && strcmp(file.passwords[0], "secret") == 0 &&
		strcmp(file.passwords[1], "longer-than-8") == 0 &&
		strcmp(file.passwords[2], "watch") == 0 && file.passwords[3] == NULL,
		"order: full access first");
	EXPECT(file.long_password, "long password noticed");
	EXPECT(file.n_too_long == 0, "too long %d", file.n_too_long);
	vnc_passwords_free(file.passwords);

	const char *none = "# only comments\n\nview-only:\n";
	file = parse(none, strlen(none));
	EXPECT(!file.passwords && file.n_full == 0 && file.n_view == 0, "no password");
}

/* A line too long for the buffer is skipped whole: its tail is no secret. */
static void test_long_line(void) {
	size_t n = 10 + 2000;
	static char text[10 + 2000 + 32];
	memcpy(text, "view-only:", 10);
	memset(text + 10, 'x', 2000);
	strcpy(text + n, "\nshort\n");
	struct vnc_password_file file = parse(text, strlen(text));
	EXPECT(file.n_too_long == 1, "too long %d", file.n_too_long);
	EXPECT(file.n_full == 1 && file.n_view == 0 && strcmp(file.passwords[0], "short") == 0,
		"full %d view %d", file.n_full, file.n_view);
	vnc_passwords_free(file.passwords);

	/* A NUL byte early in a long line does not hide its length. */
	memcpy(text, "view-only:ab", 12);
	text[12] = '\0';
	memset(text + 13, 'x', 1500);
	strcpy(text + 13 + 1500, "\nshort\n");
	file = parse(text, 13 + 1500 + 7);
	EXPECT(file.n_too_long == 1 && file.n_view == 0 && file.n_full == 1 &&
		strcmp(file.passwords[0], "short") == 0, "NUL: too long %d full %d view %d",
		file.n_too_long, file.n_full, file.n_view);
	vnc_passwords_free(file.passwords);

	/* The longest line that fits is kept. */
	memset(text, 'y', VNC_PASSWORD_LINE_MAX);
	strcpy(text + VNC_PASSWORD_LINE_MAX, "\n");
	file = parse(text, strlen(text));
	EXPECT(file.n_full == 1 && file.n_too_long == 0 &&
		strlen(file.passwords[0]) == VNC_PASSWORD_LINE_MAX, "longest line");
	vnc_passwords_free(file.passwords);
}

static void test_limit(void) {
	char text[VNC_PASSWORDS_MAX * 8 + 64];
	size_t o = 0;
	for (int i = 0; i < VNC_PASSWORDS_MAX + 5; i++) {
		o += (size_t)snprintf(text + o, sizeof(text) - o, "p%d\n", i);
	}
	struct vnc_password_file file = parse(text, o);
	EXPECT(file.n_full == VNC_PASSWORDS_MAX, "full %d", file.n_full);
	vnc_passwords_free(file.passwords);
}

int main(void) {
	test_lines();
	test_long_line();
	test_limit();
	if (failures) {
		fprintf(stderr, "%d failure(s)\n", failures);
		return 1;
	}
	printf("all passed\n");
	return 0;
}
