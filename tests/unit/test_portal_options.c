/* The portal backend's pure logic: SelectSources options and portal.ini. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "portal/options.h"

static int failures;

#define CHECK(cond, ...) do { \
	if (!(cond)) { \
		fprintf(stderr, "%s:%d: ", __FILE__, __LINE__); \
		fprintf(stderr, __VA_ARGS__); \
		fputc('\n', stderr); \
		failures++; \
	} \
} while (0)

static void test_select_defaults(void) {
	struct portal_select_options opts = {0};
	struct portal_selection sel;
	const char *why = portal_select_options_validate(&opts, &sel);
	CHECK(!why, "no options: %s", why);
	CHECK(sel.types == PORTAL_SOURCE_MONITOR, "default types %u", sel.types);
	CHECK(!sel.multiple, "default multiple");
	CHECK(sel.cursor_mode == PORTAL_CURSOR_EMBEDDED, "default cursor %u", sel.cursor_mode);
	CHECK(sel.persist_mode == PORTAL_PERSIST_NONE, "default persist %u", sel.persist_mode);
}

static void test_select_valid(void) {
	struct portal_select_options opts = {
		.has_types = true, .types = PORTAL_SOURCE_MONITOR | PORTAL_SOURCE_WINDOW,
		.has_multiple = true, .multiple = true,
		.has_cursor_mode = true, .cursor_mode = PORTAL_CURSOR_EMBEDDED,
		.has_persist_mode = true, .persist_mode = PORTAL_PERSIST_PERSISTENT,
		.restore_token = "some-token-we-never-issued",
	};
	struct portal_selection sel;
	const char *why = portal_select_options_validate(&opts, &sel);
	CHECK(!why, "valid options refused: %s", why);
	/* Window is asked for too but not offered: monitors remain. */
	CHECK(sel.types == PORTAL_SOURCE_MONITOR, "types %u", sel.types);
	CHECK(sel.multiple, "multiple");
	CHECK(sel.persist_mode == PORTAL_PERSIST_PERSISTENT, "persist %u", sel.persist_mode);
}

static void test_select_invalid(void) {
	struct {
		const char *what;
		struct portal_select_options opts;
	} cases[] = {
		{"empty types", {.has_types = true, .types = 0}},
		{"unknown type bit", {.has_types = true, .types = 8}},
		{"window only", {.has_types = true, .types = PORTAL_SOURCE_WINDOW}},
		{"virtual only", {.has_types = true, .types = PORTAL_SOURCE_VIRTUAL}},
		{"two cursor modes", {.has_cursor_mode = true, .cursor_mode = 3}},
		{"cursor mode 0", {.has_cursor_mode = true, .cursor_mode = 0}},
		{"hidden cursor", {.has_cursor_mode = true, .cursor_mode = PORTAL_CURSOR_HIDDEN}},
		{"metadata cursor", {.has_cursor_mode = true,
			.cursor_mode = PORTAL_CURSOR_METADATA}},
		{"persist 3", {.has_persist_mode = true, .persist_mode = 3}},
		{"persist huge", {.has_persist_mode = true, .persist_mode = 0xffffffffu}},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct portal_selection sel = {0};
		CHECK(portal_select_options_validate(&cases[i].opts, &sel) != NULL,
			"%s accepted", cases[i].what);
	}
}

static struct portal_policy parse(const char *text, int *warnings) {
	struct portal_policy p;
	portal_policy_init(&p);
	FILE *null = fopen("/dev/null", "w");
	int w = portal_policy_parse(&p, text, null);
	if (null) {
		fclose(null);
	}
	if (warnings) {
		*warnings = w;
	}
	return p;
}

static void test_policy_empty(void) {
	int w;
	struct portal_policy p = parse("", &w);
	CHECK(w == 0, "warnings %d", w);
	CHECK(portal_policy_screencast(&p, "org.example.App") == PORTAL_DENY, "empty allows app");
	CHECK(portal_policy_screencast(&p, "") == PORTAL_DENY, "empty allows unidentified");
	CHECK(portal_policy_screencast(&p, NULL) == PORTAL_DENY, "empty allows NULL");
	portal_policy_finish(&p);
}

