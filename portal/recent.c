/* SPDX-License-Identifier: MIT */
/*
 * The person's last answer, kept a few seconds (same-answer-within): an app
 * that asks again right away about the same kind of source (Chromium asks
 * for its picker's preview, then again on Share) gets the same answer
 * instead of a second prompt. Only answers the person gave are kept: not
 * the policy's, not a timeout.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "portal/portal.h"

static uint64_t monotonic_ms(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

void portal_recent_finish(struct portal *portal) {
	struct portal_recent *recent = &portal->recent;
	free(recent->key);
	free(recent->kind);
	free(recent->choice);
	*recent = (struct portal_recent){0};
}

void portal_recent_store(struct portal *portal, const char *key, const char *kind,
		const struct portal_answer *answer) {
	portal_recent_finish(portal);
	if (!key || !key[0]) {
		return; /* an app nobody can tell apart from another */
	}
	struct portal_recent *recent = &portal->recent;
	recent->key = strdup(key);
	recent->kind = strdup(kind);
	recent->choice = strdup(answer->choice ? answer->choice : "");
	recent->allowed = answer->allowed;
	recent->remember = answer->remember;
	recent->at_ms = monotonic_ms();
	if (!recent->key || !recent->kind || !recent->choice) {
		portal_recent_finish(portal);
	}
}

static bool offered(const struct portal_sources *sources, const char *choice) {
	if (!sources || sources->n == 0 || !choice[0]) {
		return true;
	}
	for (int i = 0; i < sources->n; i++) {
		if (strcmp(sources->ids[i], choice) == 0) {
			return true;
		}
	}
	return false;
}

bool portal_recent_find(struct portal *portal, const char *key, const char *kind,
		unsigned within_s, const struct portal_sources *sources, struct portal_answer *out) {
	const struct portal_recent *recent = &portal->recent;
	if (!recent->key || !key || strcmp(recent->key, key) != 0 ||
			strcmp(recent->kind, kind) != 0 ||
			monotonic_ms() - recent->at_ms > within_s * 1000ull ||
			!offered(sources, recent->choice)) {
		return false;
	}
	out->allowed = recent->allowed;
	out->remember = recent->remember;
	out->choice = recent->allowed ? recent->choice : "";
	return true;
}
