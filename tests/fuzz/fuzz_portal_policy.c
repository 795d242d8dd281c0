/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the portal's policy file (portal.ini). Besides
 * memory errors it checks what the parser and decide() promise: every
 * listed name is a non-empty token, timeouts stay in range, and a listed
 * app gets the decision its list says, in the documented order.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "portal/policy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok, const char *what) {
	if (!ok) {
		fprintf(stderr, "fuzz-portal-policy: invariant broken: %s\n", what);
		abort();
	}
}

static void check_list(const struct portal_policy_list *list) {
	check(list->n >= 0 && list->n <= PORTAL_POLICY_MAX_ENTRIES, "list bound");
	for (int i = 0; i < list->n; i++) {
		const char *name = list->names[i];
		check(name && name[0] != '\0', "listed name is not empty");
		check(strpbrk(name, " \t,\n") == NULL, "listed name is one token");
	}
}

static bool listed(const struct portal_policy_list *list, const char *name) {
	for (int i = 0; i < list->n; i++) {
		if (strcmp(list->names[i], name) == 0) {
			return true;
		}
	}
	return false;
}

static void check_decision(const struct portal_policy *policy, enum portal_kind kind,
		const char *app_id) {
	const struct portal_policy_rules *rules = &policy->rules[kind];
	enum portal_decision d = portal_policy_decide(policy, kind, app_id);
	check(d == PORTAL_DENY || d == PORTAL_ALLOW || d == PORTAL_ASK, "decision range");
	if (app_id && app_id[0]) {
		if (listed(&rules->deny, app_id)) {
			check(d == PORTAL_DENY, "an app on deny is denied");
		} else if (listed(&rules->ask, app_id)) {
			check(d == PORTAL_ASK, "an app on ask is asked about");
		} else if (listed(&rules->allow, app_id)) {
			check(d == PORTAL_ALLOW, "an app on allow is allowed");
		}
	} else if (!rules->allow_unidentified && !listed(&rules->deny, "*") &&
			!listed(&rules->ask, "*") && !listed(&rules->allow, "*")) {
		check(d == rules->fallback, "an unidentified caller gets the default");
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
	char *text = malloc(size + 1);
	if (!text) {
		return 0;
	}
	memcpy(text, data, size);
	text[size] = '\0';

	struct portal_policy policy;
	portal_policy_init(&policy);
	int warnings = portal_policy_parse(&policy, text, NULL);
	check(warnings >= 0, "warning count");

	static const char *const apps[] = {
		NULL, "", "*", "org.example.App", "org.mozilla.firefox", "com.obsproject.Studio",
	};
	for (int k = 0; k < PORTAL_N_KINDS; k++) {
		const struct portal_policy_rules *rules = &policy.rules[k];
		check_list(&rules->allow);
		check_list(&rules->ask);
		check_list(&rules->deny);
		unsigned timeout = portal_policy_prompt_timeout(&policy, k);
		check(timeout >= 1 && timeout <= PORTAL_PROMPT_TIMEOUT_MAX_S, "timeout range");
		enum portal_window_rule window = portal_policy_window(&policy, k);
		check(window == PORTAL_WINDOW_FOCUSED || window == PORTAL_WINDOW_NONE,
			"window rule range");
		for (size_t i = 0; i < sizeof(apps) / sizeof(apps[0]); i++) {
			check_decision(&policy, k, apps[i]);
		}
		/* The names the file itself lists, so the list checks are reached. */
		for (int i = 0; i < rules->allow.n; i++) {
			check_decision(&policy, k, rules->allow.names[i]);
		}
		for (int i = 0; i < rules->ask.n; i++) {
			check_decision(&policy, k, rules->ask.names[i]);
		}
		for (int i = 0; i < rules->deny.n; i++) {
			check_decision(&policy, k, rules->deny.names[i]);
		}
	}
	/* Out-of-range kinds are denied, not read past the table. */
	check(portal_policy_decide(&policy, PORTAL_N_KINDS, "x") == PORTAL_DENY,
		"unknown kind is denied");
	check(!portal_policy_persist(&policy, PORTAL_N_KINDS), "unknown kind never persists");

	/* Warnings go somewhere real too, to cover the formatting. */
	FILE *sink = fopen("/dev/null", "w");
	if (sink) {
		struct portal_policy again;
		portal_policy_init(&again);
		check(portal_policy_parse(&again, text, sink) == warnings,
			"same warnings with a stream");
		portal_policy_finish(&again);
		fclose(sink);
	}

	portal_policy_finish(&policy);
	portal_policy_finish(&policy);
	free(text);
	return 0;
}
