#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wlr/util/log.h>
#include "capture/vnc_private.h"
#include "compositor/options.h"
#include "compositor/util.h"

/*
 * VncAuth from --vnc-password-file: a line SECRET gives full access, a line
 * view-only:SECRET view-only access; empty lines and lines starting with '#'
 * are skipped. Failed attempts are throttled per source address.
 */

#define MAX_PASSWORDS 64
#define PASSWORD_FILE_MAX 65536
/* After this many failures, an address waits 1 s, then 2, 4... up to 60 s. */
#define FAILURES_FREE 3
#define MAX_THROTTLE_S 60
#define MAX_TRACKED_HOSTS 256

struct vnc_auth_failure {
	char host[64];
	int count;
	struct timespec last;
	struct wl_list link;
};

static struct vnc_auth_failure *find_failure(struct vnc_server *vnc, const char *host) {
	struct vnc_auth_failure *failure;
	wl_list_for_each(failure, &vnc->auth_failures, link) {
		if (strcmp(failure->host, host) == 0) {
			return failure;
		}
	}
	return NULL;
}

static int throttle_seconds(int count) {
	if (count < FAILURES_FREE) {
		return 0;
	}
	int shift = count - FAILURES_FREE;
	return shift >= 6 ? MAX_THROTTLE_S : (1 << shift);
}

bool vnc_auth_allowed(struct vnc_server *vnc, const char *host) {
	struct vnc_auth_failure *failure = find_failure(vnc, host);
	if (!failure) {
		return true;
	}
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec - failure->last.tv_sec >= throttle_seconds(failure->count);
}

static rfbBool check_password(rfbClientPtr cl, const char *response, int len) {
	struct vnc_server *vnc = cl->screen->screenData;
	const char *host = cl->host && cl->host[0] ? cl->host : "unix";
	rfbBool ok = rfbCheckPasswordByList(cl, response, len);
	struct vnc_auth_failure *failure = find_failure(vnc, host);
	if (ok) {
		if (failure) {
			wl_list_remove(&failure->link);
			free(failure);
		}
		if (cl->viewOnly) {
			wlr_log(WLR_INFO, "VNC: viewer %s authenticated (view-only)", host);
		} else {
			wlr_log(WLR_INFO, "VNC: viewer %s authenticated", host);
		}
		return TRUE;
	}
	if (!failure) {
		if (wl_list_length(&vnc->auth_failures) >= MAX_TRACKED_HOSTS) {
			struct vnc_auth_failure *oldest =
				wl_container_of(vnc->auth_failures.prev, oldest, link);
			wl_list_remove(&oldest->link);
			free(oldest);
		}
		failure = zalloc(sizeof(*failure));
		snprintf(failure->host, sizeof(failure->host), "%s", host);
	} else {
		wl_list_remove(&failure->link);
	}
	wl_list_insert(&vnc->auth_failures, &failure->link);
	failure->count++;
	clock_gettime(CLOCK_MONOTONIC, &failure->last);
	wlr_log(WLR_INFO, "VNC: wrong password from %s (%d in a row)", host, failure->count);
	return FALSE;
}

static void free_passwords(char **passwords) {
	for (size_t i = 0; passwords && passwords[i]; i++) {
		explicit_bzero(passwords[i], strlen(passwords[i]));
		free(passwords[i]);
	}
	free(passwords);
}

bool vnc_auth_init(struct vnc_server *vnc) {
	const char *path = vnc->options->password_file;
	if (!path) {
		return true;
	}
	FILE *f = fopen(path, "r");
	if (!f) {
		wlr_log_errno(WLR_ERROR, "VNC: cannot open the password file %s", path);
		return false;
	}
	char *full[MAX_PASSWORDS], *view[MAX_PASSWORDS];
	int n_full = 0, n_view = 0;
	char line[1024];
	size_t total = 0;
	bool long_password = false;
	while (fgets(line, sizeof(line), f) && total < PASSWORD_FILE_MAX) {
		total += strlen(line);
		line[strcspn(line, "\r\n")] = '\0';
		if (line[0] == '\0' || line[0] == '#') {
			continue;
		}
		bool view_only = strncmp(line, "view-only:", 10) == 0;
		const char *secret = view_only ? line + 10 : line;
		if (!secret[0] || n_full + n_view >= MAX_PASSWORDS) {
			continue;
		}
		long_password |= strlen(secret) > 8;
		if (view_only) {
			view[n_view++] = xstrdup(secret);
		} else {
			full[n_full++] = xstrdup(secret);
		}
	}
	explicit_bzero(line, sizeof(line));
	fclose(f);
	if (n_full + n_view == 0) {
		wlr_log(WLR_ERROR, "VNC: the password file %s has no password", path);
		return false;
	}
	if (long_password) {
		wlr_log(WLR_INFO, "VNC: VncAuth uses only the first 8 characters of a password");
	}
	char **passwords = zalloc(sizeof(char *) * (size_t)(n_full + n_view + 1));
	memcpy(passwords, full, sizeof(char *) * (size_t)n_full);
	memcpy(passwords + n_full, view, sizeof(char *) * (size_t)n_view);
	vnc->passwords = passwords;
	vnc->screen->authPasswdData = passwords;
	vnc->screen->authPasswdFirstViewOnly = n_full;
	vnc->screen->passwordCheck = check_password;
	return true;
}

void vnc_auth_finish(struct vnc_server *vnc) {
	free_passwords(vnc->passwords);
	vnc->passwords = NULL;
	struct vnc_auth_failure *failure, *tmp;
	wl_list_for_each_safe(failure, tmp, &vnc->auth_failures, link) {
		wl_list_remove(&failure->link);
		free(failure);
	}
}
