/* SPDX-License-Identifier: MIT */
/*
 * Remembered screen-cast grants: what a restore token stands for. The
 * backend writes one when an app asked to persist a grant and the policy
 * (or, later, the person) allowed it; a later session that brings the
 * token back starts without asking, as long as the grant is still listed
 * and its sources still exist. `orielctl grants` lists the file and
 * `orielctl revoke ID` removes a grant, so the file is the shared state:
 *
 *   $XDG_STATE_HOME/oriel/portal-grants (~/.local/state/oriel/portal-grants)
 *
 * One grant per line, fields separated by tabs:
 *   ID  APP_ID  KIND  CREATED  SOURCES
 * ID is 32 hex digits (128 random bits), APP_ID may be empty (a caller
 * that is not a sandboxed app), KIND is a policy section name
 * ("screencast"), CREATED is in Unix seconds and SOURCES is a list of
 * "monitor:OUTPUT", "window:ID" (oriel's window id, which is never
 * reused while oriel runs, so a grant for a closed window is not usable)
 * or "virtual" (a new virtual output), separated by spaces. Lines starting with # are
 * comments. The file is replaced atomically (a temporary file renamed
 * over it) under an flock of PATH.lock, so that the backend and orielctl
 * never lose each other's changes.
 *
 * Pure code with no D-Bus calls: linked by the backend, orielctl and
 * tests/unit/test_portal_grants.c.
 */
#ifndef ORIEL_PORTAL_GRANTS_H
#define ORIEL_PORTAL_GRANTS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define PORTAL_GRANT_ID_LEN 32
#define PORTAL_GRANTS_MAX 1024

struct portal_grant {
	char id[PORTAL_GRANT_ID_LEN + 1];
	char *app_id;
	char *kind;
	int64_t created;
	char *sources;
};

struct portal_grants {
	struct portal_grant *items;
	int n;
};

void portal_grants_init(struct portal_grants *grants);
void portal_grants_finish(struct portal_grants *grants);

/* The file's path from the environment; NULL without XDG_STATE_HOME and HOME. */
char *portal_grants_path(void);

/*
 * Parses a file's text, appending to grants. Malformed lines are skipped
 * with a warning to warnings (may be NULL); returns the number of warnings.
 */
int portal_grants_parse(struct portal_grants *grants, const char *text, FILE *warnings);
/* The file's text, or NULL without memory. */
char *portal_grants_format(const struct portal_grants *grants);

/*
 * Takes the lock (blocking) and loads path into grants; a missing file
 * is no grants. Returns the lock's fd for portal_grants_save or
 * portal_grants_unlock, or a negative errno.
 */
int portal_grants_lock_load(struct portal_grants *grants, const char *path, FILE *warnings);
/* Writes grants to path atomically; negative errno on failure. */
int portal_grants_save(const struct portal_grants *grants, const char *path);
void portal_grants_unlock(int lock_fd);

/* Valid values for the fields: no tabs, line breaks or control characters. */
bool portal_grant_field_valid(const char *s);
bool portal_grant_id_valid(const char *id);

/*
 * Adds a grant with a new random id, copied into id_out. Returns 0, or
 * -EINVAL for a field that cannot be stored, -ENOSPC when full, -ENOMEM.
 */
int portal_grants_add(struct portal_grants *grants, const char *app_id, const char *kind,
	int64_t created, const char *sources, char id_out[PORTAL_GRANT_ID_LEN + 1]);
/* Appends a copy of grant; negative errno on failure. */
int portal_grants_copy(struct portal_grants *grants, const struct portal_grant *grant);
const struct portal_grant *portal_grants_find(const struct portal_grants *grants,
	const char *id);
/* False when no grant has that id. */
bool portal_grants_remove(struct portal_grants *grants, const char *id);

/*
 * Whether grant may be used by app_id for kind, given the sources that
 * exist now (NULL-terminated, e.g. "monitor:HEADLESS-1"): a grant is
 * honoured only for the app it was given to, and only while every one of
 * its sources still exists.
 */
bool portal_grant_usable(const struct portal_grant *grant, const char *app_id,
	const char *kind, const char *const *existing_sources);

#endif