static void test_policy_lists(void) {
	int w;
	struct portal_policy p = parse(
		"# unattended CI\n"
		"[other]\n"
		"allow = org.example.Elsewhere\n"
		"[screencast]\n"
		"  allow = org.example.Good, org.example.Also  \n"
		"deny = org.example.Bad\n"
		"\n"
		"; comment\n", &w);
	CHECK(w == 0, "warnings %d", w);
	CHECK(p.n_allow == 2 && p.n_deny == 1, "allow %d deny %d", p.n_allow, p.n_deny);
	CHECK(portal_policy_screencast(&p, "org.example.Good") == PORTAL_ALLOW, "Good");
	CHECK(portal_policy_screencast(&p, "org.example.Also") == PORTAL_ALLOW, "Also");
	CHECK(portal_policy_screencast(&p, "org.example.Bad") == PORTAL_DENY, "Bad");
	CHECK(portal_policy_screencast(&p, "org.example.Elsewhere") == PORTAL_DENY,
		"other sections count");
	CHECK(portal_policy_screencast(&p, "org.example.Goo") == PORTAL_DENY, "prefix matched");
	CHECK(portal_policy_screencast(&p, "") == PORTAL_DENY, "unidentified allowed");
	portal_policy_finish(&p);
}

static void test_policy_wildcards(void) {
	struct portal_policy p = parse("[screencast]\nallow = *\ndeny = org.example.Bad\n", NULL);
	CHECK(portal_policy_screencast(&p, "org.example.Any") == PORTAL_ALLOW, "* allows any");
	CHECK(portal_policy_screencast(&p, "") == PORTAL_ALLOW, "* allows unidentified");
	CHECK(portal_policy_screencast(&p, "org.example.Bad") == PORTAL_DENY, "deny beats *");
	portal_policy_finish(&p);

	p = parse("[screencast]\ndefault = allow\ndeny = *\nallow = org.example.Good\n", NULL);
	CHECK(portal_policy_screencast(&p, "org.example.Good") == PORTAL_ALLOW, "exact beats deny *");
	CHECK(portal_policy_screencast(&p, "org.example.Any") == PORTAL_DENY, "deny * beats default");
	portal_policy_finish(&p);

	p = parse("[screencast]\nallow-unidentified = true\n", NULL);
	CHECK(portal_policy_screencast(&p, "") == PORTAL_ALLOW, "allow-unidentified");
	CHECK(portal_policy_screencast(&p, "org.example.Any") == PORTAL_DENY,
		"allow-unidentified allows named apps");
	portal_policy_finish(&p);

	p = parse("[screencast]\ndefault = allow\n", NULL);
	CHECK(portal_policy_screencast(&p, "org.example.Any") == PORTAL_ALLOW, "default allow");
	portal_policy_finish(&p);
}

static void test_policy_malformed(void) {
	int w;
	struct portal_policy p = parse(
		"[screencast\n"            /* malformed header: leaves the section */
		"allow = org.example.Sneaky\n"
		"[screencast]\n"
		"no equals sign\n"
		"default = maybe\n"
		"allow-unidentified = perhaps\n"
		"colour = blue\n"
		"allow = org.example.Good\n", &w);
	CHECK(w == 5, "warnings %d, want 5", w);
	CHECK(portal_policy_screencast(&p, "org.example.Sneaky") == PORTAL_DENY,
		"a line after a malformed header counted");
	CHECK(portal_policy_screencast(&p, "org.example.Good") == PORTAL_ALLOW,
		"lines after bad ones are read");
	CHECK(p.screencast_default == PORTAL_DENY && !p.allow_unidentified,
		"bad values changed the policy");
	portal_policy_finish(&p);

	/* Too many entries: the rest is dropped with a warning, nothing overflows. */
	char *big = malloc(PORTAL_POLICY_MAX_ENTRIES * 16 + 64);
	strcpy(big, "[screencast]\nallow =");
	for (int i = 0; i < PORTAL_POLICY_MAX_ENTRIES + 3; i++) {
		sprintf(big + strlen(big), " a%d", i);
	}
	p = parse(big, &w);
	CHECK(p.n_allow == PORTAL_POLICY_MAX_ENTRIES && w == 3, "n_allow %d warnings %d",
		p.n_allow, w);
	portal_policy_finish(&p);
	free(big);
}

