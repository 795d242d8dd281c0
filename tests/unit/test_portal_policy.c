/* SPDX-License-Identifier: MIT */
/* The portal backend's policy file: portal/policy.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "portal/policy.h"
#include "expect.h"


#define SC PORTAL_KIND_SCREENCAST

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
	EXPECT(w == 0, "warnings %d", w);
	EXPECT(portal_policy_decide(&p, SC, "org.example.App") == PORTAL_DENY, "empty allows app");
	EXPECT(portal_policy_decide(&p, SC, "") == PORTAL_DENY, "empty allows unidentified");
	EXPECT(portal_policy_decide(&p, SC, NULL) == PORTAL_DENY, "empty allows NULL");
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
	EXPECT(w == 0, "warnings %d", w);
	EXPECT(p.rules[SC].allow.n == 2 && p.rules[SC].deny.n == 1, "allow %d deny %d",
		p.rules[SC].allow.n, p.rules[SC].deny.n);
	EXPECT(portal_policy_decide(&p, SC, "org.example.Good") == PORTAL_ALLOW, "Good");
	EXPECT(portal_policy_decide(&p, SC, "org.example.Also") == PORTAL_ALLOW, "Also");
	EXPECT(portal_policy_decide(&p, SC, "org.example.Bad") == PORTAL_DENY, "Bad");
	EXPECT(portal_policy_decide(&p, SC, "org.example.Elsewhere") == PORTAL_DENY,
		"other sections count");
	EXPECT(portal_policy_decide(&p, SC, "org.example.Goo") == PORTAL_DENY, "prefix matched");
	EXPECT(portal_policy_decide(&p, SC, "") == PORTAL_DENY, "unidentified allowed");
	portal_policy_finish(&p);
}

static void test_policy_wildcards(void) {
	struct portal_policy p = parse("[screencast]\nallow = *\ndeny = org.example.Bad\n", NULL);
	EXPECT(portal_policy_decide(&p, SC, "org.example.Any") == PORTAL_ALLOW, "* allows any");
	EXPECT(portal_policy_decide(&p, SC, "") == PORTAL_ALLOW, "* allows unidentified");
	EXPECT(portal_policy_decide(&p, SC, "org.example.Bad") == PORTAL_DENY, "deny beats *");
	portal_policy_finish(&p);

	p = parse("[screencast]\ndefault = allow\ndeny = *\nallow = org.example.Good\n", NULL);
	EXPECT(portal_policy_decide(&p, SC, "org.example.Good") == PORTAL_ALLOW, "exact beats deny *");
	EXPECT(portal_policy_decide(&p, SC, "org.example.Any") == PORTAL_DENY, "deny * beats default");
	portal_policy_finish(&p);

	p = parse("[screencast]\nallow-unidentified = true\n", NULL);
	EXPECT(portal_policy_decide(&p, SC, "") == PORTAL_ALLOW, "allow-unidentified");
	EXPECT(portal_policy_decide(&p, SC, "org.example.Any") == PORTAL_DENY,
		"allow-unidentified allows named apps");
	portal_policy_finish(&p);

	p = parse("[screencast]\ndefault = allow\n", NULL);
	EXPECT(portal_policy_decide(&p, SC, "org.example.Any") == PORTAL_ALLOW, "default allow");
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
	EXPECT(w == 5, "warnings %d, want 5", w);
	EXPECT(portal_policy_decide(&p, SC, "org.example.Sneaky") == PORTAL_DENY,
		"a line after a malformed header counted");
	EXPECT(portal_policy_decide(&p, SC, "org.example.Good") == PORTAL_ALLOW,
		"lines after bad ones are read");
	EXPECT(p.rules[SC].fallback == PORTAL_DENY && !p.rules[SC].allow_unidentified,
		"bad values changed the policy");
	portal_policy_finish(&p);

	/* Too many entries: the rest is dropped with a warning, nothing overflows. */
	char *big = malloc(PORTAL_POLICY_MAX_ENTRIES * 16 + 64);
	strcpy(big, "[screencast]\nallow =");
	for (int i = 0; i < PORTAL_POLICY_MAX_ENTRIES + 3; i++) {
		sprintf(big + strlen(big), " a%d", i);
	}
	p = parse(big, &w);
	EXPECT(p.rules[SC].allow.n == PORTAL_POLICY_MAX_ENTRIES && w == 3,
		"n_allow %d warnings %d", p.rules[SC].allow.n, w);
	portal_policy_finish(&p);
	free(big);
}

