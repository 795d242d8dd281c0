/* SPDX-License-Identifier: MIT */
/* portal/app_name.c: apps named by their .desktop files. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "portal/app_name.h"
#include "expect.h"

static char root[] = "/tmp/oriel-app-name-XXXXXX";

static void write_file(const char *dir, const char *name, const char *text, mode_t mode) {
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	fputs(text, f);
	fclose(f);
	chmod(path, mode);
}

static void expect_name(char *got, const char *want, const char *what) {
	EXPECT((!got && !want) || (got && want && strcmp(got, want) == 0),
		"%s: got %s, want %s", what, got ? got : "NULL", want ? want : "NULL");
	free(got);
}

int main(void) {
	if (!mkdtemp(root)) {
		return 1;
	}
	char apps[256], user_apps[256], bin[256], lib[256];
	snprintf(apps, sizeof(apps), "%s/share/applications", root);
	snprintf(user_apps, sizeof(user_apps), "%s/home/applications", root);
	snprintf(bin, sizeof(bin), "%s/bin", root);
	snprintf(lib, sizeof(lib), "%s/lib", root);
	char dirs[][256] = { "", "", "", "", "" };
	snprintf(dirs[0], 256, "%s/share", root);
	snprintf(dirs[1], 256, "%s/home", root);
	for (int i = 0; i < 2; i++) {
		mkdir(dirs[i], 0700);
	}
	mkdir(apps, 0700);
	mkdir(user_apps, 0700);
	mkdir(bin, 0700);
	mkdir(lib, 0700);

	/* A browser whose menu entry runs a wrapper script of the same name. */
	write_file(lib, "browser", "", 0755);
	write_file(bin, "browser", "#!/bin/sh\n", 0755);
	write_file(bin, "editor", "", 0755);
	write_file(bin, "python9", "", 0755);
	char text[1024];
	snprintf(text, sizeof(text), "[Desktop Entry]\nName=Web Browser\n"
		"Exec=%s/browser %%U\n[Desktop Action new]\nName=New Window\n", bin);
	write_file(apps, "browser.desktop", text, 0644);
	write_file(apps, "editor.desktop",
		"[Desktop Entry]\nName=Text Editor\nExec=env LANG=C editor --new %F\n", 0644);
	snprintf(text, sizeof(text), "[Desktop Entry]\nName=Python 9\nExec=%s/python9\n"
		"NoDisplay=true\n", bin);
	write_file(apps, "python9.desktop", text, 0644);
	write_file(apps, "org.example.Meet.desktop",
		"[Desktop Entry]\nName=Meet\nExec=meet\n", 0644);
	write_file(user_apps, "org.example.Meet.desktop",
		"[Desktop Entry]\nName=My Meet\nExec=meet\n", 0644);

	setenv("XDG_DATA_DIRS", dirs[0], 1);
	setenv("XDG_DATA_HOME", dirs[1], 1);
	setenv("PATH", bin, 1);

	char exe[512];
	snprintf(exe, sizeof(exe), "%s/browser", lib);
	expect_name(portal_app_name_for_exe(exe), "Web Browser", "a wrapper of the same name");
	snprintf(exe, sizeof(exe), "%s/editor", bin);
	expect_name(portal_app_name_for_exe(exe), "Text Editor", "found on PATH, after env");
	snprintf(exe, sizeof(exe), "%s/python9", bin);
	expect_name(portal_app_name_for_exe(exe), NULL, "an entry hidden from menus");
	expect_name(portal_app_name_for_exe("/nonexistent/thing"), NULL, "no such file");
	expect_name(portal_app_name_for_id("org.example.Meet"), "My Meet",
		"the user's entry first");
	expect_name(portal_app_name_for_id("org.example.None"), NULL, "no entry");
	expect_name(portal_app_name_for_id("../etc/x"), NULL, "not an id");

	char cmd[300];
	snprintf(cmd, sizeof(cmd), "/bin/rm -rf %s", root);
	if (system(cmd) != 0) {
		return 1;
	}
	return failures ? 1 : 0;
}
