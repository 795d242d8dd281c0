/*
 * Pure logic of the portal backend: SelectSources option validation and
 * the policy file. See options.h.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "portal/options.h"

const char *portal_select_options_validate(const struct portal_select_options *opts,
		struct portal_selection *out) {
	struct portal_selection sel = {
		.types = PORTAL_SOURCE_MONITOR,
		.multiple = false,
		.cursor_mode = PORTAL_CURSOR_EMBEDDED,
		.persist_mode = PORTAL_PERSIST_NONE,
	};
	if (opts->has_types) {
		if (opts->types == 0) {
			return "types is empty";
		}
		if (opts->types & ~(uint32_t)(PORTAL_SOURCE_MONITOR | PORTAL_SOURCE_WINDOW |
				PORTAL_SOURCE_VIRTUAL)) {
			return "types has unknown bits";
		}
		if (!(opts->types & PORTAL_AVAILABLE_SOURCE_TYPES)) {
			return "none of the requested source types is available";
		}
		/* Offer what we have among what was asked for. */
		sel.types = opts->types & PORTAL_AVAILABLE_SOURCE_TYPES;
	}
	if (opts->has_multiple) {
		sel.multiple = opts->multiple;
	}
	if (opts->has_cursor_mode) {
		uint32_t m = opts->cursor_mode;
		if (m != PORTAL_CURSOR_HIDDEN && m != PORTAL_CURSOR_EMBEDDED &&
				m != PORTAL_CURSOR_METADATA) {
			return "cursor_mode is not exactly one known mode";
		}
		if (!(m & PORTAL_AVAILABLE_CURSOR_MODES)) {
			return "cursor_mode is not available";
		}
		sel.cursor_mode = m;
	}
	if (opts->has_persist_mode) {
		if (opts->persist_mode > PORTAL_PERSIST_PERSISTENT) {
			return "persist_mode is out of range";
		}
		sel.persist_mode = opts->persist_mode;
	}
	if (out) {
		*out = sel;
	}
	return NULL;
}

void portal_policy_init(struct portal_policy *policy) {
	memset(policy, 0, sizeof(*policy));
	policy->screencast_default = PORTAL_DENY;
	policy->prompt_timeout_s = PORTAL_PROMPT_TIMEOUT_DEFAULT_S;
}

static void free_list(char **list, int *n) {
	for (int i = 0; i < *n; i++) {
		free(list[i]);
		list[i] = NULL;
	}
	*n = 0;
}

void portal_policy_finish(struct portal_policy *policy) {
	free_list(policy->allow, &policy->n_allow);
	free_list(policy->deny, &policy->n_deny);
	free_list(policy->ask, &policy->n_ask);
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
static int add_names(char **list, int *n, char *value, FILE *warnings, int line) {
	int warned = 0;
	char *save = NULL;
	for (char *tok = strtok_r(value, " \t,", &save); tok;
			tok = strtok_r(NULL, " \t,", &save)) {
		if (*n >= PORTAL_POLICY_MAX_ENTRIES) {
			warned += warn(warnings, line, "too many entries, ignored", tok);
			continue;
		}
		char *copy = strdup(tok);
		if (!copy) {
			warned += warn(warnings, line, "out of memory", NULL);
			continue;
		}
		list[(*n)++] = copy;
	}
	return warned;
}

int portal_policy_parse(struct portal_policy *policy, const char *text, FILE *warnings) {
	char *buf = strdup(text ? text : "");
	if (!buf) {
		return warn(warnings, 0, "out of memory", NULL);
	}
	int warned = 0, line_no = 0;
	bool in_screencast = false;
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
				in_screencast = false;
				continue;
			}
			*end = '\0';
			char *name = trim(line + 1);
			in_screencast = strcmp(name, "screencast") == 0;
			continue;
		}
		char *eq = strchr(line, '=');
		if (!eq) {
			warned += warn(warnings, line_no, "expected key = value", line);
			continue;
		}
		*eq = '\0';
		char *key = trim(line), *value = trim(eq + 1);
		if (!in_screencast) {
			continue; /* other sections belong to other readers */
		}
		if (!strcmp(key, "allow")) {
			warned += add_names(policy->allow, &policy->n_allow, value, warnings, line_no);
		} else if (!strcmp(key, "deny")) {
			warned += add_names(policy->deny, &policy->n_deny, value, warnings, line_no);
		} else if (!strcmp(key, "ask")) {
			warned += add_names(policy->ask, &policy->n_ask, value, warnings, line_no);
		} else if (!strcmp(key, "default")) {
			if (!strcmp(value, "allow")) {
				policy->screencast_default = PORTAL_ALLOW;
			} else if (!strcmp(value, "deny")) {
				policy->screencast_default = PORTAL_DENY;
			} else if (!strcmp(value, "ask")) {
				policy->screencast_default = PORTAL_ASK;
			} else {
				warned += warn(warnings, line_no, "default must be allow, deny or ask",
					value);
			}
		} else if (!strcmp(key, "prompt-timeout")) {
			char *end = NULL;
			unsigned long s = strtoul(value, &end, 10);
			if (!*value || *end || value[0] == '-' || s < 1 ||
					s > PORTAL_PROMPT_TIMEOUT_MAX_S) {
				warned += warn(warnings, line_no,
					"prompt-timeout must be seconds from 1 to 600", value);
			} else {
				policy->prompt_timeout_s = (unsigned)s;
			}
		} else if (!strcmp(key, "allow-unidentified")) {
			int b = parse_bool(value);
			if (b < 0) {
				warned += warn(warnings, line_no, "allow-unidentified must be true or false",
					value);
			} else {
				policy->allow_unidentified = b;
			}
		} else {
			warned += warn(warnings, line_no, "unknown key", key);
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

static bool listed(char *const *list, int n, const char *name) {
	for (int i = 0; i < n; i++) {
		if (!strcmp(list[i], name)) {
			return true;
		}
	}
	return false;
}

enum portal_decision portal_policy_screencast(const struct portal_policy *policy,
		const char *app_id) {
	if (!app_id) {
		app_id = "";
	}
	if (*app_id) {
		if (listed(policy->deny, policy->n_deny, app_id)) {
			return PORTAL_DENY;
		}
		if (listed(policy->allow, policy->n_allow, app_id)) {
			return PORTAL_ALLOW;
		}
		if (listed(policy->ask, policy->n_ask, app_id)) {
			return PORTAL_ASK;
		}
	} else if (policy->allow_unidentified) {
		return PORTAL_ALLOW;
	}
	if (listed(policy->deny, policy->n_deny, "*")) {
		return PORTAL_DENY;
	}
	if (listed(policy->allow, policy->n_allow, "*")) {
		return PORTAL_ALLOW;
	}
	if (listed(policy->ask, policy->n_ask, "*")) {
		return PORTAL_ASK;
	}
	return policy->screencast_default;
}
