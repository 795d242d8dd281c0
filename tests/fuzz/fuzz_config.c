/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the oriel.ini parser. Besides memory errors it
 * checks what the parser promises: values within their documented
 * ranges, and every error a terminated "FILE:LINE: ..." message.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "compositor/config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok, const char *what) {
	if (!ok) {
		fprintf(stderr, "fuzz-config: invariant broken: %s\n", what);
		abort();
	}
}

static void check_mode(const struct config_output_mode *mode) {
	check(mode->width >= 1 && mode->width <= 16384, "output width range");
	check(mode->height >= 1 && mode->height <= 16384, "output height range");
	check(mode->refresh_mhz == 0 ||
		(mode->refresh_mhz >= 1000 && mode->refresh_mhz <= 1000000),
		"output refresh range");
}

static void check_config(const struct oriel_config *config) {
	check(config->n_outputs >= 0 && config->n_outputs <= CONFIG_MAX_OUTPUTS,
		"n_outputs bound");
	for (int i = 0; i < config->n_outputs; i++) {
		check_mode(&config->outputs[i]);
	}
	check(config->repeat_rate >= -1 && config->repeat_rate <= 1000, "repeat-rate range");
	check(config->repeat_delay >= -1 && config->repeat_delay <= 10000,
		"repeat-delay range");
	check(config->cursor_size >= 0 && config->cursor_size <= 512, "cursor size range");
	check(config->n_allowed_exes >= 0 &&
		config->n_allowed_exes <= CONFIG_MAX_ALLOWED_EXES, "n_allowed_exes bound");
	for (int i = 0; i < config->n_allowed_exes; i++) {
		check(config->allowed_exes[i] && config->allowed_exes[i][0] == '/',
			"allow is absolute");
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
	struct oriel_config config;
	char err[256];
	memset(err, 'x', sizeof(err));

	config_init(&config);
	bool ok = config_parse_string(&config, (const char *)data, size, "fuzz.ini",
		err, sizeof(err));
	check(memchr(err, '\0', sizeof(err)) != NULL, "err is terminated");
	if (ok) {
		check(err[0] == '\0', "err is empty on success");
	} else {
		check(strncmp(err, "fuzz.ini:", 9) == 0, "err starts with FILE:");
	}
	check_config(&config);
	config_finish(&config);
	config_finish(&config);

	/* The same bytes as an --output argument. */
	char arg[64];
	size_t n = size < sizeof(arg) - 1 ? size : sizeof(arg) - 1;
	memcpy(arg, data, n);
	arg[n] = '\0';
	struct config_output_mode mode;
	if (config_parse_output_mode(arg, &mode)) {
		check_mode(&mode);
	}
	return 0;
}
