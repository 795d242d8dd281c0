/* SPDX-License-Identifier: MIT */
/* Unit tests for the --vnc-users format (remote/users_file.c). */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "remote/users_file.h"
#include "tests/unit/expect.h"

#define YESCRYPT "$y$j9T$abcdefghijklmnop$0123456789abcdefghijklmnopqrstuvwxyzABCDE"
#define SHA512 "$6$salt$Uh5a2bMmXhfmqiP2bjFdy6Q9Ef2IuHPWfgY6Yr4dOWXuYVYwY5Ds3A"

static bool parse(struct users_file *file, const char *text, char *error) {
	return users_file_parse(file, text, strlen(text), error, 128);
}

static void test_good(void) {
	struct users_file file;
	char error[128] = "";
	const char *text = "# accounts\n\nalice:" YESCRYPT "\r\nbob:" SHA512 ":view-only\n";
	EXPECT(parse(&file, text, error), "parsed: %s", error);
	EXPECT(file.n_entries == 2, "%d entries", file.n_entries);
	const struct users_file_entry *alice = users_file_find(&file, "alice");
	const struct users_file_entry *bob = users_file_find(&file, "bob");
	EXPECT(alice && strcmp(alice->hash, YESCRYPT) == 0 && !alice->view_only, "alice");
	EXPECT(bob && strcmp(bob->hash, SHA512) == 0 && bob->view_only, "bob, view-only");
	EXPECT(!users_file_find(&file, "carol"), "no carol");
	users_file_finish(&file);
}

static void test_bad(void) {
	static const struct { const char *text, *error; } cases[] = {
		{ "alice:secret\n", "1: not a crypt(3) hash" },
		{ "ok:" SHA512 "\nalice\n", "2: expected NAME:HASH" },
		{ ":" SHA512 "\n", "1: the user name is empty" },
		{ "al ice:" SHA512 "\n", "1: the user name is empty" },
		{ "alice:" SHA512 ":admin\n", "1: the only flag" },
		{ "alice:" SHA512 "\nalice:" YESCRYPT "\n", "2: this user name appears twice" },
		{ "alice:$6$a b$c\n", "1: not a crypt(3) hash" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct users_file file;
		char error[128] = "";
		EXPECT(!parse(&file, cases[i].text, error), "case %zu parsed", i);
		EXPECT(strncmp(error, cases[i].error, strlen(cases[i].error)) == 0,
			"case %zu: \"%s\", want \"%s\"", i, error, cases[i].error);
		EXPECT(file.n_entries == 0 && !file.entries, "case %zu left entries", i);
	}
	struct users_file file;
	char error[128];
	char nul[] = "alice:" SHA512 "\0x\n";
	EXPECT(!users_file_parse(&file, nul, sizeof(nul) - 1, error, sizeof(error)),
		"a NUL byte in a line");
}

static void test_load(void) {
	char path[] = "/tmp/oriel-test-users-XXXXXX";
	int fd = mkstemp(path);
	EXPECT(fd >= 0, "mkstemp");
	FILE *f = fdopen(fd, "w");
	fputs("alice:" SHA512 "\n", f);
	fclose(f);
	struct users_file file;
	char error[512] = "";
	EXPECT(users_file_load(&file, path, error, sizeof(error)), "loaded: %s", error);
	EXPECT(file.n_entries == 1 && users_file_find(&file, "alice"), "alice is in it");
	users_file_finish(&file);
	f = fopen(path, "w");
	fputs("# nobody\n", f);
	fclose(f);
	EXPECT(!users_file_load(&file, path, error, sizeof(error)) &&
		strstr(error, "no user") && file.n_entries == 0, "no account: %s", error);
	unlink(path);
	EXPECT(!users_file_load(&file, path, error, sizeof(error)) &&
		strstr(error, path) && file.n_entries == 0, "missing: %s", error);
}

int main(void) {
	test_good();
	test_bad();
	test_load();
	return failures != 0;
}
