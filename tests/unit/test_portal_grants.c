/* SPDX-License-Identifier: MIT */
/* The grants file behind restore tokens (portal/grants.c) and paths.c. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "portal/grants.h"
#include "portal/paths.h"
#include "expect.h"


#define ID_A "0123456789abcdef0123456789abcdef"
#define ID_B "fedcba9876543210fedcba9876543210"

static void test_parse(void) {
	struct portal_grants g;
	portal_grants_init(&g);
	int w = portal_grants_parse(&g,
		"# comment\n"
		ID_A "\torg.example.Meeting\tscreencast\t1700000000\tmonitor:HEADLESS-1\n"
		"\n"
		ID_B "\t\tscreencast\t5\tmonitor:A monitor:B\n"
		ID_A "\tdup\tscreencast\t1\tmonitor:X\n"           /* duplicate id */
		"0123\tshort\tscreencast\t1\tmonitor:X\n"          /* bad id */
		ID_B "x\tlong\tscreencast\t1\tmonitor:X\n"         /* bad id */
		"only\ttwo\n"                                      /* fields */
		"00000000000000000000000000000001\tapp\tscreencast\t-1\tmonitor:X\n"
		"00000000000000000000000000000002\tapp\tscreencast\tsoon\tmonitor:X\n"
		"00000000000000000000000000000003\tapp\t\t1\tmonitor:X\n"
		"00000000000000000000000000000004\tapp\tscreencast\t1\t\n"
		"00000000000000000000000000000005\tapp\tscreencast\t1\tmonitor:X\textra\n",
		NULL);
	EXPECT(w == 9, "warnings %d, want 9", w);
	EXPECT(g.n == 2, "grants %d, want 2", g.n);
	const struct portal_grant *a = portal_grants_find(&g, ID_A);
	EXPECT(a && !strcmp(a->app_id, "org.example.Meeting") && a->created == 1700000000 &&
		!strcmp(a->sources, "monitor:HEADLESS-1"), "grant A");
	const struct portal_grant *b = portal_grants_find(&g, ID_B);
	EXPECT(b && !strcmp(b->app_id, ""), "grant B has the empty app_id");

	/* Format and parse again: the same grants. */
	char *text = portal_grants_format(&g);
	struct portal_grants again;
	portal_grants_init(&again);
	EXPECT(text && portal_grants_parse(&again, text, NULL) == 0 && again.n == 2,
		"round trip: %s", text ? text : "(null)");
	free(text);
	portal_grants_finish(&again);

	EXPECT(portal_grants_remove(&g, ID_A) && g.n == 1, "remove");
	EXPECT(!portal_grants_remove(&g, ID_A), "remove twice");
	EXPECT(portal_grants_find(&g, ID_B) != NULL, "B stays");
	portal_grants_finish(&g);
}

static void test_usable(void) {
	struct portal_grants g;
	portal_grants_init(&g);
	portal_grants_parse(&g, ID_A "\torg.example.App\tscreencast\t1\tmonitor:A monitor:B\n",
		NULL);
	const struct portal_grant *a = &g.items[0];
	const char *both[] = {"monitor:B", "monitor:A", "monitor:C", NULL};
	const char *only_a[] = {"monitor:A", NULL};
	EXPECT(portal_grant_usable(a, "org.example.App", "screencast", both), "usable");
	EXPECT(!portal_grant_usable(a, "org.example.Other", "screencast", both), "other app");
	EXPECT(!portal_grant_usable(a, "", "screencast", both), "unidentified caller");
	EXPECT(!portal_grant_usable(a, "org.example.App", "screenshot", both), "other kind");
	EXPECT(!portal_grant_usable(a, "org.example.App", "screencast", only_a),
		"an output is gone");
	EXPECT(!portal_grant_usable(a, "org.example.App", "screencast", NULL), "nothing exists");
	portal_grants_finish(&g);

	/* Windows and virtual screens: a closed window's grant is not usable. */
	portal_grants_init(&g);
	portal_grants_parse(&g, ID_B "\t\tscreencast\t1\twindow:7 virtual\n", NULL);
	const char *open_now[] = {"monitor:A", "window:7", "virtual", NULL};
	const char *closed[] = {"monitor:A", "window:8", "virtual", NULL};
	EXPECT(g.n == 1 && portal_grant_usable(&g.items[0], "", "screencast", open_now),
		"a window's grant while it is open");
	EXPECT(g.n == 1 && !portal_grant_usable(&g.items[0], "", "screencast", closed),
		"a closed window's grant");
	portal_grants_finish(&g);
}

