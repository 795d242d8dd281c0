/*
 * Every permission question of every portal interface comes here, so
 * that the answer has one source: the policy file today, and the person
 * at the session (oriel's built-in prompt) where the policy says "ask".
 */
#include <stdio.h>
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

struct portal_answer portal_decide(struct portal *portal, enum portal_kind kind,
		const char *app_id, bool wants_remember) {
	reload_policy(portal);
	enum portal_decision decision = portal_policy_decide(&portal->policy, kind, app_id);
	struct portal_answer answer = {0};
	switch (decision) {
	case PORTAL_ALLOW:
		answer.allowed = true;
		answer.remember = wants_remember && portal_policy_persist(&portal->policy, kind);
		break;
	case PORTAL_ASK:
		/* Nobody can be asked yet: no answer is a deny. */
		portal_log(portal, "%s for app_id '%s' needs a person to answer; denied",
			portal_kind_name(kind), app_id);
		break;
	case PORTAL_DENY:
		break;
	}
	portal_log(portal, "policy: %s for app_id '%s': %s%s", portal_kind_name(kind), app_id,
		answer.allowed ? "allowed" : "denied", answer.remember ? ", remembered" : "");
	return answer;
}