static void test_policy_load(void) {
	struct portal_policy p;
	portal_policy_init(&p);
	EXPECT(!portal_policy_load(&p, "/nonexistent/oriel/portal.ini", NULL), "loaded nothing");
	char path[] = "/tmp/oriel-test-portal-XXXXXX";
	int fd = mkstemp(path);
	EXPECT(fd >= 0, "mkstemp");
	if (fd >= 0) {
		FILE *f = fdopen(fd, "w");
		fputs("[screencast]\nallow = org.example.FromFile\n", f);
		fclose(f);
		EXPECT(portal_policy_load(&p, path, NULL), "load %s", path);
		EXPECT(portal_policy_decide(&p, SC, "org.example.FromFile") == PORTAL_ALLOW, "file");
		remove(path);
	}
	portal_policy_finish(&p);
}

static void test_policy_kinds(void) {
	int w;
	struct portal_policy p = parse(
		"[screencast]\n"
		"allow = org.example.Meeting\n"
		"persist = true\n"
		"[screenshot]\n"
		"default = ask\n"
		"deny = org.example.Meeting\n"
		"allow-unidentified = yes\n"
		"[remote-desktop]\n"
		"ask = org.example.Helpdesk\n"
		"allow = *\n"
		"[access]\n"
		"persist = sometimes\n", &w);
	EXPECT(w == 1, "warnings %d, want 1", w);
	EXPECT(portal_policy_decide(&p, SC, "org.example.Meeting") == PORTAL_ALLOW, "cast");
	EXPECT(portal_policy_decide(&p, PORTAL_KIND_SCREENSHOT, "org.example.Meeting") ==
		PORTAL_DENY, "sections are separate");
	EXPECT(portal_policy_decide(&p, PORTAL_KIND_SCREENSHOT, "org.example.Other") ==
		PORTAL_ASK, "default ask");
	EXPECT(portal_policy_decide(&p, PORTAL_KIND_SCREENSHOT, "") == PORTAL_ALLOW,
		"allow-unidentified in screenshot");
	EXPECT(portal_policy_decide(&p, PORTAL_KIND_REMOTE_DESKTOP, "org.example.Helpdesk") ==
		PORTAL_ASK, "exact ask beats allow *");
	EXPECT(portal_policy_decide(&p, PORTAL_KIND_REMOTE_DESKTOP, "org.example.Any") ==
		PORTAL_ALLOW, "allow * in remote-desktop");
	EXPECT(portal_policy_decide(&p, PORTAL_KIND_ACCESS, "org.example.Any") == PORTAL_DENY,
		"access defaults to deny");
	EXPECT(portal_policy_persist(&p, SC), "persist in screencast");
	EXPECT(!portal_policy_persist(&p, PORTAL_KIND_SCREENSHOT), "persist elsewhere");
	EXPECT(!portal_policy_persist(&p, PORTAL_KIND_ACCESS), "a bad persist value counted");
	EXPECT(portal_policy_decide(&p, PORTAL_N_KINDS, "") == PORTAL_DENY, "unknown kind");
	EXPECT(!strcmp(portal_kind_name(PORTAL_KIND_REMOTE_DESKTOP), "remote-desktop"), "name");
	portal_policy_finish(&p);
}