static void test_add_and_fields(void) {
	struct portal_grants g;
	portal_grants_init(&g);
	char id1[PORTAL_GRANT_ID_LEN + 1], id2[PORTAL_GRANT_ID_LEN + 1];
	EXPECT(portal_grants_add(&g, "", "screencast", 7, "monitor:A", id1) == 0, "add");
	EXPECT(portal_grants_add(&g, "org.x", "screencast", 8, "monitor:B", id2) == 0, "add 2");
	EXPECT(portal_grant_id_valid(id1) && strcmp(id1, id2) != 0, "ids %s %s", id1, id2);
	EXPECT(portal_grants_add(&g, "tab\there", "screencast", 1, "monitor:A", id1) == -EINVAL,
		"a tab in app_id");
	EXPECT(portal_grants_add(&g, "nl\n", "screencast", 1, "monitor:A", id1) == -EINVAL,
		"a newline in app_id");
	EXPECT(portal_grants_add(&g, "a", "screencast", 1, "", id1) == -EINVAL, "no sources");
	EXPECT(g.n == 2, "refused grants were added: %d", g.n);
	portal_grants_finish(&g);
}

static void test_file(void) {
	char dir[] = "/tmp/oriel-test-grants-XXXXXX";
	EXPECT(mkdtemp(dir) != NULL, "mkdtemp");
	char path[256];
	snprintf(path, sizeof(path), "%s/state/oriel/portal-grants", dir);

	struct portal_grants g;
	portal_grants_init(&g);
	int lock = portal_grants_lock_load(&g, path, NULL);
	EXPECT(lock >= 0 && g.n == 0, "a missing file is no grants (%d)", lock);
	char id[PORTAL_GRANT_ID_LEN + 1];
	EXPECT(portal_grants_add(&g, "org.example.App", "screencast", 1, "monitor:A", id) == 0,
		"add");
	EXPECT(portal_grants_save(&g, path) == 0, "save");
	portal_grants_unlock(lock);
	portal_grants_finish(&g);

	portal_grants_init(&g);
	lock = portal_grants_lock_load(&g, path, NULL);
	EXPECT(lock >= 0 && g.n == 1 && portal_grants_find(&g, id), "reload");
	portal_grants_unlock(lock);
	portal_grants_finish(&g);
	EXPECT(access(path, R_OK) == 0, "the file exists");

	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	EXPECT(system(cmd) == 0, "cleanup");
}

static void test_paths(void) {
	char *uri = portal_file_uri("/run/user/0/oriel/a b%.png");
	EXPECT(uri && !strcmp(uri, "file:///run/user/0/oriel/a%20b%25.png"), "uri %s", uri);
	free(uri);
	EXPECT(portal_file_uri("relative.png") == NULL, "relative path");
	setenv("XDG_STATE_HOME", "/state", 1);
	char *p = portal_grants_path();
	EXPECT(p && !strcmp(p, "/state/oriel/portal-grants"), "path %s", p);
	free(p);
	unsetenv("XDG_STATE_HOME");
	setenv("HOME", "/home/x", 1);
	p = portal_grants_path();
	EXPECT(p && !strcmp(p, "/home/x/.local/state/oriel/portal-grants"), "path %s", p);
	free(p);
}

int main(void) {
	test_parse();
	test_usable();
	test_add_and_fields();
	test_file();
	test_paths();
	if (failures) {
		fprintf(stderr, "%d failures\n", failures);
		return 1;
	}
	return 0;
}
