/* SPDX-License-Identifier: MIT */
/*
 * The policy file (portal.ini) of xdg-desktop-portal-oriel, pure logic
 * with no D-Bus calls so that tests/unit/test_portal_policy.c links it.
 * One section per kind of access an app asks for:
 *
 *   [screencast]        ScreenCast Start
 *   [screenshot]        Screenshot and PickColor
 *   [remote-desktop]    RemoteDesktop Start (input, with any screen casts)
 *   [access]            other questions the frontend asks (AccessDialog)
 *
 * Each section: default = allow|deny|ask; allow, ask, deny = app_id lists
 * (* matches any app); allow-unidentified = true|false for callers with an
 * empty app_id; persist = true|false, whether a grant may be remembered
 * (restore tokens) when the app asks for that; prompt-timeout = seconds
 * the prompt waits for the person before it denies (1-600, default 30);
 * window = focused|none, which window a window cast shows when nobody
 * chooses (the policy allowed it): the focused one (default), or none, so
 * that only a person in the prompt can pick a window; same-answer-within
 * = seconds (0-60) an answer the person gave stands when the same app
 * asks again about the same kind of source (0: always ask; default 5 for
 * [screencast], 0 elsewhere).
 */
#ifndef ORIEL_PORTAL_POLICY_H
#define ORIEL_PORTAL_POLICY_H

#include <stdbool.h>
#include <stdio.h>

enum portal_kind {
	PORTAL_KIND_SCREENCAST,
	PORTAL_KIND_SCREENSHOT,
	PORTAL_KIND_REMOTE_DESKTOP,
	PORTAL_KIND_ACCESS,
	PORTAL_N_KINDS,
};

/* The section name of a kind, e.g. "remote-desktop". */
const char *portal_kind_name(enum portal_kind kind);

enum portal_decision {
	PORTAL_DENY = 0,
	PORTAL_ALLOW = 1,
	/* The person at the session answers, in oriel's prompt. */
	PORTAL_ASK = 2,
};

#define PORTAL_POLICY_MAX_ENTRIES 64
/* How long the prompt waits for the person before it denies. */
#define PORTAL_PROMPT_TIMEOUT_DEFAULT_S 30
#define PORTAL_PROMPT_TIMEOUT_MAX_S 600
#define PORTAL_SAME_ANSWER_DEFAULT_S 5
#define PORTAL_SAME_ANSWER_MAX_S 60

/* Which window a window cast shows when the policy, not a person, decided. */
enum portal_window_rule {
	PORTAL_WINDOW_FOCUSED = 0,
	PORTAL_WINDOW_NONE,
};

struct portal_policy_list {
	int n;
	char *names[PORTAL_POLICY_MAX_ENTRIES];
};

struct portal_policy_rules {
	enum portal_decision fallback; /* "default" */
	bool allow_unidentified;
	bool persist;
	unsigned prompt_timeout_s;
	unsigned same_answer_s;
	enum portal_window_rule window;
	struct portal_policy_list allow, ask, deny;
};

struct portal_policy {
	struct portal_policy_rules rules[PORTAL_N_KINDS];
};

/* Deny everything, remember nothing, nothing listed, the default timeout. */
void portal_policy_init(struct portal_policy *policy);
void portal_policy_finish(struct portal_policy *policy);

/*
 * Parses an ini file's text into policy (which must be initialised).
 * Unknown sections are ignored; unknown keys and malformed lines are
 * skipped with a warning written to warnings (may be NULL). Returns the
 * number of warnings.
 */
int portal_policy_parse(struct portal_policy *policy, const char *text, FILE *warnings);

/* Reads and parses path; false when it cannot be read (policy unchanged). */
bool portal_policy_load(struct portal_policy *policy, const char *path, FILE *warnings);

/*
 * The decision for app_id ("" or NULL for a caller that is not a sandboxed
 * app). Order: an exact deny, ask, allow; then for an unidentified caller
 * allow-unidentified; then deny = *, ask = *, allow = *; then the default.
 */
enum portal_decision portal_policy_decide(const struct portal_policy *policy,
	enum portal_kind kind, const char *app_id);

/* Whether a grant of this kind may be remembered across sessions. */
bool portal_policy_persist(const struct portal_policy *policy, enum portal_kind kind);

/* Seconds the prompt for this kind waits for the person before it denies. */
unsigned portal_policy_same_answer(const struct portal_policy *policy,
	enum portal_kind kind);
unsigned portal_policy_prompt_timeout(const struct portal_policy *policy,
	enum portal_kind kind);

/* Which window a window cast shows when nobody chooses. */
enum portal_window_rule portal_policy_window(const struct portal_policy *policy,
	enum portal_kind kind);

#endif
