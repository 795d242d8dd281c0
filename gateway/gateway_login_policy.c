/* SPDX-License-Identifier: MIT */
#include <grp.h>
#include <pwd.h>
#include <shadow.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "gateway/gateway_config.h"
#include "gateway/gateway_login_policy.h"

static bool in_group(const char *user, gid_t primary, const char *group) {
	char buf[16384];
	struct group gr, *found = NULL;
	if (getgrnam_r(group, &gr, buf, sizeof(buf), &found) != 0 || !found) {
		return false;
	}
	if (found->gr_gid == primary) {
		return true;
	}
	for (char **member = found->gr_mem; *member; member++) {
		if (strcmp(*member, user) == 0) {
			return true;
		}
	}
	return false;
}

static bool allowed_by_config(const struct gateway_config *config, const struct passwd *pw) {
	if (config->n_allowed_users == 0 && config->n_allowed_groups == 0) {
		return true;
	}
	for (int i = 0; i < config->n_allowed_users; i++) {
		if (strcmp(config->allowed_users[i], pw->pw_name) == 0) {
			return true;
		}
	}
	for (int i = 0; i < config->n_allowed_groups; i++) {
		if (in_group(pw->pw_name, pw->pw_gid, config->allowed_groups[i])) {
			return true;
		}
	}
	return false;
}

/* Whether shell is listed in /etc/shells (true when there is no such file). */
static bool listed_shell(const char *shell) {
	FILE *f = fopen("/etc/shells", "re");
	if (!f) {
		return true;
	}
	char line[4096];
	bool listed = false;
	while (!listed && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		listed = line[0] != '#' && strcmp(line, shell) == 0;
	}
	fclose(f);
	return listed;
}

static bool login_shell(const char *shell) {
	if (!shell[0]) {
		return true; /* /bin/sh */
	}
	const char *base = strrchr(shell, '/');
	base = base ? base + 1 : shell;
	return strcmp(base, "nologin") != 0 && strcmp(base, "false") != 0 &&
		listed_shell(shell);
}

/* As pam_unix's account check reads /etc/shadow; NULL when it may log in. */
static const char *shadow_refusal(const char *user) {
	char buf[16384];
	struct spwd sp, *found = NULL;
	if (getspnam_r(user, &sp, buf, sizeof(buf), &found) != 0 || !found) {
		return NULL; /* no shadow entry: PAM decides */
	}
	long today = (long)(time(NULL) / (24 * 60 * 60));
	if (found->sp_pwdp && found->sp_pwdp[0] == '!') {
		return "the account is locked";
	}
	if (found->sp_expire != -1 && today >= found->sp_expire) {
		return "the account expired";
	}
	if (found->sp_lstchg == 0) {
		return "its password must be changed first";
	}
	if (found->sp_max != -1 && found->sp_lstchg > 0 &&
			today - found->sp_lstchg > found->sp_max) {
		return "its password expired";
	}
	return NULL;
}

bool gateway_login_policy_check(const struct gateway_config *config, const char *user,
		char *reason, size_t reason_size) {
	char buf[16384];
	struct passwd pw, *found = NULL;
	if (getpwnam_r(user, &pw, buf, sizeof(buf), &found) != 0 || !found) {
		snprintf(reason, reason_size, "there is no such account");
		return false;
	}
	if (pw.pw_uid == 0) {
		snprintf(reason, reason_size, "uid 0 may not log in through the gateway");
		return false;
	}
	if (!login_shell(pw.pw_shell)) {
		snprintf(reason, reason_size, "its shell %s is not a login shell", pw.pw_shell);
		return false;
	}
	const char *refusal = shadow_refusal(user);
	if (refusal) {
		snprintf(reason, reason_size, "%s", refusal);
		return false;
	}
	if (!allowed_by_config(config, &pw)) {
		snprintf(reason, reason_size, "it is not among the allowed users or groups");
		return false;
	}
	return true;
}
