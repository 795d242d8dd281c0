/* SPDX-License-Identifier: MIT */
/*
 * Every permission question of every portal interface comes here, so
 * that the answer has one source: the policy file, and the person at the
 * session (oriel's built-in prompt, permission.c) where the policy says
 * "ask". The answer goes to a callback either way, because the person
 * answers long after the frontend's call came in.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include "portal/portal.h"

static void reload_policy(struct portal *portal) {
	portal_policy_finish(&portal->policy);
	portal_policy_init(&portal->policy);
	if (portal->policy_path &&
			!portal_policy_load(&portal->policy, portal->policy_path, stderr)) {
		portal_log(portal, "no policy file at %s: everything is denied",
			portal->policy_path);
	}
}

/* What oriel's prompt calls each kind; NULL where it has no words for it. */
static const char *prompt_kind(enum portal_kind kind) {
	switch (kind) {
	case PORTAL_KIND_SCREENCAST:
		return "screencast";
	case PORTAL_KIND_SCREENSHOT:
		return "screenshot";
	case PORTAL_KIND_REMOTE_DESKTOP:
		return "remote";
	case PORTAL_KIND_ACCESS: /* the frontend's own text has nowhere to go */
	case PORTAL_N_KINDS:
		break;
	}
	return NULL;
}

int portal_decide(struct portal *portal, const struct portal_question *q,
		sd_bus_message *call, portal_decided_fn fn) {
	reload_policy(portal);
	const char *app_id = q->app_id ? q->app_id : "";
	enum portal_decision decision = portal_policy_decide(&portal->policy, q->kind, app_id);
	if (q->always_ask && decision == PORTAL_ALLOW) {
		decision = PORTAL_ASK;
	}
	bool persist = q->wants_remember && portal_policy_persist(&portal->policy, q->kind);
	char *app = portal_app_label(portal, app_id, q->request_handle);
	if (!app) {
		return -ENOMEM;
	}
	const char *kind = prompt_kind(q->kind);
	if (kind && q->prompt_kind) {
		kind = q->prompt_kind;
	}
	char *exe = app_id[0] ? NULL : portal_caller_executable(portal, q->request_handle);
	const char *key = app_id[0] ? app_id : exe ? exe : "";
	struct portal_answer recent = { .app = app };
	if (decision == PORTAL_ASK && kind && portal_recent_find(portal, key, kind,
			portal_policy_same_answer(&portal->policy, q->kind), q->sources, &recent)) {
		portal_log(portal, "'%s' asks again about a %s: the person's answer of a "
			"moment ago stands (%s%s%s)", app, kind, recent.allowed ? "allowed" : "denied",
			recent.choice[0] ? ": " : "", recent.choice);
		recent.remember = recent.remember && persist;
		fn(portal, call, &recent, q->session);
		free(exe);
		free(app);
		return 1;
	}
	if (decision == PORTAL_ASK && kind) {
		int r = portal_permission_ask(portal, q, kind, app, key, persist,
			portal_policy_prompt_timeout(&portal->policy, q->kind), call, fn);
		free(exe);
		if (r >= 0) {
			free(app);
			return 1;
		}
		/* Nobody can be asked: no answer is a deny. */
		decision = PORTAL_DENY;
	} else {
		free(exe);
	}
	if (decision == PORTAL_ASK && !kind) {
		portal_log(portal, "%s for app_id '%s' would need the prompt, which cannot "
			"show it; denied", portal_kind_name(q->kind), app_id);
	}
	struct portal_answer answer = {
		.allowed = decision == PORTAL_ALLOW,
		.remember = decision == PORTAL_ALLOW && persist,
		.choice = "",
		.app = app,
	};
	portal_log(portal, "policy: %s for app_id '%s': %s%s", portal_kind_name(q->kind), app_id,
		answer.allowed ? "allowed" : "denied", answer.remember ? ", remembered" : "");
	fn(portal, call, &answer, q->session);
	free(app);
	return 1;
}
