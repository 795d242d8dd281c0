/* SPDX-License-Identifier: MIT */
/*
 * Who may read the screen, inject input or rearrange windows through the
 * control API. Like mutter's D-Bus access checker: the bus tells us the
 * caller's pid and uid, /proc/PID/exe tells us its executable, and that
 * executable must be one of oriel's own helpers (orielctl, the portal
 * backend), installed or in the build tree, or listed in the config's
 * [control] allow. The caller must also run as oriel's user.
 *
 * /proc/PID/exe is read (exe_path.h) rather than through SD_BUS_CREDS_EXE,
 * because sd-bus strips the " (deleted)" suffix of a binary that was removed or
 * rebuilt since it started; such a binary is no longer the allowed file.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wlr/util/log.h>
#include "control/control_private.h"
#include "control/control_utf8.h"
#include "compositor/exe_path.h"
#include "compositor/server.h"
#include "common/util.h"

#if !defined(ORIELCTL_INSTALLED_PATH) || !defined(ORIELCTL_BUILD_PATH) || \
	!defined(ORIEL_PORTAL_INSTALLED_PATH) || !defined(ORIEL_PORTAL_BUILD_PATH)
#error "compositor/meson.build must define ORIELCTL_*_PATH and ORIEL_PORTAL_*_PATH"
#endif

static const char *const builtin_allowed[] = {
	ORIELCTL_INSTALLED_PATH,
	ORIELCTL_BUILD_PATH,
	ORIEL_PORTAL_INSTALLED_PATH,
	ORIEL_PORTAL_BUILD_PATH,
};

static bool exe_allowed(struct control *control, const char *exe) {
	for (size_t i = 0; i < ARRAY_LEN(builtin_allowed); i++) {
		if (exe_path_is(exe, builtin_allowed[i])) {
			return true;
		}
	}
	const struct oriel_config *config = &control->server->options->config;
	for (int i = 0; i < config->n_allowed_exes; i++) {
		if (exe_path_is(exe, config->allowed_exes[i])) {
			return true;
		}
	}
	return false;
}

static int deny(sd_bus_message *msg, sd_bus_error *error, const char *who,
		const char *why) {
	wlr_log(WLR_INFO, "control: refused %s.%s from %s (%s): %s",
		sd_bus_message_get_interface(msg), sd_bus_message_get_member(msg),
		sd_bus_message_get_sender(msg), who, why);
	/* A path may be any bytes; an error reply must be UTF-8 to be sent. */
	char *owned;
	const char *name = control_utf8_sanitize(who, &owned);
	int r = sd_bus_error_setf(error, SD_BUS_ERROR_ACCESS_DENIED,
		"%s is not allowed to read the screen or inject input", name);
	free(owned);
	return r;
}

int control_check_caller(struct control *control, sd_bus_message *msg,
		sd_bus_error *error) {
	sd_bus_creds *creds = NULL;
	int r = sd_bus_query_sender_creds(msg,
		SD_BUS_CREDS_PID | SD_BUS_CREDS_EUID | SD_BUS_CREDS_AUGMENT, &creds);
	if (r < 0) {
		return deny(msg, error, "the caller", "its credentials are unknown");
	}
	pid_t pid = 0;
	uid_t euid = (uid_t)-1;
	int r_pid = sd_bus_creds_get_pid(creds, &pid);
	int r_uid = sd_bus_creds_get_euid(creds, &euid);
	sd_bus_creds_unref(creds);
	if (r_pid < 0 || pid <= 0) {
		return deny(msg, error, "the caller", "its pid is unknown");
	}

	char exe[EXE_PATH_MAX];
	const char *why;
	if (!exe_path_of_pid(pid, exe, &why)) {
		char who[64];
		snprintf(who, sizeof(who), "process %d", (int)pid);
		return deny(msg, error, who, why);
	}

	if (r_uid < 0 || euid != geteuid()) {
		return deny(msg, error, exe, "it runs as another user");
	}
	if (!exe_allowed(control, exe)) {
		return deny(msg, error, exe, "not on the allowlist");
	}
	return 0;
}

char *control_caller_name(sd_bus_message *msg) {
	sd_bus_creds *creds = NULL;
	const char *exe = NULL;
	char *name = NULL;
	if (sd_bus_query_sender_creds(msg, SD_BUS_CREDS_EXE | SD_BUS_CREDS_AUGMENT,
			&creds) >= 0 && sd_bus_creds_get_exe(creds, &exe) >= 0 && exe) {
		const char *slash = strrchr(exe, '/');
		char *owned;
		name = xstrdup(control_utf8_sanitize(slash ? slash + 1 : exe, &owned));
		free(owned);
	}
	sd_bus_creds_unref(creds);
	return name ? name : xstrdup("an unknown program");
}

int control_read_checkedv(struct control *control, sd_bus_message *msg,
		sd_bus_error *error, const char *types, va_list args) {
	int r = sd_bus_message_readv(msg, types, args);
	if (r < 0) {
		return r;
	}
	return control_check_caller(control, msg, error);
}

int control_read_checked(struct control *control, sd_bus_message *msg,
		sd_bus_error *error, const char *types, ...) {
	va_list args;
	va_start(args, types);
	int r = control_read_checkedv(control, msg, error, types, args);
	va_end(args);
	return r;
}
