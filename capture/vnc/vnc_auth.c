#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wlr/util/log.h>
#include "capture/vnc/vnc_password_file.h"
#include "capture/vnc/vnc_private.h"
#include "compositor/options.h"
#include "compositor/util.h"

/*
 * VncAuth from --vnc-password-file (vnc_password_file.h). Failed attempts
 * are throttled per source address.
 */

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

/* Failures are counted per source address; Unix-socket viewers share one. */
static const char *auth_key(const char *host) {
	return host && host[0] ? host : "unix";
}

bool vnc_auth_allowed(struct vnc_server *vnc, const char *host) {
	struct vnc_auth_failure *failure = find_failure(vnc, auth_key(host));
	if (!failure) {
		return true;
	}
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec - failure->last.tv_sec >= throttle_seconds(failure->count);
}

static rfbBool check_password(rfbClientPtr cl, const char *response, int len) {
	struct vnc_server *vnc = cl->screen->screenData;
	const char *host = auth_key(cl->host);
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
	struct vnc_password_file file;
	vnc_password_file_parse(&file, f);
	fclose(f);
	if (file.n_too_long > 0) {
		wlr_log(WLR_ERROR, "VNC: skipped %d line(s) of %s longer than %d characters",
			file.n_too_long, path, VNC_PASSWORD_LINE_MAX);
	}
	if (!file.passwords) {
		wlr_log(WLR_ERROR, "VNC: the password file %s has no password", path);
		return false;
	}
	if (file.long_password) {
		wlr_log(WLR_INFO, "VNC: VncAuth uses only the first 8 characters of a password");
	}
	vnc->passwords = file.passwords;
	vnc->screen->authPasswdData = file.passwords;
	vnc->screen->authPasswdFirstViewOnly = file.n_full;
	vnc->screen->passwordCheck = check_password;
	return true;
}

void vnc_auth_finish(struct vnc_server *vnc) {
	vnc_passwords_free(vnc->passwords);
	vnc->passwords = NULL;
	struct vnc_auth_failure *failure, *tmp;
	wl_list_for_each_safe(failure, tmp, &vnc->auth_failures, link) {
		wl_list_remove(&failure->link);
		free(failure);
	}
}