static void test_policy_ask(void) {
	int w;
	struct portal_policy p = parse(
		"[screencast]\n"
		"default = ask\n"
		"ask = org.example.Asked\n"
		"allow = org.example.Good\n"
		"deny = org.example.Bad\n"
		"prompt-timeout = 5\n"
		"[screenshot]\n"
		"prompt-timeout = 600\n", &w);
	EXPECT(w == 0, "warnings %d", w);
	EXPECT(portal_policy_decide(&p, SC, "org.example.Asked") == PORTAL_ASK, "listed ask");
	EXPECT(portal_policy_decide(&p, SC, "org.example.Other") == PORTAL_ASK, "default ask");
	EXPECT(portal_policy_decide(&p, SC, "") == PORTAL_ASK, "unidentified asked");
	EXPECT(portal_policy_decide(&p, SC, "org.example.Good") == PORTAL_ALLOW, "allow kept");
	EXPECT(portal_policy_decide(&p, SC, "org.example.Bad") == PORTAL_DENY, "deny kept");
	EXPECT(portal_policy_prompt_timeout(&p, SC) == 5, "prompt-timeout %u",
		portal_policy_prompt_timeout(&p, SC));
	EXPECT(portal_policy_prompt_timeout(&p, PORTAL_KIND_SCREENSHOT) == 600,
		"screenshot's prompt-timeout %u",
		portal_policy_prompt_timeout(&p, PORTAL_KIND_SCREENSHOT));
	EXPECT(portal_policy_prompt_timeout(&p, PORTAL_KIND_REMOTE_DESKTOP) ==
		PORTAL_PROMPT_TIMEOUT_DEFAULT_S, "sections keep their own timeout");
	portal_policy_finish(&p);

	/* An exact ask beats deny = *; allow-unidentified beats ask = *. */
	p = parse("[screencast]\ndeny = *\nask = org.example.Asked\n", NULL);
	EXPECT(portal_policy_decide(&p, SC, "org.example.Asked") == PORTAL_ASK, "exact ask");
	EXPECT(portal_policy_decide(&p, SC, "org.example.Other") == PORTAL_DENY, "deny *");
	EXPECT(portal_policy_prompt_timeout(&p, SC) == PORTAL_PROMPT_TIMEOUT_DEFAULT_S,
		"default timeout %u", portal_policy_prompt_timeout(&p, SC));
	portal_policy_finish(&p);
	p = parse("[screencast]\nask = *\nallow-unidentified = yes\n", NULL);
	EXPECT(portal_policy_decide(&p, SC, "") == PORTAL_ALLOW, "allow-unidentified");
	EXPECT(portal_policy_decide(&p, SC, "org.example.Any") == PORTAL_ASK, "ask *");
	portal_policy_finish(&p);

	/* Bad timeouts are warned about and leave the default. */
	p = parse("[screencast]\nprompt-timeout = 0\nprompt-timeout = 601\n"
		"prompt-timeout = -1\nprompt-timeout = 5s\nprompt-timeout =\n", &w);
	EXPECT(w == 5, "warnings %d, want 5", w);
	EXPECT(portal_policy_prompt_timeout(&p, SC) == PORTAL_PROMPT_TIMEOUT_DEFAULT_S,
		"timeout %u", portal_policy_prompt_timeout(&p, SC));
	EXPECT(portal_policy_prompt_timeout(&p, PORTAL_N_KINDS) ==
		PORTAL_PROMPT_TIMEOUT_DEFAULT_S, "unknown kind's timeout");
	portal_policy_finish(&p);
}

static void test_policy_window(void) {
	int w;
	struct portal_policy p = parse("[screencast]\ndefault = allow\n", &w);
	EXPECT(portal_policy_window(&p, SC) == PORTAL_WINDOW_FOCUSED, "default window rule");
	portal_policy_finish(&p);
	p = parse("[screencast]\nwindow = none\n[remote-desktop]\nwindow = focused\n"
		"window = topmost\n", &w);
	EXPECT(w == 1, "warnings %d, want 1", w);
	EXPECT(portal_policy_window(&p, SC) == PORTAL_WINDOW_NONE, "window = none");
	EXPECT(portal_policy_window(&p, PORTAL_KIND_REMOTE_DESKTOP) == PORTAL_WINDOW_FOCUSED,
		"a bad value keeps the rule");
	portal_policy_finish(&p);
}

static void test_policy_same_answer(void) {
	int w;
	struct portal_policy p = parse("[screencast]\ndefault = ask\n", &w);
	EXPECT(portal_policy_same_answer(&p, SC) == PORTAL_SAME_ANSWER_DEFAULT_S,
		"screencast default %u", portal_policy_same_answer(&p, SC));
	EXPECT(portal_policy_same_answer(&p, PORTAL_KIND_SCREENSHOT) == 0,
		"other kinds always ask");
	portal_policy_finish(&p);
	p = parse("[screencast]\nsame-answer-within = 0\n[screenshot]\n"
		"same-answer-within = 10\nsame-answer-within = 61\nsame-answer-within = x\n", &w);
	EXPECT(w == 2, "warnings %d, want 2", w);
	EXPECT(portal_policy_same_answer(&p, SC) == 0, "turned off");
	EXPECT(portal_policy_same_answer(&p, PORTAL_KIND_SCREENSHOT) == 10,
		"10 s, bad values skipped: %u", portal_policy_same_answer(&p,
		PORTAL_KIND_SCREENSHOT));
	portal_policy_finish(&p);
}

int main(void) {
	test_policy_empty();
	test_policy_lists();
	test_policy_wildcards();
	test_policy_malformed();
	test_policy_load();
	test_policy_kinds();
	test_policy_ask();
	test_policy_window();
	test_policy_same_answer();
	if (failures) {
		fprintf(stderr, "%d failures\n", failures);
		return 1;
	}
	return 0;
}