static void test_policy_ask(void) {
	int w;
	struct portal_policy p = parse(
		"[screencast]\n"
		"default = ask\n"
		"ask = org.example.Asked\n"
		"allow = org.example.Good\n"
		"deny = org.example.Bad\n"
		"prompt-timeout = 5\n", &w);
	CHECK(w == 0, "warnings %d", w);
	CHECK(portal_policy_screencast(&p, "org.example.Asked") == PORTAL_ASK, "listed ask");
	CHECK(portal_policy_screencast(&p, "org.example.Other") == PORTAL_ASK, "default ask");
	CHECK(portal_policy_screencast(&p, "") == PORTAL_ASK, "unidentified asked");
	CHECK(portal_policy_screencast(&p, "org.example.Good") == PORTAL_ALLOW, "allow kept");
	CHECK(portal_policy_screencast(&p, "org.example.Bad") == PORTAL_DENY, "deny kept");
	CHECK(p.prompt_timeout_s == 5, "prompt-timeout %u", p.prompt_timeout_s);
	portal_policy_finish(&p);

	/* An exact ask beats deny = *; allow-unidentified beats ask = *. */
	p = parse("[screencast]\ndeny = *\nask = org.example.Asked\n", NULL);
	CHECK(portal_policy_screencast(&p, "org.example.Asked") == PORTAL_ASK, "exact ask");
	CHECK(portal_policy_screencast(&p, "org.example.Other") == PORTAL_DENY, "deny *");
	CHECK(p.prompt_timeout_s == PORTAL_PROMPT_TIMEOUT_DEFAULT_S, "default timeout %u",
		p.prompt_timeout_s);
	portal_policy_finish(&p);
	p = parse("[screencast]\nask = *\nallow-unidentified = yes\n", NULL);
	CHECK(portal_policy_screencast(&p, "") == PORTAL_ALLOW, "allow-unidentified");
	CHECK(portal_policy_screencast(&p, "org.example.Any") == PORTAL_ASK, "ask *");
	portal_policy_finish(&p);

	/* Bad timeouts are warned about and leave the default. */
	p = parse("[screencast]\nprompt-timeout = 0\nprompt-timeout = 601\n"
		"prompt-timeout = -1\nprompt-timeout = 5s\nprompt-timeout =\n", &w);
	CHECK(w == 5, "warnings %d, want 5", w);
	CHECK(p.prompt_timeout_s == PORTAL_PROMPT_TIMEOUT_DEFAULT_S, "timeout %u",
		p.prompt_timeout_s);
	portal_policy_finish(&p);
}

static void test_policy_load(void) {
	struct portal_policy p;
	portal_policy_init(&p);
	CHECK(!portal_policy_load(&p, "/nonexistent/oriel/portal.ini", NULL), "loaded nothing");
	char path[] = "/tmp/oriel-test-portal-XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0, "mkstemp");
	if (fd >= 0) {
		FILE *f = fdopen(fd, "w");
		fputs("[screencast]\nallow = org.example.FromFile\n", f);
		fclose(f);
		CHECK(portal_policy_load(&p, path, NULL), "load %s", path);
		CHECK(portal_policy_screencast(&p, "org.example.FromFile") == PORTAL_ALLOW, "file");
		remove(path);
	}
	portal_policy_finish(&p);
}

int main(void) {
	test_select_defaults();
	test_select_valid();
	test_select_invalid();
	test_policy_empty();
	test_policy_lists();
	test_policy_wildcards();
	test_policy_malformed();
	test_policy_ask();
	test_policy_load();
	if (failures) {
		fprintf(stderr, "%d failures\n", failures);
		return 1;
	}
	return 0;
}
