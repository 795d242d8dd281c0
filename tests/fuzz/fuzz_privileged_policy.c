/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the privileged-globals policy: which interfaces
 * need a capability, and whether an executable path (as /proc/PID/exe
 * shows it) is allowed one. Input: INTERFACE '\n' EXE. Besides memory
 * errors it checks that a deleted or relative executable is never
 * allowed, and that out-of-range capabilities allow nothing.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "compositor/config.h"
#include "compositor/exe_path.h"
#include "compositor/privileged_policy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok, const char *what) {
	if (!ok) {
		fprintf(stderr, "fuzz-privileged-policy: invariant broken: %s\n", what);
		abort();
	}
}

/* Real files, a symlink (/bin on merged-/usr systems) and a missing one. */
static const char config_text[] =
	"[privileged]\n"
	"screencopy = /usr/bin/env /bin/sh\n"
	"virtual-input = /usr/bin/env\n"
	"data-control = /nonexistent/wl-paste\n"
	"gamma = /usr/bin/true\n";

static struct oriel_config config;

static void init_config(void) {
	static bool done;
	if (done) {
		return;
	}
	char err[256];
	config_init(&config);
	check(config_parse_string(&config, config_text, sizeof(config_text) - 1, "fuzz.ini",
		err, sizeof(err)), "the fixed config parses");
	done = true;
}

static bool ends_with(const char *s, const char *suffix) {
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && strcmp(s + n - m, suffix) == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
	init_config();
	char *text = malloc(size + 1);
	if (!text) {
		return 0;
	}
	memcpy(text, data, size);
	text[size] = '\0';
	char *exe = strchr(text, '\n');
	if (exe) {
		*exe++ = '\0';
	} else {
		exe = text;
	}
	const char *interface = text;

	enum config_privilege privilege = CONFIG_PRIVILEGE_COUNT;
	if (privileged_policy_interface(interface, &privilege)) {
		check(privilege < CONFIG_PRIVILEGE_COUNT, "capability in range");
		check(strncmp(interface, "zw", 2) == 0 && ends_with(interface, "_v1"),
			"only wlr/wp protocol globals are privileged");
	}
	for (int p = 0; p <= CONFIG_PRIVILEGE_COUNT + 1; p++) {
		bool allowed = privileged_policy_allows(&config, (enum config_privilege)p, exe);
		if (p >= CONFIG_PRIVILEGE_COUNT) {
			check(!allowed, "out-of-range capability allows nothing");
		}
		if (allowed) {
			check(exe[0] == '/', "allowed executable is absolute");
			check(!ends_with(exe, EXE_PATH_DELETED_SUFFIX),
				"a deleted executable is not allowed");
		}
	}
	free(text);
	return 0;
}
