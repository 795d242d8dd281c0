/* SPDX-License-Identifier: MIT */
/*
 * The policy file: parsing and matching. See policy.h.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "portal/policy.h"

static const char *const kind_names[PORTAL_N_KINDS] = {
	[PORTAL_KIND_SCREENCAST] = "screencast",
	[PORTAL_KIND_SCREENSHOT] = "screenshot",
	[PORTAL_KIND_REMOTE_DESKTOP] = "remote-desktop",
	[PORTAL_KIND_ACCESS] = "access",
};

const char *portal_kind_name(enum portal_kind kind) {
	return kind >= 0 && kind < PORTAL_N_KINDS ? kind_names[kind] : "unknown";
}

void portal_policy_init(struct portal_policy *policy) {
	memset(policy, 0, sizeof(*policy));
	for (int k = 0; k < PORTAL_N_KINDS; k++) {
		policy->rules[k].fallback = PORTAL_DENY;
		policy->rules[k].prompt_timeout_s = PORTAL_PROMPT_TIMEOUT_DEFAULT_S;
		/* Only a screen cast is asked for twice in a row (Chromium's picker). */
		policy->rules[k].same_answer_s = k == PORTAL_KIND_SCREENCAST ?
			PORTAL_SAME_ANSWER_DEFAULT_S : 0;
	}
}

static void free_list(struct portal_policy_list *list) {
	for (int i = 0; i < list->n; i++) {
		free(list->names[i]);
		list->names[i] = NULL;
	}
	list->n = 0;
}

void portal_policy_finish(struct portal_policy *policy) {
	for (int k = 0; k < PORTAL_N_KINDS; k++) {
		free_list(&policy->rules[k].allow);
		free_list(&policy->rules[k].ask);
		free_list(&policy->rules[k].deny);
	}
}

static char *trim(char *s) {
	while (*s && isspace((unsigned char)*s)) {
		s++;
	}
	size_t n = strlen(s);
	while (n > 0 && isspace((unsigned char)s[n - 1])) {
		s[--n] = '\0';
	}
	return s;
}

static int parse_bool(const char *v) {
	if (!strcmp(v, "true") || !strcmp(v, "yes") || !strcmp(v, "1") || !strcmp(v, "on")) {
		return 1;
	}
	if (!strcmp(v, "false") || !strcmp(v, "no") || !strcmp(v, "0") || !strcmp(v, "off")) {
		return 0;
	}
	return -1;
}

static int warn(FILE *f, int line, const char *what, const char *detail) {
	if (f) {
		fprintf(f, "portal.ini:%d: %s%s%s\n", line, what, detail ? ": " : "",
			detail ? detail : "");
	}
	return 1;
}

/* Adds the whitespace- or comma-separated names of value to list. */
static int add_names(struct portal_policy_list *list, char *value, FILE *warnings, int line) {
	int warned = 0;
	char *save = NULL;
	for (char *tok = strtok_r(value, " \t,", &save); tok;
			tok = strtok_r(NULL, " \t,", &save)) {
		if (list->n >= PORTAL_POLICY_MAX_ENTRIES) {
			warned += warn(warnings, line, "too many entries, ignored", tok);
			continue;
		}
		char *copy = strdup(tok);
		if (!copy) {
			warned += warn(warnings, line, "out of memory", NULL);
			continue;
		}
		list->names[list->n++] = copy;
	}
	return warned;
}

static int parse_key(struct portal_policy_rules *rules, const char *key, char *value,
		FILE *warnings, int line) {
	if (!strcmp(key, "allow")) {
		return add_names(&rules->allow, value, warnings, line);
	}
	if (!strcmp(key, "ask")) {
		return add_names(&rules->ask, value, warnings, line);
	}
	if (!strcmp(key, "deny")) {
		return add_names(&rules->deny, value, warnings, line);
	}
	if (!strcmp(key, "default")) {
		if (!strcmp(value, "allow")) {
			rules->fallback = PORTAL_ALLOW;
		} else if (!strcmp(value, "deny")) {
			rules->fallback = PORTAL_DENY;
		} else if (!strcmp(value, "ask")) {
			rules->fallback = PORTAL_ASK;
		} else {
			return warn(warnings, line, "default must be allow, ask or deny", value);
		}
		return 0;
	}
	if (!strcmp(key, "window")) {
		if (!strcmp(value, "focused")) {
			rules->window = PORTAL_WINDOW_FOCUSED;
		} else if (!strcmp(value, "none")) {
			rules->window = PORTAL_WINDOW_NONE;
		} else {
			return warn(warnings, line, "window must be focused or none", value);
		}
		return 0;
	}
	if (!strcmp(key, "prompt-timeout")) {
		char *end = NULL;
		unsigned long s = strtoul(value, &end, 10);
		if (!*value || *end || value[0] == '-' || s < 1 ||
				s > PORTAL_PROMPT_TIMEOUT_MAX_S) {
			return warn(warnings, line, "prompt-timeout must be seconds from 1 to 600",
				value);
		}
		rules->prompt_timeout_s = (unsigned)s;
		return 0;
	}
	if (!strcmp(key, "same-answer-within")) {
		char *end = NULL;
		unsigned long s = strtoul(value, &end, 10);
		if (!*value || *end || value[0] == '-' || s > PORTAL_SAME_ANSWER_MAX_S) {
			return warn(warnings, line, "same-answer-within must be seconds from 0 to 60",
				value);
		}
		rules->same_answer_s = (unsigned)s;
		return 0;
	}
	bool *flag = NULL;
	if (!strcmp(key, "allow-unidentified")) {
		flag = &rules->allow_unidentified;
	} else if (!strcmp(key, "persist")) {
		flag = &rules->persist;
	} else {
		return warn(warnings, line, "unknown key", key);
	}
	int b = parse_bool(value);
	if (b < 0) {
		return warn(warnings, line, "expected true or false", value);
	}
	*flag = b;
	return 0;
}

