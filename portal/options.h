/*
 * Pure logic of xdg-desktop-portal-oriel, with no D-Bus calls, so that
 * tests/unit/test_portal_options.c links it directly:
 * - validation of ScreenCast SelectSources options against what oriel
 *   offers (the portal's numbering of source types and cursor modes);
 * - the screencast policy file (portal.ini) and its matching.
 */
#ifndef ORIEL_PORTAL_OPTIONS_H
#define ORIEL_PORTAL_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* org.freedesktop.portal.ScreenCast numbering. */
enum portal_source_type {
	PORTAL_SOURCE_MONITOR = 1,
	PORTAL_SOURCE_WINDOW = 2,
	PORTAL_SOURCE_VIRTUAL = 4,
};

enum portal_cursor_mode {
	PORTAL_CURSOR_HIDDEN = 1,
	PORTAL_CURSOR_EMBEDDED = 2,
	PORTAL_CURSOR_METADATA = 4,
};

enum portal_persist_mode {
	PORTAL_PERSIST_NONE = 0,
	PORTAL_PERSIST_TRANSIENT = 1,
	PORTAL_PERSIST_PERSISTENT = 2,
};

/* What oriel offers today: monitors, with the cursor embedded. */
#define PORTAL_AVAILABLE_SOURCE_TYPES ((uint32_t)PORTAL_SOURCE_MONITOR)
#define PORTAL_AVAILABLE_CURSOR_MODES ((uint32_t)PORTAL_CURSOR_EMBEDDED)
#define PORTAL_SCREENCAST_VERSION 4u

/* SelectSources options; the has_* flags say which keys were present. */
struct portal_select_options {
	bool has_types, has_multiple, has_cursor_mode, has_persist_mode;
	uint32_t types;
	bool multiple;
	uint32_t cursor_mode;
	uint32_t persist_mode;
	const char *restore_token; /* borrowed; NULL when absent */
};

/* The selection a session keeps after a valid SelectSources. */
struct portal_selection {
	uint32_t types;
	bool multiple;
	uint32_t cursor_mode;
	uint32_t persist_mode;
};

/*
 * Checks opts and fills out with defaults for absent keys (monitor, one
 * source, embedded cursor, no persistence). Returns NULL when valid, or a
 * static English reason. A restore token is accepted and ignored: oriel
 * issues none yet, and an unknown token means "ask again", per the spec.
 */
const char *portal_select_options_validate(const struct portal_select_options *opts,
	struct portal_selection *out);

enum portal_decision {
	PORTAL_DENY = 0,
	PORTAL_ALLOW = 1,
	PORTAL_ASK = 2, /* oriel's prompt asks the person at the session */
};

#define PORTAL_POLICY_MAX_ENTRIES 64
/* How long the prompt waits for the person before it denies. */
#define PORTAL_PROMPT_TIMEOUT_DEFAULT_S 30
#define PORTAL_PROMPT_TIMEOUT_MAX_S 600

struct portal_policy {
	enum portal_decision screencast_default;
	bool allow_unidentified;
	unsigned prompt_timeout_s;
	int n_allow, n_deny, n_ask;
	char *allow[PORTAL_POLICY_MAX_ENTRIES];
	char *deny[PORTAL_POLICY_MAX_ENTRIES];
	char *ask[PORTAL_POLICY_MAX_ENTRIES];
};

/* Deny-all policy with nothing listed. */
void portal_policy_init(struct portal_policy *policy);
void portal_policy_finish(struct portal_policy *policy);

/*
 * Parses an ini file's text into policy (which must be initialised).
 * Unknown sections and keys are ignored with a warning written to
 * warnings (may be NULL); malformed lines likewise. Returns the number of
 * warnings.
 */
int portal_policy_parse(struct portal_policy *policy, const char *text, FILE *warnings);

/* Reads and parses path; false when it cannot be read (policy unchanged). */
bool portal_policy_load(struct portal_policy *policy, const char *path, FILE *warnings);

/*
 * The screencast decision for app_id (may be "" when the caller is not a
 * sandboxed app). Order: an exact deny, an exact allow, an exact ask, then
 * for an unidentified caller allow-unidentified, then deny = *, allow = *,
 * ask = *, then the default.
 */
enum portal_decision portal_policy_screencast(const struct portal_policy *policy,
	const char *app_id);

#endif