static struct portal_policy_rules *section_rules(struct portal_policy *policy,
		const char *name) {
	for (int k = 0; k < PORTAL_N_KINDS; k++) {
		if (!strcmp(name, kind_names[k])) {
			return &policy->rules[k];
		}
	}
	return NULL;
}

int portal_policy_parse(struct portal_policy *policy, const char *text, FILE *warnings) {
	char *buf = strdup(text ? text : "");
	if (!buf) {
		return warn(warnings, 0, "out of memory", NULL);
	}
	int warned = 0, line_no = 0;
	struct portal_policy_rules *rules = NULL;
	/* strtok_r skips empty lines, so count lines by hand. */
	char *p = buf;
	while (p) {
		char *nl = strchr(p, '\n');
		if (nl) {
			*nl = '\0';
		}
		line_no++;
		char *line = trim(p);
		p = nl ? nl + 1 : NULL;
		if (!*line || *line == '#' || *line == ';') {
			continue;
		}
		if (*line == '[') {
			char *end = strchr(line, ']');
			if (!end || trim(end + 1)[0] != '\0') {
				warned += warn(warnings, line_no, "malformed section header", line);
				rules = NULL;
				continue;
			}
			*end = '\0';
			rules = section_rules(policy, trim(line + 1));
			continue;
		}
		char *eq = strchr(line, '=');
		if (!eq) {
			warned += warn(warnings, line_no, "expected key = value", line);
			continue;
		}
		*eq = '\0';
		if (rules) { /* other sections belong to other readers */
			warned += parse_key(rules, trim(line), trim(eq + 1), warnings, line_no);
		}
	}
	free(buf);
	return warned;
}

bool portal_policy_load(struct portal_policy *policy, const char *path, FILE *warnings) {
	FILE *f = fopen(path, "re");
	if (!f) {
		return false;
	}
	char *text = NULL;
	size_t cap = 0, len = 0;
	char chunk[4096];
	size_t n;
	bool ok = true;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
		if (len + n + 1 > cap) {
			size_t ncap = (len + n + 1) * 2;
			if (ncap > (1u << 20)) {
				ok = false; /* a policy file is small */
				break;
			}
			char *t = realloc(text, ncap);
			if (!t) {
				ok = false;
				break;
			}
			text = t;
			cap = ncap;
		}
		memcpy(text + len, chunk, n);
		len += n;
		text[len] = '\0';
	}
	fclose(f);
	if (ok) {
		portal_policy_parse(policy, text ? text : "", warnings);
	}
	free(text);
	return ok;
}

static bool listed(const struct portal_policy_list *list, const char *name) {
	for (int i = 0; i < list->n; i++) {
		if (!strcmp(list->names[i], name)) {
			return true;
		}
	}
	return false;
}

enum portal_decision portal_policy_decide(const struct portal_policy *policy,
		enum portal_kind kind, const char *app_id) {
	if (kind < 0 || kind >= PORTAL_N_KINDS) {
		return PORTAL_DENY;
	}
	const struct portal_policy_rules *rules = &policy->rules[kind];
	if (!app_id) {
		app_id = "";
	}
	if (*app_id) {
		if (listed(&rules->deny, app_id)) {
			return PORTAL_DENY;
		}
		if (listed(&rules->ask, app_id)) {
			return PORTAL_ASK;
		}
		if (listed(&rules->allow, app_id)) {
			return PORTAL_ALLOW;
		}
	} else if (rules->allow_unidentified) {
		return PORTAL_ALLOW;
	}
	if (listed(&rules->deny, "*")) {
		return PORTAL_DENY;
	}
	if (listed(&rules->ask, "*")) {
		return PORTAL_ASK;
	}
	if (listed(&rules->allow, "*")) {
		return PORTAL_ALLOW;
	}
	return rules->fallback;
}

bool portal_policy_persist(const struct portal_policy *policy, enum portal_kind kind) {
	return kind >= 0 && kind < PORTAL_N_KINDS && policy->rules[kind].persist;
}

unsigned portal_policy_same_answer(const struct portal_policy *policy,
		enum portal_kind kind) {
	return kind >= 0 && kind < PORTAL_N_KINDS ? policy->rules[kind].same_answer_s :
		PORTAL_SAME_ANSWER_DEFAULT_S;
}

unsigned portal_policy_prompt_timeout(const struct portal_policy *policy,
		enum portal_kind kind) {
	return kind >= 0 && kind < PORTAL_N_KINDS ? policy->rules[kind].prompt_timeout_s :
		PORTAL_PROMPT_TIMEOUT_DEFAULT_S;
}

enum portal_window_rule portal_policy_window(const struct portal_policy *policy,
		enum portal_kind kind) {
	return kind >= 0 && kind < PORTAL_N_KINDS ? policy->rules[kind].window :
		PORTAL_WINDOW_FOCUSED;
}
